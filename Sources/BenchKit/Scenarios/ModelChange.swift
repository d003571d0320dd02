import ObjectGraph

/// How a variant of a declared scenario changes the model, so that one file compares modelling choices:
/// `{"name": "modelling", "values": ["many-to-one", "many-to-nil"], "change": "modelling", "target": "Class.students"}`.
struct ModelChange: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        /// The kind of each target relationship, by its modelling name (`Modelling`): an inverse kept, made to-many,
        /// removed, or the relationship replaced by a key kept by hand.
        case modelling
        /// on: the to-many is ordered; off: unordered.
        case ordered
        /// on: the derived attribute is declared; off: it is removed.
        case derived
        /// on/off: the attribute is indexed or not.
        case indexed
        /// nullify, cascade, deny, no-action: the relationship's delete rule.
        case deleteRule = "delete-rule"
        /// reverse: a many-to-many's join table has the reverse index current stores have; none: only its
        /// composite primary key, as stores of about 2015 (pgor's ManyAToManyB).
        case joinIndex = "join-index"

        var values: [String] {
            switch self {
            case .modelling: return Modelling.allCases.map(\.rawValue)
            case .ordered, .derived, .indexed: return ["on", "off"]
            case .deleteRule: return ["nullify", "cascade", "deny", "no-action"]
            case .joinIndex: return ["reverse", "none"]
            }
        }

        /// What a scenario that still names a retired change is told to write instead.
        static func retired(_ name: String) -> String? {
            switch name {
            case "inverse":
                return
                    "the 'inverse' change is now \"change\": \"modelling\" with the values many-to-one and many-to-nil (or one-to-one and one-to-nil for a to-one)"
            case "key":
                return
                    "the 'key' change is now \"change\": \"modelling\" on the to-many (e.g. Category.items) with the values many-to-one, manual-fk and manual-fk-unindexed, and \"keyAttribute\" and \"ownerKey\""
            default: return nil
            }
        }
    }

    let kind: Kind
    /// `Entity.property` each; a modelling change may name several relationships, each taking the values of its kind.
    let targets: [(entity: String, property: String)]
    /// modelling, manual-fk: the attribute each member gets instead of the relationship, and the owner's attribute it holds.
    var keyAttribute: String?
    var ownerKey: String?
    /// modelling, many-to-many of a to-many whose inverse is declared to-one: the to-many inverse's name (the declared
    /// inverse's name by default).
    var toManyInverse: String?

    init(kind: Kind, targets: [(entity: String, property: String)]) {
        self.kind = kind
        self.targets = targets
    }

    var targetText: String { targets.map { "\($0.entity).\($0.property)" }.joined(separator: ", ") }

    /// Checks the change can apply to `entities` for each of `values`; returns the reason it cannot.
    func problem(in entities: [Entity], values: [String]) -> String? {
        for target in targets {
            guard let declaring = entities.first(where: { $0.name == target.entity }) else {
                return "no entity '\(target.entity)' in the model"
            }
            guard let declared = declaring.properties.first(where: { $0.name == target.property }) else {
                return "entity '\(target.entity)' has no property '\(target.property)'"
                    + DataSpec.listing(target.property, declaring.properties.map(\.name))
            }
            let name = "\(target.entity).\(target.property)"
            switch (kind, declared.summary) {
            case (.deleteRule, .relationship), (.modelling, .relationship), (.derived, .derived), (.indexed, .attribute): break
            case let (.ordered, .relationship(_, isToMany, _, _, _, _)):
                if !isToMany { return "'\(name)' is a to-one; only a to-many can be ordered" }
            case let (.joinIndex, .relationship(destination, isToMany, inverse, _, _, _)):
                let inverseIsToMany =
                    inverse.flatMap { inverse in
                        entities.first { $0.name == destination }?.properties.first { $0.name == inverse }
                    }.map { property -> Bool in
                        if case let .relationship(_, toMany, _, _, _, _) = property.summary { return toMany }
                        return false
                    } ?? false
                if !isToMany || !inverseIsToMany {
                    return "'\(name)' is not a many-to-many (a to-many whose inverse is a to-many): only those have a join table"
                }
            default:
                return "a \(kind.rawValue) change does not apply to '\(name)'"
            }
        }
        guard kind == .modelling else { return nil }
        for value in values {
            guard let modelling = Modelling(rawValue: value) else { continue }
            let fitting = targets.filter { target in relationship(target, in: entities).map { $0.isToMany != modelling.isToOne } ?? false }
            guard !fitting.isEmpty else {
                return "'\(value)' is a modelling of a \(modelling.isToOne ? "to-one" : "to-many"); no target (\(targetText)) is one"
            }
            for target in fitting {
                if let reason = problem(modelling, target, in: entities) { return reason }
            }
        }
        return nil
    }

    private func relationship(
        _ target: (entity: String, property: String), in entities: [Entity]
    )
        -> (destination: String, isToMany: Bool, inverse: String?)?
    {
        guard
            case let .relationship(destination, isToMany, inverse, _, _, _)? =
                entities.first(where: { $0.name == target.entity })?.properties.first(where: { $0.name == target.property })?.summary
        else { return nil }
        return (destination, isToMany, inverse)
    }

    private func problem(_ modelling: Modelling, _ target: (entity: String, property: String), in entities: [Entity]) -> String? {
        guard let declared = relationship(target, in: entities) else { return nil }
        let name = "\(target.entity).\(target.property)"
        switch modelling {
        case .oneToOne, .manyToOne, .manyToMany:
            guard let inverse = declared.inverse, inverse != target.property || declared.destination != target.entity else {
                return "\(modelling.rawValue) needs '\(name)' to declare its inverse in the model"
            }
            if modelling == .oneToOne,
                case let .relationship(_, isToMany, _, _, _, _)? =
                    entities.first(where: { $0.name == declared.destination })?.properties.first(where: { $0.name == inverse })?.summary,
                isToMany
            {
                return "one-to-one needs the inverse of '\(name)' to be a to-one"
            }
        case .oneToNil, .manyToNil, .manyToNilUnindexed:
            break
        case .manualFK, .manualFKUnindexed:
            guard let keyAttribute, let ownerKey else {
                return
                    "\(modelling.rawValue) needs \"keyAttribute\" (the attribute each \(declared.destination) gets) and \"ownerKey\" (the \(target.entity) attribute it holds)"
            }
            guard let owner = entities.first(where: { $0.name == target.entity }),
                owner.properties.contains(where: {
                    if case .attribute(_, _, _, false) = $0.summary { return $0.name == ownerKey } else { return false }
                })
            else {
                return "'\(target.entity).\(ownerKey)' is not a stored attribute, so it cannot be the key \(declared.destination)s keep"
            }
            if entities.first(where: { $0.name == declared.destination })?.properties.contains(where: { $0.name == keyAttribute }) == true {
                return "'\(declared.destination)' already has a property '\(keyAttribute)'"
            }
        }
        return nil
    }

    /// `entities` with the change made for `value` (one of `kind.values`), and the keys kept by hand that replace
    /// relationships.
    func apply(_ value: String, to entities: [Entity]) -> (entities: [Entity], manualKeys: [ManualKey]) {
        var result = entities
        var manualKeys: [ManualKey] = []
        for target in targets {
            guard let index = result.firstIndex(where: { $0.name == target.entity }),
                let position = result[index].properties.firstIndex(where: { $0.name == target.property })
            else { continue }
            let declared = result[index].properties[position]
            switch kind {
            case .modelling:
                guard let modelling = Modelling(rawValue: value),
                    case let .relationship(destination, isToMany, inverse, _, _, _) = declared.summary,
                    isToMany != modelling.isToOne
                else { continue }
                let other = result.firstIndex { $0.name == destination }
                let inversePosition = other.flatMap { other in
                    inverse.flatMap { name in result[other].properties.firstIndex { $0.name == name } }
                }
                func removeInverse() {
                    result[index].properties[position] = declared.settingInverse(nil)
                    if let other, let inversePosition, other != index || inverse != target.property {
                        result[other].properties.remove(at: inversePosition)
                    }
                }
                switch modelling {
                case .oneToOne: break
                case .oneToNil, .manyToNil: removeInverse()
                case .manyToNilUnindexed:
                    removeInverse()
                    result[index].properties[position] = result[index].properties[position].settingHiddenOwnerIndex(false)
                case .manyToOne, .manyToMany:
                    guard let other, let inversePosition, let inverse else { continue }
                    let toMany = modelling == .manyToMany
                    let name = toMany ? (toManyInverse ?? inverse) : inverse
                    result[other].properties[inversePosition] = result[other].properties[inversePosition].settingCardinality(
                        toMany: toMany, name: name)
                    result[index].properties[position] = declared.settingInverse(name)
                case .manualFK, .manualFKUnindexed:
                    guard let keyAttribute, let ownerKey, let other,
                        case let .attribute(type, _, _, _)? = result[index].properties.first(where: { $0.name == ownerKey })?.summary
                    else { continue }
                    result[index].properties.remove(at: position)
                    if let inverse, other != index || inverse != target.property {
                        result[other].properties.removeAll { $0.name == inverse }
                    }
                    result[other].properties.append(.attribute(keyAttribute, type, indexed: modelling == .manualFK))
                    manualKeys.append(
                        ManualKey(
                            owner: target.entity, relationship: target.property, member: destination,
                            memberKey: keyAttribute, ownerKey: ownerKey, inverse: inverse))
                }
            case .ordered:
                result[index].properties[position] = declared.settingOrdered(value == "on")
            case .derived:
                if value == "off" { result[index].properties.remove(at: position) }
            case .indexed:
                result[index].properties[position] = declared.settingIndexed(value == "on")
            case .deleteRule:
                let rule: DeleteRule = value == "cascade" ? .cascade : value == "deny" ? .deny : value == "no-action" ? .noAction : .nullify
                result[index].properties[position] = declared.settingDeleteRule(rule)
            case .joinIndex:
                result[index].properties[position] = declared.settingJoinReverseIndex(value == "reverse")
            }
        }
        return (result, manualKeys)
    }
}
