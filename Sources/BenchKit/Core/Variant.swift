/// One value on a variant axis: a name or a number.
package enum VariantValue: Hashable, Sendable, CustomStringConvertible {
    case text(String)
    case number(Double)

    package var description: String {
        switch self {
        case let .text(text): return text
        case let .number(number):
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
    }

    package var number: Double? { if case let .number(value) = self { return value } else { return nil } }

    /// The value a report's text names: a number where it reads as one, else a name.
    package init(parsing text: String) {
        if let number = Double(text), number.isFinite, VariantValue.number(number).description == text {
            self = .number(number)
        } else {
            self = .text(text)
        }
    }
}

/// A variant axis's name, as its scenario file declares it (`modelling`, `prefetch`).
package struct AxisName: TypedName {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    /// The axis of the School scenarios' relationship modelling.
    package static let modelling: AxisName = "modelling"
}

/// One variant axis of a scenario: its name and the values the scenario runs, in declared order.
package struct VariantAxis: Sendable {
    package let name: AxisName
    package let values: [VariantValue]

    package init(name: AxisName, values: [VariantValue]) {
        self.name = name
        self.values = values
    }

    /// `modelling=many-to-one|many-to-many`, as messages list an axis.
    package var listing: String { "\(name)=\(values.map(\.description).joined(separator: "|"))" }
}

/// One combination of variant values, in the order the scenario declares its axes.
package struct Variant: Hashable, Sendable, CustomStringConvertible, Codable {
    package let values: [(name: AxisName, value: VariantValue)]

    package init(_ values: [(name: AxisName, value: VariantValue)]) { self.values = values }

    /// The variant a report names (`batch=20;access=first-screen`, or empty); nil when the text is not one.
    package init?(parsing text: String) {
        guard !text.isEmpty else {
            self.init([])
            return
        }
        var values: [(name: AxisName, value: VariantValue)] = []
        for pair in text.split(separator: ";", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
            values.append((AxisName(String(parts[0])), VariantValue(parsing: String(parts[1]))))
        }
        self.init(values)
    }

    /// The stable text used in reports: `batch=20;access=first-screen`, empty when there are no axes.
    package var description: String { values.map { "\($0.name)=\($0.value)" }.joined(separator: ";") }

    package subscript(name: AxisName) -> VariantValue? { values.first { $0.name == name }?.value }

    /// Whether the scenario has no variant axes.
    package var isEmpty: Bool { values.isEmpty }

    /// The modelling this variant gives its relationships (its `modelling` axis), if it has one.
    package var modelling: Modelling? { self[.modelling].flatMap { Modelling(rawValue: $0.description) } }

    package static func == (lhs: Variant, rhs: Variant) -> Bool { lhs.description == rhs.description }

    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let variant = Variant(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a variant (AXIS=VALUE;...)"))
        }
        self = variant
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
    package func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
