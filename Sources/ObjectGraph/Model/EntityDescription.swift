/// A compiled entity: its number (Z_ENT), table, properties and row layout.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    public let name: String
    /// Core Data's entity number, stored in Z_ENT: entities numbered from 1 in the order of their sorted names.
    public internal(set) var number = 0
    /// `Z` + upper-cased entity name.
    public let tableName: String
    public internal(set) var attributes: [AttributeDescription] = []
    public internal(set) var relationships: [RelationshipDescription] = []
    public internal(set) var derivedAttributes: [DerivedAttributeDescription] = []

    /// The table's columns after Z_PK, Z_ENT and Z_OPT, in DDL order; a row's values follow this order.
    var columns: [Column] = []
    /// Column slots in INSERT order: foreign keys first, then attributes (Core Data's `_NSSQLGenerator`).
    var insertOrder: [Int] = []
    /// The type each column is read as, in row order.
    var columnTypes: [AttributeType] = []
    var propertiesByName: [String: PropertyDescription] = [:]
    /// The row of a newly inserted object: attribute defaults, zero counts, null foreign keys.
    var defaultRow: ContiguousArray<Value> = []
    /// Many-to-nil relationships of other entities whose hidden owner column lives in this table.
    var hiddenOwnerRelationships: [RelationshipDescription] = []
    var toManyRelationships: [RelationshipDescription] = []
    var toOneRelationships: [RelationshipDescription] = []
    /// The relationship slots of a fault, all unresolved: shared by every fault, copied on first write.
    var unresolvedRelations: ContiguousArray<RelationSlot> = []
    /// SQL text this entity's objects need again and again, built once.
    var sql: EntitySQL!

    init(name: String) {
        self.name = name
        self.tableName = "Z" + name.uppercased()
    }

    public var description: String { name }

    /// The attribute called `name`, if any.
    public func attribute(_ name: String) -> AttributeDescription? {
        if case let .attribute(attribute)? = propertiesByName[name] { return attribute }
        return nil
    }

    /// The relationship called `name`, if any.
    public func relationship(_ name: String) -> RelationshipDescription? {
        if case let .relationship(relationship)? = propertiesByName[name] { return relationship }
        return nil
    }

    /// The derived attribute called `name`, if any.
    public func derivedAttribute(_ name: String) -> DerivedAttributeDescription? {
        if case let .derived(derived)? = propertiesByName[name] { return derived }
        return nil
    }

    /// The property called `name`, or an error naming the entity and listing what exists.
    func property(_ name: String) throws -> PropertyDescription {
        if let property = propertiesByName[name] { return property }
        let known = propertiesByName.keys.sorted().joined(separator: ", ")
        throw ObjectGraphError.invalidOperation("entity \(self.name) has no property '\(name)' (it has: \(known))")
    }
}

/// Any compiled property, for lookups by name.
enum PropertyDescription {
    case attribute(AttributeDescription)
    case relationship(RelationshipDescription)
    case derived(DerivedAttributeDescription)

    var name: String {
        switch self {
        case let .attribute(a): return a.name
        case let .relationship(r): return r.name
        case let .derived(d): return d.name
        }
    }
}

/// One column of an entity table (besides Z_PK, Z_ENT, Z_OPT).
struct Column {
    enum Kind {
        case attribute(AttributeDescription)
        case derived(DerivedAttributeDescription)
        /// A to-one relationship's foreign key.
        case foreignKey(RelationshipDescription)
        /// The owner of this row in another entity's many-to-nil relationship.
        case hiddenOwner(RelationshipDescription)
    }

    let name: String
    let sqlType: String
    let kind: Kind

    var attributeType: AttributeType {
        switch kind {
        case let .attribute(a): return a.type
        case .derived, .foreignKey, .hiddenOwner: return .int64
        }
    }

    var isKey: Bool {
        switch kind {
        case .foreignKey, .hiddenOwner: return true
        case .attribute, .derived: return false
        }
    }

    /// Whether the column gets an index: every key, and attributes declared indexed.
    var isIndexed: Bool {
        if case let .attribute(attribute) = kind { return attribute.isIndexed }
        return isKey
    }
}
