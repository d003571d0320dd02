import Foundation

/// summary.csv: one row per (scenario, strategy, variant, size, phase, metric).
package enum SummaryFile {
    package static let columns = [
        "scenario", "strategy", "variant", "size", "phase", "metric", "unit", "n", "median", "mean",
        "stddev", "min", "max", "p90", "ci_low", "ci_high", "ratio_to_floor", "floor",
    ]

    /// What a summary.csv holds: the rows this binary can type, and the series it cannot.
    package struct Contents: Sendable {
        package var rows: [SummaryRow]
        package var unknown: Set<UnknownSeries>
    }

    package static func encode(_ rows: [SummaryRow]) throws -> String {
        try CSVFiles.encode(
            header: columns,
            rows: rows.map { row in
                let stats: [String]
                if let s = row.summary {
                    stats = [String(s.n)] + [s.median, s.mean, s.stddev, s.min, s.max, s.p90, s.ciLow, s.ciHigh].map(formatNumber)
                } else {
                    stats = ["0"] + Array(repeating: "", count: 8)
                }
                let key = row.key
                return [
                    key.scenario.rawValue, key.strategy.rawValue, key.variant.description, String(key.size), key.phase.rawValue,
                    key.metric.rawValue, key.metric.unit.rawValue,
                ] + stats + [row.ratioToFloor.map(formatNumber) ?? "", row.floor?.rawValue ?? ""]
            })
    }

    /// The summary of a run folder (or a summary.csv path), with a message naming what is missing.
    package static func load(_ path: String) throws -> Contents {
        let file = path.hasSuffix(".csv") ? path : (path as NSString).appendingPathComponent("summary.csv")
        guard let data = FileManager.default.contents(atPath: file) else {
            throw BenchError.invalidInput("\(path) has no summary.csv; give a run folder written by 'bench run'")
        }
        return try decode(String(decoding: data, as: UTF8.self), file: file)
    }

    package static func decode(_ text: String, file: String) throws -> Contents {
        var contents = Contents(rows: [], unknown: [])
        let rows = try CSVFiles.decode(text, expected: Array(columns.dropLast(2)), file: file)
        for (index, row) in rows.enumerated() {
            let line = "\(file): line \(index + 2)"
            guard let size = Int(row["size"]), size >= 0, let n = Int(row["n"]), n >= 0 else {
                throw BenchError.invalidInput("\(line): size and n must be whole numbers of 0 or more")
            }
            var summary: SampleSummary?
            if n > 0 {
                let columns = ["median", "mean", "stddev", "min", "max", "p90", "ci_low", "ci_high"]
                let numbers = columns.compactMap { Double(row[$0]).flatMap { $0.isFinite ? $0 : nil } }
                guard numbers.count == columns.count else {
                    throw BenchError.invalidInput("\(line): statistics must be finite numbers")
                }
                summary = SampleSummary(
                    n: n, median: numbers[0], mean: numbers[1], stddev: numbers[2], min: numbers[3],
                    max: numbers[4], p90: numbers[5], ciLow: numbers[6], ciHigh: numbers[7])
            }
            switch SeriesKey.parse(
                scenario: row["scenario"], strategy: row["strategy"], variant: row["variant"], size: size,
                phase: row["phase"], metric: row["metric"])
            {
            case let .success(key):
                if let summary, key.metric.isExact, key.metric.isCount {
                    // A median of an even number of counts may end in .5; the smallest and largest are counts themselves.
                    let values: [(column: String, value: Double, whole: Bool)] = [
                        ("median", summary.median, false), ("min", summary.min, true), ("max", summary.max, true),
                        ("p90", summary.p90, false),
                    ]
                    if let (column, value, _) = values.first(where: { $0.value < 0 || ($0.whole && $0.value.rounded() != $0.value) }) {
                        throw BenchError.invalidInput(
                            "\(line): \(key.metric.rawValue)'s \(column) \(formatNumber(value)) is no count (a whole number of 0 or more); is the file damaged?"
                        )
                    }
                }
                let ratio = (row.field("ratio_to_floor") ?? row.field("ratio_to_raw")).flatMap(Double.init)
                contents.rows.append(
                    SummaryRow(key: key, summary: summary, ratioToFloor: ratio, floor: row.field("floor").flatMap(Strategy.init(rawValue:)))
                )
            case let .failure(unknown):
                contents.unknown.insert(unknown)
            }
        }
        return contents
    }
}

extension SampleSummary {
    /// A summary read back from summary.csv.
    init(n: Int, median: Double, mean: Double, stddev: Double, min: Double, max: Double, p90: Double, ciLow: Double, ciHigh: Double) {
        self.n = n
        self.median = median
        self.mean = mean
        self.stddev = stddev
        self.min = min
        self.max = max
        self.p90 = p90
        self.ciLow = ciLow
        self.ciHigh = ciHigh
    }
}
