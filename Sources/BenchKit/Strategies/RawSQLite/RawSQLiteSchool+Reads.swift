import CSQLite
import Foundation

/// The raw peer's reads: one statement per owner without prefetching, one per key path with it.
extension RawSQLiteSchool {
    // MARK: Row readers

    func students(_ sql: String, bind: (OpaquePointer) -> Void = { _ in }) throws -> [StudentRow] {
        let statement = try connection.prepared(sql)
        bind(statement)
        var rows: [StudentRow] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append(StudentRow(key: sqlite3_column_int64(statement, 1), version: sqlite3_column_int64(statement, 2),
                                   name: columnText(statement, 3), address: sqlite3_column_int64(statement, 4),
                                   schoolClass: sqlite3_column_int64(statement, 5)))
        }
        rowsRead += rows.count
        return rows
    }

    /// Rows whose name is in `nameColumn`, with the owner key (for grouping) in `ownerColumn` if any.
    func named(_ sql: String, nameColumn: Int32, ownerColumn: Int32? = nil, bind: (OpaquePointer) -> Void = { _ in })
        throws -> [(row: NamedRow, owner: Int64)] {
        let statement = try connection.prepared(sql)
        bind(statement)
        var rows: [(row: NamedRow, owner: Int64)] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let row = NamedRow(key: sqlite3_column_int64(statement, 1), version: sqlite3_column_int64(statement, 2),
                               name: columnText(statement, nameColumn))
            rows.append((row, ownerColumn.map { sqlite3_column_int64(statement, $0) } ?? 0))
        }
        rowsRead += rows.count
        return rows
    }

    /// The first column of every row: primary keys in the statement's order.
    func keys(_ sql: String) throws -> [Int64] {
        let statement = try connection.prepared(sql)
        var keys: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW { keys.append(sqlite3_column_int64(statement, 0)) }
        rowsRead += keys.count
        return keys
    }

    func classes() throws -> [(row: NamedRow, owner: Int64)] {
        try named(names.selectClasses + " ORDER BY t0.ZNAME", nameColumn: 4)
    }

    // MARK: Operations

    public func fetchAllStudents() throws -> Checksum {
        let rows = try students(names.selectStudents)
        var checksum = Checksum()
        for row in rows { checksum.add(row.name) }
        kept.append(rows)
        return checksum
    }

    public func walkClasses(prefetch: Bool) throws -> Checksum {
        let owners = try classes()
        var checksum = Checksum()
        if prefetch {
            let members = try students(names.selectStudents + " WHERE t0.\(names.studentClassColumn) IN (SELECT value FROM json_each(?)) ORDER BY t0.\(names.studentClassColumn)") {
                bindText($0, 1, jsonList(owners.map(\.row.key)))
            }
            var byClass: [Int64: [StudentRow]] = [:]
            for member in members { byClass[member.schoolClass, default: []].append(member) }
            for owner in owners {
                for member in byClass[owner.row.key] ?? [] { checksum.add(member.name) }
            }
            kept.append(members)
        } else {
            let sql = names.selectStudents + " WHERE t0.\(names.studentClassColumn) = ?"
            for owner in owners {
                let members = try students(sql) { sqlite3_bind_int64($0, 1, owner.row.key) }
                for member in members { checksum.add(member.name) }
                kept.append(members)
            }
        }
        kept.append(owners)
        return checksum
    }

    public func findStudent(className: String, studentName: String, byFetch: Bool) throws -> Bool {
        let owner = try named(names.selectClasses + " WHERE t0.ZNAME = ? LIMIT 1", nameColumn: 4) { bindText($0, 1, className) }
        guard let key = owner.first?.row.key else { return false }
        if byFetch {
            let found = try students(names.selectStudents + " WHERE (t0.\(names.studentClassColumn) = ? AND t0.ZNAME = ?) LIMIT 1") {
                sqlite3_bind_int64($0, 1, key)
                bindText($0, 2, studentName)
            }
            return !found.isEmpty
        }
        let members = try students(names.selectStudents + " WHERE t0.\(names.studentClassColumn) = ?") { sqlite3_bind_int64($0, 1, key) }
        return members.contains { $0.name == studentName }
    }

    public func walk(_ keyPath: PrefetchPath, prefetch: Bool) throws -> Checksum {
        var checksum = Checksum()
        let inList = " IN (SELECT value FROM json_each(?))"
        switch keyPath {
        case .toOne:
            let roots = try students(names.selectStudents + " ORDER BY t0.ZNAME")
            if prefetch {
                let keys = Set(roots.map(\.schoolClass))
                let owners = try named(names.selectClasses + " WHERE t0.Z_PK" + inList, nameColumn: 4) { bindText($0, 1, jsonList(keys)) }
                let byKey = Dictionary(uniqueKeysWithValues: owners.map { ($0.row.key, $0.row.name) })
                for root in roots { checksum.add(byKey[root.schoolClass] ?? "") }
                kept.append(owners)
            } else {
                let classByKey = names.selectClasses + " WHERE t0.Z_PK = ? LIMIT 1"
                for root in roots {
                    let owner = try named(classByKey, nameColumn: 4) { sqlite3_bind_int64($0, 1, root.schoolClass) }
                    checksum.add(owner.first?.row.name ?? "")
                }
            }
            kept.append(roots)
        case .toMany:
            checksum = try walkClasses(prefetch: prefetch)
        case .manyToMany:
            let roots = try students(names.selectStudents + " ORDER BY t0.ZNAME")
            let join = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t1.\(names.joinStudentColumn) FROM ZSUBJECT t0 JOIN \(names.joinTable) t1 ON t0.Z_PK = t1.\(names.joinSubjectColumn) WHERE t1.\(names.joinStudentColumn)"
            if prefetch {
                let rows = try named(join + inList + " ORDER BY t1.\(names.joinStudentColumn)", nameColumn: 3, ownerColumn: 4) {
                    bindText($0, 1, jsonList(roots.map(\.key)))
                }
                var byStudent: [Int64: [String]] = [:]
                for row in rows { byStudent[row.owner, default: []].append(row.row.name) }
                for root in roots { for name in byStudent[root.key] ?? [] { checksum.add(name) } }
                kept.append(rows)
            } else {
                let subjectsOfStudent = join + " = ?"
                for root in roots {
                    let rows = try named(subjectsOfStudent, nameColumn: 3, ownerColumn: 4) { sqlite3_bind_int64($0, 1, root.key) }
                    for row in rows { checksum.add(row.row.name) }
                }
            }
            kept.append(roots)
        case .nested:
            let owners = try classes()
            let addressSQL = names.selectAddresses + " WHERE t0.Z_PK"
            if prefetch {
                let members = try students(names.selectStudents + " WHERE t0.\(names.studentClassColumn)" + inList + " ORDER BY t0.\(names.studentClassColumn)") {
                    bindText($0, 1, jsonList(owners.map(\.row.key)))
                }
                let addresses = try named(addressSQL + inList, nameColumn: 3) { bindText($0, 1, jsonList(members.map(\.address))) }
                let addressName = Dictionary(uniqueKeysWithValues: addresses.map { ($0.row.key, $0.row.name) })
                var byClass: [Int64: [StudentRow]] = [:]
                for member in members { byClass[member.schoolClass, default: []].append(member) }
                for owner in owners {
                    for member in byClass[owner.row.key] ?? [] { checksum.add(addressName[member.address] ?? "") }
                }
                kept.append((members, addresses))
            } else {
                let studentsOfClass = names.selectStudents + " WHERE t0.\(names.studentClassColumn) = ?"
                let addressByKey = addressSQL + " = ? LIMIT 1"
                for owner in owners {
                    let members = try students(studentsOfClass) { sqlite3_bind_int64($0, 1, owner.row.key) }
                    for member in members {
                        let address = try named(addressByKey, nameColumn: 3) { sqlite3_bind_int64($0, 1, member.address) }
                        checksum.add(address.first?.row.name ?? "")
                    }
                }
            }
            kept.append(owners)
        }
        return checksum
    }

    public func iterateStudents(batchSize: Int, limit: Int?) throws -> Checksum {
        var checksum = Checksum()
        if batchSize == 0 {
            let rows = try students(names.selectStudents + " ORDER BY t0.ZNAME")
            for row in rows.prefix(limit ?? rows.count) { checksum.add(row.name) }
            kept.append(rows)
            return checksum
        }
        let ids = try keys("SELECT t0.Z_PK FROM ZSTUDENT t0 ORDER BY t0.ZNAME")
        let end = min(limit ?? ids.count, ids.count)
        var start = 0
        var batch: [StudentRow] = []
        while start < end {
            let slice = ids[start..<min(start + batchSize, ids.count)]
            let rows = try students(names.selectStudents + " WHERE t0.Z_PK IN (SELECT value FROM json_each(?)) LIMIT \(batchSize)") {
                bindText($0, 1, jsonList(slice))
            }
            let byKey = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0) })
            batch = slice.compactMap { byKey[$0] }
            for row in batch.prefix(end - start) { checksum.add(row.name) }
            start += batchSize
        }
        kept.append(batch)
        return checksum
    }
}
