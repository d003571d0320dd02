import Foundation
import ObjectGraph

/// Reads steps for one variant: choices resolved, `when` applied, and every name of every step resolved against the
/// variant's model into the model's own descriptions (`StepParser+Names.swift`). A wrong name stops here, with the
/// file, the JSON path of the field and the nearest name, before anything runs.
struct StepParser {
    let model: ObjectModel
    let variant: Variant
    /// The scenario's axes and their values.
    let axes: [VariantAxis]
    /// Relationships the variant replaced by keys kept by hand: key paths may still name them.
    let manualKeys: [ManualKey]
    let fail: (String, String) -> BenchError
    /// Variables the phase defines for all its steps (resolved once per phase).
    var phaseVariables: [String: Step.Variable] = [:]

    /// The steps of `list` (at `field`, e.g. `phases[0].steps`). `fetched` is the entity whose objects the first
    /// `read` reads (a same-context phase's, from the phase before); returns the steps and the entity of the phase's
    /// last fetch of objects (nil after a reset or a new context).
    func steps(_ list: JSONValue, field: String, fetched: EntityDescription?) throws -> (steps: [Step], fetched: EntityDescription?) {
        guard let items = list.array else { throw fail(field, "expected an array of steps") }
        var steps: [Step] = []
        var current = fetched
        for (index, item) in items.enumerated() {
            let here = "\(field)[\(index)]"
            guard var object = item.object else { throw fail(here, "expected a step object like {\"fetch\": \"Entity\"}") }
            if let when = object.removeValue(forKey: "when") {
                guard try choices.applies(when, field: here) else { continue }
            }
            let kind: StepKind
            switch StepKind.kind(of: object) {
            case let .success(found): kind = found
            case let .failure(.none(unknown)):
                var error = fail(here, "no step kind; a step is one of \(StepKind.names.joined(separator: ", "))")
                error.nearest = nearNames(unknown, in: StepKind.names).first
                throw error
            case let .failure(.several(kinds)):
                throw fail(here, "one step kind per step, got \(kinds.joined(separator: " and "))")
            }
            let options = try resolved(object, field: here)
            let step = try self.step(kind, options, field: here, fetched: current)
            switch step {
            case let .fetch(fetch): current = fetch.result == .objects ? fetch.entity : nil
            case .reset, .newContext: current = nil
            default: break
            }
            steps.append(step)
        }
        return (steps, current)
    }

    private var choices: VariantChoices { VariantChoices(variant: variant, axes: axes, fail: fail) }

    /// The options with every `{"variant": axis, ...}` choice resolved for this variant.
    private func resolved(_ object: [String: JSONValue], field: String) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (key, value) in object { result[key] = try choices.resolve(value, field: "\(field).\(key)") }
        return result
    }

    private func step(_ kind: StepKind, _ options: [String: JSONValue], field: String, fetched: EntityDescription?) throws -> Step {
        let value = options[kind.rawValue] ?? .null
        for key in options.keys.sorted() where key != kind.rawValue && !kind.options.contains(key) {
            var error = fail(field, "'\(kind.rawValue)' has no option '\(key)'")
            error.nearest = nearNames(key, in: kind.options).first
            if !kind.options.isEmpty { error.allowed = "it takes \(kind.options.joined(separator: ", "))" }
            throw error
        }
        switch kind {
        case .fetch: return .fetch(try fetch(value, options, field: field))
        case .count: return .count(try fetch(value, options, field: field))
        case .read: return try read(value, options, field: field, fetched: fetched)
        case .insert: return try insert(value, options, field: field)
        case .update:
            let (entity, name) = try qualified(value, field: field, what: "attribute", kind: kind)
            guard let attribute = entity.attribute(name), !attribute.isTransient else {
                throw fail(
                    field,
                    "'\(entity.name)' has no stored attribute '\(name)'"
                        + DataSpec.listing(name, entity.attributes.map(\.name), what: "attributes"))
            }
            return .update(entity: entity, attribute: attribute, share: try share(options["share"], field: field))
        case .delete:
            return .delete(entity: try entity(value, field: field, concrete: false), share: try share(options["share"], field: field))
        case .batchInsert:
            let entity = try entity(value, field: field, concrete: true)
            guard let count = DataSpec.Count.parse(options["count"] ?? .number(1)) else { throw fail("\(field).count", "expected a count") }
            return .batchInsert(entity: entity, count: count)
        case .batchUpdate: return try batchUpdate(value, options, field: field)
        case .batchDelete:
            let entity = try entity(value, field: field, concrete: false)
            return .batchDelete(
                entity: entity,
                predicate: try options["predicate"].map { try predicate($0, entity: entity, variables: [:], field: "\(field).predicate") })
        case .link, .unlink:
            let (entity, name) = try qualified(value, field: field, what: "relationship", kind: kind)
            guard let relationship = entity.relationship(name) else {
                throw fail(field, "'\(entity.name)' has no relationship '\(name)'" + DataSpec.relationshipSuggestion(name, of: entity))
            }
            guard let count = DataSpec.Count.parse(options["count"] ?? .number(1)) else { throw fail("\(field).count", "expected a count") }
            return .link(entity: entity, relationship: relationship, count: count, unlink: kind == .unlink)
        case .save:
            switch value {
            case .bool(true): return .save(mayFail: false)
            case .string("may-fail"): return .save(mayFail: true)
            default:
                throw fail(field, "write {\"save\": true}, or {\"save\": \"may-fail\"} for a save a delete rule or validation may refuse")
            }
        case .insertData:
            if case .bool(true) = value { return .insertData(nil) }
            guard value.object != nil else {
                throw fail(
                    field,
                    "write {\"insert-data\": true} for the scenario's data, or a data section of the step's own: {\"insert-data\": {\"entities\": ...}}"
                )
            }
            let data = try DataSpec.parse(value) { fail(field, $0) }
            if let problem = data.problems(in: model, manualKeys: manualKeys).first { throw fail(field, problem) }
            return .insertData(data)
        case .countLinks:
            let (entity, name) = try qualified(value, field: field, what: "relationship", kind: kind, toMany: true)
            guard let relationship = entity.relationship(name), relationship.isToMany else {
                throw fail(
                    field, "'\(entity.name)' has no to-many relationship '\(name)'" + DataSpec.relationshipSuggestion(name, of: entity))
            }
            return .countLinks(entity: entity, relationship: relationship)
        case .reset, .newContext, .deleteFetched, .letGo, .undoManager:
            guard case .bool(true) = value else { throw fail(field, "write {\"\(kind.rawValue)\": true}") }
            switch kind {
            case .deleteFetched:
                guard fetched != nil else { throw fail(field, "'delete-fetched' needs a fetch of objects before it in its phase") }
                return .deleteFetched
            case .reset: return .reset
            case .letGo: return .letGo
            case .undoManager: return .undoManager
            default: return .newContext
            }
        case .merge:
            return .merge(try steps(value, field: "\(field).merge", fetched: nil).steps)
        }
    }

    /// `Entity.property` of a step that names one (update, link, count-links): the entity and the property's name.
    private func qualified(
        _ value: JSONValue, field: String, what: String, kind: StepKind, toMany: Bool = false
    ) throws -> (EntityDescription, String) {
        guard let target = value.string, target.split(separator: ".").count == 2 else {
            throw fail(field, "'\(kind.rawValue)' names \"Entity.\(what)\"\(toMany ? ", a to-many" : ""), got \(value)")
        }
        let parts = target.split(separator: ".").map(String.init)
        return (try entity(.string(parts[0]), field: field, concrete: false), parts[1])
    }

    private func fetch(_ value: JSONValue, _ options: [String: JSONValue], field: String) throws -> Step.Fetch {
        let entity = try entity(value, field: field, concrete: false)
        var variables: [String: Step.Variable] = [:]
        for (name, raw) in (options["variables"]?.object ?? [:]) {
            variables[name] = try variable(raw, field: "\(field).variables.\(name)")
        }
        let predicate = try options["predicate"].map {
            try self.predicate(
                $0, entity: entity, variables: variables.merging(phaseVariables) { step, _ in step }, field: "\(field).predicate")
        }
        var sort: [(StepKeyPath, Bool)] = []
        for key in try options["sort"].map({ try strings($0, field: "\(field).sort", what: "sort keys") }) ?? [] {
            let ascending = !key.hasPrefix("-")
            let path = ascending ? key : String(key.dropFirst())
            sort.append((try keyPath(path, from: entity, field: "\(field).sort", allowToMany: path.hasSuffix(".@count")), ascending))
        }
        let prefetchPaths =
            try options["prefetch"].map { try strings($0, field: "\(field).prefetch", what: "relationship key paths") } ?? []
        if prefetchPaths.count > 1, prefetchPaths.contains(where: { manualKey($0, from: entity) != nil }) {
            throw fail("\(field).prefetch", "a key kept by hand is prefetched on its own: give it as the only key path")
        }
        let prefetch = try prefetchPaths.map { try relationshipPath($0, from: entity, field: "\(field).prefetch") }
        let resultName = options["result"]?.string ?? "objects"
        guard let result = Step.Result(rawValue: resultName) else {
            throw fail("\(field).result", "expected objects, ids or count, got \(options["result"] ?? .null)")
        }
        return Step.Fetch(
            entity: entity, predicate: predicate, variables: variables, sort: sort,
            limit: try options["limit"].map { try integer($0, field: "\(field).limit", minimum: 0) } ?? 0,
            offset: try options["offset"].map { try integer($0, field: "\(field).offset", minimum: 0) } ?? 0,
            batchSize: try options["batchSize"].map { try integer($0, field: "\(field).batchSize", minimum: 0) } ?? 0,
            prefetch: prefetch, faults: try bool(options["faults"], true, field: "\(field).faults"),
            propertyValues: try bool(options["propertyValues"], true, field: "\(field).propertyValues"),
            result: result, subentities: try bool(options["subentities"], true, field: "\(field).subentities"))
    }

    /// Key paths start at the entity of the phase's last fetch of objects.
    private func read(_ value: JSONValue, _ options: [String: JSONValue], field: String, fetched: EntityDescription?) throws -> Step {
        let paths = try strings(value, field: field, what: "key paths")
        var until: String?
        if let raw = options["until"] {
            guard let text = raw.string, text.hasPrefix("$"), phaseVariables[String(text.dropFirst())] != nil else {
                throw fail("\(field).until", "expected \"$name\", a variable of the phase's, got \(raw)")
            }
            guard paths.count == 1, options["first"] == nil else {
                throw fail("\(field).until", "'until' reads one key path (a to-many, then an attribute), without 'first'")
            }
            until = String(text.dropFirst())
        }
        let first = try options["first"].map { try integer($0, field: "\(field).first", minimum: 1) }
        guard let entity = fetched else { throw fail(field, "'read' needs a fetch of objects before it in its phase") }
        let keyPaths = try paths.map { try keyPath($0, from: entity, field: "\(field).read") }
        if until != nil, let path = keyPaths.first, !path.isMemberAttribute {
            throw fail(
                "\(field).until",
                "'until' walks a to-many and compares one attribute of each member: '\(path)' is not such a key path (e.g. students.name)")
        }
        return .read(keyPaths: keyPaths, first: first, until: until)
    }

    private func insert(_ value: JSONValue, _ options: [String: JSONValue], field: String) throws -> Step {
        let entity = try entity(value, field: field, concrete: true)
        let count =
            try options["count"].map { raw -> DataSpec.Count in
                guard let count = DataSpec.Count.parse(raw) else {
                    throw fail("\(field).count", "expected a number, \"size\" or \"k*size\", got \(raw)")
                }
                return count
            } ?? .fixed(1)
        var children: [Step.Children] = []
        for (name, raw) in (options["children"]?.object ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let relationship = entity.relationship(name), relationship.isToMany else {
                throw fail(
                    "\(field).children",
                    "'\(entity.name)' has no to-many relationship '\(name)'"
                        + DataSpec.listing(name, entity.relationships.filter(\.isToMany).map(\.name), what: "to-many relationships"))
            }
            guard !relationship.destination.isAbstract else {
                throw fail(
                    "\(field).children",
                    "'\(entity.name).\(name)' leads to the abstract entity \(relationship.destination.name); children need a concrete entity"
                )
            }
            children.append(
                Step.Children(relationship: relationship, count: try integer(raw, field: "\(field).children.\(name)", minimum: 0)))
        }
        var into: (owner: EntityDescription, relationship: RelationshipDescription)?
        if let raw = options["into"] {
            let parts = raw.string?.split(separator: ".").map(String.init) ?? []
            guard parts.count == 2, let owner = model.entity(parts[0]) else {
                throw fail(
                    "\(field).into",
                    "expected \"Entity.relationship\", a to-many of an existing entity whose members are \(entity.name)s, got \(raw)"
                        + (parts.count == 2 ? DataSpec.suggestion(parts[0], model.entities.map(\.name)) : ""))
            }
            guard let relationship = owner.relationship(parts[1]), relationship.isToMany, entity.isKind(of: relationship.destination) else {
                throw fail(
                    "\(field).into",
                    "'\(parts[0])' has no to-many relationship '\(parts[1])' to \(entity.name)"
                        + DataSpec.listing(parts[1], owner.relationships.filter(\.isToMany).map(\.name), what: "to-many relationships"))
            }
            into = (owner, relationship)
        }
        var fromMember = false
        if let raw = options["side"] {
            guard into != nil, let side = raw.string, side == "owner" || side == "member" else {
                throw fail("\(field).side", "expected \"owner\" or \"member\" with \"into\", got \(raw)")
            }
            fromMember = side == "member"
            if fromMember, let into, into.relationship.inverse.map({ $0.isToMany }) ?? true {
                throw fail(
                    "\(field).side",
                    "'\(into.owner.name).\(into.relationship.name)' has no to-one inverse to set from the member's side; add from the owner's side (\"side\": \"owner\")"
                )
            }
        }
        return .insert(
            entity: entity, count: count, children: children,
            into: into.map { Step.Into(owner: $0.owner, relationship: $0.relationship, fromMember: fromMember) })
    }

    private func batchUpdate(_ value: JSONValue, _ options: [String: JSONValue], field: String) throws -> Step {
        let entity = try entity(value, field: field, concrete: false)
        let predicate = try options["predicate"].map { try self.predicate($0, entity: entity, variables: [:], field: "\(field).predicate") }
        guard let set = options["set"]?.object, !set.isEmpty else {
            throw fail(field, "'batch-update' needs \"set\": {\"attribute\": value}")
        }
        var values: [(attribute: AttributeDescription, value: Value)] = []
        for (name, raw) in set.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attribute(name) else {
                throw fail(
                    "\(field).set",
                    "'\(entity.name)' has no attribute '\(name)'"
                        + DataSpec.listing(name, entity.attributes.map(\.name), what: "attributes"))
            }
            guard let literal = DataSpec.literal(raw, for: attribute) else {
                let form = attribute.type == .date ? " (a date is written \"YYYY-MM-DD\")" : ""
                throw fail("\(field).set.\(name)", "\(raw) is no \(attribute.type.xcodeName) value\(form)")
            }
            // A batch update writes the store directly, past validation, but not past the type.
            if let problem = DataGenerator.beyondType(literal, attribute.type) {
                throw fail("\(field).set.\(name)", "\(raw) \(problem)")
            }
            values.append((attribute, literal))
        }
        return .batchUpdate(entity: entity, predicate: predicate, values: values)
    }

    // MARK: Values

    func strings(_ raw: JSONValue, field: String, what: String) throws -> [String] {
        if let text = raw.string { return [text] }
        guard let list = raw.array, list.allSatisfy({ $0.string != nil }) else {
            throw fail(field, "expected an array of \(what), got \(raw)")
        }
        return list.compactMap(\.string)
    }

    func integer(_ raw: JSONValue, field: String, minimum: Int) throws -> Int {
        guard let number = raw.number, number.rounded() == number, number >= Double(minimum), number <= 1_000_000_000 else {
            throw fail(field, "expected a whole number from \(minimum) to 1000000000, got \(raw)")
        }
        return Int(number)
    }

    private func bool(_ raw: JSONValue?, _ defaultValue: Bool, field: String) throws -> Bool {
        guard let raw else { return defaultValue }
        guard case let .bool(flag) = raw else { throw fail(field, "expected true or false, got \(raw)") }
        return flag
    }

    private func share(_ raw: JSONValue?, field: String) throws -> Double {
        guard let raw else { return 1 }
        guard let value = raw.number, value > 0, value <= 1 else {
            throw fail("\(field).share", "expected a fraction in (0, 1], got \(raw)")
        }
        return value
    }
}
