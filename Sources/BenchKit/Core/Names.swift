/// A name that matters as a type of its own, read and written as its text: a scenario's name is never taken for a
/// phase's, and neither for a metric's.
package protocol TypedName: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
where RawValue == String {
    init(rawValue: String)
}

extension TypedName {
    package init(_ rawValue: String) { self.init(rawValue: rawValue) }
    package init(stringLiteral value: String) { self.init(rawValue: value) }
    package var description: String { rawValue }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A scenario's name, as its file gives it (`query`).
package struct ScenarioName: TypedName {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}

/// A phase's name within its scenario (`walk`).
package struct PhaseName: TypedName {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
}
