@testable import BenchKit

extension SeriesKey {
    /// A key for tests, its variant written as a report writes it (`prefetch=off`, or empty).
    static func of(
        _ scenario: ScenarioName, _ strategy: Strategy = .objectGraph, _ variant: String = "", size: Int, phase: PhaseName,
        metric: Metric
    ) -> SeriesKey {
        SeriesKey(scenario: scenario, strategy: strategy, variant: Variant(parsing: variant)!, size: size, phase: phase, metric: metric)
    }
}
