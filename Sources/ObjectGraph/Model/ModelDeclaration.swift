/// An entity as the caller declares it: a name, its properties in any order, and optionally a parent entity
/// (whose properties it inherits and whose table it shares), fetch indexes and uniqueness constraints.
public struct Entity: Sendable {
    public var name: String
    public var properties: [Property]
    /// The parent entity's name (Xcode's `parentEntity`); nil for a root entity.
    public var parent: String?
    /// An abstract entity has no objects of its own, only sub-entities' objects.
    public var isAbstract: Bool
    /// Indexes Xcode's model declares as fetch indexes (or the older compound indexes).
    public var fetchIndexes: [FetchIndex]
    /// Uniqueness constraints: each a list of attribute (or to-one relationship) names whose values together
    /// must be unique among the entity's objects.
    public var uniquenessConstraints: [[String]]

    public init(
        _ name: String, parent: String? = nil, abstract: Bool = false, _ properties: [Property],
        fetchIndexes: [FetchIndex] = [], uniquenessConstraints: [[String]] = []
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = abstract
        self.properties = properties
        self.fetchIndexes = fetchIndexes
        self.uniquenessConstraints = uniquenessConstraints
    }
}

/// A fetch index: an SQL index on one or more properties of an entity.
public struct FetchIndex: Sendable, Equatable {
    public struct Element: Sendable, Equatable {
        public var property: String
        public var ascending: Bool
        public init(_ property: String, ascending: Bool = true) {
            self.property = property
            self.ascending = ascending
        }
    }

    /// The index's name in the model; the SQL index is `Z_<Entity>_<name>`.
    public var name: String
    public var elements: [Element]

    public init(_ name: String, _ elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}

/// What happens to a relationship's destinations when its source is deleted (Core Data's NSDeleteRule).
public enum DeleteRule: String, Sendable, Codable, CaseIterable {
    /// The destinations' inverse references are cleared (the default).
    case nullify
    /// The destinations are deleted too, recursively.
    case cascade
    /// The delete fails at save while the relationship has destinations.
    case deny
    /// Nothing is touched: references to the deleted object dangle.
    case noAction
}

/// The checks Xcode's model editor can put on an attribute, applied at save.
///
/// `minimum`/`maximum` bound the value of numbers and dates (dates as seconds since 2001) and the length of
/// strings and binary data, as Xcode's `minValueString`/`maxValueString` do.
public struct AttributeValidation: Sendable, Equatable {
    public var minimum: Double?
    public var maximum: Double?
    /// A regular expression a string value must match whole (`regularExpressionString`).
    public var pattern: String?

    public init(minimum: Double? = nil, maximum: Double? = nil, pattern: String? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.pattern = pattern
    }

    public var isEmpty: Bool { minimum == nil && maximum == nil && pattern == nil }
}

/// A property as the caller declares it: an attribute (stored or transient), a relationship or a derived attribute.
public struct Property: Sendable {
    struct AttributeSpec: Sendable {
        var type: AttributeType
        var isOptional: Bool
        var defaultValue: Value?
        var isIndexed: Bool
        var isTransient: Bool
        var validation: AttributeValidation
        var valueTransformerName: String?
    }

    struct RelationshipSpec: Sendable {
        var destination: String
        var isToMany: Bool
        var inverse: String?
        var isOptional: Bool
        var deleteRule: DeleteRule
        var isOrdered: Bool
        var minCount: Int
        var maxCount: Int
        /// A many-to-many's join table gets the reverse index current stores have (`(destination, source)`);
        /// stores of about 2015 had only the composite primary key (pgor's ManyAToManyB).
        var joinReverseIndex = true
        /// A to-many without inverse: its hidden owner column on the destination gets `<TABLE>_<COLUMN>_INDEX`, as
        /// Core Data indexes a to-one's foreign key (inferred: no real store with such a column was examined).
        var hiddenOwnerIndex = true
    }

    enum Kind: Sendable {
        case attribute(AttributeSpec)
        case relationship(RelationshipSpec)
        case derived(derivation: String, type: AttributeType?)
    }

    public let name: String
    let kind: Kind

    /// A stored attribute; `default` is the value of new objects (nil when omitted); `indexed` adds the index
    /// Xcode's Indexed checkbox does (`Z_Student_classID`); `validation` is checked at save.
    public static func attribute(
        _ name: String, _ type: AttributeType, optional: Bool = true, default defaultValue: Value? = nil,
        indexed: Bool = false, validation: AttributeValidation = AttributeValidation(),
        valueTransformerName: String? = nil
    ) -> Property {
        Property(
            name: name,
            kind: .attribute(
                AttributeSpec(
                    type: type, isOptional: optional, defaultValue: defaultValue,
                    isIndexed: indexed, isTransient: false, validation: validation,
                    valueTransformerName: valueTransformerName)))
    }

    /// A transient attribute: held by each object, never stored (no column). Its type may be `.undefined`.
    public static func transient(_ name: String, _ type: AttributeType = .undefined, default defaultValue: Value? = nil) -> Property {
        Property(
            name: name,
            kind: .attribute(
                AttributeSpec(
                    type: type, isOptional: true, defaultValue: defaultValue,
                    isIndexed: false, isTransient: true, validation: AttributeValidation(),
                    valueTransformerName: nil)))
    }

    /// A to-one relationship. `inverse: nil` declares a one-to-nil relationship (the model then warns); an
    /// inverse equal to `name` on an entity's own type declares a reflexive relationship.
    public static func toOne(
        _ name: String, _ destination: String, inverse: String?, optional: Bool = true,
        deleteRule: DeleteRule = .nullify
    ) -> Property {
        Property(
            name: name,
            kind: .relationship(
                RelationshipSpec(
                    destination: destination, isToMany: false, inverse: inverse, isOptional: optional, deleteRule: deleteRule,
                    isOrdered: false, minCount: 0, maxCount: 1)))
    }

    /// A to-many relationship. `inverse: nil` declares a many-to-nil relationship (the model then warns);
    /// `ordered` keeps its members in an order (Core Data's `Z_FOK_` column); `minCount`/`maxCount` (0: no
    /// bound) are checked at save.
    public static func toMany(
        _ name: String, _ destination: String, inverse: String?, optional: Bool = true,
        deleteRule: DeleteRule = .nullify, ordered: Bool = false, minCount: Int = 0,
        maxCount: Int = 0
    ) -> Property {
        Property(
            name: name,
            kind: .relationship(
                RelationshipSpec(
                    destination: destination, isToMany: true, inverse: inverse, isOptional: optional, deleteRule: deleteRule,
                    isOrdered: ordered, minCount: minCount, maxCount: maxCount)))
    }

    /// A derived attribute, kept up to date at each save as Core Data's triggers do. Derivations:
    /// `<toMany>.@count`; `<toMany>.<attribute>.@sum|@max|@min` (or `@sum.<toMany>.<attribute>`);
    /// `<toOne>.<attribute>`; `<attribute>`; `canonical:(<attribute>)`, `uppercase:(...)`, `lowercase:(...)`;
    /// `now()`. `type` defaults to the type the derivation yields.
    public static func derived(_ name: String, _ derivation: String, type: AttributeType? = nil) -> Property {
        Property(name: name, kind: .derived(derivation: derivation, type: type))
    }
}
