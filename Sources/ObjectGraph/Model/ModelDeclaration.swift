/// An entity as the caller declares it: a name and its properties, in any order.
public struct Entity: Sendable {
    public var name: String
    public var properties: [Property]

    public init(_ name: String, _ properties: [Property]) {
        self.name = name
        self.properties = properties
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

/// A property as the caller declares it: an attribute, a relationship or a derived `<toMany>.@count` attribute.
public struct Property: Sendable {
    enum Kind: Sendable {
        case attribute(type: AttributeType, isOptional: Bool, defaultValue: Value?, isIndexed: Bool)
        case relationship(destination: String, isToMany: Bool, inverse: String?, isOptional: Bool, deleteRule: DeleteRule)
        case derived(derivation: String)
    }

    public let name: String
    let kind: Kind

    /// A stored attribute; `default` is the value of new objects (nil when omitted); `indexed` adds an index
    /// on its column (`ZSTUDENT_ZCLASSID_INDEX`), as Xcode's Indexed checkbox does.
    public static func attribute(_ name: String, _ type: AttributeType, optional: Bool = true, default defaultValue: Value? = nil,
                                 indexed: Bool = false) -> Property {
        Property(name: name, kind: .attribute(type: type, isOptional: optional, defaultValue: defaultValue, isIndexed: indexed))
    }

    /// A to-one relationship. `inverse: nil` declares a one-to-nil relationship (the model then warns).
    public static func toOne(_ name: String, _ destination: String, inverse: String?, optional: Bool = true,
                             deleteRule: DeleteRule = .nullify) -> Property {
        Property(name: name, kind: .relationship(destination: destination, isToMany: false, inverse: inverse,
                                                 isOptional: optional, deleteRule: deleteRule))
    }

    /// A to-many relationship. `inverse: nil` declares a many-to-nil relationship (the model then warns).
    public static func toMany(_ name: String, _ destination: String, inverse: String?, optional: Bool = true,
                              deleteRule: DeleteRule = .nullify) -> Property {
        Property(name: name, kind: .relationship(destination: destination, isToMany: true, inverse: inverse,
                                                 isOptional: optional, deleteRule: deleteRule))
    }

    /// A derived attribute; the only derivation supported is `<toMany>.@count`, as in `members.@count`.
    public static func derived(_ name: String, _ derivation: String) -> Property {
        Property(name: name, kind: .derived(derivation: derivation))
    }
}
