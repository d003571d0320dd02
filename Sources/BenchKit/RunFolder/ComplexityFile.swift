import Foundation

extension ComplexityFit {
    /// The fits of every series of a summary measured at three sizes or more.
    package static func fits(_ summary: [SummaryRow]) -> [Row] {
        struct Key: Hashable {
            let scenario: ScenarioName
            let strategy: Strategy
            let variant: Variant
            let phase: PhaseName
            let metric: Metric
        }
        var order: [Key] = []
        var points: [Key: [(Int, Double)]] = [:]
        for row in summary where fittedMetrics.contains(row.key.metric) {
            guard let median = row.summary?.median else { continue }
            let key = Key(
                scenario: row.key.scenario, strategy: row.key.strategy, variant: row.key.variant, phase: row.key.phase,
                metric: row.key.metric)
            if points[key] == nil { order.append(key) }
            points[key, default: []].append((row.key.size, median))
        }
        return order.compactMap { key in
            let series = points[key, default: []].sorted { $0.0 < $1.0 }
            guard let fits = fit(sizes: series.map { Double($0.0) }, values: series.map(\.1)) else { return nil }
            return Row(
                scenario: key.scenario, strategy: key.strategy, variant: key.variant, phase: key.phase, metric: key.metric,
                sizes: series.map(\.0), fits: fits)
        }
    }
}

/// complexity.csv: the best-fitting growth of each series over the sizes of a run.
package enum ComplexityFile {
    package static let columns = [
        "scenario", "strategy", "variant", "phase", "metric", "sizes", "best_fit", "error", "coefficient",
        "second_fit", "second_error",
    ]

    package static func encode(_ rows: [ComplexityFit.Row]) throws -> String {
        try CSVFiles.encode(
            header: columns,
            rows: rows.map { row in
                let second = row.fits.count > 1 ? row.fits[1] : nil
                return [
                    row.scenario.rawValue, row.strategy.rawValue, row.variant.description, row.phase.rawValue, row.metric.rawValue,
                    row.sizes.map(String.init).joined(separator: " "),
                    row.best.model.rawValue, formatNumber(row.best.error), String(format: "%.6g", row.best.coefficient),
                    second?.model.rawValue ?? "", second.map { formatNumber($0.error) } ?? "",
                ]
            })
    }
}
