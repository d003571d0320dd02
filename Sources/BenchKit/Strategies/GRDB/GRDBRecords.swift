import Foundation
import GRDB

// The school as GRDB records over Core Data's tables: Codable records, columns named by their coding keys, and
// associations for the relationships (belongsTo, hasMany, hasOne, and hasMany through the join table).

struct GRDBClass: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "ZCLASS"
    var id: Int64?
    var entity: Int64
    var version: Int64
    var uuid: Data?
    var name: String

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK", entity = "Z_ENT", version = "Z_OPT", uuid = "ZID", name = "ZNAME"
    }

    static let students = hasMany(GRDBStudent.self, key: "students", using: ForeignKey(["ZCLASS"]))

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct GRDBStudent: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "ZSTUDENT"
    var id: Int64?
    var entity: Int64
    var version: Int64
    var name: String
    var address: Int64?
    var schoolClass: Int64?

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK", entity = "Z_ENT", version = "Z_OPT", name = "ZNAME", address = "ZADDRESS", schoolClass = "ZCLASS"
    }

    static let schoolClassAssociation = belongsTo(GRDBClass.self, key: "schoolClass", using: ForeignKey(["ZCLASS"]))
    static let addressAssociation = hasOne(GRDBAddress.self, key: "address", using: ForeignKey(["ZSTUDENT"]))
    static let memberships = hasMany(GRDBMembership.self, key: "memberships", using: ForeignKey(["Z_3STUDENTS"]))
    static let subjects = hasMany(GRDBSubject.self, through: memberships, using: GRDBMembership.subject, key: "subjects")

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct GRDBSubject: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "ZSUBJECT"
    var id: Int64?
    var entity: Int64
    var version: Int64
    var name: String

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK", entity = "Z_ENT", version = "Z_OPT", name = "ZNAME"
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct GRDBAddress: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "ZADDRESS"
    var id: Int64?
    var entity: Int64
    var version: Int64
    var name: String
    var student: Int64?

    enum CodingKeys: String, CodingKey {
        case id = "Z_PK", entity = "Z_ENT", version = "Z_OPT", name = "ZNAME", student = "ZSTUDENT"
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// A row of the many-to-many join table Z_3SUBJECTS.
struct GRDBMembership: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "Z_3SUBJECTS"
    var student: Int64
    var subject: Int64

    enum CodingKeys: String, CodingKey { case student = "Z_3STUDENTS", subject = "Z_4SUBJECTS" }

    static let subject = belongsTo(GRDBSubject.self, key: "subject", using: ForeignKey(["Z_4SUBJECTS"]))
}

/// A class with its students (`including(all:)`).
struct GRDBClassWithStudents: Decodable, FetchableRecord {
    var schoolClass: GRDBClass
    var students: [GRDBStudent]

    enum CodingKeys: String, CodingKey { case schoolClass, students }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schoolClass = try GRDBClass(from: decoder)
        students = try container.decode([GRDBStudent].self, forKey: .students)
    }
}

/// A student with its class (`including(required:)`).
struct GRDBStudentWithClass: Decodable, FetchableRecord {
    var student: GRDBStudent
    var schoolClass: GRDBClass

    enum CodingKeys: String, CodingKey { case schoolClass }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        student = try GRDBStudent(from: decoder)
        schoolClass = try container.decode(GRDBClass.self, forKey: .schoolClass)
    }
}

/// A student with its subjects (`including(all:)` through the join table).
struct GRDBStudentWithSubjects: Decodable, FetchableRecord {
    var student: GRDBStudent
    var subjects: [GRDBSubject]

    enum CodingKeys: String, CodingKey { case subjects }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        student = try GRDBStudent(from: decoder)
        subjects = try container.decode([GRDBSubject].self, forKey: .subjects)
    }
}

/// A class with its students, each with its address (a nested `including`).
struct GRDBClassWithAddresses: Decodable, FetchableRecord {
    struct StudentWithAddress: Decodable {
        var student: GRDBStudent
        var address: GRDBAddress?

        enum CodingKeys: String, CodingKey { case address }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            student = try GRDBStudent(from: decoder)
            address = try container.decodeIfPresent(GRDBAddress.self, forKey: .address)
        }
    }

    var schoolClass: GRDBClass
    var students: [StudentWithAddress]

    enum CodingKeys: String, CodingKey { case students }

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schoolClass = try GRDBClass(from: decoder)
        students = try container.decode([StudentWithAddress].self, forKey: .students)
    }
}
