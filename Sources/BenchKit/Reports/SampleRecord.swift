/// One measured value: a row of samples.csv.
public struct SampleRecord: Equatable, Sendable {
    public var scenario: String
    public var strategy: String
    public var variant: String
    public var size: Int
    public var repetition: Int
    public var phase: String
    public var metric: String
    /// nil where the strategy cannot measure the metric (left empty in the file, never zero).
    public var value: Double?
    public var unit: String

    public init(scenario: String, strategy: String, variant: String, size: Int, repetition: Int, phase: String,
                metric: String, value: Double?, unit: String) {
        self.scenario = scenario
        self.strategy = strategy
        self.variant = variant
        self.size = size
        self.repetition = repetition
        self.phase = phase
        self.metric = metric
        self.value = value
        self.unit = unit
    }

    /// The series this sample belongs to: everything but the repetition and the value.
    public var seriesKey: SeriesKey {
        SeriesKey(scenario: scenario, strategy: strategy, variant: variant, size: size, phase: phase, metric: metric)
    }
}

/// Identifies a series of samples (a row of summary.csv).
public struct SeriesKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var scenario: String
    public var strategy: String
    public var variant: String
    public var size: Int
    public var phase: String
    public var metric: String

    public init(scenario: String, strategy: String, variant: String, size: Int, phase: String, metric: String) {
        self.scenario = scenario
        self.strategy = strategy
        self.variant = variant
        self.size = size
        self.phase = phase
        self.metric = metric
    }

    public static func < (lhs: SeriesKey, rhs: SeriesKey) -> Bool {
        (lhs.scenario, lhs.strategy, lhs.variant, lhs.size, lhs.phase, lhs.metric)
            < (rhs.scenario, rhs.strategy, rhs.variant, rhs.size, rhs.phase, rhs.metric)
    }

    public var description: String {
        [scenario, strategy, variant.isEmpty ? nil : variant, "n=\(size)", phase, metric].compactMap { $0 }.joined(separator: " ")
    }
}

/// Numbers as the reports write them: integers without a decimal point, others with up to six decimals.
public func formatNumber(_ value: Double) -> String {
    if value.isNaN || value.isInfinite { return "" }
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    var text = String(format: "%.6f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}
