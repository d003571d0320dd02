/// One measured value: a row of samples.csv.
package struct SampleRecord: Equatable, Sendable {
    package var key: SeriesKey
    /// 1-based among the measured repetitions of the series.
    package var repetition: Int
    /// nil where the strategy cannot measure the metric (left empty in the file, never zero).
    package var value: Double?

    package init(key: SeriesKey, repetition: Int, value: Double?) {
        self.key = key
        self.repetition = repetition
        self.value = value
    }

    package var unit: MetricUnit { key.metric.unit }
}

/// Identifies a series of samples (a row of summary.csv), typed from measurement to the gate: strings exist only
/// where the CSV and JSON files are read and written.
package struct SeriesKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var scenario: ScenarioName
    package var strategy: Strategy
    package var variant: Variant
    package var size: Int
    package var phase: PhaseName
    package var metric: Metric

    package init(scenario: ScenarioName, strategy: Strategy, variant: Variant, size: Int, phase: PhaseName, metric: Metric) {
        self.scenario = scenario
        self.strategy = strategy
        self.variant = variant
        self.size = size
        self.phase = phase
        self.metric = metric
    }

    /// The same series with another metric (the phase's other measurements).
    package func with(_ metric: Metric) -> SeriesKey {
        var key = self
        key.metric = metric
        return key
    }

    /// The same series run by another strategy (its floor, its peers).
    package func with(_ strategy: Strategy) -> SeriesKey {
        var key = self
        key.strategy = strategy
        return key
    }

    /// The key without its size and metric, for grouping a phase's series.
    package var phaseKey: String { "\(scenario) \(strategy)\(variant.values.isEmpty ? "" : " \(variant)") \(phase)" }

    package static func < (lhs: SeriesKey, rhs: SeriesKey) -> Bool {
        (lhs.scenario.rawValue, lhs.strategy.rawValue, lhs.variant.description, lhs.size, lhs.phase.rawValue, lhs.metric.rawValue)
            < (rhs.scenario.rawValue, rhs.strategy.rawValue, rhs.variant.description, rhs.size, rhs.phase.rawValue, rhs.metric.rawValue)
    }

    package var description: String {
        [
            scenario.rawValue, strategy.rawValue, variant.values.isEmpty ? nil : variant.description, "n=\(size)", phase.rawValue,
            metric.rawValue,
        ]
        .compactMap { $0 }.joined(separator: " ")
    }

    /// The key a report's row names, or the series it stands for when this binary cannot type it (a strategy or
    /// metric it does not know: a renamed metric must fail a gate as missing, never drop out of it).
    static func parse(
        scenario: String, strategy: String, variant: String, size: Int, phase: String, metric: String
    )
        -> Result<SeriesKey, UnknownSeries>
    {
        let unknown = UnknownSeries(scenario: scenario, strategy: strategy, variant: variant, size: size, phase: phase, metric: metric)
        guard let typedStrategy = Strategy(rawValue: strategy) else {
            return .failure(unknown.because("strategy '\(strategy)' is unknown"))
        }
        guard let typedMetric = Metric(rawValue: metric) else { return .failure(unknown.because("metric '\(metric)' is unknown")) }
        guard let typedVariant = Variant(parsing: variant) else {
            return .failure(unknown.because("variant '\(variant)' is not AXIS=VALUE;..."))
        }
        return .success(
            SeriesKey(
                scenario: ScenarioName(scenario), strategy: typedStrategy, variant: typedVariant, size: size,
                phase: PhaseName(phase), metric: typedMetric))
    }
}

/// A series a report names that this binary cannot type: its strategy, variant or metric is unknown here.
package struct UnknownSeries: Error, Hashable, Sendable, CustomStringConvertible {
    package let scenario, strategy, variant: String
    package let size: Int
    package let phase, metric: String
    /// Why it cannot be read.
    package var reason = ""

    func because(_ reason: String) -> UnknownSeries {
        var copy = self
        copy.reason = reason
        return copy
    }

    package var description: String {
        [scenario, strategy, variant.isEmpty ? nil : variant, "n=\(size)", phase, metric].compactMap { $0 }.joined(separator: " ")
    }
}
