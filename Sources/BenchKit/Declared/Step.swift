import Foundation
import ObjectGraph

/// One step of a declared phase, as a screen or job of an app would do it through Core Data's API.
///
/// Each step is a JSON object with one kind key and its options:
/// `{"fetch": "Post", "predicate": "title CONTAINS[cd] $q", "variables": {"q": {"word": "Post.title"}},
///   "sort": ["-createdAt"], "limit": 20, "offset": 0, "batchSize": 0, "prefetch": ["author"], "faults": false}`,
/// `{"read": ["author.name", "tags.name", "likes.@count"], "first": 20}`, `{"count": "Post", "predicate": "..."}`,
/// `{"insert": "Post", "count": 10, "children": {"comments": 3}}`, `{"insert-data": true}` (the data section's whole
/// graph, into a fresh store), `{"update": "Post.title", "share": 0.1}`,
/// `{"delete": "Chat", "share": 0.1}`, `{"batch-insert": "Tag", "count": 100}`,
/// `{"batch-update": "Post", "predicate": "...", "set": {"title": "x"}}`, `{"batch-delete": "Like", "predicate": "..."}`,
/// `{"link": "User.following", "count": 100}` (and `unlink`), `{"delete-fetched": true}`,
/// `{"save": true}` (or `"may-fail"`), `{"reset": true}`, `{"new-context": true}`, `{"merge": [steps]}` (a second context runs the
/// steps and saves; this one merges the save). Any option may depend on a variant,
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

    /// Where a predicate variable's value comes from, chosen before the phase is timed.
    enum Variable: Sendable {
        case value(Value)
        /// A word of the generated value of `attribute` of an object of `entity` (by index; nil: seeded-random).
        case word(entity: String, attribute: String, index: Int?)
        /// The generated value of `attribute` of an object of `entity` (by index; nil: seeded-random), so that with the
        /// same index as an `object` variable it is that object's value.
        case valueOf(entity: String, attribute: String, index: Int?)
        /// An object of `entity` (by index among the generated ones; nil: seeded-random).
        case object(entity: String, index: Int?)
    }

    case fetch(Fetch)
    case count(Fetch)
    case read(keyPaths: [String], first: Int?)
    /// `into`: each new object is added to this to-many of an existing object chosen at random
    /// (`owner.addToMembers(new)`), the side an app adds from.
    case insert(entity: String, count: DataSpec.Count, children: [(relationship: String, count: Int)], into: (entity: String, relationship: String)?)
    /// Inserts the whole graph of the data section (every entity, every filled relationship), as an import does.
    case insertData
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
    case newContext
    case merge([Step])

    static let kinds = ["fetch", "count", "read", "insert", "insert-data", "update", "delete", "delete-fetched", "link", "unlink",
                        "batch-insert", "batch-update", "batch-delete", "save", "reset", "new-context", "merge"]
}

/// A JSON value carried into a step (Sendable wrapper).
struct JSONValueBox: @unchecked Sendable {
    let value: JSONValue
}

/// Reads steps for one variant: choices resolved, `when` applied, every name checked against the variant's model.
struct StepParser {
    let model: ObjectModel
    let variant: Variant
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
                throw fail(here, kinds.isEmpty
                    ? "no step kind; a step is one of \(Step.kinds.joined(separator: ", "))" + (near.isEmpty ? "" : " (did you mean '\(near[0])'?)")
                    : "one step kind per step, got \(kinds.sorted().joined(separator: " and "))")
            }
            let options = try resolved(object, field: here)
            steps.append(try step(kind, options, field: here))
        }
        return steps
    }

    /// Whether `when` (`{"axis": "value"}` or `{"axis": ["a", "b"]}`) holds for this variant.
    private func applies(_ when: JSONValue, field: String) throws -> Bool {
        guard let conditions = when.object, !conditions.isEmpty else { throw fail(field, "'when' is {\"variant\": \"value\"}") }
        for (axis, wanted) in conditions {
            guard let actual = variant[axis] else { throw fail(field, "'when' names the variant '\(axis)', which the scenario does not declare") }
            let values = wanted.array ?? [wanted]
            if !values.contains(where: { VariantSpecMatch.matches($0, actual) }) { return false }
        }
        return true
    }

    /// The options with every `{"variant": axis, ...}` choice resolved for this variant.
    private func resolved(_ object: [String: JSONValue], field: String) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (key, value) in object { result[key] = try resolve(value, field: "\(field).\(key)") }
        return result
    }

    private func resolve(_ value: JSONValue, field: String) throws -> JSONValue {
        guard let choice = value.object, let axis = choice["variant"]?.string else { return value }
        guard let actual = variant[axis] else { throw fail(field, "chooses by the variant '\(axis)', which the scenario does not declare") }
        if choice.count == 1 {
            switch actual {
            case let .text(text): return .string(text)
            case let .number(number): return .number(number)
            }
        }
        guard let picked = choice[actual.description] else {
            throw fail(field, "chooses by the variant '\(axis)' but gives no value for '\(actual)'")
        }
        return picked
    }

    private func step(_ kind: String, _ options: [String: JSONValue], field: String) throws -> Step {
        let value = options[kind]!
        func allow(_ keys: [String]) throws {
            for key in options.keys.sorted() where key != kind && !keys.contains(key) {
                let near = nearNames(key, in: keys)
                throw fail(field, "'\(kind)' has no option '\(key)'" + (near.isEmpty ? (keys.isEmpty ? "" : "; it takes \(keys.joined(separator: ", "))") : " (did you mean '\(near[0])'?)"))
            }
        }
        switch kind {
        case "fetch", "count":
            try allow(["predicate", "variables", "sort", "limit", "offset", "batchSize", "prefetch", "faults", "propertyValues", "result", "subentities"])
            let fetch = try self.fetch(value, options, field: field)
            return kind == "fetch" ? .fetch(fetch) : .count(fetch)
        case "read":
            try allow(["first"])
            let paths = try strings(value, field: field, what: "key paths")
            // Key paths start at the entity of the last fetch; they are checked when the phase is planned.
            return .read(keyPaths: paths, first: try options["first"].map { try integer($0, field: "\(field).first", minimum: 1) })
        case "insert":
            try allow(["count", "children", "into"])
            let entity = try entityName(value, field: field, concrete: true)
            let count = try options["count"].map { raw -> DataSpec.Count in
                guard let count = DataSpec.Count.parse(raw) else { throw fail("\(field).count", "expected a number, \"size\" or \"k*size\", got \(raw)") }
                return count
            } ?? .fixed(1)
            var children: [(String, Int)] = []
            for (name, raw) in (options["children"]?.object ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let relationship = model.entity(entity)?.relationship(name), relationship.isToMany else {
                    throw fail("\(field).children", "'\(entity)' has no to-many relationship '\(name)'")
                }
                guard !relationship.destination.isAbstract else {
                    throw fail("\(field).children", "'\(entity).\(name)' leads to the abstract entity \(relationship.destination.name); children need a concrete entity")
                }
                children.append((name, try integer(raw, field: "\(field).children.\(name)", minimum: 0)))
            }
            var into: (String, String)?
            if let raw = options["into"] {
                let parts = raw.string?.split(separator: ".").map(String.init) ?? []
                guard parts.count == 2, let owner = model.entity(parts[0]) else {
                    throw fail("\(field).into", "expected \"Entity.relationship\", a to-many of an existing entity whose members are \(entity)s, got \(raw)")
                }
                guard let relationship = owner.relationship(parts[1]), relationship.isToMany,
                      let inserted = model.entity(entity), inserted.isKind(of: relationship.destination) else {
                    throw fail("\(field).into", "'\(parts[0])' has no to-many relationship '\(parts[1])' to \(entity)" + DataSpec.suggestion(parts[1], owner.relationships.filter(\.isToMany).map(\.name)))
                }
                into = (parts[0], parts[1])
            }
            return .insert(entity: entity, count: count, children: children, into: into)
        case "update":
            try allow(["share"])
            guard let target = value.string, target.split(separator: ".").count == 2 else {
                throw fail(field, "'update' names \"Entity.attribute\", got \(value)")
            }
            let parts = target.split(separator: ".").map(String.init)
            let entity = try entityName(.string(parts[0]), field: field, concrete: false)
            guard let attribute = model.entity(entity)?.attribute(parts[1]), !attribute.isTransient else {
                throw fail(field, "'\(entity)' has no stored attribute '\(parts[1])'" + DataSpec.suggestion(parts[1], model.entity(entity)!.attributes.map(\.name)))
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
            let predicate = try options["predicate"].map { try self.predicate($0, entity: entity, variables: [:], field: "\(field).predicate") }
            guard let set = options["set"]?.object, !set.isEmpty else { throw fail(field, "'batch-update' needs \"set\": {\"attribute\": value}") }
            var values: [(String, JSONValueBox)] = []
            for (name, raw) in set.sorted(by: { $0.key < $1.key }) {
                guard let attribute = model.entity(entity)?.attribute(name) else { throw fail("\(field).set", "'\(entity)' has no attribute '\(name)'") }
                guard let literal = StepPreparer.literal(raw, for: attribute) else {
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
            return .batchDelete(entity: entity, predicate: try options["predicate"].map { try self.predicate($0, entity: entity, variables: [:], field: "\(field).predicate") })
        case "link", "unlink":
            try allow(["count"])
            guard let target = value.string, target.split(separator: ".").count == 2 else {
                throw fail(field, "'\(kind)' names \"Entity.relationship\", got \(value)")
            }
            let parts = target.split(separator: ".").map(String.init)
            let entity = try entityName(.string(parts[0]), field: field, concrete: false)
            guard model.entity(entity)?.relationship(parts[1]) != nil else {
                throw fail(field, "'\(entity)' has no relationship '\(parts[1])'" + DataSpec.relationshipSuggestion(parts[1], of: model.entity(entity)!))
            }
            guard let count = DataSpec.Count.parse(options["count"] ?? .number(1)) else { throw fail("\(field).count", "expected a count") }
            return .link(entity: entity, relationship: parts[1], count: count, unlink: kind == "unlink")
        case "save":
            try allow([])
            switch value {
            case .bool(true): return .save(mayFail: false)
            case .string("may-fail"): return .save(mayFail: true)
            default: throw fail(field, "write {\"save\": true}, or {\"save\": \"may-fail\"} for a save a delete rule or validation may refuse")
            }
        case "reset", "new-context", "insert-data", "delete-fetched":
            try allow([])
            guard case .bool(true) = value else { throw fail(field, "write {\"\(kind)\": true}") }
            switch kind {
            case "delete-fetched": return .deleteFetched
            case "reset": return .reset
            case "new-context": return .newContext
            default: return .insertData
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
        let predicate = try options["predicate"].map { try self.predicate($0, entity: entity, variables: variables.merging(phaseVariables) { step, _ in step }, field: "\(field).predicate") }
        var sort: [(String, Bool)] = []
        for key in try options["sort"].map({ try strings($0, field: "\(field).sort", what: "sort keys") }) ?? [] {
            let ascending = !key.hasPrefix("-")
            let path = ascending ? key : String(key.dropFirst())
            try checkKeyPath(path, from: entity, field: "\(field).sort", allowToMany: path.hasSuffix(".@count"))
            sort.append((path, ascending))
        }
        let prefetch = try options["prefetch"].map { try strings($0, field: "\(field).prefetch", what: "relationship key paths") } ?? []
        for path in prefetch { try checkRelationshipPath(path, from: entity, field: "\(field).prefetch") }
        let resultName = options["result"]?.string ?? "objects"
        guard let result = Step.Result(rawValue: resultName) else {
            throw fail("\(field).result", "expected objects, ids or count, got \(options["result"]!)")
        }
        return Step.Fetch(entity: entity, predicate: predicate, variables: variables, sort: sort,
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
            if let target = object["word"]?.string ?? object["valueOf"]?.string {
                let parts = target.split(separator: ".").map(String.init)
                guard parts.count == 2, let entity = model.entity(parts[0]), entity.attribute(parts[1]) != nil else {
                    throw fail(field, "expected \"Entity.attribute\" of the model, got \(target)")
                }
                let index = try object["index"].map { try integer($0, field: "\(field).index", minimum: 0) }
                return object["word"] != nil ? .word(entity: parts[0], attribute: parts[1], index: index)
                    : .valueOf(entity: parts[0], attribute: parts[1], index: index)
            }
            if let entity = object["object"]?.string {
                guard model.entity(entity) != nil else { throw fail(field, "no entity '\(entity)'") }
                return .object(entity: entity, index: try object["index"].map { try integer($0, field: "\(field).index", minimum: 0) })
            }
            throw fail(field, "a variable is a value, {\"word\": \"Entity.attribute\"}, {\"valueOf\": \"Entity.attribute\"} or {\"object\": \"Entity\", \"index\": n}")
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
            throw fail(field, "'\(name)' is abstract; use one of its sub-entities (\(entity.subentities.map(\.name).joined(separator: ", ")))")
        }
        return name
    }

    /// A key path of attributes and relationships from `entity`; `@count` may end it after a to-many.
    func checkKeyPath(_ path: String, from entity: String, field: String, allowToMany: Bool = true) throws {
        var current = model.entity(entity)!
        let components = path.split(separator: ".").map(String.init)
        for (index, component) in components.enumerated() {
            let last = index == components.count - 1
            if component == "@count" {
                guard last, index > 0 else { throw fail(field, "'\(path)': @count ends a key path after a to-many relationship") }
                continue
            }
            if let relationship = current.relationship(component) {
                if relationship.isToMany && !allowToMany { throw fail(field, "'\(path)' goes through the to-many '\(component)'") }
                current = relationship.destination
                continue
            }
            if current.attribute(component) != nil || current.derivedAttribute(component) != nil {
                guard last else { throw fail(field, "'\(path)': '\(component)' is an attribute; nothing follows it") }
                continue
            }
            throw fail(field, "'\(path)': \(current.name) has no property '\(component)'" + DataSpec.suggestion(component, current.propertyNames))
        }
    }

    private func checkRelationshipPath(_ path: String, from entity: String, field: String) throws {
        var current = model.entity(entity)!
        for component in path.split(separator: ".").map(String.init) {
            guard let relationship = current.relationship(component) else {
                throw fail(field, "'\(path)': \(current.name) has no relationship '\(component)'"
                           + DataSpec.relationshipSuggestion(component, of: current))
            }
            current = relationship.destination
        }
    }

    // MARK: Values

    private func strings(_ raw: JSONValue, field: String, what: String) throws -> [String] {
        if let text = raw.string { return [text] }
        guard let list = raw.array, list.allSatisfy({ $0.string != nil }) else { throw fail(field, "expected an array of \(what), got \(raw)") }
        return list.compactMap(\.string)
    }

    private func integer(_ raw: JSONValue, field: String, minimum: Int) throws -> Int {
        guard let number = raw.number, number.rounded() == number, number >= Double(minimum), number <= 1_000_000_000 else {
            throw fail(field, "expected an integer of at least \(minimum), got \(raw)")
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
        guard let value = raw.number, value > 0, value <= 1 else { throw fail("\(field).share", "expected a fraction in (0, 1], got \(raw)") }
        return value
    }
}

/// How a JSON value in `when` matches a variant value.
enum VariantSpecMatch {
    static func matches(_ json: JSONValue, _ value: VariantValue) -> Bool {
        switch (json, value) {
        case let (.string(text), .text(actual)): return text == actual
        case let (.number(number), .number(actual)): return number == actual
        case let (.string(text), .number(actual)): return text == VariantValue.number(actual).description
        default: return false
        }
    }
}
