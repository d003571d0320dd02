import Foundation
import ObjectGraph

/// The data section of a declared scenario: how many objects of each entity, how each named relationship is filled,
/// and how attribute values are made. Built outside timed regions, once per size, reproducible from the run's seed.
///
/// ```json
/// "data": {
///   "entities": {"User": "size", "Post": "5*size", "Tag": 50},
///   "relationships": {"Post.author": {}, "Post.tags": {"per": {"uniform": [0, 4]}, "reuse": 0.3},
///                     "User.followers": {"per": {"zipf": 1.2, "max": 200}}},
///   "attributes": {"Post.title": {"words": [3, 9]}, "Post.createdAt": {"date": ["2024-01-01", "2025-12-31"]}}
/// }
/// ```
struct DataSpec: Sendable {
    struct RelationshipFill: Sendable {
        let entity: String
        let relationship: String
        /// To-many: destinations per source (default uniform 0...4). To-one: ignored (one destination or none).
        let fanout: Fanout
        /// The chance a source gets destinations at all (default 1).
        let fill: Double
        /// The chance each destination is one another source already has (shared members: what makes many-to-nil
        /// lose data); otherwise a destination no source has yet, while any remain. 0 gives each source destinations
        /// of its own; nil (not given) draws destinations at random, shared or not.
        let reuse: Double?
        /// A many-to-many's other side: sources per destination, dealt to the destinations as `fanout` is to the
        /// sources, and each source's members drawn from those slots (so that both sides keep a store's skew).
        var perDestination: Fanout?
        /// Exact destinations, by index, of each source in order (`[[0], [0, 1]]`: a published example reproduced);
        /// sources beyond the list get none.
        var links: [[Int]]?
    }

    /// How an attribute's values are made (the default follows the attribute's type).
    enum Generator: Sendable, Equatable {
        /// `"<Entity> <attribute> <n>"`, or with a prefix `"<prefix> <n>"` with n in seven digits, as the school's
        /// workloads name students (`Student 0000001`): unique, readable.
        case name(prefix: String?)
        case words(Int, Int)
        case text(Int, Int)
        case integer(Int64, Int64)
        case number(Double, Double)
        case date(Double, Double)
        case bool(Double)
        case bytes(Int, Int)
        case uuid
        case uri
        case sequence
        case constant(String)
    }

    let counts: [String: Count]
    let relationships: [RelationshipFill]
    let attributes: [String: Generator]

    /// Parses the data section; `fail` names the field.
    static func parse(_ value: JSONValue?, fail: (String) -> BenchError) throws -> DataSpec {
        guard let value else { throw fail("missing: say how many objects of each entity, {\"entities\": {\"Entity\": \"size\"}}") }
        guard let root = value.object else { throw fail("expected an object with entities, relationships and attributes") }
        for key in root.keys.sorted() where !["entities", "relationships", "attributes"].contains(key) {
            throw fail("unknown key '\(key)'; the data section has entities, relationships and attributes")
        }
        guard let entityCounts = root["entities"]?.object, !entityCounts.isEmpty else {
            throw fail("entities: expected {\"Entity\": count, ...}, a count being a number, \"size\", \"3*size\" or \"size/10\"")
        }
        var counts: [String: Count] = [:]
        for (name, raw) in entityCounts {
            guard let count = Count.parse(raw) else {
                throw fail(
                    "entities.\(name): expected a whole number from 0 to 100000000, \"size\", \"3*size\" (up to 10000*size) or \"size/10\", got \(raw)"
                )
            }
            counts[name] = count
        }
        var fills: [RelationshipFill] = []
        for (target, raw) in (root["relationships"]?.object ?? [:]).sorted(by: { $0.key < $1.key }) {
            let parts = target.split(separator: ".")
            guard parts.count == 2, let options = raw.object else {
                throw fail("relationships.\(target): expected \"Entity.relationship\": {\"per\": ..., \"reuse\": ..., \"fill\": ...}")
            }
            for key in options.keys.sorted() where !["per", "perDestination", "reuse", "fill", "links"].contains(key) {
                throw fail("relationships.\(target): unknown key '\(key)'; use per, perDestination, reuse and fill (or links)")
            }
            if let raw = options["links"] {
                var links: [[Int]] = []
                for list in raw.array ?? [] {
                    let indexes = list.array?.compactMap(\.number).filter { $0 >= 0 && $0.rounded() == $0 && $0 < 100_000_000 } ?? []
                    guard options.count == 1, indexes.count == list.array?.count else {
                        throw fail(
                            "relationships.\(target).links: expected the destinations of each source by index, [[0], [0, 1]], and nothing else"
                        )
                    }
                    links.append(indexes.map { Int($0) })
                }
                guard raw.array != nil else {
                    throw fail("relationships.\(target).links: expected the destinations of each source by index, [[0], [0, 1]]")
                }
                var fill = RelationshipFill(
                    entity: String(parts[0]), relationship: String(parts[1]), fanout: .fixed(.fixed(0)), fill: 1, reuse: nil)
                fill.links = links
                fills.append(fill)
                continue
            }
            let fanout = try options["per"].map { try Fanout.parse($0) { fail("relationships.\(target).per: \($0)") } } ?? .uniform(0, 4)
            func probability(_ key: String, _ defaultValue: Double?) throws -> Double? {
                guard let raw = options[key] else { return defaultValue }
                guard let value = raw.number, value >= 0, value <= 1 else {
                    throw fail("relationships.\(target).\(key): expected a probability from 0 to 1, got \(raw)")
                }
                return value
            }
            var fill = RelationshipFill(
                entity: String(parts[0]), relationship: String(parts[1]), fanout: fanout,
                fill: try probability("fill", 1) ?? 1, reuse: try probability("reuse", nil))
            if let raw = options["perDestination"] {
                guard options["reuse"] == nil else {
                    throw fail("relationships.\(target): perDestination sets how members are shared; leave out reuse")
                }
                fill.perDestination = try Fanout.parse(raw) { fail("relationships.\(target).perDestination: \($0)") }
            }
            fills.append(fill)
        }
        var generators: [String: Generator] = [:]
        for (target, raw) in root["attributes"]?.object ?? [:] {
            guard target.split(separator: ".").count == 2 else {
                throw fail("attributes.\(target): expected \"Entity.attribute\": {generator}")
            }
            generators[target] = try generator(raw) { fail("attributes.\(target): \($0)") }
        }
        return DataSpec(counts: counts, relationships: fills, attributes: generators)
    }

    private static func generator(_ raw: JSONValue, fail: (String) -> BenchError) throws -> Generator {
        let expected =
            "expected one of {\"name\": true} (or a prefix), {\"words\": [min, max]}, {\"text\": [min, max]}, {\"integer\": [min, max]}, {\"number\": [min, max]}, {\"date\": [\"2024-01-01\", \"2025-12-31\"]}, {\"bool\": probability}, {\"bytes\": [min, max]}, {\"uuid\": true}, {\"uri\": true}, {\"sequence\": true}, {\"constant\": \"value\"}"
        guard let object = raw.object, object.count == 1, let (key, value) = object.first else { throw fail(expected) }
        func range() -> (Double, Double)? {
            guard let list = value.array?.compactMap(\.number), list.count == 2, list[0] <= list[1] else { return nil }
            return (list[0], list[1])
        }
        func lengths() throws -> (Int, Int) {
            guard let (low, high) = range(), low >= 0, high <= 1_000_000, low.rounded() == low, high.rounded() == high else {
                throw fail("'\(key)' needs [min, max] lengths, whole numbers from 0, got \(value)")
            }
            return (Int(low), Int(high))
        }
        switch key {
        case "name":
            switch value {
            case .bool(true): return .name(prefix: nil)
            case let .string(prefix) where !prefix.isEmpty: return .name(prefix: prefix)
            default: throw fail("'name' is true (\"Entity attribute N\") or a prefix (\"Student\" for \"Student 0000001\"), got \(value)")
            }
        case "uuid": return .uuid
        case "uri": return .uri
        case "sequence": return .sequence
        case "words":
            let (low, high) = try lengths()
            return .words(low, high)
        case "text":
            let (low, high) = try lengths()
            return .text(low, high)
        case "bytes":
            let (low, high) = try lengths()
            return .bytes(low, high)
        case "integer":
            guard let (low, high) = range(), low.rounded() == low, high.rounded() == high, abs(low) < 9e18, abs(high) < 9e18 else {
                throw fail("'integer' needs [min, max] whole numbers, got \(value)")
            }
            return .integer(Int64(low), Int64(high))
        case "number":
            // A width beyond Double's range (as [-1.7e308, 1.7e308]) makes Double.random(in:) trap.
            guard let (low, high) = range(), (high - low).isFinite else {
                throw fail("'number' needs [min, max] with max - min a finite number, got \(value)")
            }
            return .number(low, high)
        case "bool":
            guard let chance = value.number, chance >= 0, chance <= 1 else {
                throw fail("'bool' needs the probability of true, got \(value)")
            }
            return .bool(chance)
        case "date":
            guard let list = value.array?.compactMap(\.string), list.count == 2, let from = Self.date(list[0]), let to = Self.date(list[1]),
                from <= to
            else {
                throw fail("'date' needs [\"YYYY-MM-DD\", \"YYYY-MM-DD\"], earliest first, got \(value)")
            }
            return .date(from, to)
        case "constant":
            switch value {
            case let .string(text): return .constant(text)
            case let .number(number): return .constant(VariantValue.number(number).description)
            case let .bool(flag): return .constant(flag ? "1" : "0")
            default: throw fail("'constant' needs a string, number or boolean, got \(value)")
            }
        default:
            throw fail(expected)
        }
    }

    /// Seconds since 2001-01-01 (Core Data's reference date) of a `YYYY-MM-DD` day.
    static func date(_ text: String) -> Double? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...9999).contains(parts[0]), (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
        var components = DateComponents()
        components.year = parts[0]
        components.month = parts[1]
        components.day = parts[2]
        var calendar = Calendar(identifier: .gregorian)
        if let utc = TimeZone(identifier: "UTC") { calendar.timeZone = utc }
        // Calendar rolls 2024-02-30 over into March: a day the month does not have is no date.
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == parts[2] else { return nil }
        return date.timeIntervalSinceReferenceDate
    }

    /// The problems of this data section against a compiled model: unknown entities, relationships, attributes,
    /// abstract entities with counts, a relationship filled from both sides, a generator whose values the
    /// attribute cannot hold.
    func problems(in model: ObjectModel, manualKeys: [ManualKey]) -> [String] {
        var problems: [String] = []
        for (name, _) in counts.sorted(by: { $0.key < $1.key }) {
            guard let entity = model.entity(name) else {
                problems.append("entities: no entity '\(name)' in the model" + Self.suggestion(name, model.entities.map(\.name)))
                continue
            }
            if entity.isAbstract {
                problems.append(
                    "entities: '\(name)' is abstract; give counts of its sub-entities (\(entity.subentities.map(\.name).joined(separator: ", ")))"
                )
            }
        }
        var filled = Set<String>()
        for fill in relationships {
            let target = "\(fill.entity).\(fill.relationship)"
            guard let entity = model.entity(fill.entity) else {
                problems.append(
                    "relationships.\(target): no entity '\(fill.entity)'" + Self.suggestion(fill.entity, model.entities.map(\.name)))
                continue
            }
            if let links = fill.links, let highest = links.joined().max(),
                let destination = entity.relationship(fill.relationship)?.destination
                    ?? ManualKey.named(fill.relationship, from: entity, in: manualKeys)
                    .flatMap({ model.entity($0.toMany ? $0.key.member : $0.key.owner) })
            {
                // Fixed counts only: a count per size is known when the data is made, which skips what is out of range.
                let fixed = destination.subtree.map { counts[$0.name] ?? .fixed(0) }
                if fixed.allSatisfy(\.isFixed),
                    case let total = fixed.reduce(0, { $0 + $1.value(size: 0) }), highest >= total
                {
                    problems.append(
                        "relationships.\(target).links: names destination \(highest), but the data has \(total) (counted from 0)")
                }
            }
            guard let relationship = entity.relationship(fill.relationship) else {
                if ManualKey.named(fill.relationship, from: entity, in: manualKeys) != nil { continue }
                problems.append(
                    "relationships.\(target): '\(fill.entity)' has no relationship '\(fill.relationship)'"
                        + Self.relationshipSuggestion(fill.relationship, of: entity))
                continue
            }
            if let inverse = relationship.inverse, inverse !== relationship, filled.contains("\(inverse.entity.name).\(inverse.name)") {
                problems.append(
                    "relationships.\(target): its inverse \(inverse.entity.name).\(inverse.name) is filled too; fill one side, ObjectGraph keeps the other"
                )
            }
            if fill.perDestination != nil, !(relationship.isToMany && relationship.inverse?.isToMany == true) {
                problems.append(
                    "relationships.\(target).perDestination: \(target) is not one side of a many-to-many; give perDestination only where each destination has many sources"
                )
            }
            filled.insert(target)
        }
        for target in attributes.keys.sorted() {
            let parts = target.split(separator: ".").map(String.init)
            guard let entity = model.entity(parts[0]) else {
                problems.append("attributes.\(target): no entity '\(parts[0])'")
                continue
            }
            guard let attribute = entity.attribute(parts[1]) else {
                problems.append(
                    "attributes.\(target): '\(parts[0])' has no stored attribute '\(parts[1])'"
                        + Self.listing(parts[1], entity.attributes.filter { !$0.isTransient }.map(\.name), what: "stored attributes"))
                continue
            }
            if let generator = attributes[target], let mismatch = DataGenerator.mismatch(generator, attribute, entity: entity.name) {
                problems.append("attributes.\(target): " + mismatch)
            }
        }
        return problems
    }

    /// What to say after "has no relationship 'name'": that it is an attribute there, or the nearest relationship.
    static func relationshipSuggestion(_ name: String, of entity: EntityDescription) -> String {
        if entity.attribute(name) != nil { return " ('\(name)' is an attribute of \(entity.name), not a relationship)" }
        return listing(name, entity.relationships.map(\.name), what: "relationships")
    }

    static func suggestion(_ name: String, _ candidates: [String]) -> String {
        let near = nearNames(name, in: candidates)
        return near.isEmpty ? "" : " (did you mean '\(near[0])'?)"
    }

    /// What to say after "has no property 'name'": the nearest one, and those there are (up to 20).
    static func listing(_ name: String, _ candidates: [String], what: String = "properties") -> String {
        let sorted = candidates.sorted()
        let shown = sorted.prefix(20).joined(separator: ", ") + (sorted.count > 20 ? ", and \(sorted.count - 20) more" : "")
        return suggestion(name, candidates) + (sorted.isEmpty ? "; it has no \(what)" : "; its \(what): \(shown)")
    }

    /// A JSON literal as a value of `attribute`'s type (dates as `YYYY-MM-DD`), or nil when it is none; the
    /// scenario reader refuses such a literal before anything runs.
    static func literal(_ json: JSONValue, for attribute: AttributeDescription) -> Value? {
        switch (json, attribute.type) {
        case (.null, _): return .null
        case let (.string(text), .string): return .string(text)
        case let (.string(text), .uuid): return UUID(uuidString: text).map(Value.uuid)
        case let (.string(text), .date): return DataSpec.date(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case let (.string(text), .uri): return URL(string: text).map(Value.url)
        case let (.number(number), .int16), let (.number(number), .int32), let (.number(number), .int64):
            return number.rounded() == number && abs(number) < 9.2e18 ? .int(Int64(number)) : nil
        case let (.number(number), .double), let (.number(number), .float): return .double(number)
        case let (.number(number), .decimal): return .decimal(Decimal(number))
        case let (.bool(flag), .bool): return .bool(flag)
        default: return nil
        }
    }
}
