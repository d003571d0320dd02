import CSQLite
import Foundation
import ObjectGraph

/// The floor: the school on the same Core-Data-shaped schema (the seed model: every relationship with an
/// inverse), the same SQL shapes, prepared statements reused, one transaction per save, rows read into plain
/// Swift values and no object graph.
public final class RawSQLiteSchool: SchoolStore {
    struct StudentRow { let key: Int64; let version: Int64; let name: String; let address: Int64; let schoolClass: Int64 }
    struct NamedRow { let key: Int64; let version: Int64; let name: String }

    let connection: RawConnection
    let names: SchemaNames
    var rowsRead = 0
    var kept: [Any] = []
    /// True until the first save of a database this school created (Core Data checks auto-vacuum in it).
    var isNewStore = false

    public init(location: StoreLocation, pageCacheKiB: Int? = nil) throws {
        let model = try SchoolModelling().makeModel()
        names = SchemaNames(model: model)
        connection = try RawConnection(path: location.description, pageCacheKiB: pageCacheKiB)
        // A database another repetition prepared already has the schema.
        guard try !connection.hasTable("ZSTUDENT") else { return }
        for statement in model.schemaSQL { try connection.execute(statement) }
        isNewStore = true
        for entity in model.entities {
            try connection.execute("INSERT INTO Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES(\(entity.number), '\(entity.name)', 0, 0)")
        }
    }

    public func readings() -> CounterReadings {
        var readings = CounterReadings()
        readings.statements = connection.statementCount
        readings.rowsRead = rowsRead
        return readings
    }

    public func releaseObjects() { kept = [] }

    // MARK: Writing

    /// A save as Core Data writes it (ObjectGraph's save): a first transaction reserving the keys of each
    /// `(count, entity)` (and checking auto-vacuum on a new store), a second one for `write` given the first keys,
    /// then `pragma page_count` and `pragma freelist_count`.
    func save(reserving counts: [(count: Int, entity: Int)], write: ([Int64]) throws -> Void) throws {
        try connection.execute("BEGIN EXCLUSIVE")
        let firsts = try counts.map { try reserve($0.count, of: $0.entity) }
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
        sqlite3_bind_int64(select, 1, Int64(entity))
        guard sqlite3_step(select) == SQLITE_ROW else { throw BenchError.io("raw-sqlite: no Z_PRIMARYKEY row for entity \(entity)") }
        let max = sqlite3_column_int64(select, 0)
        rowsRead += 1
        let update = try connection.prepared("UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?")
        sqlite3_bind_int64(update, 1, max + Int64(count))
        sqlite3_bind_int64(update, 2, Int64(entity))
        sqlite3_bind_int64(update, 3, max)
        try connection.run(update)
        return max + 1
    }

    func insertClasses(_ data: SchoolData, first: Int64) throws {
        let insert = try connection.prepared(names.insertClass)
        for (index, name) in data.classNames.enumerated() {
            sqlite3_reset(insert)
            sqlite3_bind_int64(insert, 1, first + Int64(index))
            sqlite3_bind_int64(insert, 2, Int64(names.classEntity))
            sqlite3_bind_int64(insert, 3, 1)
            withUnsafeBytes(of: data.classIDs[index].uuid) { _ = sqlite3_bind_blob(insert, 4, $0.baseAddress, 16, csqlite_transient()) }
            bindText(insert, 5, name)
            try connection.run(insert)
        }
    }

    public func insertMembership(_ data: SchoolData) throws {
        try save(reserving: [(data.classNames.count, names.classEntity), (data.studentCount, names.studentEntity)]) { firsts in
        let (firstClass, firstStudent) = (firsts[0], firsts[1])
        try insertClasses(data, first: firstClass)
        let insert = try connection.prepared(names.insertStudent)
        for (index, name) in data.studentNames.enumerated() {
            sqlite3_reset(insert)
            sqlite3_bind_int64(insert, 1, firstStudent + Int64(index))
            sqlite3_bind_int64(insert, 2, Int64(names.studentEntity))
            sqlite3_bind_int64(insert, 3, 1)
            sqlite3_bind_null(insert, 4)
            sqlite3_bind_int64(insert, 5, firstClass + Int64(data.classOfStudent[index]))
            bindText(insert, 6, name)
            try connection.run(insert)
        }
        }
    }

    public func insertSchool(_ data: SchoolData) throws {
        try save(reserving: [(data.studentCount, names.addressEntity), (data.classNames.count, names.classEntity),
                             (data.studentCount, names.studentEntity), (data.subjectNames.count, names.subjectEntity)]) { firsts in
        let (firstAddress, firstClass, firstStudent, firstSubject) = (firsts[0], firsts[1], firsts[2], firsts[3])
        try insertClasses(data, first: firstClass)
        let insertSubject = try connection.prepared(names.insertSubject)
        for (index, name) in data.subjectNames.enumerated() {
            sqlite3_reset(insertSubject)
            sqlite3_bind_int64(insertSubject, 1, firstSubject + Int64(index))
            sqlite3_bind_int64(insertSubject, 2, Int64(names.subjectEntity))
            sqlite3_bind_int64(insertSubject, 3, 1)
            bindText(insertSubject, 4, name)
            try connection.run(insertSubject)
        }
        let insertStudent = try connection.prepared(names.insertStudent)
        let insertAddress = try connection.prepared(names.insertAddress)
        let insertJoin = try connection.prepared(names.insertJoin)
        for (index, name) in data.studentNames.enumerated() {
            let key = firstStudent + Int64(index)
            sqlite3_reset(insertStudent)
            sqlite3_bind_int64(insertStudent, 1, key)
            sqlite3_bind_int64(insertStudent, 2, Int64(names.studentEntity))
            sqlite3_bind_int64(insertStudent, 3, 1)
            sqlite3_bind_int64(insertStudent, 4, firstAddress + Int64(index))
            sqlite3_bind_int64(insertStudent, 5, firstClass + Int64(data.classOfStudent[index]))
            bindText(insertStudent, 6, name)
            try connection.run(insertStudent)
            sqlite3_reset(insertAddress)
            sqlite3_bind_int64(insertAddress, 1, firstAddress + Int64(index))
            sqlite3_bind_int64(insertAddress, 2, Int64(names.addressEntity))
            sqlite3_bind_int64(insertAddress, 3, 1)
            sqlite3_bind_int64(insertAddress, 4, key)
            bindText(insertAddress, 5, data.addressNames[index])
            try connection.run(insertAddress)
            for subject in data.subjectsOfStudent[index] {
                sqlite3_reset(insertJoin)
                sqlite3_bind_int64(insertJoin, 1, key)
                sqlite3_bind_int64(insertJoin, 2, firstSubject + Int64(subject))
                try connection.run(insertJoin)
            }
        }
        }
    }
}

/// Table and column names of the seed model, taken from ObjectGraph's compiled model so that the raw SQL
/// targets exactly the schema Core Data would create.
struct SchemaNames {
    let classEntity, studentEntity, subjectEntity, addressEntity: Int
    let insertClass, insertStudent, insertSubject, insertAddress, insertJoin: String
    let selectStudents, selectClasses, selectSubjects, selectAddresses: String
    let studentClassColumn, studentAddressColumn: String
    let joinTable, joinStudentColumn, joinSubjectColumn: String

    init(model: ObjectModel) {
        let student = model.entity("Student")!, schoolClass = model.entity("Class")!
        let subject = model.entity("Subject")!, address = model.entity("Address")!
        classEntity = schoolClass.number
        studentEntity = student.number
        subjectEntity = subject.number
        addressEntity = address.number
        let classKey = student.relationship("class")!.columnName
        let addressKey = student.relationship("address")!.columnName
        let addressOwner = address.relationship("student")!.columnName
        let studentName = student.attribute("name")!.columnName
        studentClassColumn = classKey
        studentAddressColumn = addressKey
        let join = student.relationship("subjects")!.joinTable!
        joinTable = join.tableName
        joinStudentColumn = join.sourceColumn
        joinSubjectColumn = join.destinationColumn
        insertClass = "INSERT INTO \(schoolClass.tableName)(Z_PK, Z_ENT, Z_OPT, ZID, ZNAME) VALUES(?, ?, ?, ?, ?)"
        insertStudent = "INSERT INTO \(student.tableName)(Z_PK, Z_ENT, Z_OPT, \(addressKey), \(classKey), \(studentName)) VALUES(?, ?, ?, ?, ?, ?)"
        insertSubject = "INSERT INTO \(subject.tableName)(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)"
        insertAddress = "INSERT INTO \(address.tableName)(Z_PK, Z_ENT, Z_OPT, \(addressOwner), ZNAME) VALUES(?, ?, ?, ?, ?)"
        insertJoin = "INSERT OR REPLACE INTO \(join.tableName)(\(join.sourceColumn), \(join.destinationColumn)) VALUES (?, ?)"
        selectStudents = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.\(studentName), t0.\(addressKey), t0.\(classKey) FROM \(student.tableName) t0"
        selectClasses = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZID, t0.ZNAME FROM \(schoolClass.tableName) t0"
        selectSubjects = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM \(subject.tableName) t0"
        selectAddresses = "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.\(addressOwner) FROM \(address.tableName) t0"
    }
}
