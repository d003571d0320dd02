/// Reading and editing declarations, for the harness's model variants (an inverse dropped, a relationship made
/// ordered or replaced by a key attribute) and its linter. Package-internal.
extension Property {
    /// What a declared property is, in plain terms.
    package enum Summary: Sendable {
        case attribute(type: AttributeType, isOptional: Bool, isIndexed: Bool, isTransient: Bool)
        case relationship(destination: String, isToMany: Bool, inverse: String?, deleteRule: DeleteRule, isOrdered: Bool, isOptional: Bool)
        case derived(derivation: String, type: AttributeType?)
    }

    package var summary: Summary {
        switch kind {
        case let .attribute(spec):
            return .attribute(type: spec.type, isOptional: spec.isOptional, isIndexed: spec.isIndexed, isTransient: spec.isTransient)
        case let .relationship(spec):
            return .relationship(
                destination: spec.destination, isToMany: spec.isToMany, inverse: spec.inverse,
                deleteRule: spec.deleteRule, isOrdered: spec.isOrdered, isOptional: spec.isOptional)
        case let .derived(derivation, type):
            return .derived(derivation: derivation, type: type)
        }
    }

    /// The same relationship with another inverse (nil: none); other properties are returned unchanged.
    package func settingInverse(_ inverse: String?) -> Property {
        guard case var .relationship(spec) = kind else { return self }
        spec.inverse = inverse
        return Property(name: name, kind: .relationship(spec))
    }

    /// The same many-to-many relationship, its join table with or without the reverse index.
    package func settingJoinReverseIndex(_ indexed: Bool) -> Property {
        guard case var .relationship(spec) = kind, spec.isToMany else { return self }
        spec.joinReverseIndex = indexed
        return Property(name: name, kind: .relationship(spec))
    }

    /// The same to-many relationship, its hidden owner column (when it has no inverse) indexed or not.
    package func settingHiddenOwnerIndex(_ indexed: Bool) -> Property {
        guard case var .relationship(spec) = kind, spec.isToMany else { return self }
        spec.hiddenOwnerIndex = indexed
        return Property(name: name, kind: .relationship(spec))
    }

    /// The same to-many relationship, ordered or not.
    package func settingOrdered(_ ordered: Bool) -> Property {
        guard case var .relationship(spec) = kind, spec.isToMany else { return self }
        spec.isOrdered = ordered
        return Property(name: name, kind: .relationship(spec))
    }

    /// The same attribute, indexed or not.
    package func settingIndexed(_ indexed: Bool) -> Property {
        guard case var .attribute(spec) = kind else { return self }
        spec.isIndexed = indexed
        return Property(name: name, kind: .attribute(spec))
    }

    /// The same relationship with another delete rule.
    package func settingDeleteRule(_ rule: DeleteRule) -> Property {
        guard case var .relationship(spec) = kind else { return self }
        spec.deleteRule = rule
        return Property(name: name, kind: .relationship(spec))
    }
}

extension Property {
    /// The same relationship made to-one or to-many (unordered, no count bounds), under `name`; other properties are
    /// returned unchanged.
    package func settingCardinality(toMany: Bool, name: String) -> Property {
        guard case var .relationship(spec) = kind else { return self }
        spec.isToMany = toMany
        spec.isOrdered = false
        spec.minCount = 0
        spec.maxCount = toMany ? 0 : 1
        return Property(name: name, kind: .relationship(spec))
    }
}
