/// A compiled attribute: its type, optionality, default, and its column in the entity's table.
public final class AttributeDescription: @unchecked Sendable {
    public let name: String
    public let type: AttributeType
    public let isOptional: Bool
    public let defaultValue: Value
    public let isIndexed: Bool
    public unowned(unsafe) let entity: EntityDescription
    /// The column name, `Z` + upper-cased name (with a number suffix on a clash).
    public internal(set) var columnName = ""
    /// Position of the column in the entity's row (after Z_PK, Z_ENT, Z_OPT).
    var slot = -1

    init(name: String, type: AttributeType, isOptional: Bool, defaultValue: Value, isIndexed: Bool, entity: EntityDescription) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.isIndexed = isIndexed
        self.entity = entity
    }
}

/// A compiled derived attribute `<toMany>.@count`: a stored INTEGER column the save keeps up to date.
public final class DerivedAttributeDescription: @unchecked Sendable {
    public let name: String
    public let derivation: String
    public unowned(unsafe) let entity: EntityDescription
    public internal(set) unowned(unsafe) var relationship: RelationshipDescription!
    public internal(set) var columnName = ""
    var slot = -1

    init(name: String, derivation: String, entity: EntityDescription) {
        self.name = name
        self.derivation = derivation
        self.entity = entity
    }
}

/// How a relationship is modelled, named from its source's side (the source's cardinality first).
public enum RelationshipKind: String, Sendable {
    /// To-one whose inverse is to-many (Student.class ↔ Class.students): a foreign key on the source.
    case manyToOne = "many-to-one"
    /// To-many whose inverse is to-one (Class.students): stored as the inverse's foreign key on the destination.
    case oneToMany = "one-to-many"
    /// To-one whose inverse is to-one: a foreign key on both sides.
    case oneToOne = "one-to-one"
    /// To-one with no inverse: a foreign key on the source; the destination knows nothing.
    case oneToNil = "one-to-nil"
    /// To-many whose inverse is to-many: a join table.
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
    public unowned(unsafe) let entity: EntityDescription
    public internal(set) unowned(unsafe) var destination: EntityDescription!
    public internal(set) unowned(unsafe) var inverse: RelationshipDescription?
    public internal(set) var kind: RelationshipKind = .manyToOne
    /// Position among the entity's relationships (the object's relationship slot).
    let index: Int
    let declaredInverseName: String?
    let declaredDestinationName: String

    /// The foreign-key column: on the source table for to-one relationships, on the destination table
    /// (the inverse's column, or the hidden owner column) for one-to-many and many-to-nil.
    public internal(set) var columnName = ""
    /// Position of `columnName` in its table's row (source row for to-one, destination row otherwise).
    var slot = -1
    /// The join table of a many-to-many relationship, seen from this side.
    public internal(set) var joinTable: JoinTable?
    /// Derived `@count` attributes over this relationship.
    var derivedCounts: [DerivedAttributeDescription] = []
    /// This relationship's fault and prefetch statements, built once.
    var sql: RelationshipSQL!

    init(name: String, isToMany: Bool, isOptional: Bool, deleteRule: DeleteRule, entity: EntityDescription,
         index: Int, destinationName: String, inverseName: String?) {
        self.name = name
        self.isToMany = isToMany
        self.isOptional = isOptional
        self.deleteRule = deleteRule
        self.entity = entity
        self.index = index
        self.declaredDestinationName = destinationName
        self.declaredInverseName = inverseName
    }

    /// `Entity.name`, as Core Data names a property in messages.
    public var qualifiedName: String { "\(entity.name).\(name)" }
}

/// A many-to-many join table `Z_<n><REL>` seen from one side: which column holds this side's key.
public struct JoinTable: Sendable, Equatable {
    public let tableName: String
    /// Holds the primary key of the relationship's source object.
    public let sourceColumn: String
    /// Holds the primary key of the destination object.
    public let destinationColumn: String
    /// Whether this side's relationship names the table (the side that writes the join rows at save).
    public let isPrimarySide: Bool
}
