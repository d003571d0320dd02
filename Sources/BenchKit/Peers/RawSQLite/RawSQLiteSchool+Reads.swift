import CSQLite
import Foundation

/// The raw peer's reads: the rows a Core Data fetch selects, one statement per owner without prefetching, one per
/// key path with it (ID lists through the int-array tables), every text from `RawSchoolSQL`.
extension RawSQLiteSchool {
    // MARK: Row readers

    /// Student rows of `text`; the class key from `owner` (a result column) when given.
    func students(_ text: String, owner: Int32? = nil, bind: (OpaquePointer) throws -> Void = { _ in }) throws -> [StudentRow] {
        let statement = try connection.prepared(text)
        try bind(statement)
        let name = sql.studentName
        let address = sql.studentAddress
        var rows: [StudentRow] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(
                StudentRow(
                    key: sqlite3_column_int64(statement, 1), version: sqlite3_column_int64(statement, 2),
                    name: columnText(statement, name), address: address.map { sqlite3_column_int64(statement, $0) } ?? 0,
                    owner: owner.map { sqlite3_column_int64(statement, $0) } ?? 0))
        }
        rowsRead += rows.count
        return rows
    }

    /// Rows of `text` whose name is in `nameColumn`, with an owner key in `ownerColumn` if any.
    func named(
        _ text: String, nameColumn: Int32, ownerColumn: Int32? = nil, bind: (OpaquePointer) throws -> Void = { _ in }
    ) throws -> [NamedRow] {
        let statement = try connection.prepared(text)
        try bind(statement)
        var rows: [NamedRow] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(
                NamedRow(
                    key: sqlite3_column_int64(statement, 1), version: sqlite3_column_int64(statement, 2),
                    name: columnText(statement, nameColumn), owner: ownerColumn.map { sqlite3_column_int64(statement, $0) } ?? 0))
        }
        rowsRead += rows.count
        return rows
    }

    /// The first column of every row: primary keys in the statement's order.
    func keys(_ text: String) throws -> ContiguousArray<Int64> {
        let statement = try connection.prepared(text)
        var keys = ContiguousArray<Int64>()
        while sqlite3_step(statement) == SQLITE_ROW { keys.append(sqlite3_column_int64(statement, 0)) }
        rowsRead += keys.count
        return keys
    }

    struct ClassRow {
        let key: Int64
        let name: String
        let id: UUID
    }

    /// Class rows of `text` (every class by name unless given).
    func classes(_ text: String? = nil, bind: (OpaquePointer) throws -> Void = { _ in }) throws -> [ClassRow] {
        let statement = try connection.prepared(text ?? sql.classes)
        try bind(statement)
        var rows: [ClassRow] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(
                ClassRow(
                    key: sqlite3_column_int64(statement, 1), name: columnText(statement, sql.className),
                    id: uuid(statement, sql.classID) ?? UUID()))
        }
        rowsRead += rows.count
        return rows
    }

    private func uuid(_ statement: OpaquePointer, _ column: Int32) -> UUID? {
        guard sqlite3_column_bytes(statement, column) == 16, let bytes = sqlite3_column_blob(statement, column) else { return nil }
        return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
    }

    // MARK: Members of classes, by modelling

    /// The students of one class.
    func members(of owner: ClassRow) throws -> [StudentRow] {
        if case .classID = schema.membership {
            return try students(sql.membersOfClass) { try connection.bind($0, 1, owner.id) }
        }
        return try students(sql.membersOfClass, owner: sql.memberOwner) { try connection.bind($0, 1, owner.key) }
    }

    /// The students of every class in one statement, grouped by class in `owners`' order.
    func members(ofAll owners: [ClassRow]) throws -> [[StudentRow]] {
        var byOwner: [Int64: [StudentRow]] = [:]
        if let text = sql.membersOfClasses {
            connection.bindIDs(ContiguousArray(owners.map(\.key)))
            for row in try students(text, owner: sql.memberOwner) { byOwner[row.owner, default: []].append(row) }
        } else if let prefix = sql.membersByClassIDPrefix, case let .classID(column) = schema.membership {
            // ObjectGraph's `classID IN %@` binds each UUID: the same statement here (its text depends on the count).
            let statement = try connection.prepared(prefix + Array(repeating: "?", count: owners.count).joined(separator: ", ") + ")")
            for (index, owner) in owners.enumerated() { try connection.bind(statement, Int32(index + 1), owner.id) }
            let ownerOfID = Dictionary(owners.map { ($0.id, $0.key) }, uniquingKeysWith: { first, _ in first })
            let position = schema.student.position(of: column)
            while sqlite3_step(statement) == SQLITE_ROW {
                let owner = uuid(statement, position).flatMap { ownerOfID[$0] } ?? 0
                byOwner[owner, default: []].append(
                    StudentRow(
                        key: sqlite3_column_int64(statement, 1), version: sqlite3_column_int64(statement, 2),
                        name: columnText(statement, sql.studentName),
                        address: sql.studentAddress.map { sqlite3_column_int64(statement, $0) } ?? 0,
                        owner: owner))
                rowsRead += 1
            }
        }
        return owners.map { byOwner[$0.key] ?? [] }
    }

    // MARK: Operations

    func fetchAllStudents() throws -> Checksum {
        let rows = try students(sql.students)
        var checksum = Checksum()
        for row in rows { checksum.add(row.name) }
        kept.append(rows)
        return checksum
    }

    func walkClasses(prefetch: Bool) throws -> Checksum {
        let owners = try classes()
        var checksum = Checksum()
        if prefetch {
            let groups = try members(ofAll: owners)
            for group in groups { for member in group { checksum.add(member.name) } }
            kept.append(groups)
        } else {
            for owner in owners {
                let group = try members(of: owner)
                for member in group { checksum.add(member.name) }
                kept.append(group)
            }
        }
        kept.append(owners)
        return checksum
    }

    func findStudent(className: String, studentName: String, byFetch: Bool) throws -> Bool {
        guard let owner = try classes(sql.classByName, bind: { try connection.bind($0, 1, className) }).first else { return false }
        guard byFetch else { return try members(of: owner).contains { $0.name == studentName } }
        guard let text = sql.memberByName else {
            throw BenchError.unsupported("findStudent by fetch for a to-many without a to-one inverse")
        }
        return try !students(text) {
            if case .classID = schema.membership { try connection.bind($0, 1, owner.id) } else { try connection.bind($0, 1, owner.key) }
            try connection.bind($0, 2, studentName)
        }.isEmpty
    }

    func readPath(_ path: FaultPath, everyStudent: Bool) throws -> Checksum {
        let roots = try students(sql.students)
        var checksum = Checksum()
        for root in everyStudent ? roots : Array(roots.prefix(1)) {
            switch path {
            case .address:
                let address = try named(sql.addressByKey, nameColumn: sql.addressName) { try connection.bind($0, 1, root.address) }
                checksum.add(address.first?.name ?? "")
            case .firstSubject:
                let subjects = try named(sql.subjectsOfStudent, nameColumn: sql.subjectName) { try connection.bind($0, 1, root.key) }
                checksum.add(subjects.first?.name ?? "")
            }
        }
        kept.append(roots)
        return checksum
    }

    func walk(_ keyPath: PrefetchPath, prefetch: Bool) throws -> Checksum {
        guard let classKey = sql.studentClassKey, let subjectsOfStudents = sql.subjectsOfStudents else {
            throw BenchError.unsupported("walk on a school whose classes and subjects are not many-to-one and many-to-many")
        }
        var checksum = Checksum()
        switch keyPath {
        case .toOne:
            let roots = try students(sql.studentsByName, owner: classKey)
            if prefetch {
                var seen = Set<Int64>()
                connection.bindIDs(ContiguousArray(roots.map(\.owner).filter { $0 != 0 && seen.insert($0).inserted }))
                let owners = try named(sql.classesByKeys, nameColumn: sql.className)
                let byKey = Dictionary(uniqueKeysWithValues: owners.map { ($0.key, $0.name) })
                for root in roots { checksum.add(byKey[root.owner] ?? "") }
                kept.append(owners)
            } else {
                for root in roots {
                    let owner = try named(sql.classByKey, nameColumn: sql.className) { try connection.bind($0, 1, root.owner) }
                    checksum.add(owner.first?.name ?? "")
                }
            }
            kept.append(roots)
        case .toMany:
            checksum = try walkClasses(prefetch: prefetch)
        case .manyToMany:
            let roots = try students(sql.studentsByName)
            if prefetch {
                connection.bindIDs(ContiguousArray(roots.map(\.key)))
                let rows = try named(subjectsOfStudents, nameColumn: sql.subjectName, ownerColumn: sql.subjectOwner)
                var byStudent: [Int64: [String]] = [:]
                for row in rows { byStudent[row.owner, default: []].append(row.name) }
                for root in roots { for subject in byStudent[root.key] ?? [] { checksum.add(subject) } }
                kept.append(rows)
            } else {
                for root in roots {
                    let rows = try named(sql.subjectsOfStudent, nameColumn: sql.subjectName) { try connection.bind($0, 1, root.key) }
                    for row in rows { checksum.add(row.name) }
                }
            }
            kept.append(roots)
        case .nested:
            let owners = try classes()
            if prefetch {
                let groups = try members(ofAll: owners)
                connection.bindIDs(ContiguousArray(groups.joined().map(\.address)))
                let addresses = try named(sql.addressesByKeys, nameColumn: sql.addressName)
                let nameOfAddress = Dictionary(uniqueKeysWithValues: addresses.map { ($0.key, $0.name) })
                for group in groups { for member in group { checksum.add(nameOfAddress[member.address] ?? "") } }
                kept.append((groups, addresses))
            } else {
                for owner in owners {
                    for member in try members(of: owner) {
                        let address = try named(sql.addressByKey, nameColumn: sql.addressName) {
                            try connection.bind($0, 1, member.address)
                        }
                        checksum.add(address.first?.name ?? "")
                    }
                }
            }
            kept.append(owners)
        }
        return checksum
    }

    func iterateStudents(batchSize: Int, limit: Int?) throws -> Checksum {
        var checksum = Checksum()
        if batchSize == 0 {
            let rows = try students(sql.studentsByName)
            for row in rows.prefix(limit ?? rows.count) { checksum.add(row.name) }
            kept.append(rows)
            return checksum
        }
        let ids = try keys(sql.studentIDsByName)
        let end = min(limit ?? ids.count, ids.count)
        let batchSQL = sql.studentsInBatch + String(batchSize)
        var start = 0
        var batch: [StudentRow] = []
        while start < end {
            let slice = ContiguousArray(ids[start..<min(start + batchSize, ids.count)])
            connection.bindIDs(slice)
            let rows = try students(batchSQL)
            let byKey = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0) })
            batch = slice.compactMap { byKey[$0] }
            for row in batch.prefix(end - start) { checksum.add(row.name) }
            start += batchSize
        }
        kept.append(batch)
        return checksum
    }
}
