import Foundation

/// Reading and writing attributes. Reading fires a fault; writing marks the object updated.
extension ManagedObject {
    /// The value of an attribute or derived attribute called `name`.
    public func value(_ name: String) throws -> Value {
        switch try entity.property(name) {
        case let .attribute(attribute): return try value(attribute)
        case let .derived(derived): return try value(derived)
        case .relationship:
            throw ObjectGraphError.invalidOperation("\(entity.name).\(name) is a relationship; use object(_:) or objects(_:)")
        }
    }

    /// The value of `attribute`, firing the fault if needed.
    @inline(__always)
    public func value(_ attribute: AttributeDescription) throws -> Value {
        guard attribute.entity === entity else { throw wrongEntity(attribute.name, of: attribute.entity) }
        if isFault { try fire() }
        return current(attribute.slot)
    }

    /// The stored value of a derived `@count` attribute (kept up to date by each save).
    public func value(_ derived: DerivedAttributeDescription) throws -> Value {
        guard derived.entity === entity else { throw wrongEntity(derived.name, of: derived.entity) }
        if isFault { try fire() }
        return current(derived.slot)
    }

    /// Sets the attribute called `name`.
    public func setValue(_ value: Value, for name: String) throws {
        switch try entity.property(name) {
        case let .attribute(attribute): try setValue(value, for: attribute)
        case .derived:
            throw ObjectGraphError.invalidOperation("\(entity.name).\(name) is derived; the store computes it at save")
        case .relationship:
            throw ObjectGraphError.invalidOperation("\(entity.name).\(name) is a relationship; use setObject(_:for:) or add(_:to:)")
        }
    }

    /// Sets `attribute`; the value must fit the attribute's type (an `.int` also fits a double or bool attribute).
    public func setValue(_ value: Value, for attribute: AttributeDescription) throws {
        guard attribute.entity === entity else { throw wrongEntity(attribute.name, of: attribute.entity) }
        guard value.fits(attribute.type) else {
            throw ObjectGraphError.invalidOperation(
                "cannot store \(value) in \(entity.name).\(attribute.name), which holds \(attribute.type.rawValue) values")
        }
        let context = try requireContext()
        if isFault { try context.fulfilFault(self) }
        try checkNotDeleted(changing: attribute.name)
        context.willChange(self)
        setCurrent(attribute.slot, value.normalized(for: attribute.type))
    }

    // MARK: Typed conveniences

    public func string(_ name: String) throws -> String? { try value(name).string }
    public func int(_ name: String) throws -> Int64? { try value(name).int }
    public func double(_ name: String) throws -> Double? { try value(name).double }
    public func bool(_ name: String) throws -> Bool? { try value(name).bool }
    public func date(_ name: String) throws -> Date? { try value(name).date }
    public func uuid(_ name: String) throws -> UUID? { try value(name).uuid }

    func wrongEntity(_ property: String, of other: EntityDescription) -> ObjectGraphError {
        .invalidOperation("\(other.name).\(property) is not a property of \(entity.name)")
    }

    func checkNotDeleted(changing property: String) throws {
        if isDeleted {
            throw ObjectGraphError.invalidOperation("cannot change \(entity.name).\(property) of \(objectID): the object is deleted")
        }
    }
}
