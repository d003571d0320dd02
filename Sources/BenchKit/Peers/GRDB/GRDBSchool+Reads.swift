import Foundation
import GRDB

/// GRDB's reads, through the associations of each modelling: `request(for:)` per owner without prefetching,
/// `including(all:)` with it; manual-fk filters on the UUID column, as a GRDB user without a relationship would.
extension GRDBSchool {
    func fetchAllStudents() throws -> Checksum {
        let students = try queue.read { db in try GRDBStudent<S>.fetchAll(db) }
        var checksum = Checksum()
        for student in students { checksum.add(student.name) }
        kept.append(students)
        return checksum
    }

    /// A class's students, through the modelling's association (or the UUID column).
    private func students(of schoolClass: GRDBClass<S>, _ db: Database) throws -> [GRDBStudent<S>] {
        switch names.schema.modelling.membership {
        case .manyToOne, .manyToNil: return try schoolClass.request(for: GRDBClass<S>.students).fetchAll(db)
        case .manyToMany: return try schoolClass.request(for: GRDBClass<S>.studentsThroughJoin).fetchAll(db)
        case .manualFK: return try GRDBStudent<S>.filter(Column(names.classColumn) == schoolClass.uuid).fetchAll(db)
        }
    }

    /// Every class by name with its students, in one request per association.
    private func classesWithStudents(_ db: Database) throws -> [(GRDBClass<S>, [GRDBStudent<S>])] {
        let ordered = GRDBClass<S>.order(Column(names.className))
        switch names.schema.modelling.membership {
        case .manyToOne, .manyToNil:
            return try Row.fetchAll(db, ordered.including(all: GRDBClass<S>.students)).map { row in
                (try GRDBClass<S>(row: row), try row.decode(forKey: "students"))
            }
        case .manyToMany:
            return try Row.fetchAll(db, ordered.including(all: GRDBClass<S>.studentsThroughJoin)).map { row in
                (try GRDBClass<S>(row: row), try row.decode(forKey: "students"))
            }
        case .manualFK:
            let classes = try ordered.fetchAll(db)
            let column = Column(names.classColumn)
            var byID: [UUID: [GRDBStudent<S>]] = [:]
            for student in try GRDBStudent<S>.filter(classes.map(\.uuid).contains(column)).fetchAll(db) {
                byID[student.classID ?? UUID(), default: []].append(student)
            }
            return classes.map { ($0, byID[$0.uuid] ?? []) }
        }
    }

    func walkClasses(prefetch: Bool) throws -> Checksum {
        try queue.read { db in
            var checksum = Checksum()
            if prefetch {
                let classes = try classesWithStudents(db)
                for (_, students) in classes { for student in students { checksum.add(student.name) } }
                kept.append(classes)
            } else {
                let classes = try GRDBClass<S>.order(Column(names.className)).fetchAll(db)
                for schoolClass in classes {
                    let students = try students(of: schoolClass, db)
                    for student in students { checksum.add(student.name) }
                    kept.append(students)
                }
                kept.append(classes)
            }
            return checksum
        }
    }

    func findStudent(className: String, studentName: String, byFetch: Bool) throws -> Bool {
        try queue.read { db in
            guard let schoolClass = try GRDBClass<S>.filter(Column(names.className) == className).fetchOne(db) else { return false }
            guard byFetch else { return try students(of: schoolClass, db).contains { $0.name == studentName } }
            let named = Column(names.studentName) == studentName
            switch names.schema.modelling.membership {
            case .manyToOne:
                return try schoolClass.request(for: GRDBClass<S>.students).filter(named).fetchOne(db) != nil
            case .manualFK:
                return try GRDBStudent<S>.filter(Column(names.classColumn) == schoolClass.uuid && named).fetchOne(db) != nil
            case .manyToMany, .manyToNil:
                throw BenchError.unsupported("findStudent by fetch for a to-many without a to-one inverse")
            }
        }
    }

    /// A student's subjects, through the modelling's association.
    private func subjects(of student: GRDBStudent<S>, _ db: Database) throws -> [GRDBSubject<S>] {
        names.subjectsJoin != nil
            ? try student.request(for: GRDBStudent<S>.subjects).fetchAll(db)
            : try student.request(for: GRDBStudent<S>.ownedSubjects).fetchAll(db)
    }

    func readPath(_ path: FaultPath, everyStudent: Bool) throws -> Checksum {
        try queue.read { db in
            let students = try GRDBStudent<S>.fetchAll(db)
            var checksum = Checksum()
            for student in everyStudent ? students : Array(students.prefix(1)) {
                switch path {
                case .address:
                    checksum.add(try student.request(for: GRDBStudent<S>.addressAssociation).fetchOne(db)?.name ?? "")
                case .firstSubject:
                    checksum.add(try subjects(of: student, db).first?.name ?? "")
                }
            }
            kept.append(students)
            return checksum
        }
    }

    func walk(_ keyPath: PrefetchPath, prefetch: Bool) throws -> Checksum {
        guard names.schema.modelling.membership == .manyToOne, names.subjectsJoin != nil else {
            throw BenchError.unsupported("walk on a school whose classes and subjects are not many-to-one and many-to-many")
        }
        if keyPath == .toMany { return try walkClasses(prefetch: prefetch) }
        return try queue.read { db in
            var checksum = Checksum()
            switch keyPath {
            case .toOne:
                let students = GRDBStudent<S>.order(Column(names.studentName))
                if prefetch {
                    let rows = try Row.fetchAll(db, students.including(required: GRDBStudent<S>.schoolClass))
                    for row in rows {
                        let schoolClass: GRDBClass<S> = try row.decode(forKey: "schoolClass")
                        checksum.add(schoolClass.name)
                    }
                    kept.append(rows)
                } else {
                    for student in try students.fetchAll(db) {
                        checksum.add(try student.request(for: GRDBStudent<S>.schoolClass).fetchOne(db)?.name ?? "")
                    }
                }
            case .manyToMany:
                let students = GRDBStudent<S>.order(Column(names.studentName))
                if prefetch {
                    let rows = try Row.fetchAll(db, students.including(all: GRDBStudent<S>.subjects))
                    for row in rows {
                        let subjects: [GRDBSubject<S>] = try row.decode(forKey: "subjects")
                        for subject in subjects { checksum.add(subject.name) }
                    }
                    kept.append(rows)
                } else {
                    for student in try students.fetchAll(db) {
                        for subject in try student.request(for: GRDBStudent<S>.subjects).fetchAll(db) { checksum.add(subject.name) }
                    }
                }
            case .nested:
                let classes = GRDBClass<S>.order(Column(names.className))
                if prefetch {
                    let request = classes.including(all: GRDBClass<S>.students.including(optional: GRDBStudent<S>.addressAssociation))
                    let rows = try Row.fetchAll(db, request)
                    for row in rows {
                        for student in row.prefetchedRows["students"] ?? [] {
                            let address: GRDBAddress<S>? = student["address"]
                            checksum.add(address?.name ?? "")
                        }
                    }
                    kept.append(rows)
                } else {
                    for schoolClass in try classes.fetchAll(db) {
                        for student in try schoolClass.request(for: GRDBClass<S>.students).fetchAll(db) {
                            checksum.add(try student.request(for: GRDBStudent<S>.addressAssociation).fetchOne(db)?.name ?? "")
                        }
                    }
                }
            case .toMany:
                break
            }
            return checksum
        }
    }

    /// Paging by ID batches: the ordered keys first, then each batch's rows by key when it is reached.
    func iterateStudents(batchSize: Int, limit: Int?) throws -> Checksum {
        try queue.read { db in
            var checksum = Checksum()
            let ordered = GRDBStudent<S>.order(Column(names.studentName))
            if batchSize == 0 {
                let students = try ordered.fetchAll(db)
                for student in students.prefix(limit ?? students.count) { checksum.add(student.name) }
                kept.append(students)
                return checksum
            }
            let ids = try ordered.select(Column("Z_PK"), as: Int64.self).fetchAll(db)
            let end = min(limit ?? ids.count, ids.count)
            var start = 0
            while start < end {
                let slice = Array(ids[start..<min(start + batchSize, ids.count)])
                // A record read from the database has its primary key.
                // swift-format-ignore: NeverForceUnwrap
                let byKey = Dictionary(uniqueKeysWithValues: try GRDBStudent<S>.fetchAll(db, keys: slice).map { ($0.id!, $0) })
                for id in slice.prefix(end - start) { checksum.add(byKey[id]?.name ?? "") }
                start += batchSize
            }
            return checksum
        }
    }
}
