import Foundation
import GRDB
import ObjectGraph

/// The school on GRDB.swift 7.10.0, written as a GRDB user would: records inserted one by one in one write
/// transaction, requests through associations, `including(all:)` / `including(required:)` to prefetch. Same
/// tables as the other strategies for the same modelling (names from the compiled model), same storage settings
/// (incremental auto-vacuum, WAL, synchronous NORMAL), opened through GRDB's own connection.
final class GRDBSchool<S: GRDBSchemaSource>: SchoolStore {
    final class StatementCounter: @unchecked Sendable {
        var count = 0
        var sink: ((String) -> Void)?
    }

    let queue: DatabaseQueue
    let names: GRDBNames
    private let counter = StatementCounter()
    var kept: [Any] = []

    init(location: StoreLocation, pageCacheKiB: Int?, trace: ((String) -> Void)? = nil) throws {
        let counter = self.counter
        counter.sink = trace
        names = S.names
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // auto_vacuum must precede WAL mode and the first table (a no-op on an existing database).
            try db.execute(sql: "PRAGMA auto_vacuum = 2")
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
        let schema = names.schema
        try queue.write { db in
            // A database another repetition prepared already has the schema.
            guard try !db.tableExists(schema.student.name) else { return }
            for statement in schema.schemaSQL { try db.execute(sql: statement) }
        }
        counter.count = 0
    }

    func readings() -> CounterReadings {
        var readings = CounterReadings()
        readings.statements = counter.count
        return readings
    }

    func releaseObjects() { kept = [] }

    var rowsChanged: Int { (try? queue.inDatabase { $0.totalChangesCount }) ?? 1 }

    // MARK: Inserts

    /// The next free primary key of `table`: rows that reference each other (one-to-one) are inserted with
    /// keys chosen up front, as Core Data reserves them.
    private func nextKey(_ table: String, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(Z_PK), 0) + 1 FROM \(table)") ?? 1
    }

    private func insertClasses(_ data: SchoolData, _ db: Database) throws -> [GRDBClass<S>] {
        var classes: [GRDBClass<S>] = []
        classes.reserveCapacity(data.classNames.count)
        for (index, name) in data.classNames.enumerated() {
            var schoolClass = GRDBClass<S>(uuid: data.classIDs[index], name: name)
            try schoolClass.insert(db)
            classes.append(schoolClass)
        }
        return classes
    }

    /// Students, each linked to its class as the membership modelling stores it; `firstAddress` gives each its
    /// address key.
    private func insertStudents(
        _ data: SchoolData, classes: [GRDBClass<S>], firstAddress: Int64?, firstKey: Int64?,
        _ db: Database
    ) throws -> [GRDBStudent<S>] {
        var students: [GRDBStudent<S>] = []
        students.reserveCapacity(data.studentCount)
        let membership = names.schema.modelling.membership
        for (index, name) in data.studentNames.enumerated() {
            let schoolClass = classes[data.classOfStudent[index]]
            var student = GRDBStudent<S>(
                id: firstKey.map { $0 + Int64(index) }, name: name,
                address: firstAddress.map { $0 + Int64(index) })
            switch membership {
            case .manyToOne, .manyToNil: student.classKey = schoolClass.id
            case .manualFK: student.classID = schoolClass.uuid
            case .manyToMany: break
            }
            try student.insert(db)
            if membership == .manyToMany, names.membershipJoin != nil {
                // Records just inserted have their primary keys.
                // swift-format-ignore: NeverForceUnwrap
                try GRDBMembership<S>(owner: schoolClass.id!, member: student.id!).insert(db)
            }
            students.append(student)
        }
        return students
    }

    func insertMembership(_ data: SchoolData) throws {
        kept.append(
            try queue.write { db in
                let classes = try insertClasses(data, db)
                return (classes, try insertStudents(data, classes: classes, firstAddress: nil, firstKey: nil, db))
            })
    }

    func insertAddresses(_ data: SchoolData) throws {
        kept.append(
            try queue.write { db in
                let firstStudent = try nextKey(names.studentTable, db)
                let firstAddress = try nextKey(names.addressTable, db)
                var addresses: [GRDBAddress<S>] = []
                addresses.reserveCapacity(data.studentCount)
                for (index, name) in data.addressNames.enumerated() {
                    var address = GRDBAddress<S>(
                        id: firstAddress + Int64(index), name: name,
                        student: names.addressOwner == nil ? nil : firstStudent + Int64(index))
                    try address.insert(db)
                    addresses.append(address)
                }
                var students: [GRDBStudent<S>] = []
                students.reserveCapacity(data.studentCount)
                for (index, name) in data.studentNames.enumerated() {
                    var student = GRDBStudent<S>(id: firstStudent + Int64(index), name: name, address: firstAddress + Int64(index))
                    try student.insert(db)
                    students.append(student)
                }
                return (addresses, students)
            })
    }

}
