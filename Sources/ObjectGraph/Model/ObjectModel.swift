/// A validated, compiled model: entities numbered, relationships resolved, tables and columns named.
///
/// Descriptions (entities, attributes, relationships) belong to their model and are valid while it lives;
/// stores and contexts keep their model alive.
public final class ObjectModel: @unchecked Sendable {
    /// Entities sorted by name; `entities[i].number == i + 1`.
    public let entities: [EntityDescription]
    /// What Xcode would warn about this model (relationships without an inverse), in its words.
    public let warnings: [String]
    /// A canonical text of the model, stored in Z_METADATA so that a store refuses another model.
    public let canonicalDescription: String
    /// A stable hash of `canonicalDescription`.
    public let versionHash: String
    /// A hash per entity (Core Data's NSStoreModelVersionHashes), to say which entities differ.
    public let entityVersionHashes: [String: String]
    /// The order a save inserts rows in: an entity whose derived `@count` counts another entity's rows comes
    /// before it, so that the count triggers find the owner's row; otherwise by entity number.
    let saveOrder: [EntityDescription]
    /// Many-to-many join tables, one per relationship pair.
    let joinTables: [JoinTable]
    /// Whether any relationship is many-to-nil (a save then computes hidden owner columns).
    let hasManyToNil: Bool
    private let entitiesByName: [String: EntityDescription]

    /// Compiles and validates `entities`; throws a model error naming the entity and property at fault.
    public init(_ declarations: [Entity]) throws {
        let compiled = try ModelCompiler(declarations).compile()
        entities = compiled.entities
        warnings = compiled.warnings
        joinTables = compiled.joinTables
        hasManyToNil = compiled.entities.contains { $0.relationships.contains { $0.kind == .manyToNil } }
        saveOrder = ModelCompiler.saveOrder(compiled.entities)
        entitiesByName = Dictionary(uniqueKeysWithValues: compiled.entities.map { ($0.name, $0) })
        canonicalDescription = ModelCompiler.canonicalDescription(of: compiled.entities)
        versionHash = fnv1a64Hex(canonicalDescription)
        entityVersionHashes = Dictionary(uniqueKeysWithValues: compiled.entities.map {
            ($0.name, fnv1a64Hex(ModelCompiler.canonicalDescription(of: [$0])))
        })
        for entity in entities {
            entity.columnTypes = entity.columns.map(\.attributeType)
            entity.insertOrder = entity.columns.indices.filter { entity.columns[$0].isKey }
                + entity.columns.indices.filter { !entity.columns[$0].isKey }
            entity.sql = EntitySQL(entity: entity)
            entity.unresolvedRelations = ContiguousArray(repeating: .unresolved, count: entity.relationships.count)
        }
        for relationship in entities.flatMap(\.relationships) { relationship.sql = RelationshipSQL(relationship) }
    }

    /// The entity called `name`, if any.
    public func entity(_ name: String) -> EntityDescription? { entitiesByName[name] }

    /// The entity called `name`, or an error that lists the model's entities.
    func requireEntity(_ name: String) throws -> EntityDescription {
        if let entity = entitiesByName[name] { return entity }
        let known = entities.map(\.name).joined(separator: ", ")
        throw ObjectGraphError.invalidOperation("the model has no entity '\(name)' (it has: \(known))")
    }

    /// The DDL that creates this model's store, statement by statement, as Core Data writes it.
    public var schemaSQL: [String] { SchemaBuilder(model: self).statements }
}

/// FNV-1a, 64 bits, as 16 hex digits: a stable hash that does not change between runs or platforms.
func fnv1a64Hex(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
