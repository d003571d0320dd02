import Foundation
import ObjectGraph

/// Resolving a step's names against the variant's model: each becomes the model's description, or an error that
/// names the nearest one there is.
extension StepParser {
    func entity(_ raw: JSONValue, field: String, concrete: Bool) throws -> EntityDescription {
        guard let name = raw.string else { throw fail(field, "expected an entity name, got \(raw)") }
        guard let entity = model.entity(name) else {
            throw fail(field, "no entity '\(name)' in the model" + DataSpec.suggestion(name, model.entities.map(\.name)))
        }
        if concrete && entity.isAbstract {
            throw fail(
                field, "'\(name)' is abstract; use one of its sub-entities (\(entity.subentities.map(\.name).joined(separator: ", ")))")
        }
        return entity
    }

    /// A key path of attributes and relationships from `entity`; `@count` may end it after a to-many, `@first` may
    /// follow one. A relationship a variant replaced by a key kept by hand is read through that key.
    func keyPath(_ path: String, from entity: EntityDescription, field: String, allowToMany: Bool = true) throws -> StepKeyPath {
        var current = entity
        var resolved: [StepKeyPath.Component] = []
        let components = path.split(separator: ".").map(String.init)
        var afterToMany = false
        for (index, component) in components.enumerated() {
            let last = index == components.count - 1
            if component == "@count" {
                guard last, afterToMany else { throw fail(field, "'\(path)': @count ends a key path after a to-many relationship") }
                resolved.append(.count)
                continue
            }
            if component == "@first" {
                guard !last, afterToMany else {
                    throw fail(field, "'\(path)': @first follows a to-many relationship and goes on to its member's properties")
                }
                afterToMany = false
                resolved.append(.first)
                continue
            }
            afterToMany = false
            if let relationship = current.relationship(component) {
                if relationship.isToMany && !allowToMany { throw fail(field, "'\(path)' goes through the to-many '\(component)'") }
                current = relationship.destination
                afterToMany = relationship.isToMany
                resolved.append(.relationship(relationship))
                continue
            }
            if let manual = ManualRelationship.named(component, on: current, keys: manualKeys, model: model) {
                if manual.toMany && !allowToMany { throw fail(field, "'\(path)' goes through the to-many '\(component)'") }
                current = manual.toMany ? manual.member : manual.owner
                afterToMany = manual.toMany
                resolved.append(.manual(manual))
                continue
            }
            if let attribute = current.attribute(component) {
                guard last else { throw fail(field, "'\(path)': '\(component)' is an attribute; nothing follows it") }
                resolved.append(.attribute(attribute))
                continue
            }
            if let derived = current.derivedAttribute(component) {
                guard last else { throw fail(field, "'\(path)': '\(component)' is an attribute; nothing follows it") }
                resolved.append(.derived(derived))
                continue
            }
            throw fail(
                field, "'\(path)': \(current.name) has no property '\(component)'" + DataSpec.listing(component, current.propertyNames))
        }
        return StepKeyPath(text: path, components: resolved)
    }

    /// A prefetch's key path: relationships from `entity`, or one relationship a variant keeps by hand, alone.
    func relationshipPath(_ path: String, from entity: EntityDescription, field: String) throws -> StepKeyPath {
        if manualKey(path, from: entity) != nil {
            guard let manual = ManualRelationship.named(path, on: entity, keys: manualKeys, model: model) else {
                throw fail(field, "'\(path)' is kept by hand in this variant, but its key attributes are not in the model")
            }
            return StepKeyPath(text: path, components: [.manual(manual)])
        }
        var current = entity
        var resolved: [StepKeyPath.Component] = []
        for component in path.split(separator: ".").map(String.init) {
            guard let relationship = current.relationship(component) else {
                if manualKey(component, from: current) != nil {
                    throw fail(
                        field,
                        "'\(path)': '\(component)' is kept by hand in this variant; prefetch it alone, as the first key path component")
                }
                throw fail(
                    field,
                    "'\(path)': \(current.name) has no relationship '\(component)'"
                        + DataSpec.relationshipSuggestion(component, of: current))
            }
            resolved.append(.relationship(relationship))
            current = relationship.destination
        }
        return StepKeyPath(text: path, components: resolved)
    }

    /// The key kept by hand that `name` stands for on `entity` (or one of its parents): the owner's removed to-many,
    /// or the member's removed to-one.
    func manualKey(_ name: String, from entity: EntityDescription) -> (key: ManualKey, toMany: Bool)? {
        ManualKey.named(name, from: entity, in: manualKeys)
    }

    /// A predicate format string, parsed now and checked against the model (its key paths, and, without variables,
    /// its constants' types), so that a mistake is reported with its position before anything runs.
    func predicate(_ raw: JSONValue, entity: EntityDescription, variables: [String: Step.Variable], field: String) throws -> StepPredicate {
        guard let text = raw.string else { throw fail(field, "expected a predicate format string, got \(raw)") }
        do {
            let parsed = try FetchPredicate(format: text)
            for name in parsed.variableNames.sorted() where variables[name] == nil {
                var error = fail(field, "uses $\(name), which 'variables' does not define")
                error.nearest = nearNames(name, in: variables.keys.sorted()).first.map { "$" + $0 }
                throw error
            }
            // Each key path names properties of the model (a collection operator's @sum/@min/@max/@avg reads the
            // attribute after it on the to-many's destination).
            for path in parsed.keyPaths where path != "SELF" && path != "self" {
                let plain = path.split(separator: ".").filter { !["@sum", "@min", "@max", "@avg"].contains($0) }.joined(separator: ".")
                _ = try keyPath(plain, from: entity, field: field)
            }
            // Compiled as a fetch would compile it, so that a constant of the wrong type for its key path stops
            // here; one with variables is compiled when they are chosen.
            if parsed.variableNames.isEmpty { try model.check(FetchRequest(entity.name, predicate: parsed)) }
            return StepPredicate(text: text, parsed: parsed)
        } catch let error as ObjectGraphError {
            throw fail(field, "\(error)")
        }
    }

    /// A predicate variable: a value, or where a value or object is drawn from (`word`, `valueOf`, `object`, with
    /// `index` and `memberOf`).
    func variable(_ raw: JSONValue, field: String) throws -> Step.Variable {
        if let object = raw.object {
            let known = ["word", "valueOf", "object", "index", "memberOf"]
            if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
                var error = fail(field, "a variable has no key '\(unknown)'; it takes word, valueOf or object, with index and memberOf")
                error.nearest = nearNames(unknown, in: known).first
                throw error
            }
            let pick: Step.Pick
            switch object["index"] {
            case nil: pick = .random
            case .string("round")?: pick = .round
            case let raw?: pick = .index(try integer(raw, field: "\(field).index", minimum: 0))
            }
            var memberOf: Step.Membership?
            if let raw = object["memberOf"] {
                let parts = raw.string?.split(separator: ".").map(String.init) ?? []
                guard parts.count == 2, let owner = model.entity(parts[0]),
                    owner.relationship(parts[1])?.isToMany == true || manualKey(parts[1], from: owner)?.toMany == true
                else {
                    let near =
                        parts.count != 2
                        ? ""
                        : model.entity(parts[0]).map {
                            DataSpec.listing(parts[1], $0.relationships.filter(\.isToMany).map(\.name), what: "to-many relationships")
                        } ?? DataSpec.suggestion(parts[0], model.entities.map(\.name))
                    throw fail("\(field).memberOf", "expected \"Entity.relationship\", a to-many of the model, got \(raw)" + near)
                }
                memberOf = Step.Membership(owner: owner, relationship: parts[1])
            }
            if let target = object["word"]?.string ?? object["valueOf"]?.string {
                let parts = target.split(separator: ".").map(String.init)
                guard parts.count == 2, let entity = model.entity(parts[0]), let attribute = entity.attribute(parts[1]) else {
                    let near =
                        parts.count != 2
                        ? ""
                        : model.entity(parts[0]).map { DataSpec.listing(parts[1], $0.attributes.map(\.name), what: "attributes") }
                            ?? DataSpec.suggestion(parts[0], model.entities.map(\.name))
                    throw fail(field, "expected \"Entity.attribute\" of the model, got \(target)" + near)
                }
                if object["word"] != nil {
                    guard memberOf == nil else { throw fail(field, "'memberOf' goes with valueOf or object") }
                    return .word(entity: entity, attribute: attribute, pick: pick)
                }
                return .valueOf(entity: entity, attribute: attribute, pick: pick, memberOf: memberOf)
            }
            if let name = object["object"]?.string {
                guard let entity = model.entity(name) else {
                    throw fail(field, "no entity '\(name)'" + DataSpec.suggestion(name, model.entities.map(\.name)))
                }
                return .object(entity: entity, pick: pick, memberOf: memberOf)
            }
            throw fail(
                field,
                "a variable is a value, {\"word\": \"Entity.attribute\"}, {\"valueOf\": \"Entity.attribute\"} or {\"object\": \"Entity\", \"index\": n}"
            )
        }
        switch raw {
        case let .string(text): return .value(.string(text))
        case let .number(number): return .value(number.rounded() == number && abs(number) < 9e15 ? .int(Int64(number)) : .double(number))
        case let .bool(flag): return .value(.bool(flag))
        default: throw fail(field, "a variable is a value, {\"word\": \"Entity.attribute\"} or {\"object\": \"Entity\"}")
        }
    }
}
