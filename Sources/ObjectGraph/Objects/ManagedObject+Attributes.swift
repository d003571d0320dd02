import Foundation

/// Reading and writing attributes. Reading fires a fault; writing marks the object updated. Transient attributes
/// are held by the object and never fire it; derived attributes are read-only (each save computes them).
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

    /// The value of `attribute`, firing the fault if needed (a transient attribute never fires it).
    ///
    /// A fired object of the attribute's own entity, read on its context's thread, takes one path with no call:
    /// the slot's payload at the attribute's `payloadWord` (profiled, callgrind at 10,000 students: the general path
    /// was 116 instructions a name, summing tag words for the payload and entering the thread check and the fault
    /// check as calls; the walk reads a name per member, fetch-all one per row).
    public func value(_ attribute: AttributeDescription) throws -> Value {
        if entity === attribute.declaringEntity, !isFault, !attribute.isTransient, let slots = shownSlots,
            let owner = ownerReference, owner._withUnsafeGuaranteedRef({ $0.isOnItsThreadWithNothingToMerge })
        {
            return slots.value(attribute.slot, atWord: attribute.payloadWord)
        }
        return try valueSlowly(attribute)
    }

    @inline(never)
    private func valueSlowly(_ attribute: AttributeDescription) throws -> Value {
        guard entity === attribute.declaringEntity || entity.isKind(of: attribute.entity) else {
            throw wrongEntity(attribute.name, of: attribute.entity)
        }
        try checkOwnerThread()
        if attribute.isTransient {
            return owner?.transientValues[ObjectIdentifier(self)]?[attribute.slot] ?? entity.transientDefaults[attribute.slot]
        }
        if isFault { try fire() }
        return current(attribute.slot)
    }

    /// The stored value of a derived attribute (kept up to date by each save).
    public func value(_ derived: DerivedAttributeDescription) throws -> Value {
        guard entity === derived.declaringEntity || entity.isKind(of: derived.entity) else {
            throw wrongEntity(derived.name, of: derived.entity)
        }
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

    /// Sets `attribute`; the value must fit the attribute's type (an `.int` also fits a number or bool attribute).
    /// Ranges, lengths and patterns are checked at save, as Core Data validates.
    public func setValue(_ value: Value, for attribute: AttributeDescription) throws {
        guard entity === attribute.declaringEntity || entity.isKind(of: attribute.entity) else {
            throw wrongEntity(attribute.name, of: attribute.entity)
        }
        guard value.fits(attribute.type) else {
            throw ObjectGraphError.invalidOperation(
                "cannot store \(value.kindName) \(value) in \(entity.name).\(attribute.name), which holds \(attribute.type.xcodeName) values"
            )
        }
        try withContext { context in
            if attribute.isTransient {
                context.transientValues[ObjectIdentifier(self), default: entity.transientDefaults][attribute.slot] =
                    value.normalized(for: attribute.type)
                return
            }
            if isFault { try context.fulfilFault(self) }
            try checkNotDeleted(changing: attribute.name)
            context.willChange(self)
            setCurrent(attribute.slot, value.normalized(for: attribute.type))
        }
    }

    /// Sets a transformable (or binary) attribute to `value` encoded by `transformer`; nil clears it.
    public func setValue<T>(_ value: T?, for name: String, using transformer: AttributeTransformer<T>) throws {
        guard let value else { return try setValue(.null, for: name) }
        try setValue(.binary(try transformer.encode(value)), for: name)
    }

    /// A transformable (or binary) attribute decoded by `transformer`; nil when it holds no value.
    public func value<T>(_ name: String, using transformer: AttributeTransformer<T>) throws -> T? {
        guard let data = try value(name).binary else { return nil }
        return try transformer.decode(data)
    }

    // MARK: Typed conveniences

    public func string(_ name: String) throws -> String? { try value(name).string }
    public func int(_ name: String) throws -> Int64? { try value(name).int }
    public func double(_ name: String) throws -> Double? { try value(name).double }
    public func bool(_ name: String) throws -> Bool? { try value(name).bool }
    public func date(_ name: String) throws -> Date? { try value(name).date }
    public func uuid(_ name: String) throws -> UUID? { try value(name).uuid }
    public func decimal(_ name: String) throws -> Decimal? { try value(name).decimal }
    public func url(_ name: String) throws -> URL? { try value(name).url }
    public func data(_ name: String) throws -> Data? { try value(name).binary }

    func wrongEntity(_ property: String, of other: EntityDescription) -> ObjectGraphError {
        .invalidOperation("\(other.name).\(property) is not a property of \(entity.name)")
    }

    func checkNotDeleted(changing property: String) throws {
        if isDeleted {
            throw ObjectGraphError.invalidOperation("cannot change \(entity.name).\(property) of \(objectID): the object is deleted")
        }
    }
}

/// How a transformable attribute's values become bytes and back (Core Data's value transformer).
///
/// Core Data's default is NSSecureUnarchiveFromData (a keyed archive); ObjectGraph stores whatever bytes the
/// caller's transformer makes, in the same BLOB column.
public struct AttributeTransformer<T> {
    public let encode: (T) throws -> Data
    public let decode: (Data) throws -> T

    public init(encode: @escaping (T) throws -> Data, decode: @escaping (Data) throws -> T) {
        self.encode = encode
        self.decode = decode
    }
}

extension AttributeTransformer where T: Codable {
    /// A binary property list of a Codable value.
    public static var propertyList: AttributeTransformer<T> {
        AttributeTransformer(
            encode: { value in
                let encoder = PropertyListEncoder()
                encoder.outputFormat = .binary
                return try encoder.encode([value])
            },
            decode: { data in
                guard let value = try PropertyListDecoder().decode([T].self, from: data).first else {
                    throw ObjectGraphError.invalidOperation("a transformable value's bytes hold no value")
                }
                return value
            })
    }
}
