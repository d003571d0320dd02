import Foundation
import ObjectGraph

/// Generated data that passes the model's own validation, so that a real app's model runs as it is: values within
/// an attribute's minimum, maximum and pattern, and every required relationship (or to-many with a minimum count)
/// given its members.
extension DataGenerator {
    /// The generator for an attribute no data section names: the type's, narrowed to the attribute's range.
    static func defaultGenerator(_ attribute: AttributeDescription, unique: Bool) -> DataSpec.Generator {
        let validation = attribute.validation
        let generator = defaultGenerator(attribute.type, unique: unique)
        guard validation.minimum != nil || validation.maximum != nil else { return generator }
        switch generator {
        case let .integer(low, high):
            let lower = validation.minimum.map { max(low, clampedInt64($0.rounded(.up))) } ?? low
            let upper = validation.maximum.map { min(high, clampedInt64($0.rounded(.down))) } ?? high
            if lower <= upper { return .integer(lower, upper) }
            let from = validation.minimum.map { clampedInt64($0.rounded(.up)) } ?? upper &- 1000
            return .integer(from, max(from, validation.maximum.map { clampedInt64($0.rounded(.down)) } ?? from &+ 1000))
        case let .number(low, high):
            let lower = max(low, validation.minimum ?? low)
            let upper = min(high, validation.maximum ?? high)
            if lower <= upper { return .number(lower, upper) }
            let from = validation.minimum ?? (upper - 1000)
            return .number(from, max(from, validation.maximum ?? from + 1000))
        case let .date(from, to):
            let lower = max(from, validation.minimum ?? from)
            let upper = min(to, validation.maximum ?? to)
            if lower <= upper { return .date(lower, upper) }
            let start = validation.minimum ?? (upper - 86_400 * 365)
            return .date(start, max(start, validation.maximum ?? start + 86_400 * 365))
        default:
            return generator
        }
    }

    /// `value` moved into the attribute's rules: numbers and dates clamped to its range, strings and bytes padded or
    /// cut to its lengths; a string its pattern refuses becomes a sample that matches (or nil where optional).
    static func fit(_ value: Value, to attribute: AttributeDescription, random: inout SplitMix64) -> Value {
        let validation = attribute.validation
        guard !validation.isEmpty, !value.isNull else { return value }
        let minimum = validation.minimum
        let maximum = validation.maximum
        switch value {
        case let .int(number):
            var fitted = number
            if let minimum, Double(fitted) < minimum { fitted = clampedInt64(minimum.rounded(.up)) }
            if let maximum, Double(fitted) > maximum { fitted = clampedInt64(maximum.rounded(.down)) }
            return .int(fitted)
        case let .double(number):
            return .double(Swift.min(maximum ?? number, Swift.max(minimum ?? number, number)))
        case let .decimal(number):
            let double = NSDecimalNumber(decimal: number).doubleValue
            let fitted = Swift.min(maximum ?? double, Swift.max(minimum ?? double, double))
            return fitted == double ? value : .decimal(Decimal(fitted))
        case let .date(date):
            let seconds = date.timeIntervalSinceReferenceDate
            let fitted = Swift.min(maximum ?? seconds, Swift.max(minimum ?? seconds, seconds))
            return fitted == seconds ? value : .date(Date(timeIntervalSinceReferenceDate: fitted))
        case var .string(text):
            if let pattern = validation.pattern, !matches(text, pattern) {
                guard let sample = sampleMatching(pattern, minimum: minimum, maximum: maximum) else {
                    return attribute.isOptional ? .null : value
                }
                text = sample
            }
            if let maximum, Double(text.utf16.count) > maximum { text = String(text.utf16.prefix(Int(maximum))) ?? "" }
            if let minimum, Double(text.utf16.count) < minimum {
                text += String(repeating: "x", count: Int(minimum.rounded(.up)) - text.utf16.count)
            }
            return .string(text)
        case var .binary(bytes):
            if let maximum, Double(bytes.count) > maximum { bytes = bytes.prefix(Int(maximum)) }
            while let minimum, Double(bytes.count) < minimum { bytes.append(UInt8(truncatingIfNeeded: random.next())) }
            return .binary(bytes)
        default:
            return value
        }
    }

    /// `value` as an Int64, the nearest bound where it is beyond them (a model's maximum may be Int64.max, which a
    /// Double rounds above).
    static func clampedInt64(_ value: Double) -> Int64 {
        if value.isNaN { return 0 }
        if value >= 9_223_372_036_854_775_808.0 { return .max } // 2^63: the first Double beyond Int64
        if value <= -9_223_372_036_854_775_808 { return .min }
        return Int64(value)
    }

    private static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$") else { return true }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Strings that common validation patterns (identifiers, digits, e-mail, URLs, hex) accept, tried in order.
    private static let patternSamples = [
        "a", "abc", "Abc", "abc123", "ABC", "1", "123", "12345", "123456", "0", "a1", "a_b", "abc-def", "user@example.com",
        "https://example.com", "http://example.com/a", "deadbeef", "0123456789abcdef", "+1 555 0100", "2020-01-01", "x",
    ]

    private static func sampleMatching(_ pattern: String, minimum: Double?, maximum: Double?) -> String? {
        patternSamples.first { sample in
            let length = Double(sample.utf16.count)
            return length >= (minimum ?? 0) && length <= (maximum ?? .infinity) && matches(sample, pattern)
        }
    }

    /// Gives every object of a required relationship (or of a to-many with a minimum count) its members after the
    /// fills: unowned destinations first, then, where a destination can have one owner only, ones taken from
    /// sources above their own minimum. What no destinations can satisfy stays short, and the save names it.
    func meetMinimums(_ data: GraphData, seed: UInt64) {
        for entity in model.entities {
            for relationship in entity.relationships where relationship.entity === entity {
                let minimum = Self.minimumMembers(relationship)
                guard minimum > 0 else { continue }
                meet(minimum, relationship, data, seed: seed)
            }
        }
    }

    /// The destinations each source of `relationship` gets at least: its minimum count, and one if it is required.
    static func minimumMembers(_ relationship: RelationshipDescription) -> Int {
        relationship.isToMany ? Swift.max(relationship.minCount, relationship.isOptional ? 0 : 1) : (relationship.isOptional ? 0 : 1)
    }

    private func meet(_ minimum: Int, _ relationship: RelationshipDescription, _ data: GraphData, seed: UInt64) {
        let sources = data.objects(of: relationship.entity)
        var destinations = data.objects(of: relationship.destination)
        guard !sources.isEmpty, !destinations.isEmpty else { return }
        let inverse = relationship.inverse
        let exclusive = inverse.map { !$0.isToMany } ?? false
        var members: [ObjectRef: [ObjectRef]] = [:]
        var owner: [ObjectRef: ObjectRef] = [:]
        var forward: Int?
        var backward: [Int] = []
        for (index, edges) in data.edges.enumerated() where edges.key == nil {
            let declared = edges.source.relationship(edges.relationship)
            if declared === relationship {
                forward = index
                for (source, targets) in edges.ordered {
                    members[source, default: []] += targets
                    if exclusive { for target in targets { owner[target] = source } }
                }
            } else if let inverse, declared === inverse {
                backward.append(index)
                for (destination, targets) in edges.ordered {
                    for source in targets {
                        members[source, default: []].append(destination)
                        if exclusive { owner[destination] = source }
                    }
                }
            }
        }
        let short = sources.filter { (members[$0]?.count ?? 0) < minimum }
        guard !short.isEmpty else { return }
        var random = SplitMix64(seed: seed ^ Self.hash("\(relationship.qualifiedName) minimum"))
        destinations.shuffle(using: &random)
        var unowned = exclusive ? destinations.filter { owner[$0] == nil } : []
        var added: [ObjectRef: [ObjectRef]] = [:]
        func release(_ destination: ObjectRef, from previous: ObjectRef) {
            members[previous]?.removeAll { $0 == destination }
            if let forward { data.edges[forward].targets[previous]?.removeAll { $0 == destination } }
            for index in backward where data.edges[index].targets[destination] != nil { data.edges[index].targets[destination] = nil }
            added[previous]?.removeAll { $0 == destination }
        }
        var cursor = 0
        for source in short {
            var have = members[source] ?? []
            while have.count < minimum {
                let pick: ObjectRef?
                if exclusive {
                    if let free = unowned.popLast() {
                        pick = free
                    } else {
                        pick = destinations.first { candidate in
                            guard let previous = owner[candidate], previous != source else { return false }
                            return (members[previous]?.count ?? 0) > minimum
                        }
                        if let pick, let previous = owner[pick] { release(pick, from: previous) }
                    }
                } else {
                    var found: ObjectRef?
                    for _ in 0..<destinations.count {
                        let candidate = destinations[cursor % destinations.count]
                        cursor += 1
                        if !have.contains(candidate) {
                            found = candidate
                            break
                        }
                    }
                    pick = found
                }
                guard let pick else { break }
                have.append(pick)
                if exclusive { owner[pick] = source }
                added[source, default: []].append(pick)
            }
            members[source] = have
        }
        let index =
            forward
            ?? {
                data.edges.append(GraphData.Edges(source: relationship.entity, relationship: relationship.name, targets: [:]))
                return data.edges.count - 1
            }()
        for (source, targets) in added.sorted(by: { ($0.key.entity, $0.key.index) < ($1.key.entity, $1.key.index) }) where !targets.isEmpty
        {
            if relationship.isToMany {
                data.edges[index].targets[source, default: []] += targets
            } else {
                data.edges[index].targets[source] = [targets[targets.count - 1]]
            }
        }
    }
}
