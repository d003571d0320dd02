import ObjectGraph

/// How a variant of a declared scenario changes the model, so that one file compares modelling choices:
/// `{"name": "inverse", "values": ["on", "off"], "change": "inverse", "target": "Chat.members"}`.
struct ModelChange: Sendable {
    enum Kind: String, CaseIterable, Sendable {
        /// on: as declared; off: the relationship loses its inverse (the inverse is removed from the destination).
        case inverse
        /// on: the to-many is ordered; off: unordered.
        case ordered
        /// on: the derived attribute is declared; off: it is removed.
        case derived
        /// relationship: as declared; uuid / uuid-indexed: the to-one is replaced by a UUID attribute holding the
        /// destination's key attribute (seed 003's hand-kept key), indexed or not.
        case key
        /// on/off: the attribute is indexed or not.
        case indexed
        /// nullify, cascade, deny, no-action: the relationship's delete rule.
        case deleteRule = "delete-rule"

        var values: [String] {
            switch self {
            case .inverse, .ordered, .derived, .indexed: return ["on", "off"]
            case .key: return ["relationship", "uuid", "uuid-indexed"]
            case .deleteRule: return ["nullify", "cascade", "deny", "no-action"]
            }
        }
    }

    let kind: Kind
    /// `Entity.property`.
    let entity: String
    let property: String
    /// For `key`: the attribute that replaces the relationship on its source, and the destination's attribute it copies.
    let keyAttribute: String?
    let destinationKey: String?
    /// For `key`: the destination entity of the replaced relationship (read from the model as declared).
    let keyDestination: String?
    /// For `inverse`: whether the declared inverse is a to-one, so that the data stays the same when it is removed
    /// (each destination with one source, as the declared model allows).
    var inverseWasToOne = false

    var target: String { "\(entity).\(property)" }

    /// Checks the change can apply to `entities`; returns the reason it cannot.
    func problem(in entities: [Entity]) -> String? {
        guard let declaring = entities.first(where: { $0.name == entity }) else { return "no entity '\(entity)' in the model" }
        guard let declared = declaring.properties.first(where: { $0.name == property }) else {
            return "entity '\(entity)' has no property '\(property)'"
        }
        switch (kind, declared.summary) {
        case (.inverse, .relationship), (.deleteRule, .relationship): return nil
        case let (.ordered, .relationship(_, isToMany, _, _, _, _)): return isToMany ? nil : "'\(target)' is a to-one; only a to-many can be ordered"
        case (.derived, .derived): return nil
        case (.indexed, .attribute): return nil
        case let (.key, .relationship(destination, isToMany, _, _, _, _)):
            if isToMany { return "'\(target)' is a to-many; a hand-kept key replaces a to-one" }
            guard let keyAttribute, let destinationKey else { return "a key change needs \"attribute\" (the new UUID attribute) and \"destinationKey\" (the destination's UUID attribute)" }
            guard let destinationEntity = entities.first(where: { $0.name == destination }) else { return "no destination entity '\(destination)'" }
            guard destinationEntity.properties.contains(where: {
                if case .attribute(.uuid, _, _, false) = $0.summary { return $0.name == destinationKey } else { return false }
            }) else { return "'\(destination).\(destinationKey)' is not a stored UUID attribute" }
            if declaring.properties.contains(where: { $0.name == keyAttribute }) { return "'\(entity)' already has a property '\(keyAttribute)'" }
            return nil
        default:
            return "a \(kind.rawValue) change does not apply to '\(target)'"
        }
    }

    /// `entities` with the change made for `value` (one of `kind.values`).
    func apply(_ value: String, to entities: [Entity]) -> [Entity] {
        var result = entities
        guard let index = result.firstIndex(where: { $0.name == entity }),
              let position = result[index].properties.firstIndex(where: { $0.name == property }) else { return entities }
        let declared = result[index].properties[position]
        func removeInverse() {
            guard case let .relationship(destination, _, inverse?, _, _, _) = declared.summary,
                  let other = result.firstIndex(where: { $0.name == destination }) else { return }
            result[index].properties[position] = declared.settingInverse(nil)
            if other != index || inverse != property {
                result[other].properties.removeAll { $0.name == inverse }
            }
        }
        switch kind {
        case .inverse:
            if value == "off" { removeInverse() }
        case .ordered:
            result[index].properties[position] = declared.settingOrdered(value == "on")
        case .derived:
            if value == "off" { result[index].properties.remove(at: position) }
        case .indexed:
            result[index].properties[position] = declared.settingIndexed(value == "on")
        case .deleteRule:
            let rule: DeleteRule = value == "cascade" ? .cascade : value == "deny" ? .deny : value == "no-action" ? .noAction : .nullify
            result[index].properties[position] = declared.settingDeleteRule(rule)
        case .key:
            guard value != "relationship", let keyAttribute else { break }
            removeInverse()
            result[index].properties.removeAll { $0.name == property }
            result[index].properties.append(.attribute(keyAttribute, .uuid, indexed: value == "uuid-indexed"))
        }
        return result
    }
}
