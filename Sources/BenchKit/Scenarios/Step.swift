import Foundation
import ObjectGraph

/// One step of a declared phase, as a screen or job of an app would do it through Core Data's API.
///
/// Each step is a JSON object with one kind key and its options:
/// `{"fetch": "Post", "predicate": "title CONTAINS[cd] $q", "variables": {"q": {"word": "Post.title"}},
///   "sort": ["-createdAt"], "limit": 20, "offset": 0, "batchSize": 0, "prefetch": ["author"], "faults": false}`,
/// `{"read": ["author.name", "tags.name", "likes.@count"], "first": 20}` (`subjects.@first.name`: the first member only;
/// `"until": "$name"`: members read until one has that value), `{"count": "Post", "predicate": "..."}`,
/// `{"insert": "Post", "count": 10, "children": {"comments": 3}}`, `{"insert-data": true}` (the data section's whole
/// graph, into a fresh store; or a data section of its own), `{"update": "Post.title", "share": 0.1}`,
/// `{"delete": "Chat", "share": 0.1}`, `{"batch-insert": "Tag", "count": 100}`,
/// `{"batch-update": "Post", "predicate": "...", "set": {"title": "x"}}`, `{"batch-delete": "Like", "predicate": "..."}`,
/// `{"link": "User.following", "count": 100}` (and `unlink`), `{"delete-fetched": true}`,
/// `{"save": true}` (or `"may-fail"`), `{"reset": true}`, `{"new-context": true}`, `{"merge": [steps]}` (a second context runs the
/// steps and saves; this one merges the save), `{"count-links": "Student.subjects"}` (re-read in a new context: the
/// links the phase inserted that the store kept). Any option may depend on a variant,
/// `{"variant": "prefetch", "on": ["author"], "off": []}`, and a step may run only for some variant values,
/// `"when": {"count": "derived"}`.
indirect enum Step: Sendable {
    enum Result: String, Sendable { case objects, ids, count }

    struct Fetch: Sendable {
        let entity: String
        let predicate: String?
        let variables: [String: Variable]
        let sort: [(keyPath: String, ascending: Bool)]
        let limit: Int
        let offset: Int
        let batchSize: Int
        let prefetch: [String]
        let faults: Bool
        let propertyValues: Bool
        let result: Result
        let subentities: Bool
    }

    /// Which generated object a variable takes: seeded-random, by index, or by the round of a repeating phase.
    enum Pick: Sendable, Equatable {
        case random
        case index(Int)
        case round
    }

    /// Where a predicate variable's value comes from, chosen before the phase is timed.
    enum Variable: Sendable {
        case value(Value)
        /// A word of the generated value of `attribute` of an object of `entity`.
        case word(entity: String, attribute: String, pick: Pick)
        /// The generated value of `attribute` of an object of `entity`, so that with the same pick as an `object`
        /// variable it is that object's value; with `memberOf`, of a seeded-random member of the picked owner.
        case valueOf(entity: String, attribute: String, pick: Pick, memberOf: (entity: String, relationship: String)?)
        /// An object of `entity` (or, with `memberOf`, a seeded-random member of the picked owner).
        case object(entity: String, pick: Pick, memberOf: (entity: String, relationship: String)?)

        /// Whether the variable picks by the round of a repeating phase.
        var usesRound: Bool {
            switch self {
            case .value: return false
            case let .word(_, _, pick), let .valueOf(_, _, pick, _), let .object(_, pick, _): return pick == .round
            }
        }
    }

    case fetch(Fetch)
    case count(Fetch)
    /// `until`: the name of a variable; the members along the one key path are read until one has its value.
    case read(keyPaths: [String], first: Int?, until: String?)
    /// `into`: each new object joins this to-many of an existing object chosen at random: from the owner's side
    /// (`owner.addToMembers(new)`), or with `fromMember` from the new object's side (`new.owner = owner`, the
    /// to-one inverse), as an app sets it.
    case insert(
        entity: String, count: DataSpec.Count, children: [(relationship: String, count: Int)],
        into: (entity: String, relationship: String)?, fromMember: Bool
    )
    /// Inserts the whole graph of the data section (every entity, every filled relationship), as an import does; or of
    /// a data section of the step's own.
    case insertData(DataSpec?)
    case update(entity: String, attribute: String, share: Double)
    case delete(entity: String, share: Double)
    case batchInsert(entity: String, count: DataSpec.Count)
    case batchUpdate(entity: String, predicate: String?, values: [(attribute: String, value: JSONValueBox)])
    case batchDelete(entity: String, predicate: String?)
    /// Adds (or removes) `count` memberships of a relationship: random sources gain random destinations, or lose
    /// members the data gave them (seed 001's follow and unfollow).
    case link(entity: String, relationship: String, count: DataSpec.Count, unlink: Bool)
    /// Deletes the objects of the last fetch.
    case deleteFetched
    /// `mayFail`: a save a delete rule (deny) or a validation can refuse; the failure is counted and rolled back.
    case save(mayFail: Bool)
    case reset
    /// The steps' own references to what they made or fetched are dropped, as an app's loop iteration ends: what
    /// the context does not hold is freed now, in the timed phase.
    case letGo
    case newContext
    case merge([Step])
    /// Re-reads `relationship` for every source in a new context (prefetching it), and counts the links kept against
    /// the links the phase inserted: what a to-many without inverse loses on save.
    case countLinks(entity: String, relationship: String)

    static let kinds = [
        "fetch", "count", "read", "insert", "insert-data", "update", "delete", "delete-fetched", "link", "unlink",
        "batch-insert", "batch-update", "batch-delete", "save", "reset", "let-go", "new-context", "merge", "count-links",
    ]
}

/// A JSON value carried into a step (Sendable wrapper).
struct JSONValueBox: @unchecked Sendable {
    let value: JSONValue
}

/// Reads steps for one variant: choices resolved, `when` applied, every name checked against the variant's model.
struct StepParser {
    let model: ObjectModel
    let variant: Variant
    /// The scenario's axes and their values.
    let axes: [(name: String, values: [VariantValue])]
    /// Relationships the variant replaced by keys kept by hand: key paths may still name them.
    let manualKeys: [ManualKey]
    let fail: (String, String) -> BenchError
    /// Variables the phase defines for all its steps (resolved once per phase).
    var phaseVariables: [String: Step.Variable] = [:]

    /// The steps of `list` (at `field`, e.g. `phases[0].steps`).
    func steps(_ list: JSONValue, field: String) throws -> [Step] {
        guard let items = list.array else { throw fail(field, "expected an array of steps") }
        var steps: [Step] = []
        for (index, item) in items.enumerated() {
            let here = "\(field)[\(index)]"
            guard var object = item.object else { throw fail(here, "expected a step object like {\"fetch\": \"Entity\"}") }
            if let when = object.removeValue(forKey: "when") {
                guard try applies(when, field: here) else { continue }
            }
            var kinds = object.keys.filter { Step.kinds.contains($0) }
            // "count" is also an option (of insert, link, batch-insert): with another kind present, it is that option.
            if kinds.count == 2, kinds.contains("count") { kinds.removeAll { $0 == "count" } }
            // A "count" that is a number is that option of a step whose kind is misspelled.
            if kinds == ["count"], object["count"]?.string == nil { kinds = [] }
            guard kinds.count == 1, let kind = kinds.first else {
                let unknown = object.keys.sorted().first { !Step.kinds.contains($0) } ?? ""
                let near = nearNames(unknown, in: Step.kinds)
                throw fail(
                    here,
                    kinds.isEmpty
                        ? "no step kind; a step is one of \(Step.kinds.joined(separator: ", "))"
                            + (near.isEmpty ? "" : " (did you mean '\(near[0])'?)")
                        : "one step kind per step, got \(kinds.sorted().joined(separator: " and "))")
            }
            let options = try resolved(object, field: here)
            steps.append(try step(kind, options, field: here))
        }
        return steps
    }

    private var choices: VariantChoices { VariantChoices(variant: variant, axes: axes, fail: fail) }

    /// Whether `when` (`{"axis": "value"}` or `{"axis": ["a", "b"]}`) holds for this variant.
    private func applies(_ when: JSONValue, field: String) throws -> Bool { try choices.applies(when, field: field) }

    /// The options with every `{"variant": axis, ...}` choice resolved for this variant.
    private func resolved(_ object: [String: JSONValue], field: String) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (key, value) in object { result[key] = try choices.resolve(value, field: "\(field).\(key)") }
        return result
    }

    private func step(_ kind: String, _ options: [String: JSONValue], field: String) throws -> Step {
        let value = options[kind]!
        func allow(_ keys: [String]) throws {
            for key in options.keys.sorted() where key != kind && !keys.contains(key) {
                let near = nearNames(key, in: keys)
                throw fail(
                    field,
                    "'\(kind)' has no option '\(key)'"
                        + (near.isEmpty
                            ? (keys.isEmpty ? "" : "; it takes \(keys.joined(separator: ", "))") : " (did you mean '\(near[0])'?)"))
            }
        }
        switch kind {
        case "fetch", "count":
            try allow([
                "predicate", "variables", "sort", "limit", "offset", "batchSize", "prefetch", "faults", "propertyValues", "result",
                "subentities",
            ])
            let fetch = try self.fetch(value, options, field: field)
            return kind == "fetch" ? .fetch(fetch) : .count(fetch)
        case "read":
            try allow(["first", "until"])
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
            // Key paths start at the entity of the last fetch; they are checked when the phase is planned.
            return .read(
                keyPaths: paths, first: try options["first"].map { try integer($0, field: "\(field).first", minimum: 1) }, until: until)
        case "insert":
            try allow(["count", "children", "into", "side"])
            let entity = try entityName(value, field: field, concrete: true)
            let count =
                try options["count"].map { raw -> DataSpec.Count in
                    guard let count = DataSpec.Count.parse(raw) else {
                        throw fail("\(field).count", "expected a number, \"size\" or \"k*size\", got \(raw)")
                    }
                    return count
                } ?? .fixed(1)
            var children: [(String, Int)] = []
            for (name, raw) in (options["children"]?.object ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let relationship = model.entity(entity)?.relationship(name), relationship.isToMany else {
                    throw fail("\(field).children", "'\(entity)' has no to-many relationship '\(name)'")
                }
                guard !relationship.destination.isAbstract else {
                    throw fail(
                        "\(field).children",
                        "'\(entity).\(name)' leads to the abstract entity \(relationship.destination.name); children need a concrete entity"
                    )
                }
                children.append((name, try integer(raw, field: "\(field).children.\(name)", minimum: 0)))
            }
            var into: (String, String)?
            if let raw = options["into"] {
                let parts = raw.string?.split(separator: ".").map(String.init) ?? []
                guard parts.count == 2, let owner = model.entity(parts[0]) else {
                    throw fail(
                        "\(field).into",
                        "expected \"Entity.relationship\", a to-many of an existing entity whose members are \(entity)s, got \(raw)")
                }
                guard let relationship = owner.relationship(parts[1]), relationship.isToMany,
                    let inserted = model.entity(entity), inserted.isKind(of: relationship.destination)
                else {
                    throw fail(
                        "\(field).into",
                        "'\(parts[0])' has no to-many relationship '\(parts[1])' to \(entity)"
                            + DataSpec.listing(parts[1], owner.relationships.filter(\.isToMany).map(\.name), what: "to-many relationships"))
                }
                into = (parts[0], parts[1])
            }
            var fromMember = false
            if let raw = options["side"] {
                guard into != nil, let side = raw.string, side == "owner" || side == "member" else {
                    throw fail("\(field).side", "expected \"owner\" or \"member\" with \"into\", got \(raw)")
                }
                fromMember = side == "member"
                if fromMember, let (owner, name) = into, let relationship = model.entity(owner)?.relationship(name),
                    relationship.inverse.map({ $0.isToMany }) ?? true
                {
                    throw fail(
                        "\(field).side",
                        "'\(owner).\(name)' has no to-one inverse to set from the member's side; add from the owner's side (\"side\": \"owner\")"
                    )
                }
            }
            return .insert(entity: entity, count: count, children: children, into: into, fromMember: fromMember)
        case "update":
            try allow(["share"])
            guard let target = value.string, target.split(separator: ".").count == 2 else {
                throw fail(field, "'update' names \"Entity.attribute\", got \(value)")
            }
            let parts = target.split(separator: ".").map(String.init)
            let entity = try entityName(.string(parts[0]), field: field, concrete: false)
            guard let attribute = model.entity(entity)?.attribute(parts[1]), !attribute.isTransient else {
                throw fail(
                    field,
                    "'\(entity)' has no stored attribute '\(parts[1])'"
                        + DataSpec.listing(parts[1], model.entity(entity)!.attributes.map(\.name), what: "attributes"))
            }
            return .update(entity: entity, attribute: attribute.name, share: try share(options["share"], field: field))
        case "delete":
            try allow(["share"])
            return .delete(entity: try entityName(value, field: field, concrete: false), share: try share(options["share"], field: field))
        case "batch-insert":
            try allow(["count"])
            let entity = try entityName(value, field: field, concrete: true)
            guard let count = DataSpec.Count.parse(options["count"] ?? .number(1)) else { throw fail("\(field).count", "expected a count") }
            return .batchInsert(entity: entity, count: count)
        case "batch-update":
            try allow(["predicate", "set"])
            let entity = try entityName(value, field: field, concrete: false)
            let predicate = try options["predicate"].map {
                try self.predicate($0, entity: entity, variables: [:], field: "\(field).predicate")
            }
            guard let set = options["set"]?.object, !set.isEmpty else {
                throw fail(field, "'batch-update' needs \"set\": {\"attribute\": value}")
            }
            var values: [(String, JSONValueBox)] = []
            for (name, raw) in set.sorted(by: { $0.key < $1.key }) {
                guard let attribute = model.entity(entity)?.attribute(name) else {
                    throw fail("\(field).set", "'\(entity)' has no attribute '\(name)'")
                }
                guard let literal = DataSpec.literal(raw, for: attribute) else {
                    let form = attribute.type == .date ? " (a date is written \"YYYY-MM-DD\")" : ""
                    throw fail("\(field).set.\(name)", "\(raw) is no \(attribute.type.xcodeName) value\(form)")
                }
                // A batch update writes the store directly, past validation, but not past the type.
                if let problem = DataGenerator.beyondType(literal, attribute.type) {
                    throw fail("\(field).set.\(name)", "\(raw) \(problem)")
                }
                values.append((name, JSONValueBox(value: raw)))
            }
            return .batchUpdate(entity: entity, predicate: predicate, values: values)
        case "batch-delete":
            try allow(["predicate"])
            let entity = try entityName(value, field: field, concrete: false)
            return .batchDelete(
                entity: entity,
                predicate: try options["predicate"].map {
                    try self.predicate($0, entity: entity, variables: [:], field: "\(field).predicate")
                })
        case "link", "unlink":
            try allow(["count"])
            guard let target = value.string, target.split(separator: ".").count == 2 else {
                throw fail(field, "'\(kind)' names \"Entity.relationship\", got \(value)")
            }
            let parts = target.split(separator: ".").map(String.init)
            let entity = try entityName(.string(parts[0]), field: field, concrete: false)
            guard model.entity(entity)?.relationship(parts[1]) != nil else {
                throw fail(
                    field,
                    "'\(entity)' has no relationship '\(parts[1])'" + DataSpec.relationshipSuggestion(parts[1], of: model.entity(entity)!))
            }
            guard let count = DataSpec.Count.parse(options["count"] ?? .number(1)) else { throw fail("\(field).count", "expected a count") }
            return .link(entity: entity, relationship: parts[1], count: count, unlink: kind == "unlink")
        case "save":
            try allow([])
            switch value {
            case .bool(true): return .save(mayFail: false)
            case .string("may-fail"): return .save(mayFail: true)
            default:
                throw fail(field, "write {\"save\": true}, or {\"save\": \"may-fail\"} for a save a delete rule or validation may refuse")
            }
        case "insert-data":
            try allow([])
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
        case "count-links":
            try allow([])
            guard let target = value.string, target.split(separator: ".").count == 2 else {
                throw fail(field, "'count-links' names \"Entity.relationship\", a to-many, got \(value)")
            }
            let parts = target.split(separator: ".").map(String.init)
            let entity = try entityName(.string(parts[0]), field: field, concrete: false)
            guard let relationship = model.entity(entity)?.relationship(parts[1]), relationship.isToMany else {
                throw fail(
                    field,
                    "'\(entity)' has no to-many relationship '\(parts[1])'"
                        + DataSpec.relationshipSuggestion(parts[1], of: model.entity(entity)!))
            }
            return .countLinks(entity: entity, relationship: parts[1])
        case "reset", "new-context", "delete-fetched", "let-go":
            try allow([])
            guard case .bool(true) = value else { throw fail(field, "write {\"\(kind)\": true}") }
            switch kind {
            case "delete-fetched": return .deleteFetched
            case "reset": return .reset
            case "let-go": return .letGo
            default: return .newContext
            }
        case "merge":
            try allow([])
            return .merge(try steps(value, field: "\(field).merge"))
        default:
            throw fail(field, "unknown step '\(kind)'")
        }
    }

    private func fetch(_ value: JSONValue, _ options: [String: JSONValue], field: String) throws -> Step.Fetch {
        let entity = try entityName(value, field: field, concrete: false)
        var variables: [String: Step.Variable] = [:]
        for (name, raw) in (options["variables"]?.object ?? [:]) {
            variables[name] = try variable(raw, field: "\(field).variables.\(name)")
        }
        let predicate = try options["predicate"].map {
            try self.predicate(
                $0, entity: entity, variables: variables.merging(phaseVariables) { step, _ in step }, field: "\(field).predicate")
        }
        var sort: [(String, Bool)] = []
        for key in try options["sort"].map({ try strings($0, field: "\(field).sort", what: "sort keys") }) ?? [] {
            let ascending = !key.hasPrefix("-")
            let path = ascending ? key : String(key.dropFirst())
            try checkKeyPath(path, from: entity, field: "\(field).sort", allowToMany: path.hasSuffix(".@count"))
            sort.append((path, ascending))
        }
        let prefetch = try options["prefetch"].map { try strings($0, field: "\(field).prefetch", what: "relationship key paths") } ?? []
        if prefetch.count > 1, prefetch.contains(where: { manualKey($0, from: entity) != nil }) {
            throw fail("\(field).prefetch", "a key kept by hand is prefetched on its own: give it as the only key path")
        }
        for path in prefetch { try checkRelationshipPath(path, from: entity, field: "\(field).prefetch") }
        let resultName = options["result"]?.string ?? "objects"
        guard let result = Step.Result(rawValue: resultName) else {
            throw fail("\(field).result", "expected objects, ids or count, got \(options["result"]!)")
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

    /// A predicate format string, parsed now (with placeholder values for its variables) so that a mistake is
    /// reported, with its position, before anything runs.
    private func predicate(_ raw: JSONValue, entity: String, variables: [String: Step.Variable], field: String) throws -> String {
        guard let text = raw.string else { throw fail(field, "expected a predicate format string, got \(raw)") }
        do {
            let parsed = try FetchPredicate(format: text)
            for name in parsed.variableNames.sorted() where variables[name] == nil {
                throw fail(field, "uses $\(name), which 'variables' does not define")
            }
            // Each key path names properties of the model (a collection operator's @sum/@min/@max/@avg reads the
            // attribute after it on the to-many's destination).
            for path in parsed.keyPaths where path != "SELF" && path != "self" {
                let plain = path.split(separator: ".").filter { !["@sum", "@min", "@max", "@avg"].contains($0) }.joined(separator: ".")
                try checkKeyPath(plain, from: entity, field: field)
            }
            // Compiled as a fetch would compile it, so that a constant of the wrong type for its key path stops
            // here; one with variables is compiled when they are chosen.
            if parsed.variableNames.isEmpty { try model.check(FetchRequest(entity, predicate: parsed)) }
        } catch let error as ObjectGraphError {
            throw fail(field, "\(error)")
        }
        return text
    }

    func variable(_ raw: JSONValue, field: String) throws -> Step.Variable {
        if let object = raw.object {
            let known = ["word", "valueOf", "object", "index", "memberOf"]
            if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
                throw fail(field, "a variable has no key '\(unknown)'; it takes word, valueOf or object, with index and memberOf")
            }
            let pick: Step.Pick
            switch object["index"] {
            case nil: pick = .random
            case .string("round")?: pick = .round
            case let raw?: pick = .index(try integer(raw, field: "\(field).index", minimum: 0))
            }
            var memberOf: (entity: String, relationship: String)?
            if let raw = object["memberOf"] {
                let parts = raw.string?.split(separator: ".").map(String.init) ?? []
                guard parts.count == 2, let owner = model.entity(parts[0]),
                    owner.relationship(parts[1])?.isToMany == true || manualKey(parts[1], from: parts[0])?.toMany == true
                else {
                    throw fail("\(field).memberOf", "expected \"Entity.relationship\", a to-many of the model, got \(raw)")
                }
                memberOf = (parts[0], parts[1])
            }
            if let target = object["word"]?.string ?? object["valueOf"]?.string {
                let parts = target.split(separator: ".").map(String.init)
                guard parts.count == 2, let entity = model.entity(parts[0]), entity.attribute(parts[1]) != nil else {
                    throw fail(field, "expected \"Entity.attribute\" of the model, got \(target)")
                }
                if object["word"] != nil {
                    guard memberOf == nil else { throw fail(field, "'memberOf' goes with valueOf or object") }
                    return .word(entity: parts[0], attribute: parts[1], pick: pick)
                }
                return .valueOf(entity: parts[0], attribute: parts[1], pick: pick, memberOf: memberOf)
            }
            if let entity = object["object"]?.string {
                guard model.entity(entity) != nil else {
                    throw fail(field, "no entity '\(entity)'" + DataSpec.suggestion(entity, model.entities.map(\.name)))
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

    // MARK: Checks against the model

    private func entityName(_ raw: JSONValue, field: String, concrete: Bool) throws -> String {
        guard let name = raw.string else { throw fail(field, "expected an entity name, got \(raw)") }
        guard let entity = model.entity(name) else {
            throw fail(field, "no entity '\(name)' in the model" + DataSpec.suggestion(name, model.entities.map(\.name)))
        }
        if concrete && entity.isAbstract {
            throw fail(
                field, "'\(name)' is abstract; use one of its sub-entities (\(entity.subentities.map(\.name).joined(separator: ", ")))")
        }
        return name
    }

    /// A key path of attributes and relationships from `entity`; `@count` may end it after a to-many, `@first` may
    /// follow one. A relationship a variant replaced by a key kept by hand is read through that key.
    func checkKeyPath(_ path: String, from entity: String, field: String, allowToMany: Bool = true) throws {
        var current = model.entity(entity)!
        let components = path.split(separator: ".").map(String.init)
        var afterToMany = false
        for (index, component) in components.enumerated() {
            let last = index == components.count - 1
            if component == "@count" {
                guard last, afterToMany else { throw fail(field, "'\(path)': @count ends a key path after a to-many relationship") }
                continue
            }
            if component == "@first" {
                guard !last, afterToMany else {
                    throw fail(field, "'\(path)': @first follows a to-many relationship and goes on to its member's properties")
                }
                afterToMany = false
                continue
            }
            afterToMany = false
            if let relationship = current.relationship(component) {
                if relationship.isToMany && !allowToMany { throw fail(field, "'\(path)' goes through the to-many '\(component)'") }
                current = relationship.destination
                afterToMany = relationship.isToMany
                continue
            }
            if let key = manualKey(component, from: current.name),
                let destination = model.entity(key.toMany ? key.key.member : key.key.owner)
            {
                if key.toMany && !allowToMany { throw fail(field, "'\(path)' goes through the to-many '\(component)'") }
                current = destination
                afterToMany = key.toMany
                continue
            }
            if current.attribute(component) != nil || current.derivedAttribute(component) != nil {
                guard last else { throw fail(field, "'\(path)': '\(component)' is an attribute; nothing follows it") }
                continue
            }
            throw fail(
                field, "'\(path)': \(current.name) has no property '\(component)'" + DataSpec.listing(component, current.propertyNames))
        }
    }

    /// Whether `path` is a to-many followed by one attribute of its members (`students.name`), what `until` walks.
    func isMemberAttributePath(_ path: String, from entity: String) -> Bool {
        let parts = path.split(separator: ".").map(String.init)
        guard parts.count == 2, let source = model.entity(entity) else { return false }
        if let relationship = source.relationship(parts[0]) {
            return relationship.isToMany && relationship.destination.attribute(parts[1]) != nil
        }
        guard let key = manualKey(parts[0], from: entity), key.toMany else { return false }
        return model.entity(key.key.member)?.attribute(parts[1]) != nil
    }

    /// The key kept by hand that `name` stands for on `entity` (or one of its parents): the owner's removed to-many,
    /// or the member's removed to-one.
    func manualKey(_ name: String, from entity: String) -> (key: ManualKey, toMany: Bool)? {
        ManualKey.named(name, from: model.entity(entity), in: manualKeys)
    }

    private func checkRelationshipPath(_ path: String, from entity: String, field: String) throws {
        if manualKey(path, from: entity) != nil { return }
        var current = model.entity(entity)!
        for component in path.split(separator: ".").map(String.init) {
            guard let relationship = current.relationship(component) else {
                if manualKey(component, from: current.name) != nil {
                    throw fail(
                        field,
                        "'\(path)': '\(component)' is kept by hand in this variant; prefetch it alone, as the first key path component")
                }
                throw fail(
                    field,
                    "'\(path)': \(current.name) has no relationship '\(component)'"
                        + DataSpec.relationshipSuggestion(component, of: current))
            }
            current = relationship.destination
        }
    }

    // MARK: Values

    private func strings(_ raw: JSONValue, field: String, what: String) throws -> [String] {
        if let text = raw.string { return [text] }
        guard let list = raw.array, list.allSatisfy({ $0.string != nil }) else {
            throw fail(field, "expected an array of \(what), got \(raw)")
        }
        return list.compactMap(\.string)
    }

    private func integer(_ raw: JSONValue, field: String, minimum: Int) throws -> Int {
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

/// Choices by variant in a scenario file: `{"variant": "axis", "a": ..., "b": ..., "else": ...}` picks the value for the
/// variant's value of `axis`, or the `else` one (nested choices too); `{"variant": "axis"}` alone is that value itself; `"when": {"axis": ["a", "b"]}`
/// keeps a step for those values only. Used for steps, phases and the data section alike.
struct VariantChoices {
    let variant: Variant
    /// The scenario's axes and their values: a choice or a `when` naming a value its axis lacks is a mistake.
    let axes: [(name: String, values: [VariantValue])]
    let fail: (String, String) -> BenchError

    /// `value` with every choice resolved for the variant.
    func resolve(_ value: JSONValue, field: String) throws -> JSONValue {
        if let choice = value.object, let axis = choice["variant"]?.string {
            guard let actual = variant[axis] else {
                throw fail(field, "chooses by the variant '\(axis)', which the scenario does not declare")
            }
            if choice.count == 1 {
                switch actual {
                case let .text(text): return .string(text)
                case let .number(number): return .number(number)
                }
            }
            let values = axes.first { $0.name == axis }?.values.map(\.description) ?? []
            if let unknown = choice.keys.sorted().first(where: { $0 != "variant" && $0 != "else" && !values.contains($0) }) {
                throw fail(
                    field,
                    "chooses by the variant '\(axis)' and names '\(unknown)', which is not one of its values (\(values.joined(separator: ", ")))"
                )
            }
            guard let picked = choice[actual.description] ?? choice["else"] else {
                throw fail(field, "chooses by the variant '\(axis)' but gives no value for '\(actual)' (nor an \"else\")")
            }
            return try resolve(picked, field: field)
        }
        switch value {
        case let .object(object):
            var result: [String: JSONValue] = [:]
            for (key, item) in object { result[key] = try resolve(item, field: "\(field).\(key)") }
            return .object(result)
        case let .array(items):
            return .array(try items.enumerated().map { try resolve($0.element, field: "\(field)[\($0.offset)]") })
        default:
            return value
        }
    }

    /// Whether `when` (`{"axis": "value"}` or `{"axis": ["a", "b"]}`) holds for this variant.
    func applies(_ when: JSONValue, field: String) throws -> Bool {
        guard let conditions = when.object, !conditions.isEmpty else { throw fail(field, "'when' is {\"variant\": \"value\"}") }
        var holds = true
        for (axis, wanted) in conditions.sorted(by: { $0.key < $1.key }) {
            guard let actual = variant[axis] else {
                throw fail(field, "'when' names the variant '\(axis)', which the scenario does not declare")
            }
            let values = wanted.array ?? [wanted]
            let known = axes.first { $0.name == axis }?.values ?? []
            guard !values.isEmpty else {
                throw fail(
                    field,
                    "'when' gives the variant '\(axis)' an empty list of values, so the step would run in no variant; name the values it runs for (\(known.map(\.description).joined(separator: ", "))) or remove the step"
                )
            }
            if let unknown = values.first(where: { value in !known.contains { Self.matches(value, $0) } }) {
                throw fail(
                    field,
                    "'when' names \(unknown) for the variant '\(axis)', which is not one of its values (\(known.map(\.description).joined(separator: ", ")))"
                )
            }
            if !values.contains(where: { Self.matches($0, actual) }) { holds = false }
        }
        return holds
    }

    static func matches(_ json: JSONValue, _ value: VariantValue) -> Bool {
        switch (json, value) {
        case let (.string(text), .text(actual)): return text == actual
        case let (.number(number), .number(actual)): return number == actual
        case let (.string(text), .number(actual)): return text == VariantValue.number(actual).description
        default: return false
        }
    }
}
