import Foundation

/// The JSON benchmark-action/github-action-benchmark reads with `tool: customSmallerIsBetter`: one entry per
/// series with its median, the 95% interval as the range, and the sample count.
public enum GitHubBenchmarkExport {
    struct Entry: Encodable {
        let name: String
        let unit: String
        let value: Double
        let range: String
        let extra: String
    }

    /// Every series where smaller is better (everything but links persisted and intended).
    public static func encode(_ summary: [SummaryRow]) throws -> String {
        let entries = summary.compactMap { row -> Entry? in
            guard let stats = row.summary, row.key.metric != Metric.linksPersisted.rawValue,
                  row.key.metric != Metric.linksIntended.rawValue else { return nil }
            let variant = row.key.variant.isEmpty ? "" : " [\(row.key.variant)]"
            return Entry(name: "\(row.key.scenario) \(row.key.strategy)\(variant) n=\(row.key.size) \(row.key.phase) \(row.key.metric)",
                         unit: row.unit, value: stats.median,
                         range: "\(formatNumber(stats.ciLow))...\(formatNumber(stats.ciHigh))", extra: "n=\(stats.n)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(entries), as: UTF8.self) + "\n"
    }
}
