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

/// A run's samples summarised: what summary.csv holds.
extension SummaryFile {
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
            if let value = sample.value { values[key, default: []].append(value) }
        }
        let positions = Dictionary(
            uniqueKeysWithValues: order.map { key in
                (
                    key,
                    [
                        rank["scenario\u{1}" + key.scenario.rawValue, default: 0],
                        rank["strategy\u{1}" + key.scenario.rawValue + "/" + key.strategy.rawValue, default: 0],
                        rank["variant\u{1}" + key.scenario.rawValue + "/" + key.variant.description, default: 0], key.size,
                        rank["phase\u{1}" + key.scenario.rawValue + "/" + key.phase.rawValue, default: 0],
                        rank["metric\u{1}" + key.metric.rawValue, default: 0],
                    ]
                )
            })
        order.sort { positions[$0, default: []].lexicographicallyPrecedes(positions[$1, default: []]) }
        var rows = order.map { SummaryRow(key: $0, summary: SampleSummary(values[$0, default: []])) }
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
}
