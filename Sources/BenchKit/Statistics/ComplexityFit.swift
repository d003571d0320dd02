import Foundation

/// Fits medians over sizes to O(1), O(log n), O(n), O(n log n) and O(n²), as Google Benchmark's BigO does:
/// each model `y = a·f(n)` by least squares through the origin, the best being the one with the smallest
/// root-mean-square error, reported relative to the mean of `y`.
package enum ComplexityFit {
    package enum Model: String, CaseIterable, Sendable {
        case constant = "O(1)", logarithmic = "O(log n)", linear = "O(n)", linearithmic = "O(n log n)", quadratic = "O(n^2)"

        func f(_ n: Double) -> Double {
            switch self {
            case .constant: return 1
            case .logarithmic: return log2(max(n, 1))
            case .linear: return n
            case .linearithmic: return n * log2(max(n, 1))
            case .quadratic: return n * n
            }
        }
    }

    package struct Fit: Equatable, Sendable {
        package let model: Model
        package let coefficient: Double
        /// RMS error divided by the mean of the medians.
        package let error: Double
    }

    /// The fits of one series, best first; nil with fewer than three distinct sizes or an all-zero series.
    package static func fit(sizes: [Double], values: [Double]) -> [Fit]? {
        guard Set(sizes).count >= 3, sizes.count == values.count else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        guard mean > 0 else { return nil }
        let fits = Model.allCases.compactMap { model -> Fit? in
            let f = sizes.map(model.f)
            let denominator = f.reduce(0) { $0 + $1 * $1 }
            guard denominator > 0 else { return nil }
            let a = zip(f, values).reduce(0) { $0 + $1.0 * $1.1 } / denominator
            let squares = zip(f, values).reduce(0) { $0 + pow($1.1 - a * $1.0, 2) }
            return Fit(model: model, coefficient: a, error: (squares / Double(values.count)).squareRoot() / mean)
        }
        return fits.sorted { $0.error < $1.error }
    }

    /// One row per (scenario, strategy, variant, phase, metric) measured at three sizes or more.
    package struct Row: Equatable, Sendable {
        package let scenario: ScenarioName
        package let strategy: Strategy
        package let variant: Variant
        package let phase: PhaseName
        package let metric: Metric
        package let sizes: [Int]
        package let fits: [Fit]
        package var best: Fit { fits[0] }
    }

    package static let fittedMetrics: Set<Metric> = [.wallMs, .sqlStatements, .peakRSSBytes, .instructions]
}
