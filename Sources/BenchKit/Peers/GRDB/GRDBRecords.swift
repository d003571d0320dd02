import Foundation
import GRDB

// The school as GRDB records over Core Data's tables, generic over the modelling so that table and column names
// come from the compiled model (`GRDBNames`), with associations for the relationships: belongsTo and hasMany on
// a key column, hasMany through a join table.

struct GRDBClass<S: GRDBSchemaSource>: FetchableRecord, MutablePersistableRecord {
    static var databaseTableName: String { S.names.classTable }
    var id: Int64?
    var uuid: UUID
    var name: String

    init(id: Int64? = nil, uuid: UUID, name: String) {
        self.id = id
        self.uuid = uuid
        self.name = name
    }

    init(row: Row) throws {
        let names = S.names
        id = row["Z_PK"]
        uuid = row[names.classUUID] ?? UUID()
        name = row[names.className] ?? ""
    }

    func encode(to container: inout PersistenceContainer) throws {
        let names = S.names
        container["Z_PK"] = id
        container["Z_ENT"] = names.schema.schoolClass.entity
        container["Z_OPT"] = 1
        container[names.classUUID] = uuid
        container[names.className] = name
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Class.students on the student's key column (many-to-one's foreign key, many-to-nil's hidden owner column).
    static var students: HasManyAssociation<GRDBClass, GRDBStudent<S>> {
        hasMany(GRDBStudent<S>.self, key: "students", using: ForeignKey([S.names.classColumn]))
    }

    /// Class.students through the join table (many-to-many).
    static var memberships: HasManyAssociation<GRDBClass, GRDBMembership<S>> {
        hasMany(GRDBMembership<S>.self, key: "memberships", using: ForeignKey([S.names.membershipTable.ownerColumn]))
    }

    static var studentsThroughJoin: HasManyThroughAssociation<GRDBClass, GRDBStudent<S>> {
        hasMany(GRDBStudent<S>.self, through: memberships, using: GRDBMembership<S>.member, key: "students")
    }
}

struct GRDBStudent<S: GRDBSchemaSource>: FetchableRecord, MutablePersistableRecord {
    static var databaseTableName: String { S.names.studentTable }
    var id: Int64?
    var name: String
    var address: Int64?
    /// The class key (many-to-one, many-to-nil); nil with a join table or manual-fk.
    var classKey: Int64?
    /// The class's UUID (manual-fk).
    var classID: UUID?

    init(id: Int64? = nil, name: String, address: Int64? = nil, classKey: Int64? = nil, classID: UUID? = nil) {
        self.id = id
        self.name = name
        self.address = address
        self.classKey = classKey
        self.classID = classID
    }

    init(row: Row) throws {
        let names = S.names
        id = row["Z_PK"]
        name = row[names.studentName] ?? ""
        address = row[names.addressKey]
        if let column = names.memberClassColumn {
            if names.schema.modelling.membership == .manualFK { classID = row[column] } else { classKey = row[column] }
        }
    }

    func encode(to container: inout PersistenceContainer) throws {
        let names = S.names
        container["Z_PK"] = id
        container["Z_ENT"] = names.schema.student.entity
        container["Z_OPT"] = 1
        container[names.studentName] = name
        container[names.addressKey] = address
        if let column = names.memberClassColumn {
            if names.schema.modelling.membership == .manualFK { container[column] = classID } else { container[column] = classKey }
        }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    static var schoolClass: BelongsToAssociation<GRDBStudent, GRDBClass<S>> {
        belongsTo(GRDBClass<S>.self, key: "schoolClass", using: ForeignKey([S.names.classColumn]))
    }

    static var addressAssociation: BelongsToAssociation<GRDBStudent, GRDBAddress<S>> {
        belongsTo(GRDBAddress<S>.self, key: "address", using: ForeignKey([S.names.addressKey]))
    }

    /// Student.subjects on the subject's hidden owner column (many-to-nil).
    static var ownedSubjects: HasManyAssociation<GRDBStudent, GRDBSubject<S>> {
        hasMany(GRDBSubject<S>.self, key: "subjects", using: ForeignKey([S.names.subjectColumn]))
    }

    static var subjectMemberships: HasManyAssociation<GRDBStudent, GRDBSubjectMembership<S>> {
        hasMany(GRDBSubjectMembership<S>.self, key: "subjectMemberships", using: ForeignKey([S.names.subjectsTable.ownerColumn]))
    }

    /// Student.subjects through the join table (many-to-many).
    static var subjects: HasManyThroughAssociation<GRDBStudent, GRDBSubject<S>> {
        hasMany(GRDBSubject<S>.self, through: subjectMemberships, using: GRDBSubjectMembership<S>.member, key: "subjects")
    }
}

struct GRDBSubject<S: GRDBSchemaSource>: FetchableRecord, MutablePersistableRecord {
    static var databaseTableName: String { S.names.subjectTable }
    var id: Int64?
    var name: String
    /// The hidden owner (many-to-nil subjects).
    var owner: Int64?

    init(id: Int64? = nil, name: String, owner: Int64? = nil) {
        self.id = id
        self.name = name
        self.owner = owner
    }

    init(row: Row) throws {
        let names = S.names
        id = row["Z_PK"]
        name = row[names.subjectName] ?? ""
        if let column = names.subjectOwnerColumn { owner = row[column] }
    }

    func encode(to container: inout PersistenceContainer) throws {
        let names = S.names
        container["Z_PK"] = id
        container["Z_ENT"] = names.schema.subject.entity
        container["Z_OPT"] = 1
        container[names.subjectName] = name
        if let column = names.subjectOwnerColumn { container[column] = owner }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

struct GRDBAddress<S: GRDBSchemaSource>: FetchableRecord, MutablePersistableRecord {
    static var databaseTableName: String { S.names.addressTable }
    var id: Int64?
    var name: String
    /// The student (one-to-one only).
    var student: Int64?

    init(id: Int64? = nil, name: String, student: Int64? = nil) {
        self.id = id
        self.name = name
        self.student = student
    }

    init(row: Row) throws {
        let names = S.names
        id = row["Z_PK"]
        name = row[names.addressName] ?? ""
        if let column = names.addressOwner { student = row[column] }
    }

    func encode(to container: inout PersistenceContainer) throws {
        let names = S.names
        container["Z_PK"] = id
        container["Z_ENT"] = names.schema.address.entity
        container["Z_OPT"] = 1
        container[names.addressName] = name
        if let column = names.addressOwner { container[column] = student }
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Which many-to-many join table a `GRDBJoinRow` is a row of: its names and the record its member column points at.
protocol GRDBJoinKind {
    associatedtype Member: TableRecord
    static var join: SchoolSchema.Join { get }
    /// The key of the association from a join row to its member.
    static var memberKey: String { get }
}

/// The class-student join table (many-to-many membership).
enum GRDBClassStudentsJoin<S: GRDBSchemaSource>: GRDBJoinKind {
    typealias Member = GRDBStudent<S>
    static var join: SchoolSchema.Join { S.names.membershipTable }
    static var memberKey: String { "student" }
}

/// The student-subject join table (many-to-many subjects).
enum GRDBStudentSubjectsJoin<S: GRDBSchemaSource>: GRDBJoinKind {
    typealias Member = GRDBSubject<S>
    static var join: SchoolSchema.Join { S.names.subjectsTable }
    static var memberKey: String { "subject" }
}

/// A row of a many-to-many join table: an owner and a member key.
struct GRDBJoinRow<Kind: GRDBJoinKind>: FetchableRecord, PersistableRecord {
    static var databaseTableName: String { Kind.join.table }
    var owner: Int64
    var member: Int64

    init(owner: Int64, member: Int64) {
        self.owner = owner
        self.member = member
    }

    init(row: Row) throws {
        owner = row[Kind.join.ownerColumn]
        member = row[Kind.join.memberColumn]
    }

    func encode(to container: inout PersistenceContainer) throws {
        container[Kind.join.ownerColumn] = owner
        container[Kind.join.memberColumn] = member
    }

    static var member: BelongsToAssociation<GRDBJoinRow, Kind.Member> {
        belongsTo(Kind.Member.self, key: Kind.memberKey, using: ForeignKey([Kind.join.memberColumn]))
    }
}

typealias GRDBMembership<S: GRDBSchemaSource> = GRDBJoinRow<GRDBClassStudentsJoin<S>>
typealias GRDBSubjectMembership<S: GRDBSchemaSource> = GRDBJoinRow<GRDBStudentSubjectsJoin<S>>
