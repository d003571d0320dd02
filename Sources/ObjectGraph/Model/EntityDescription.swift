/// A compiled entity: its number (Z_ENT), place in an inheritance hierarchy, table, properties and row layout.
///
/// An entity's properties include those it inherits; its row (the values a snapshot holds) is its ancestors'
/// columns followed by its own. Every entity of a hierarchy is stored in the root entity's table.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    public let name: String
    /// Core Data's entity number, stored in Z_ENT: roots sorted by name, each followed by its sub-entities
    /// (a pre-order walk, as real stores number them), so that a sub-tree is a contiguous range.
    @exclusivity(unchecked) public internal(set) var number = 0
    /// `Z` + upper-cased name of the root entity: the table every entity of the hierarchy shares.
    @exclusivity(unchecked) public internal(set) var tableName: String
    public let isAbstract: Bool
    /// The parent entity, nil for a root.
    public var superentity: EntityDescription? { parent }
    /// Direct sub-entities, sorted by name.
    @exclusivity(unchecked) public internal(set) var subentities: [EntityDescription] = []
    /// Attributes (stored and transient, own and inherited), relationships and derived attributes.
    @exclusivity(unchecked) public internal(set) var attributes: [AttributeDescription] = []
    @exclusivity(unchecked) public internal(set) var relationships: [RelationshipDescription] = []
    @exclusivity(unchecked) public internal(set) var derivedAttributes: [DerivedAttributeDescription] = []
    /// Fetch indexes and uniqueness constraints declared on this entity.
    @exclusivity(unchecked) public internal(set) var fetchIndexes: [FetchIndex] = []
    @exclusivity(unchecked) public internal(set) var uniquenessConstraints: [[String]] = []

    @exclusivity(unchecked) unowned(unsafe) var parent: EntityDescription?
    @exclusivity(unchecked) unowned(unsafe) var root: EntityDescription!
    /// The root entity's number: the key of the hierarchy's shared primary keys, registry and row cache.
    @exclusivity(unchecked) var rootNumber = 0
    /// The largest entity number in this entity's sub-tree (its own number when it has no sub-entities).
    @exclusivity(unchecked) var subtreeMaxNumber = 0
    /// This entity and every descendant, in entity-number order: a slice of the model's entities (their numbers are
    /// contiguous), so that every entity's sub-tree shares one array (a copy each was O(d²) over a chain of depth d).
    @exclusivity(unchecked) public internal(set) var subtree: ArraySlice<EntityDescription> = []

    /// The columns of this entity's row after Z_PK, Z_ENT and Z_OPT, in slot order: inherited, then own. Made with the
    /// rest of the row's layout (`defaultRow`, `rowShape`, ...) when the first store opens on the model
    /// (`ColumnLayout.materializeRow`): a row per entity of a chain of depth d is O(d²), which `bench schema` and
    /// `bench lint` never need.
    @exclusivity(unchecked) var columns: [Column] = []
    /// The columns the entity adds to its parent's row (all of them for a root), in slot order.
    @exclusivity(unchecked) var ownColumns: [Column] = []
    /// How many columns the entity's row has (`columns.count` once made).
    @exclusivity(unchecked) var columnCount = 0
    /// How many of `columns` this entity inherits (the rest are its own).
    @exclusivity(unchecked) var inheritedColumnCount = 0
    /// For a root: every column of the table (all sub-entities'), in the order the entities are walked.
    @exclusivity(unchecked) var tableColumns: [Column] = []
    /// Column slots in INSERT order: keys first, then attributes (Core Data's `_NSSQLGenerator`).
    @exclusivity(unchecked) var insertOrder: [Int] = []
    /// The properties the entity declares itself, by name; `propertyNamed` looks up its ancestors' too. (A copy of every
    /// inherited property per entity was O(d²) memory over an inheritance chain of depth d: 96 MB at depth 2,000.)
    @exclusivity(unchecked) var ownPropertiesByName: [String: PropertyDescription] = [:]
    /// The row of a newly inserted object: attribute defaults, zero counts, null foreign keys.
    @exclusivity(unchecked) var defaultRow: ContiguousArray<Value> = []
    /// How the entity's rows lay out their values, and a new object's row as it starts (`rowShapeOwner`'s shape).
    @exclusivity(unchecked) private(set) var rowShape = RowShape.Owner.empty.shape
    @exclusivity(unchecked) var rowShapeOwner = RowShape.Owner.empty {
        didSet { rowShape = rowShapeOwner.shape }
    }
    /// Transient attributes' defaults, in transient slot order.
    @exclusivity(unchecked) var transientDefaults: ContiguousArray<Value> = []
    /// Whether the entity has transient attributes (whose values its objects' context holds).
    var hasTransients: Bool { !transientDefaults.isEmpty }
    /// Many-to-nil relationships of other entities whose hidden owner column lives in this entity's row.
    @exclusivity(unchecked) var hiddenOwnerRelationships: [RelationshipDescription] = []
    /// Ordered relationships of other entities whose order column lives in this entity's row.
    @exclusivity(unchecked) var orderedInverseRelationships: [RelationshipDescription] = []
    /// The slots of those hidden owner and order columns: what only a save writes.
    @exclusivity(unchecked) var saveComputedSlots: [Int] = []
    @exclusivity(unchecked) var toManyRelationships: [RelationshipDescription] = []
    @exclusivity(unchecked) var toOneRelationships: [RelationshipDescription] = []
    /// Where `toOneRelationships` live (relationship index, key column slots) and the relationship indices of
    /// `toManyRelationships`, as plain numbers for the loops a save runs per row (profiled: iterating the
    /// descriptions retained and released each one for every row).
    @exclusivity(unchecked) var toOneColumns: [ToOneColumn] = []
    @exclusivity(unchecked) var toManyIndices: [Int] = []
    @exclusivity(unchecked) var storedAttributes: [AttributeDescription] = []
    /// What a save validates: required attributes and those with a range, length or pattern; required
    /// relationships and to-manys with a count limit (profiled: checking every attribute of every inserted
    /// object cost 2% of an insert's instructions, measuring strings no rule limits).
    @exclusivity(unchecked) var validatedAttributes: [AttributeDescription] = []
    @exclusivity(unchecked) var validatedRelationships: [RelationshipDescription] = []
    /// The relationship slots of a fault, all unresolved (the slots past the third shared by every fault, copied
    /// on first write).
    @exclusivity(unchecked) var unresolvedRelations = RelationSlots(unresolved: 0)
    /// Whether the entity has more relationships than an object keeps inline, so that a new object's slots must be
    /// copied from `unresolvedRelations` rather than made (profiled, fetch-all at 10,000: copying three slots that
    /// hold nothing to retain was 33 instructions an object, through the enums' outlined copies).
    @exclusivity(unchecked) var relationsOverflow = false
    /// SQL text this entity's objects need again and again, built once.
    @exclusivity(unchecked) var sql: EntitySQL!

    init(name: String, isAbstract: Bool) {
        self.name = name
        self.isAbstract = isAbstract
        self.tableName = "Z" + name.uppercased()
    }

    public var description: String { name }

    /// Whether the entity is part of an inheritance hierarchy (its table then tells rows apart by Z_ENT).
    /// Stored, not computed: every materialized row asks (profiled: reading `subentities` retained the array).
    @exclusivity(unchecked) public internal(set) var isInHierarchy = false

    /// Whether a save has anything to check on the entity's objects.
    var needsValidation: Bool { !validatedAttributes.isEmpty || !validatedRelationships.isEmpty }

    /// Whether `self` is `other` or one of its descendants.
    @inline(__always)
    public func isKind(of other: EntityDescription) -> Bool {
        self === other || (number >= other.number && number <= other.subtreeMaxNumber)
    }

    /// The attribute called `name`, if any.
    public func attribute(_ name: String) -> AttributeDescription? {
        if case let .attribute(attribute)? = propertyNamed(name) { return attribute }
        return nil
    }

    /// The relationship called `name`, if any.
    public func relationship(_ name: String) -> RelationshipDescription? {
        if case let .relationship(relationship)? = propertyNamed(name) { return relationship }
        return nil
    }

    /// The derived attribute called `name`, if any.
    public func derivedAttribute(_ name: String) -> DerivedAttributeDescription? {
        if case let .derived(derived)? = propertyNamed(name) { return derived }
        return nil
    }

    /// The columns a fetch of this entity selects after Z_PK and Z_OPT, in order (`ZNAME`, `ZADDRESS`, ...): for the
    /// harness's peers, which read the rows Core Data would.
    package var rowColumnNames: [String] { sequence(first: self, next: \.parent).reversed().flatMap(\.ownColumns).map(\.name) }

    /// Every property name, sorted.
    public var propertyNames: [String] {
        sequence(first: self, next: \.parent).flatMap(\.ownPropertiesByName.keys).sorted()
    }

    /// The property called `name`, the entity's own or inherited (a walk up its ancestors, as deep as the entity).
    func propertyNamed(_ name: String) -> PropertyDescription? {
        var entity: EntityDescription? = self
        while let current = entity {
            if let property = current.ownPropertiesByName[name] { return property }
            entity = current.parent
        }
        return nil
    }

    /// The property called `name`, or an error naming the entity and listing what exists.
    func property(_ name: String) throws -> PropertyDescription {
        if let property = propertyNamed(name) { return property }
        let known = propertyNames.joined(separator: ", ")
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
        /// The Z_ENT of a to-one relationship's destination row (the destination has sub-entities).
        case foreignEntity(RelationshipDescription)
        /// The owner of this row in another entity's many-to-nil relationship.
        case hiddenOwner(RelationshipDescription)
        /// This row's position in an ordered to-many relationship (`Z_FOK_<INVERSE>`).
        case order(RelationshipDescription)
    }

    let name: String
    let sqlType: String
    let kind: Kind

    var attributeType: AttributeType {
        switch kind {
        case let .attribute(a): return a.type
        case let .derived(d): return d.type
        case .foreignKey, .foreignEntity, .hiddenOwner, .order: return .int64
        }
    }

    /// Keys are written before attributes in INSERT and UPDATE statements: foreign keys, entity keys, order keys.
    var isKey: Bool {
        switch kind {
        case .foreignKey, .foreignEntity, .hiddenOwner, .order: return true
        case .attribute, .derived: return false
        }
    }

    /// Where the column goes in INSERT and UPDATE statements (decompiled _NSSQLGenerator): foreign keys, then
    /// foreign entity keys, then order keys, then attributes.
    var writeRank: Int {
        switch kind {
        case .foreignKey, .hiddenOwner: return 0
        case .foreignEntity: return 1
        case .order: return 2
        case .attribute, .derived: return 3
        }
    }

    /// Whether the column gets Core Data's default `<TABLE>_<COLUMN>_INDEX`: foreign keys and hidden owners unless
    /// their relationship declines it (entity and order keys get none).
    var hasForeignKeyIndex: Bool {
        switch kind {
        case .foreignKey: return true
        case let .hiddenOwner(relationship): return relationship.hiddenOwnerIndex
        default: return false
        }
    }
}

/// Where a to-one relationship lives in its entity's objects and rows.
struct ToOneColumn {
    /// The relationship's slot in `ManagedObject.relations`.
    let index: Int
    /// The foreign key's column slot in the row.
    let slot: Int
    /// The destination entity column's slot (a destination with sub-entities), or -1.
    let entitySlot: Int
}
