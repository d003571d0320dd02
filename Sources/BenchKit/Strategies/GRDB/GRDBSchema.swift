import Foundation
import ObjectGraph

/// The names GRDB's records and associations use for one modelling of the school, taken from the same compiled
/// model as the raw peer's (`SchoolSchema`): records are generic over a `GRDBSchemaSource`, one per modelling.
final class GRDBNames: Sendable {
    let schema: SchoolSchema
    var studentTable: String { schema.student.name }
    var classTable: String { schema.schoolClass.name }
    var subjectTable: String { schema.subject.name }
    var addressTable: String { schema.address.name }
    var studentName: String { schema.studentName }
    var className: String { schema.className }
    var classUUID: String { schema.classUUID }
    var subjectName: String { schema.subjectName }
    var addressName: String { schema.addressName }
    /// ZSTUDENT's address key; ZADDRESS's student key (one-to-one only).
    var addressKey: String { schema.addressKey }
    var addressOwner: String? { schema.addressOwner }
    // The membership and subjects layouts are unpacked once from the schema's enums.
    /// The student's class column: a foreign key (many-to-one), a hidden owner column (many-to-nil), or the
    /// class's UUID (manual-fk); nil for a join table.
    let memberClassColumn: String?
    let membershipJoin: SchoolSchema.Join?
    /// The subject's hidden owner column (many-to-nil subjects), or the join table (many-to-many).
    let subjectOwnerColumn: String?
    let subjectsJoin: SchoolSchema.Join?

    init(_ modelling: SchoolModelling) {
        // The school's model is fixed and compiles; a failure here is a programming error.
        let schema = try! SchoolSchema(modelling)
        self.schema = schema
        switch schema.membership {
        case let .ownerColumn(column), let .classID(column):
            memberClassColumn = column
            membershipJoin = nil
        case let .joinTable(join):
            memberClassColumn = nil
            membershipJoin = join
        }
        switch schema.subjects {
        case let .ownerColumn(column):
            subjectOwnerColumn = column
            subjectsJoin = nil
        case let .joinTable(join):
            subjectOwnerColumn = nil
            subjectsJoin = join
        }
    }
}

/// A modelling of the school, as a type: GRDB's record types name their table in a static property.
protocol GRDBSchemaSource {
    static var names: GRDBNames { get }
}

enum GRDBManyToOne: GRDBSchemaSource { static let names = GRDBNames(SchoolModelling(.manyToOne, relationship: .membership)!) }
enum GRDBManyToMany: GRDBSchemaSource { static let names = GRDBNames(SchoolModelling(.manyToMany, relationship: .membership)!) }
enum GRDBManyToNil: GRDBSchemaSource { static let names = GRDBNames(SchoolModelling(.manyToNil, relationship: .membership)!) }
enum GRDBManualFK: GRDBSchemaSource { static let names = GRDBNames(SchoolModelling(.manualFK, relationship: .membership)!) }
enum GRDBSubjectsManyToMany: GRDBSchemaSource { static let names = GRDBNames(SchoolModelling(.manyToMany, relationship: .subjects)!) }
enum GRDBSubjectsManyToNil: GRDBSchemaSource { static let names = GRDBNames(SchoolModelling(.manyToNil, relationship: .subjects)!) }
enum GRDBOneToOne: GRDBSchemaSource { static let names = GRDBNames(SchoolModelling(.oneToOne, relationship: .address)!) }
enum GRDBOneToNil: GRDBSchemaSource { static let names = GRDBNames(SchoolModelling(.oneToNil, relationship: .address)!) }

/// The GRDB school for `modelling` of `relationship`.
func makeGRDBSchool(_ modelling: Modelling, relationship: SchoolRelationship, location: StoreLocation, pageCacheKiB: Int?,
                    trace: ((String) -> Void)?) throws -> SchoolStore {
    switch (relationship, modelling) {
    case (.membership, .manyToOne): return try GRDBSchool<GRDBManyToOne>(location: location, pageCacheKiB: pageCacheKiB, trace: trace)
    case (.membership, .manyToMany): return try GRDBSchool<GRDBManyToMany>(location: location, pageCacheKiB: pageCacheKiB, trace: trace)
    case (.membership, .manyToNil): return try GRDBSchool<GRDBManyToNil>(location: location, pageCacheKiB: pageCacheKiB, trace: trace)
    case (.membership, .manualFK): return try GRDBSchool<GRDBManualFK>(location: location, pageCacheKiB: pageCacheKiB, trace: trace)
    case (.subjects, .manyToMany): return try GRDBSchool<GRDBSubjectsManyToMany>(location: location, pageCacheKiB: pageCacheKiB, trace: trace)
    case (.subjects, .manyToNil): return try GRDBSchool<GRDBSubjectsManyToNil>(location: location, pageCacheKiB: pageCacheKiB, trace: trace)
    case (.address, .oneToOne): return try GRDBSchool<GRDBOneToOne>(location: location, pageCacheKiB: pageCacheKiB, trace: trace)
    case (.address, .oneToNil): return try GRDBSchool<GRDBOneToNil>(location: location, pageCacheKiB: pageCacheKiB, trace: trace)
    default: throw BenchError.invalidInput("grdb does not model the \(relationship.rawValue) relationship as \(modelling)")
    }
}
