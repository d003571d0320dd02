import Foundation

/// One row of summary.csv: a series' statistics, and its median relative to its floor's in the same run.
package struct SummaryRow: Equatable, Sendable {
    package var key: SeriesKey
    /// nil when the strategy cannot measure the metric: the row's numbers are then left empty.
    package var summary: SampleSummary?
    /// The median divided by the floor's median of the same scenario, variant, size, phase and metric: the replay of
    /// the same statements on the same modelling.
    package var ratioToFloor: Double?
    /// The series `ratioToFloor` divides by (`sql-replay`); nil when the run has none.
    package var floor: Strategy?

    package init(key: SeriesKey, summary: SampleSummary?, ratioToFloor: Double? = nil, floor: Strategy? = nil) {
        self.key = key
        self.summary = summary
        self.ratioToFloor = ratioToFloor
        self.floor = floor
    }

    package var unit: MetricUnit { key.metric.unit }
}

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

    /// Summaries of every series in `samples`, ordered by scenario, strategy, variant, size, phase and metric,
    /// each in the order it first appears (the order the scenario declares, as the run's first round has it).
    package static func summarize(_ samples: [SampleRecord]) -> [SummaryRow] {
        var order: [SeriesKey] = []
        var values: [SeriesKey: [Double]] = [:]
        var rank: [String: Int] = [:]
        func note(_ field: String, _ value: String) {
            let key = field + "\u{1}" + value
            if rank[key] == nil { rank[key] = rank.count }
        }
        for sample in samples {
            let key = sample.key
            if values[key] == nil {
                order.append(key)
                values[key] = []
                note("scenario", key.scenario.rawValue)
                note("strategy", key.scenario.rawValue + "/" + key.strategy.rawValue)
                note("variant", key.scenario.rawValue + "/" + key.variant.description)
                note("phase", key.scenario.rawValue + "/" + key.phase.rawValue)
                note("metric", key.metric.rawValue)
            }
            if let value = sample.value { values[key]!.append(value) }
        }
        let positions = Dictionary(
            uniqueKeysWithValues: order.map { key in
                (
                    key,
                    [
                        rank["scenario\u{1}" + key.scenario.rawValue]!,
                        rank["strategy\u{1}" + key.scenario.rawValue + "/" + key.strategy.rawValue]!,
                        rank["variant\u{1}" + key.scenario.rawValue + "/" + key.variant.description]!, key.size,
                        rank["phase\u{1}" + key.scenario.rawValue + "/" + key.phase.rawValue]!, rank["metric\u{1}" + key.metric.rawValue]!,
                    ]
                )
            })
        order.sort { positions[$0]!.lexicographicallyPrecedes(positions[$1]!) }
        var rows = order.map { SummaryRow(key: $0, summary: SampleSummary(values[$0]!)) }
        addRatiosToFloor(&rows)
        return rows
    }

    /// Fills `ratioToFloor` and `floor` from the row of the floor (`sql-replay`) with the same scenario, variant, size,
    /// phase and metric: the same statements on the same modelling, so that the ratio is ObjectGraph's own cost.
    package static func addRatiosToFloor(_ rows: inout [SummaryRow]) {
        var medians: [SeriesKey: Double] = [:]
        for row in rows {
            if let median = row.summary?.median { medians[row.key] = median }
        }
        for index in rows.indices {
            rows[index].ratioToFloor = nil
            rows[index].floor = nil
            guard rows[index].key.strategy != Strategy.floor, let base = medians[rows[index].key.with(Strategy.floor)] else { continue }
            rows[index].floor = Strategy.floor
            guard let median = rows[index].summary?.median, base != 0 else { continue }
            rows[index].ratioToFloor = median / base
        }
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
            guard let size = Int(row["size"]!), size >= 0, let n = Int(row["n"]!), n >= 0 else {
                throw BenchError.invalidInput("\(line): size and n must be whole numbers of 0 or more")
            }
            var summary: SampleSummary?
            if n > 0 {
                let numbers = ["median", "mean", "stddev", "min", "max", "p90", "ci_low", "ci_high"].map { Double(row[$0]!) }
                guard numbers.allSatisfy({ $0?.isFinite == true }) else {
                    throw BenchError.invalidInput("\(line): statistics must be finite numbers")
                }
                summary = SampleSummary(
                    n: n, median: numbers[0]!, mean: numbers[1]!, stddev: numbers[2]!, min: numbers[3]!,
                    max: numbers[4]!, p90: numbers[5]!, ciLow: numbers[6]!, ciHigh: numbers[7]!)
            }
            switch SeriesKey.parse(
                scenario: row["scenario"]!, strategy: row["strategy"]!, variant: row["variant"]!, size: size,
                phase: row["phase"]!, metric: row["metric"]!)
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
                let ratio = (row["ratio_to_floor"] ?? row["ratio_to_raw"]).flatMap(Double.init)
                contents.rows.append(
                    SummaryRow(key: key, summary: summary, ratioToFloor: ratio, floor: row["floor"].flatMap(Strategy.init(rawValue:))))
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
