import Foundation
import GRDB
import ObjectGraph

/// The school on GRDB.swift 7.10.0, written as a GRDB user would: records inserted one by one in one write
/// transaction, requests through associations, `including(all:)` / `including(required:)` to prefetch.
/// Same schema as the other strategies (Core Data's tables), opened through GRDB's own connection (WAL).
public final class GRDBSchool: SchoolStore {
    final class StatementCounter: @unchecked Sendable {
        var count = 0
        var sink: ((String) -> Void)?
    }

    let queue: DatabaseQueue
    private let counter = StatementCounter()
    private var kept: [Any] = []

    public init(location: StoreLocation, pageCacheKiB: Int?, trace: ((String) -> Void)? = nil) throws {
        let counter = self.counter
        counter.sink = trace
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            if case .file = location { try db.execute(sql: "PRAGMA journal_mode = WAL") }
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if let pageCacheKiB { try db.execute(sql: "PRAGMA cache_size = -\(pageCacheKiB)") }
            db.trace(options: .statement) { event in
                counter.count += 1
                if let sink = counter.sink { sink("grdb: \(event)") }
            }
        }
        switch location {
        case let .file(path): queue = try DatabaseQueue(path: path, configuration: configuration)
        case .inMemory: queue = try DatabaseQueue(configuration: configuration)
        }
        let model = try SchoolModelling().makeModel()
        try queue.write { db in
            // A database another repetition prepared already has the schema.
            guard try !db.tableExists("ZSTUDENT") else { return }
            for statement in model.schemaSQL { try db.execute(sql: statement) }
        }
        counter.count = 0
    }

    public func readings() -> CounterReadings {
        var readings = CounterReadings()
        readings.statements = counter.count
        return readings
    }

    public func releaseObjects() { kept = [] }

    // MARK: Inserts

    public func insertMembership(_ data: SchoolData) throws {
        kept.append(try queue.write { db in
            let classes = try insertClasses(data, db)
            for (index, name) in data.studentNames.enumerated() {
                var student = GRDBStudent(id: nil, entity: 3, version: 1, name: name, address: nil,
                                          schoolClass: classes[data.classOfStudent[index]].id)
                try student.insert(db)
            }
            return classes
        })
    }

    public func insertSchool(_ data: SchoolData) throws {
        try queue.write { db in
            let classes = try insertClasses(data, db)
            var subjects: [GRDBSubject] = []
            for name in data.subjectNames {
                var subject = GRDBSubject(id: nil, entity: 4, version: 1, name: name)
                try subject.insert(db)
                subjects.append(subject)
            }
            for (index, name) in data.studentNames.enumerated() {
                var student = GRDBStudent(id: nil, entity: 3, version: 1, name: name, address: nil,
                                          schoolClass: classes[data.classOfStudent[index]].id)
                try student.insert(db)
                var address = GRDBAddress(id: nil, entity: 1, version: 1, name: data.addressNames[index], student: student.id)
                try address.insert(db)
                for subject in data.subjectsOfStudent[index] {
                    try GRDBMembership(student: student.id!, subject: subjects[subject].id!).insert(db)
                }
            }
        }
    }

    private func insertClasses(_ data: SchoolData, _ db: Database) throws -> [GRDBClass] {
        var classes: [GRDBClass] = []
        classes.reserveCapacity(data.classNames.count)
        for (index, name) in data.classNames.enumerated() {
            var schoolClass = GRDBClass(id: nil, entity: 2, version: 1, uuid: withUnsafeBytes(of: data.classIDs[index].uuid) { Data($0) },
                                        name: name)
            try schoolClass.insert(db)
            classes.append(schoolClass)
        }
        return classes
    }

    // MARK: Reads

    public func fetchAllStudents() throws -> Checksum {
        let students = try queue.read { db in try GRDBStudent.fetchAll(db) }
        var checksum = Checksum()
        for student in students { checksum.add(student.name) }
        kept.append(students)
        return checksum
    }

    public func walkClasses(prefetch: Bool) throws -> Checksum {
        try queue.read { db in
            var checksum = Checksum()
            let ordered = GRDBClass.order(Column("ZNAME"))
            if prefetch {
                let classes = try ordered.including(all: GRDBClass.students).asRequest(of: GRDBClassWithStudents.self).fetchAll(db)
                for schoolClass in classes { for student in schoolClass.students { checksum.add(student.name) } }
                kept.append(classes)
            } else {
                let classes = try ordered.fetchAll(db)
                for schoolClass in classes {
                    let students = try schoolClass.request(for: GRDBClass.students).fetchAll(db)
                    for student in students { checksum.add(student.name) }
                    kept.append(students)
                }
                kept.append(classes)
            }
            return checksum
        }
    }

    public func findStudent(className: String, studentName: String, byFetch: Bool) throws -> Bool {
        try queue.read { db in
            guard let schoolClass = try GRDBClass.filter(Column("ZNAME") == className).fetchOne(db) else { return false }
            if byFetch {
                return try schoolClass.request(for: GRDBClass.students).filter(Column("ZNAME") == studentName).fetchOne(db) != nil
            }
            let students = try schoolClass.request(for: GRDBClass.students).fetchAll(db)
            return students.contains { $0.name == studentName }
        }
    }

    public func walk(_ keyPath: PrefetchPath, prefetch: Bool) throws -> Checksum {
        if keyPath == .toMany { return try walkClasses(prefetch: prefetch) }
        return try queue.read { db in
            var checksum = Checksum()
            switch keyPath {
            case .toOne:
                let students = GRDBStudent.order(Column("ZNAME"))
                if prefetch {
                    let rows = try students.including(required: GRDBStudent.schoolClassAssociation)
                        .asRequest(of: GRDBStudentWithClass.self).fetchAll(db)
                    for row in rows { checksum.add(row.schoolClass.name) }
                    kept.append(rows)
                } else {
                    for student in try students.fetchAll(db) {
                        checksum.add(try student.request(for: GRDBStudent.schoolClassAssociation).fetchOne(db)?.name ?? "")
                    }
                }
            case .manyToMany:
                let students = GRDBStudent.order(Column("ZNAME"))
                if prefetch {
                    let rows = try students.including(all: GRDBStudent.subjects).asRequest(of: GRDBStudentWithSubjects.self).fetchAll(db)
                    for row in rows { for subject in row.subjects { checksum.add(subject.name) } }
                    kept.append(rows)
                } else {
                    for student in try students.fetchAll(db) {
                        for subject in try student.request(for: GRDBStudent.subjects).fetchAll(db) { checksum.add(subject.name) }
                    }
                }
            case .nested:
                let classes = GRDBClass.order(Column("ZNAME"))
                if prefetch {
                    let rows = try classes.including(all: GRDBClass.students.including(optional: GRDBStudent.addressAssociation))
                        .asRequest(of: GRDBClassWithAddresses.self).fetchAll(db)
                    for row in rows { for student in row.students { checksum.add(student.address?.name ?? "") } }
                    kept.append(rows)
                } else {
                    for schoolClass in try classes.fetchAll(db) {
                        for student in try schoolClass.request(for: GRDBClass.students).fetchAll(db) {
                            checksum.add(try student.request(for: GRDBStudent.addressAssociation).fetchOne(db)?.name ?? "")
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
    public func iterateStudents(batchSize: Int, limit: Int?) throws -> Checksum {
        try queue.read { db in
            var checksum = Checksum()
            let ordered = GRDBStudent.order(Column("ZNAME"))
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
                let byKey = Dictionary(uniqueKeysWithValues: try GRDBStudent.fetchAll(db, keys: slice).map { ($0.id!, $0) })
                for id in slice.prefix(end - start) { checksum.add(byKey[id]?.name ?? "") }
                start += batchSize
            }
            return checksum
        }
    }
}
