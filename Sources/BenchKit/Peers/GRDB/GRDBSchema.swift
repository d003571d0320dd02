import Foundation
import ObjectGraph

/// The names GRDB's records and associations use for one modelling of the school, taken from the variant's compiled
/// model as the raw peer's are (`SchoolSchema`): records are generic over a `GRDBSchemaSource`, one per modelling.
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

    /// The student's class column, in a school whose membership is kept in one (every modelling but many-to-many).
    var classColumn: String {
        guard let memberClassColumn else { preconditionFailure("\(classTable)'s students are in a join table, not a column") }
        return memberClassColumn
    }

    /// The join table of a many-to-many membership.
    var membershipTable: SchoolSchema.Join {
        guard let membershipJoin else { preconditionFailure("\(classTable)'s students are in a column, not a join table") }
        return membershipJoin
    }

    /// The subject's owner column, in a school whose subjects are many-to-nil.
    var subjectColumn: String {
        guard let subjectOwnerColumn else { preconditionFailure("\(subjectTable) is joined to students by a table, not a column") }
        return subjectOwnerColumn
    }

    /// The join table of many-to-many subjects.
    var subjectsTable: SchoolSchema.Join {
        guard let subjectsJoin else { preconditionFailure("\(subjectTable) is joined to students by a column, not a table") }
        return subjectsJoin
    }

    init(_ schema: SchoolSchema) {
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

/// A modelling of the school, as a type: GRDB's record types name their table and associations in static
/// properties, so each modelling is a type, whose names are registered from the variant's compiled model before its
/// first use (`GRDBNamesRegistry`).
protocol GRDBSchemaSource {}

extension GRDBSchemaSource {
    static var names: GRDBNames { GRDBNamesRegistry.names(for: Self.self) }
}

/// The names each `GRDBSchemaSource` stands for in this process: one School model file, so one schema per modelling.
enum GRDBNamesRegistry {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered: [ObjectIdentifier: GRDBNames] = [:]

    static func names<S: GRDBSchemaSource>(for source: S.Type) -> GRDBNames {
        // Registered by `makeGRDBSchool` before any record of the type exists.
        // The names are registered before GRDB reads a record type.
        // swift-format-ignore: NeverForceUnwrap
        lock.withLock { registered[ObjectIdentifier(source)]! }
    }

    /// Registers `schema` for `source`; a second, different schema for it is refused (a process reads one School model).
    static func register<S: GRDBSchemaSource>(_ schema: SchoolSchema, for source: S.Type) throws {
        try lock.withLock {
            if let existing = registered[ObjectIdentifier(source)] {
                guard existing.schema.schemaSQL == schema.schemaSQL else {
                    throw BenchError.invalidInput(
                        "grdb: the School model changed within one run (two schemas for one modelling); run each model in a run of its own")
                }
                return
            }
            registered[ObjectIdentifier(source)] = GRDBNames(schema)
        }
    }
}

enum GRDBSchool1: GRDBSchemaSource {}
enum GRDBManyToMany: GRDBSchemaSource {}
enum GRDBManyToNil: GRDBSchemaSource {}
/// Many-to-nil without the index on the hidden owner column (the same names, another schema).
enum GRDBManyToNilUnindexed: GRDBSchemaSource {}
enum GRDBManualFK: GRDBSchemaSource {}
enum GRDBSubjectsManyToNil: GRDBSchemaSource {}
enum GRDBOneToNil: GRDBSchemaSource {}

/// The GRDB school for the School model variant `schema` describes: the seed's modelling, or one relationship
/// modelled otherwise.
func makeGRDBSchool(_ schema: SchoolSchema, location: StoreLocation, pageCacheKiB: Int?, trace: ((String) -> Void)?) throws -> SchoolStore {
    func make<S: GRDBSchemaSource>(_ source: S.Type) throws -> SchoolStore {
        try GRDBNamesRegistry.register(schema, for: source)
        return try GRDBSchool<S>(location: location, pageCacheKiB: pageCacheKiB, trace: trace)
    }
    let modelling = schema.modelling
    switch (modelling.membership, modelling.subjects, modelling.address) {
    case (.manyToOne, .manyToMany, .oneToOne): return try make(GRDBSchool1.self)
    case (.manyToMany, .manyToMany, .oneToOne): return try make(GRDBManyToMany.self)
    case (.manyToNil, .manyToMany, .oneToOne):
        guard case let .ownerColumn(column) = schema.membership,
            !schema.schemaSQL.contains(where: { $0.hasSuffix("ON \(schema.student.name) (\(column))") })
        else { return try make(GRDBManyToNil.self) }
        return try make(GRDBManyToNilUnindexed.self)
    case (.manualFK, .manyToMany, .oneToOne): return try make(GRDBManualFK.self)
    case (.manyToOne, .manyToNil, .oneToOne): return try make(GRDBSubjectsManyToNil.self)
    case (.manyToOne, .manyToMany, .oneToNil): return try make(GRDBOneToNil.self)
    default:
        throw BenchError.invalidInput(
            "grdb stores the School model with one relationship modelled otherwise at most; this variant changes several")
    }
}
