import Foundation

/// One row of summary.csv: a series' statistics, and its median relative to its floor's in the same run.
public struct SummaryRow: Equatable, Sendable {
    public var key: SeriesKey
    public var unit: String
    /// nil when the strategy cannot measure the metric: the row's numbers are then left empty.
    public var summary: SampleSummary?
    /// The median divided by the floor's median of the same scenario, variant, size, phase and metric.
    public var ratioToRaw: Double?
    /// The series `ratioToRaw` divides by: the raw SQLite peer storing the same modelling
    /// (`raw-sqlite:many-to-many` for `many-to-many` and `grdb:many-to-many`); nil when the run has none.
    public var floor: String?

    public init(key: SeriesKey, unit: String, summary: SampleSummary?, ratioToRaw: Double? = nil, floor: String? = nil) {
        self.key = key
        self.unit = unit
        self.summary = summary
        self.ratioToRaw = ratioToRaw
        self.floor = floor
    }
}

/// summary.csv: one row per (scenario, strategy, variant, size, phase, metric).
public enum SummaryFile {
    public static let columns = ["scenario", "strategy", "variant", "size", "phase", "metric", "unit", "n", "median", "mean",
                                 "stddev", "min", "max", "p90", "ci_low", "ci_high", "ratio_to_raw", "floor"]

    /// Summaries of every series in `samples`, ordered by scenario, strategy, variant, size, phase and metric,
    /// each in the order it first appears (the order the scenario declares, as the run's first round has it).
    public static func summarize(_ samples: [SampleRecord]) -> [SummaryRow] {
        var order: [SeriesKey] = []
        var values: [SeriesKey: [Double]] = [:]
        var units: [SeriesKey: String] = [:]
        var rank: [String: Int] = [:]
        func note(_ field: String, _ value: String) {
            let key = field + "\u{1}" + value
            if rank[key] == nil { rank[key] = rank.count }
        }
        for sample in samples {
            let key = sample.seriesKey
            if values[key] == nil {
                order.append(key)
                values[key] = []
                units[key] = sample.unit
                note("scenario", key.scenario)
                note("strategy", key.scenario + "/" + key.strategy)
                note("variant", key.scenario + "/" + key.variant)
                note("phase", key.scenario + "/" + key.phase)
                note("metric", key.metric)
            }
            if let value = sample.value { values[key]!.append(value) }
        }
        let positions = Dictionary(uniqueKeysWithValues: order.map { key in
            (key, [rank["scenario\u{1}" + key.scenario]!, rank["strategy\u{1}" + key.scenario + "/" + key.strategy]!,
                   rank["variant\u{1}" + key.scenario + "/" + key.variant]!, key.size, rank["phase\u{1}" + key.scenario + "/" + key.phase]!,
                   rank["metric\u{1}" + key.metric]!])
        })
        order.sort { positions[$0]!.lexicographicallyPrecedes(positions[$1]!) }
        var rows = order.map { SummaryRow(key: $0, unit: units[$0]!, summary: SampleSummary(values[$0]!)) }
        addRatiosToRaw(&rows)
        return rows
    }

    /// Fills `ratioToRaw` and `floor` from the row of the strategy's floor (the raw peer of its modelling) with the
    /// same scenario, variant, size, phase and metric. A series whose floor did not run gets no ratio: dividing
    /// by another modelling's floor is the unfair comparison this column exists to avoid.
    public static func addRatiosToRaw(_ rows: inout [SummaryRow]) {
        var medians: [SeriesKey: Double] = [:]
        for row in rows {
            if let median = row.summary?.median { medians[row.key] = median }
        }
        for index in rows.indices {
            rows[index].ratioToRaw = nil
            rows[index].floor = nil
            guard let strategy = StrategyID(rawValue: rows[index].key.strategy) else { continue }
            var key = rows[index].key
            key.strategy = strategy.floor.rawValue
            guard let base = medians[key] else { continue }
            rows[index].floor = key.strategy
            guard let median = rows[index].summary?.median, base != 0 else { continue }
            rows[index].ratioToRaw = median / base
        }
    }

    public static func encode(_ rows: [SummaryRow]) throws -> String {
        try CSVFiles.encode(header: columns, rows: rows.map { row in
            let stats: [String]
            if let s = row.summary {
                stats = [String(s.n)] + [s.median, s.mean, s.stddev, s.min, s.max, s.p90, s.ciLow, s.ciHigh].map(formatNumber)
            } else {
                stats = ["0"] + Array(repeating: "", count: 8)
            }
            return [row.key.scenario, row.key.strategy, row.key.variant, String(row.key.size), row.key.phase, row.key.metric, row.unit]
                + stats + [row.ratioToRaw.map(formatNumber) ?? "", row.floor ?? ""]
        })
    }

    /// The summary of a run folder (or a summary.csv path), with a message naming what is missing.
    public static func load(_ path: String) throws -> [SummaryRow] {
        let file = path.hasSuffix(".csv") ? path : (path as NSString).appendingPathComponent("summary.csv")
        guard let data = FileManager.default.contents(atPath: file) else {
            throw BenchError.invalidInput("\(path) has no summary.csv; give a run folder written by 'bench run'")
        }
        return try decode(String(decoding: data, as: UTF8.self), file: file)
    }

    public static func decode(_ text: String, file: String) throws -> [SummaryRow] {
        try CSVFiles.decode(text, expected: Array(columns.dropLast(2)), file: file).enumerated().map { index, row in
            guard let size = Int(row["size"]!), let n = Int(row["n"]!) else {
                throw BenchError.invalidInput("\(file): line \(index + 2): size and n must be integers")
            }
            let key = SeriesKey(scenario: row["scenario"]!, strategy: row["strategy"]!, variant: row["variant"]!, size: size,
                                phase: row["phase"]!, metric: row["metric"]!)
            var summary: SampleSummary?
            if n > 0 {
                let numbers = ["median", "mean", "stddev", "min", "max", "p90", "ci_low", "ci_high"].map { Double(row[$0]!) }
                guard numbers.allSatisfy({ $0?.isFinite == true }) else {
                    throw BenchError.invalidInput("\(file): line \(index + 2): statistics must be finite numbers")
                }
                summary = SampleSummary(n: n, median: numbers[0]!, mean: numbers[1]!, stddev: numbers[2]!, min: numbers[3]!,
                                        max: numbers[4]!, p90: numbers[5]!, ciLow: numbers[6]!, ciHigh: numbers[7]!)
            }
            return SummaryRow(key: key, unit: row["unit"]!, summary: summary, ratioToRaw: row["ratio_to_raw"].flatMap(Double.init),
                              floor: row["floor"].flatMap { $0.isEmpty ? nil : $0 })
        }
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
