/// A compiled attribute: its type, optionality, default, validation, and its column (or, for a transient
/// attribute, its slot among the object's transient values).
///
/// Descriptions belong to their model: the `unowned` references trap (never read freed memory) if the model is
/// gone. Stores, contexts and object IDs keep their model alive.
public final class AttributeDescription: @unchecked Sendable {
    public let name: String
    public let type: AttributeType
    public let isOptional: Bool
    public let defaultValue: Value
    public let isIndexed: Bool
    /// Transient attributes have no column: each object holds their values in memory, and a save writes none.
    public let isTransient: Bool
    public let validation: AttributeValidation
    /// Whether a save checks the value itself: a range, length or pattern, or an integer type narrower than
    /// its column (Integer 16 and 32).
    let hasValueRules: Bool
    /// Xcode's `valueTransformerName` of a transformable attribute (informational: values are stored as the
    /// bytes the caller's transformer makes).
    public let valueTransformerName: String?
    /// The entity that declares the attribute (sub-entities inherit it).
    public unowned let entity: EntityDescription
    /// `entity` unretained, only ever compared (`===`), for the check each access makes: reading `entity` retains
    /// it (profiled: `swift_unownedRetainStrong` on every attribute read).
    unowned(unsafe) let declaringEntity: EntityDescription
    /// The column name, `Z` + upper-cased name (with a number suffix on a clash); empty for a transient attribute.
    @exclusivity(unchecked) public internal(set) var columnName = ""
    /// Position of the column in the row of the declaring entity and its sub-entities; for a transient
    /// attribute, the position among the object's transient values.
    @exclusivity(unchecked) var slot = -1
    /// Where the column's payload starts in a row of the declaring entity (`RowShape.Column.word`); -1 for a
    /// transient attribute. Sub-entities' rows may lay it out elsewhere: only a read of an object of the declaring
    /// entity uses it.
    @exclusivity(unchecked) var payloadWord = -1

    init(name: String, spec: Property.AttributeSpec, entity: EntityDescription) {
        self.name = name
        self.type = spec.type
        self.isOptional = spec.isOptional
        self.defaultValue = spec.defaultValue?.normalized(for: spec.type) ?? .null
        self.isIndexed = spec.isIndexed
        self.isTransient = spec.isTransient
        self.validation = spec.validation
        hasValueRules = !spec.validation.isEmpty || spec.type == .int16 || spec.type == .int32
        self.valueTransformerName = spec.valueTransformerName
        self.entity = entity
        declaringEntity = entity
    }

    /// `Entity.name`.
    public var qualifiedName: String { "\(entity.name).\(name)" }
}

/// What a derived attribute computes (Core Data's `derivationExpression`).
public enum Derivation: Sendable, Equatable {
    /// `<toMany>.@count`.
    case count(RelationshipReference)
    /// `<toMany>.<attribute>.@sum|@max|@min`.
    case aggregate(Aggregate, RelationshipReference, attribute: String)
    /// `<toOne>.<attribute>`: a copy of an attribute of the destination.
    case toOneKeyPath(RelationshipReference, attribute: String)
    /// `<attribute>`, `canonical:(<attribute>)`, `uppercase:(...)`, `lowercase:(...)`: a function of an attribute
    /// of the object itself.
    case ownAttribute(StringFunction, attribute: String)
    /// `now()`: the time of the save that last wrote the row.
    case now

    public enum Aggregate: String, Sendable { case sum, max, min }
    public enum StringFunction: String, Sendable { case copy, canonical, uppercase, lowercase }

    /// A relationship named by a derivation, resolved when the model compiles.
    public struct RelationshipReference: Sendable, Equatable {
        public let name: String
    }
}

/// A compiled derived attribute: a stored column the save keeps up to date, by triggers shaped as Core Data's.
public final class DerivedAttributeDescription: @unchecked Sendable {
    public let name: String
    /// The derivation as written (`members.@count`).
    public let derivation: String
    @exclusivity(unchecked) public internal(set) var kind: Derivation = .now
    @exclusivity(unchecked) public internal(set) var type: AttributeType = .int64
    public unowned let entity: EntityDescription
    /// `entity` unretained, only ever compared (`===`), for the check each access makes: reading `entity` retains
    /// it (profiled: `swift_unownedRetainStrong` on every attribute read).
    unowned(unsafe) let declaringEntity: EntityDescription
    /// The relationship the derivation reads through (to-many for counts and aggregates, to-one for key paths).
    @exclusivity(unchecked) public internal(set) unowned(unsafe) var relationship: RelationshipDescription?
    /// The attribute read: of the relationship's destination, or of the object itself.
    @exclusivity(unchecked) public internal(set) unowned(unsafe) var sourceAttribute: AttributeDescription?
    @exclusivity(unchecked) public internal(set) var columnName = ""
    @exclusivity(unchecked) var slot = -1
    let declaredType: AttributeType?

    /// The relationship of a derivation the caller knows reads through one (a count, an aggregate, a to-one path).
    var throughRelationship: RelationshipDescription {
        guard let relationship else { preconditionFailure("\(entity.name).\(name) = \(derivation) reads through no relationship") }
        return relationship
    }

    /// The attribute a derivation the caller knows reads one (an aggregate, a key path, a string function) reads.
    var readAttribute: AttributeDescription {
        guard let sourceAttribute else { preconditionFailure("\(entity.name).\(name) = \(derivation) reads no attribute") }
        return sourceAttribute
    }

    init(name: String, derivation: String, type: AttributeType?, entity: EntityDescription) {
        self.name = name
        self.derivation = derivation
        self.declaredType = type
        self.entity = entity
        declaringEntity = entity
    }
}

/// How a relationship is modelled, named from its source's side (the source's cardinality first).
public enum RelationshipKind: String, Sendable {
    /// To-one whose inverse is to-many (Student.class ↔ Class.students): a foreign key on the source.
    case manyToOne = "many-to-one"
    /// To-many whose inverse is to-one (Class.students): stored as the inverse's foreign key on the destination.
    case oneToMany = "one-to-many"
    /// To-one whose inverse is to-one (or itself, reflexive): a foreign key on both sides.
    case oneToOne = "one-to-one"
    /// To-one with no inverse: a foreign key on the source; the destination knows nothing.
    case oneToNil = "one-to-nil"
    /// To-many whose inverse is to-many (or itself, reflexive): a join table.
    case manyToMany = "many-to-many"
    /// To-many with no inverse: a hidden owner column on the destination (one owner per destination row).
    case manyToNil = "many-to-nil"
}

/// A compiled relationship, with its destination, inverse and storage resolved.
public final class RelationshipDescription: @unchecked Sendable {
    public let name: String
    public let isToMany: Bool
    public let isOptional: Bool
    public let deleteRule: DeleteRule
    /// An ordered to-many keeps its members in order (a `Z_FOK_` column on the destination or the join table).
    public let isOrdered: Bool
    /// Bounds on a to-many's member count checked at save; 0 for none.
    public let minCount: Int
    public let maxCount: Int
    /// The entity that declares the relationship (sub-entities inherit it).
    public unowned let entity: EntityDescription
    /// `entity` unretained, only ever compared (`===`), for the check each access makes: reading `entity` retains
    /// it (profiled: `swift_unownedRetainStrong` on every attribute read).
    unowned(unsafe) let declaringEntity: EntityDescription
    /// The destination entity (its sub-entities' objects are destinations too).
    public var destination: EntityDescription { resolvedDestination }
    /// The inverse relationship, nil for one-to-nil and many-to-nil; the relationship itself when reflexive.
    public var inverse: RelationshipDescription? { resolvedInverse }
    @exclusivity(unchecked) public internal(set) var kind: RelationshipKind = .manyToOne
    /// Position among the entity's relationships (the object's relationship slot); sub-entities keep it.
    let index: Int
    let declaredInverseName: String?
    let declaredDestinationName: String
    /// Hot-path copies, valid while the model lives (every caller holds the model through a store or context).
    @exclusivity(unchecked) unowned(unsafe) var resolvedDestination: EntityDescription!
    @exclusivity(unchecked) unowned(unsafe) var resolvedInverse: RelationshipDescription?

    /// The foreign-key column: on the source table for to-one relationships, on the destination table
    /// (the inverse's column, or the hidden owner column) for one-to-many and many-to-nil.
    @exclusivity(unchecked) public internal(set) var columnName = ""
    /// Position of `columnName` in its table's row (source row for to-one, destination row otherwise).
    @exclusivity(unchecked) var slot = -1
    /// For a to-one whose destination has sub-entities: the column holding the destination row's Z_ENT
    /// (`Z<n>_<NAME>`, Core Data's foreign entity key) and its slot; empty and -1 otherwise.
    @exclusivity(unchecked) public internal(set) var entityColumnName = ""
    @exclusivity(unchecked) var entitySlot = -1
    /// For an ordered to-many stored on the destination (one-to-many, many-to-nil): the order column
    /// `Z_FOK_<INVERSE>` on the destination's row and its slot.
    @exclusivity(unchecked) public internal(set) var orderColumnName = ""
    @exclusivity(unchecked) var orderSlot = -1
    /// The join table of a many-to-many relationship, seen from this side.
    @exclusivity(unchecked) public internal(set) var joinTable: JoinTable?
    /// Whether this side asks for the join table's reverse index (both sides must, for the table to have it).
    let joinReverseIndex: Bool
    /// Whether the hidden owner column of this to-many without inverse is indexed.
    let hiddenOwnerIndex: Bool
    /// Derived attributes computed over this relationship.
    @exclusivity(unchecked) var derivedAttributes: [DerivedAttributeDescription] = []
    /// This relationship's fault and prefetch statements, built once.
    @exclusivity(unchecked) var sql: RelationshipSQL!

    init(name: String, spec: Property.RelationshipSpec, entity: EntityDescription, index: Int) {
        self.name = name
        self.isToMany = spec.isToMany
        self.isOptional = spec.isOptional
        self.deleteRule = spec.deleteRule
        self.isOrdered = spec.isToMany && spec.isOrdered
        self.minCount = spec.minCount
        self.maxCount = spec.maxCount
        self.entity = entity
        declaringEntity = entity
        self.index = index
        self.declaredDestinationName = spec.destination
        self.declaredInverseName = spec.inverse
        self.joinReverseIndex = spec.joinReverseIndex
        self.hiddenOwnerIndex = spec.hiddenOwnerIndex
    }

    /// `Entity.name`, as Core Data names a property in messages.
    public var qualifiedName: String { "\(entity.name).\(name)" }

    /// Whether the relationship is its own inverse (`friends` ↔ `friends`).
    public var isReflexive: Bool { resolvedInverse === self }

    /// The join table of a relationship the caller knows is a many-to-many.
    var join: JoinTable {
        guard let joinTable else { preconditionFailure("\(qualifiedName) is no many-to-many: it has no join table") }
        return joinTable
    }

    /// The inverse of a relationship the caller knows has one (a one-to-many, a many-to-many).
    var requiredInverse: RelationshipDescription {
        guard let resolvedInverse else { preconditionFailure("\(qualifiedName) has no inverse") }
        return resolvedInverse
    }
}

/// A many-to-many join table `Z_<n><REL>` seen from one side: which column holds this side's key.
public struct JoinTable: Sendable, Equatable {
    public let tableName: String
    /// Holds the primary key of the relationship's source object.
    public let sourceColumn: String
    /// Holds the primary key of the destination object.
    public let destinationColumn: String
    /// The order of the destination among the source's members (this side ordered), or nil.
    public let orderColumn: String?
    /// The order of the source among the destination's members (the inverse ordered), or nil.
    public let inverseOrderColumn: String?
    /// Whether this side's relationship names the table (the side that writes the join rows at save).
    public let isPrimarySide: Bool
    /// Whether the table has the reverse index `(destination, source)` beside its composite primary key.
    public var hasReverseIndex = true
}
