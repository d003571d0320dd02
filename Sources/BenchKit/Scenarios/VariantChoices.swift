/// Choices by variant in a scenario file: `{"variant": "axis", "a": ..., "b": ..., "else": ...}` picks the value for the
/// variant's value of `axis`, or the `else` one (nested choices too); `{"variant": "axis"}` alone is that value itself; `"when": {"axis": ["a", "b"]}`
/// keeps a step for those values only. Used for steps, phases and the data section alike.
struct VariantChoices {
    let variant: Variant
    /// The scenario's axes and their values: a choice or a `when` naming a value its axis lacks is a mistake.
    let axes: [VariantAxis]
    let fail: (String, String) -> BenchError

    /// `value` with every choice resolved for the variant.
    func resolve(_ value: JSONValue, field: String) throws -> JSONValue {
        if let choice = value.object, let axis = choice["variant"]?.string.map(AxisName.init) {
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
        for (name, wanted) in conditions.sorted(by: { $0.key < $1.key }) {
            let axis = AxisName(name)
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
