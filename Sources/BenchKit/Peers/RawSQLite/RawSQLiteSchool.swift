import CSQLite
import Foundation
import ObjectGraph

/// The floor: the school stored exactly as ObjectGraph stores it for one modelling (the same tables, keys, join
/// tables and hidden owner columns, from the same compiled model), written and read through the SQLite C API with
/// prepared statements reused, rows read into plain Swift values, and no object graph.
///
/// Saves follow Core Data's shape (keys reserved in a first transaction, the rows in a second, the pragmas
/// after); ID lists go through the same int-array tables ObjectGraph binds. What remains between ObjectGraph and
/// this peer is the object graph itself.
final class RawSQLiteSchool: SchoolStore {
    struct StudentRow {
        let key: Int64
        let version: Int64
        let name: String
        let address: Int64
        /// The class key (many-to-one, many-to-nil) or the join row's class (many-to-many); 0 for manual-fk.
        let owner: Int64
    }

    struct NamedRow {
        let key: Int64
        let version: Int64
        let name: String
        /// The owner's key read with the row (join tables, hidden owner columns), 0 when not read.
        let owner: Int64
    }

    let schema: SchoolSchema
    let sql: RawSchoolSQL
    let connection: RawConnection
    var rowsRead = 0
    var kept: [Any] = []
    /// True until the first save of a database this school created (Core Data checks auto-vacuum in it).
    var isNewStore = false

    init(schema: SchoolSchema, location: StoreLocation, pageCacheKiB: Int? = nil) throws {
        self.schema = schema
        sql = RawSchoolSQL(schema)
        connection = try RawConnection(path: location.description, pageCacheKiB: pageCacheKiB)
        // A database another repetition prepared already has the schema.
        guard try !connection.hasTable(schema.student.name) else { return }
        for statement in schema.schemaSQL { try connection.execute(statement) }
        isNewStore = true
        for (number, name) in schema.entities {
            try connection.execute("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(\(number), '\(name)', 0, 0)")
        }
    }

    func readings() -> CounterReadings {
        var readings = CounterReadings()
        readings.statements = connection.statementCount
        readings.rowsRead = rowsRead
        return readings
    }

    func releaseObjects() { kept = [] }

    var rowsChanged: Int { connection.rowsChanged }

    // MARK: Saving

    /// A save as Core Data writes it: a first transaction reserving the keys of each `(count, table)` (and
    /// checking auto-vacuum in a new store), a second one for `write` given the first keys, then
    /// `pragma page_count` and `pragma freelist_count`.
    func save(reserving counts: [(count: Int, table: SchoolSchema.Table)], write: ([Int64]) throws -> Void) throws {
        try connection.execute("BEGIN EXCLUSIVE")
        let firsts = try counts.map { try reserve($0.count, of: $0.table.entity) }
        if isNewStore {
            try readPragma("pragma auto_vacuum")
            try connection.execute("pragma auto_vacuum=2")
            isNewStore = false
        }
        try connection.execute("COMMIT")
        try connection.execute("BEGIN EXCLUSIVE")
        try write(firsts)
        try connection.execute("COMMIT")
        try readPragma("pragma page_count")
        try readPragma("pragma freelist_count")
    }

    private func readPragma(_ sql: String) throws {
        let statement = try connection.prepared(sql)
        while sqlite3_step(statement) == SQLITE_ROW { rowsRead += 1 }
        sqlite3_reset(statement)
    }

    /// Reserves `count` primary keys of `entity` as Core Data does; returns the first.
    func reserve(_ count: Int, of entity: Int) throws -> Int64 {
        let select = try connection.prepared("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
        try connection.bind(select, 1, Int64(entity))
        guard sqlite3_step(select) == SQLITE_ROW else { throw BenchError.io("raw-sqlite: no Z_PRIMARYKEY row for entity \(entity)") }
        let max = sqlite3_column_int64(select, 0)
        rowsRead += 1
        let update = try connection.prepared("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
        try connection.bind(update, 1, max + Int64(count))
        try connection.bind(update, 2, Int64(entity))
        try connection.bind(update, 3, max)
        try connection.run(update)
        return max + 1
    }

    /// `INSERT INTO <table>(Z_PK, Z_ENT, Z_OPT, <columns>) VALUES(...)`.
    func insertSQL(_ table: SchoolSchema.Table, _ columns: [String]) -> String {
        "INSERT INTO \(table.name)(Z_PK, Z_ENT, Z_OPT\(columns.map { ", " + $0 }.joined())) VALUES(?, ?, ?\(String(repeating: ", ?", count: columns.count)))"
    }

    /// Binds Z_PK, Z_ENT and Z_OPT (1: a new row) of `table`'s row `key`.
    func bindHead(_ statement: OpaquePointer, _ table: SchoolSchema.Table, key: Int64) throws {
        sqlite3_reset(statement)
        try connection.bind(statement, 1, key)
        try connection.bind(statement, 2, Int64(table.entity))
        try connection.bind(statement, 3, Int64(1))
    }

    // MARK: Inserting

    func insertClasses(_ data: SchoolData, first: Int64) throws {
        let insert = try connection.prepared(insertSQL(schema.schoolClass, [schema.classUUID, schema.className]))
        for (index, name) in data.classNames.enumerated() {
            try bindHead(insert, schema.schoolClass, key: first + Int64(index))
            try connection.bind(insert, 4, data.classIDs[index])
            try connection.bind(insert, 5, name)
            try connection.run(insert)
        }
    }

    /// Students with their class as the membership modelling stores it (and no address).
    func insertMembership(_ data: SchoolData) throws {
        try save(reserving: [(data.classNames.count, schema.schoolClass), (data.studentCount, schema.student)]) { firsts in
            let (firstClass, firstStudent) = (firsts[0], firsts[1])
            try insertClasses(data, first: firstClass)
            try insertStudents(data, first: firstStudent, firstClass: firstClass, firstAddress: nil)
        }
    }

    /// Students with their class (by the membership modelling) and, when `firstAddress` is given, their address key.
    /// Every row sets the address column, null without addresses, as Core Data's INSERT (and GRDB's record) does:
    /// the floor runs the statements ObjectGraph runs.
    private func insertStudents(_ data: SchoolData, first: Int64, firstClass: Int64, firstAddress: Int64?) throws {
        var columns = [schema.studentName, schema.addressKey]
        var join: OpaquePointer?
        switch schema.membership {
        case let .ownerColumn(column), let .classID(column): columns.append(column)
        case let .joinTable(table): join = try connection.prepared(table.insert)
        }
        let insert = try connection.prepared(insertSQL(schema.student, columns))
        for (index, name) in data.studentNames.enumerated() {
            let key = first + Int64(index)
            let schoolClass = data.classOfStudent[index]
            try bindHead(insert, schema.student, key: key)
            try connection.bind(insert, 4, name)
            if let firstAddress { try connection.bind(insert, 5, firstAddress + Int64(index)) } else { try connection.bindNull(insert, 5) }
            switch schema.membership {
            case .ownerColumn: try connection.bind(insert, 6, firstClass + Int64(schoolClass))
            case .classID: try connection.bind(insert, 6, data.classIDs[schoolClass])
            case .joinTable: break
            }
            try connection.run(insert)
            if let join {
                sqlite3_reset(join)
                try connection.bind(join, 1, firstClass + Int64(schoolClass))
                try connection.bind(join, 2, key)
                try connection.run(join)
            }
        }
    }

    /// Students and their addresses, linked as the address modelling stores them.
    func insertAddresses(_ data: SchoolData) throws {
        try save(reserving: [(data.studentCount, schema.address), (data.studentCount, schema.student)]) { firsts in
            let (firstAddress, firstStudent) = (firsts[0], firsts[1])
            try insertAddressRows(data, first: firstAddress, firstStudent: firstStudent)
            let insert = try connection.prepared(insertSQL(schema.student, [schema.studentName, schema.addressKey]))
            for (index, name) in data.studentNames.enumerated() {
                try bindHead(insert, schema.student, key: firstStudent + Int64(index))
                try connection.bind(insert, 4, name)
                try connection.bind(insert, 5, firstAddress + Int64(index))
                try connection.run(insert)
            }
        }
    }

    private func insertAddressRows(_ data: SchoolData, first: Int64, firstStudent: Int64) throws {
        let columns = [schema.addressName] + (schema.addressOwner.map { [$0] } ?? [])
        let insert = try connection.prepared(insertSQL(schema.address, columns))
        for (index, name) in data.addressNames.enumerated() {
            try bindHead(insert, schema.address, key: first + Int64(index))
            try connection.bind(insert, 4, name)
            if schema.addressOwner != nil { try connection.bind(insert, 5, firstStudent + Int64(index)) }
            try connection.run(insert)
        }
    }

    /// Subjects; a many-to-nil subject keeps one owner in its hidden column, the last student listing it (as
    /// ObjectGraph's save leaves a shared subject: with its last owner).
    private func insertSubjects(_ data: SchoolData, first: Int64, firstStudent: Int64) throws {
        var columns = [schema.subjectName]
        var owners: [Int64]?
        if case let .ownerColumn(column) = schema.subjects {
            columns.append(column)
            var last = [Int64](repeating: 0, count: data.subjectNames.count)
            for (student, subjects) in data.subjectsOfStudent.enumerated() {
                for subject in subjects { last[subject] = firstStudent + Int64(student) }
            }
            owners = last
        }
        let insert = try connection.prepared(insertSQL(schema.subject, columns))
        for (index, name) in data.subjectNames.enumerated() {
            try bindHead(insert, schema.subject, key: first + Int64(index))
            try connection.bind(insert, 4, name)
            if let owners {
                if owners[index] == 0 { try connection.bindNull(insert, 5) } else { try connection.bind(insert, 5, owners[index]) }
            }
            try connection.run(insert)
        }
    }
}
