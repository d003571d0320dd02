import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The JSON benchmark-action/github-action-benchmark reads with `tool: customSmallerIsBetter`: one entry per
/// series with its median, the 95% interval as the range, and the sample count.
package enum GitHubBenchmarkExport {
    struct Entry: Encodable {
        let name: String
        let unit: String
        let value: Double
        let range: String
        let extra: String
    }

    /// The name a series has on the dashboard: `query many-to-one [prefetch=off] n=10000 walk wall_ms`.
    package static func name(_ key: SeriesKey) -> String {
        let variant = key.variant.isEmpty ? "" : " [\(key.variant)]"
        return "\(key.scenario) \(key.strategy)\(variant) n=\(key.size) \(key.phase) \(key.metric.rawValue)"
    }

    /// Every series whose metric is better lower (`Metric.polarity`, as compare judges it), or only those whose
    /// name matches one of `patterns` (shell patterns: `query objectgraph [[]prefetch=off] n=* walk wall_ms`).
    static func entries(_ summary: [SummaryRow], patterns: [String]?) -> [Entry] {
        summary.compactMap { row -> Entry? in
            guard let stats = row.summary, row.key.metric.polarity == .lowerIsBetter else { return nil }
            let name = name(row.key)
            if let patterns, !patterns.contains(where: { fnmatch($0, name, 0) == 0 }) { return nil }
            return Entry(
                name: name, unit: row.unit.rawValue, value: stats.median,
                range: "\(formatNumber(stats.ciLow))...\(formatNumber(stats.ciHigh))", extra: "n=\(stats.n)")
        }
    }

    /// The export's JSON: an array of entries.
    package static func encode(_ summary: [SummaryRow], patterns: [String]? = nil) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(entries(summary, patterns: patterns)), as: UTF8.self) + "\n"
    }
}
