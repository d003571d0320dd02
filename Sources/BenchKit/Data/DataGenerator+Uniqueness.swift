import ObjectGraph

/// Generated values that keep a model's uniqueness constraints, across a hierarchy's one table and for attributes
/// too narrow to tell every object apart alone.
extension DataGenerator {
    /// For each attribute of `entity`'s uniqueness constraints (its ancestors' included), how the object at
    /// `ordinal` of the `total` objects of its hierarchy gets its value, so that the constraints' tuples differ
    /// across the whole hierarchy, which shares one table and its constraints (Moody's Continent and Country under
    /// GeographicRegion [numericISO3166Code, uniquenessDummy] were both counted from 1 and collided).
    ///
    /// An attribute that can hold `total` distinct values takes the ordinal itself, in every constraint it is in.
    /// A constraint none of whose attributes can (an Integer 16 holds 32,767 values, a Boolean 2) spreads the
    /// ordinal over its narrow attributes as digits, each `(ordinal / divisor) % capacity`: an attribute keeps the
    /// divisor the first constraint gave it, and a later constraint's new attributes take the digits its
    /// attributes do not cover yet, so that every constraint tells `total` objects apart where its capacities allow.
    static func uniqueIndexes(_ entity: EntityDescription, ordinal: Int, total: Int) -> [String: UniqueIndex] {
        var constraints: [[AttributeDescription]] = []
        var current: EntityDescription? = entity
        while let next = current {
            constraints += next.uniquenessConstraints.map { $0.compactMap(next.attribute) }
            current = next.superentity
        }
        var result: [String: UniqueIndex] = [:]
        var divisors: [String: Int] = [:]
        func capacity(_ attribute: AttributeDescription) -> Int { narrowRange(attribute)?.capacity ?? Int.max }
        func assign(_ attribute: AttributeDescription, _ index: Int) {
            guard result[attribute.name] == nil else { return }
            result[attribute.name] = narrowRange(attribute).map { .value($0.value(index % $0.capacity)) } ?? .index(index)
        }
        for attribute in constraints.joined() where capacity(attribute) >= total { assign(attribute, ordinal) }
        for constraint in constraints where !constraint.contains(where: { capacity($0) >= total }) {
            // The digits the attributes placed already cover, from the lowest, without a gap.
            var next = 1
            for attribute in constraint.compactMap({ attribute in divisors[attribute.name].map { (attribute, $0) } }).sorted(by: {
                $0.1 < $1.1
            }).map(\.0)
            where divisors[attribute.name] == next {
                next = next.multipliedReportingOverflow(by: capacity(attribute)).overflow ? Int.max : next * capacity(attribute)
            }
            for attribute in constraint where divisors[attribute.name] == nil && result[attribute.name] == nil {
                divisors[attribute.name] = next
                assign(attribute, next == Int.max ? 0 : ordinal / next)
                next = next.multipliedReportingOverflow(by: capacity(attribute)).overflow ? Int.max : next * capacity(attribute)
            }
        }
        for attribute in constraints.joined() { assign(attribute, ordinal) }
        return result
    }

    /// A uniqueness constraint's share of an object's ordinal: the value of a narrow attribute, or the index
    /// another attribute's generator takes.
    enum UniqueIndex {
        case value(Value)
        case index(Int)
    }

    /// How many distinct values a narrow attribute (an integer or a Boolean) can take, and the one at an index.
    private static func narrowRange(_ attribute: AttributeDescription) -> (capacity: Int, value: (Int) -> Value)? {
        if attribute.type == .bool { return (2, { .bool($0 == 1) }) }
        guard let (lower, capacity) = integerRange(attribute) else { return nil }
        return (capacity, { .int(lower &+ Int64($0)) })
    }

    /// The first value and how many values an integer attribute can take distinct: from 1, or from its minimum
    /// when that is higher or its maximum is below 1, up to its maximum and its type's.
    private static func integerRange(_ attribute: AttributeDescription) -> (lower: Int64, capacity: Int)? {
        let bottom: Int64
        let top: Int64
        switch attribute.type {
        case .int16: (bottom, top) = (Int64(Int16.min), Int64(Int16.max))
        case .int32: (bottom, top) = (Int64(Int32.min), Int64(Int32.max))
        case .int64: (bottom, top) = (Int64.min, Int64.max)
        default: return nil
        }
        let minimum = attribute.validation.minimum.map { max(bottom, clampedInt64($0.rounded(.up))) }
        let upper = min(top, attribute.validation.maximum.map { clampedInt64($0.rounded(.down)) } ?? top)
        var lower = max(1, minimum ?? 1)
        if lower > upper { lower = minimum ?? bottom }
        guard lower <= upper else { return (lower, 1) }
        let (span, overflow) = upper.subtractingReportingOverflow(lower)
        return (lower, overflow || span >= Int64(Int.max - 1) ? Int.max : Int(span) + 1)
    }
}
