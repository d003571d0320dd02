import Foundation

/// How a claim is decided from a run's summary. Each rule says in words what it applies; "lower" follows the
/// metric's own comparison: exact counters directly, allocation counts beyond their tolerance, times and memory
/// only with 95% intervals apart and three repetitions or more per series.
package indirect enum Rule: Sendable {
    /// The first series' metric lower than the second's at each size; `growing`: and their ratio falling as the
    /// size grows ("increasingly with size").
    case lower(SeriesSelector, than: SeriesSelector, Metric, growing: Bool = false)
    /// The metric's median equal to a value at every size.
    case equals(SeriesSelector, Metric, Double)
    /// The metric's median at least a value at every size.
    case atLeast(SeriesSelector, Metric, Double)
    /// Two series' medians equal at every size.
    case same(SeriesSelector, as: SeriesSelector, Metric)
    /// Fewer statements and less time: decides "holds for statements but not for time" and the reverse.
    case fewerAndFaster(SeriesSelector, than: SeriesSelector)
    /// Medians that do not fall along the list and end higher than they start, at every size.
    case increasing([SeriesSelector], Metric)
    /// Among options labelled by a number (batch sizes), the smallest whose median is within `within` of the
    /// best is at most `atMost`, at each size.
    case smallestWithin([(label: Int, series: SeriesSelector)], Metric, within: Double, atMost: Int)
    /// Each series lower than the next, at each size (each with a label for the evidence).
    case ordered([(label: String, series: SeriesSelector)], Metric)
    /// One series at least `factor` times the other (either way round), intervals apart, at each size.
    case asymmetric(SeriesSelector, SeriesSelector, Metric, factor: Double)
    /// Every part, each named.
    case all([(label: String, rule: Rule)])
    /// A claim RelBench's store cannot test honestly, and why.
    case untestable(String)

    /// Applies the rule to `run`.
    func evaluate(_ run: RunView) -> (outcome: Outcome, evidence: [String], text: String) {
        switch self {
        case let .lower(a, b, metric, growing):
            return Self.lower(a, b, metric, growing: growing, run)
        case let .equals(series, metric, value):
            return Self.compareToValue(series, metric, value, run, "== \(formatNumber(value))") { $0 == value }
        case let .atLeast(series, metric, value):
            return Self.compareToValue(series, metric, value, run, ">= \(formatNumber(value))") { $0 >= value }
        case let .same(a, b, metric):
            return Self.same(a, b, metric, run)
        case let .fewerAndFaster(a, b):
            let statements = Self.lower(a, b, .sqlStatements, growing: false, run)
            let time = Self.lower(a, b, .wallMs, growing: false, run)
            let text = "\(a) below \(b) in sql_statements (exact) and in wall_ms (intervals apart)"
            let evidence = statements.evidence + time.evidence
            if case .notMeasured = statements.outcome { return (statements.outcome, evidence, text) }
            if case .notMeasured = time.outcome { return (time.outcome, evidence, text) }
            let fewer = statements.outcome == .holds
            let faster = time.outcome == .holds
            let outcome: Outcome =
                fewer && faster ? .holds : fewer ? .holdsForStatementsNotTime : faster ? .holdsForTimeNotStatements : .doesNotHold
            return (outcome, evidence, text)
        case let .increasing(list, metric):
            return Self.increasing(list, metric, run)
        case let .smallestWithin(options, metric, within, atMost):
            return Self.smallestWithin(options, metric, within: within, atMost: atMost, run)
        case let .ordered(list, metric):
            var parts: [(String, Rule)] = []
            for index in list.indices.dropLast() {
                parts.append(
                    ("\(list[index].label) < \(list[index + 1].label)", .lower(list[index].series, than: list[index + 1].series, metric)))
            }
            let result = Rule.all(parts).evaluate(run)
            return (
                result.outcome, result.evidence,
                "\(metric.rawValue) ordered " + list.map(\.series.description).joined(separator: " < ")
                    + " at each size (each pair: \(Self.decision(metric)))"
            )
        case let .asymmetric(a, b, metric, factor):
            return Self.asymmetric(a, b, metric, factor: factor, run)
        case let .all(parts):
            return Self.all(parts, run)
        case let .untestable(reason):
            return (.cannotTest(reason), [], "none: \(reason)")
        }
    }

    // MARK: Rules

    private static func lower(
        _ a: SeriesSelector, _ b: SeriesSelector, _ metric: Metric, growing: Bool, _ run: RunView
    )
        -> (outcome: Outcome, evidence: [String], text: String)
    {
        let text =
            "\(metric.rawValue) of \(a) below \(b)'s at each size: \(decision(metric))"
            + (growing ? ", the ratio falling as the size grows" : "")
        let (pairs, missing) = run.pairs(a, b, metric)
        if let missing { return (.notMeasured(missing), [], text) }
        var wins: [(Int, Bool)] = []
        var evidence: [String] = []
        var ratios: [Double] = []
        for (size, x, y) in pairs {
            guard let win = lowerAt(x, y, metric) else {
                return (
                    .notMeasured("\(metric.rawValue) needs 3 or more repetitions per series to compare (this run has \(min(x.n, y.n)))"),
                    [], text
                )
            }
            wins.append((size, win))
            let ratio = y.median == 0 ? Double.nan : x.median / y.median
            ratios.append(ratio)
            evidence.append(
                "size \(formatCount(size)): \(a.label(against: b)) \(describe(x, metric)) against \(b.label(against: a)) \(describe(y, metric))"
                    + (ratio.isFinite ? " (×\(String(format: "%.2f", ratio)))" : ""))
        }
        var outcome = sizeOutcome(wins)
        if growing, outcome == .holds {
            let falling = ratios.count >= 2 && zip(ratios, ratios.dropFirst()).allSatisfy { $1 < $0 }
            if !falling { outcome = .partly("lower at every size, but the gap does not grow with the size") }
            if ratios.count < 2 { outcome = .notMeasured("'increasingly with size' needs two sizes or more") }
        }
        return (outcome, evidence, text)
    }

    private static func compareToValue(
        _ series: SeriesSelector, _ metric: Metric, _ value: Double, _ run: RunView, _ wanted: String,
        _ test: (Double) -> Bool
    ) -> (outcome: Outcome, evidence: [String], text: String) {
        let text = "\(metric.rawValue) of \(series) \(wanted) at every size"
        let values = run.series(series, metric)
        guard !values.isEmpty else { return (.notMeasured("no series \(series) \(metric.rawValue)"), [], text) }
        let evidence = values.map { "size \(formatCount($0.size)): \(describe($0.summary, metric))" }
        return (values.allSatisfy { test($0.summary.median) } ? .holds : .doesNotHold, evidence, text)
    }

    private static func same(
        _ a: SeriesSelector, _ b: SeriesSelector, _ metric: Metric, _ run: RunView
    ) -> (outcome: Outcome, evidence: [String], text: String) {
        let text = "\(metric.rawValue) of \(a) equal to \(b)'s at every size"
        let (pairs, missing) = run.pairs(a, b, metric)
        if let missing { return (.notMeasured(missing), [], text) }
        let evidence = pairs.map {
            "size \(formatCount($0.size)): \(a.label(against: b)) \(describe($0.a, metric)) against \(b.label(against: a)) \(describe($0.b, metric))"
        }
        return (pairs.allSatisfy { $0.a.median == $0.b.median } ? .holds : .doesNotHold, evidence, text)
    }

    private static func increasing(
        _ list: [SeriesSelector], _ metric: Metric, _ run: RunView
    ) -> (outcome: Outcome, evidence: [String], text: String) {
        let text =
            "\(metric.rawValue) never falls along " + list.map(\.description).joined(separator: ", ")
            + " and ends above where it starts, at every size"
        let columns = list.map { run.series($0, metric) }
        if let empty = columns.firstIndex(where: \.isEmpty) {
            return (.notMeasured("no series \(list[empty]) \(metric.rawValue)"), [], text)
        }
        let sizes = Set(columns[0].map(\.size)).intersection(columns.dropFirst().flatMap { $0.map(\.size) }).sorted()
        var wins: [(Int, Bool)] = []
        var evidence: [String] = []
        for size in sizes {
            let values = columns.compactMap { column in column.first { $0.size == size }?.summary.median }
            guard values.count == columns.count else { continue }
            wins.append((size, zip(values, values.dropFirst()).allSatisfy { $1 >= $0 } && values.last! > values.first!))
            evidence.append("size \(formatCount(size)): " + values.map { format($0, metric) }.joined(separator: ", "))
        }
        return (sizeOutcome(wins), evidence, text)
    }

    private static func smallestWithin(
        _ options: [(label: Int, series: SeriesSelector)], _ metric: Metric, within: Double, atMost: Int,
        _ run: RunView
    ) -> (outcome: Outcome, evidence: [String], text: String) {
        let text =
            "the smallest option whose median \(metric.rawValue) is within \(Int(within * 100))% of the best is at most \(atMost), at each size (3+ repetitions)"
        let columns = options.map { (label: $0.label, values: run.series($0.series, metric)) }
        guard columns.allSatisfy({ !$0.values.isEmpty }) else {
            return (
                .notMeasured(
                    "missing " + options.filter { run.series($0.series, metric).isEmpty }.map(\.series.description).joined(separator: ", ")),
                [], text
            )
        }
        let sizes = Set(columns[0].values.map(\.size)).sorted()
        var wins: [(Int, Bool)] = []
        var evidence: [String] = []
        for size in sizes {
            let at = columns.compactMap { column in column.values.first { $0.size == size }.map { (column.label, $0.summary) } }
            guard at.count == columns.count else { continue }
            if at.contains(where: { $0.1.n < 3 }) {
                return (.notMeasured("needs 3 or more repetitions per series (this run has \(at.map(\.1.n).min()!))"), [], text)
            }
            let best = at.map(\.1.median).min()!
            let smallest = at.filter { $0.1.median <= best * (1 + within) }.map(\.0).min()!
            wins.append((size, smallest <= atMost))
            evidence.append(
                "size \(formatCount(size)): best \(format(best, metric)); smallest within \(Int(within * 100))%: \(smallest) ("
                    + at.map { "\($0.0): \(format($0.1.median, metric))" }.joined(separator: ", ") + ")")
        }
        return (sizeOutcome(wins), evidence, text)
    }

    private static func asymmetric(
        _ a: SeriesSelector, _ b: SeriesSelector, _ metric: Metric, factor: Double, _ run: RunView
    )
        -> (outcome: Outcome, evidence: [String], text: String)
    {
        let text = "one of \(a) and \(b) at least \(formatNumber(factor))× the other in \(metric.rawValue), intervals apart, at each size"
        let (pairs, missing) = run.pairs(a, b, metric)
        if let missing { return (.notMeasured(missing), [], text) }
        var wins: [(Int, Bool)] = []
        var evidence: [String] = []
        for (size, x, y) in pairs {
            guard x.n >= 3 && y.n >= 3 || !metric.isStatistical else {
                return (.notMeasured("needs 3 or more repetitions per series (this run has \(min(x.n, y.n)))"), [], text)
            }
            let (slow, fast) = x.median >= y.median ? (x, y) : (y, x)
            let ratio = fast.median > 0 ? slow.median / fast.median : .infinity
            wins.append((size, ratio >= factor && fast.ciHigh < slow.ciLow))
            evidence.append(
                "size \(formatCount(size)): \(a.label(against: b)) \(describe(x, metric)) against \(b.label(against: a)) \(describe(y, metric)) (×\(String(format: "%.1f", ratio)))"
            )
        }
        return (sizeOutcome(wins), evidence, text)
    }

    private static func all(_ parts: [(label: String, rule: Rule)], _ run: RunView) -> (outcome: Outcome, evidence: [String], text: String)
    {
        let results = parts.map { (label: $0.label, result: $0.rule.evaluate(run)) }
        let text = results.map { "\($0.label): \($0.result.text)" }.joined(separator: "; ")
        let evidence = results.flatMap { part in part.result.evidence.map { "\(part.label): \($0)" } }
        if let missing = results.first(where: { !$0.result.outcome.isDecided }) { return (missing.result.outcome, evidence, text) }
        let holding = results.filter { $0.result.outcome == .holds }
        if holding.count == results.count { return (.holds, evidence, text) }
        if holding.isEmpty && results.allSatisfy({ $0.result.outcome == .doesNotHold }) { return (.doesNotHold, evidence, text) }
        let others = results.filter { $0.result.outcome != .holds }.map { "\($0.label) \($0.result.outcome.label)" }
        // With no part holding whole, the parts say it alone ("holds for none; ..." read as a contradiction).
        if holding.isEmpty { return (.partly(others.joined(separator: ", ")), evidence, text) }
        return (
            .partly("holds for " + holding.map(\.label).joined(separator: ", ") + "; " + others.joined(separator: ", ")), evidence, text
        )
    }

    // MARK: Helpers

    /// Whether `a` is lower than `b`, decided as the metric is compared; nil when a statistical metric has too few samples.
    static func lowerAt(_ a: SampleSummary, _ b: SampleSummary, _ metric: Metric) -> Bool? {
        switch metric.comparison {
        case .exact: return a.median < b.median
        case let .tolerance(relative, absolute): return b.median - a.median > max(relative * abs(b.median), absolute)
        case .instructionCount: return a.median < b.median * 0.99
        case .statistical:
            guard a.n >= 3 && b.n >= 3 else { return nil }
            return a.median < b.median && a.ciHigh < b.ciLow
        }
    }

    private static func decision(_ metric: Metric) -> String {
        switch metric.comparison {
        case .exact: return "exact medians"
        case let .tolerance(relative, absolute):
            return "lower by more than \(Int(relative * 100))% and \(formatNumber(absolute)) \(metric.unit)"
        case .instructionCount: return "lower by more than 1%"
        case .statistical: return "median lower and 95% intervals apart (3+ repetitions)"
        }
    }

    /// Holds at every size, from a size on, at none, or at some (named).
    static func sizeOutcome(_ wins: [(size: Int, win: Bool)]) -> Outcome {
        guard !wins.isEmpty else { return .notMeasured("no size measured both series") }
        if wins.allSatisfy(\.win) { return .holds }
        if !wins.contains(where: \.win) { return .doesNotHold }
        if let first = wins.firstIndex(where: \.win), wins[first...].allSatisfy(\.win) { return .holdsFrom(size: wins[first].size) }
        return .partly("only at size " + wins.filter(\.win).map { formatCount($0.size) }.joined(separator: ", "))
    }

    static func describe(_ summary: SampleSummary, _ metric: Metric) -> String {
        metric.isStatistical && summary.n > 1
            ? "\(format(summary.median, metric)) [\(format(summary.ciLow, metric)), \(format(summary.ciHigh, metric))]"
            : format(summary.median, metric)
    }

    /// A value with its unit: `12.3 ms`, `4.1 MiB`, `2,001 statements`.
    static func format(_ value: Double, _ metric: Metric) -> String {
        switch metric.unit {
        case "ms": return String(format: value < 10 ? "%.3g ms" : "%.1f ms", value)
        case "bytes": return String(format: "%.1f MiB", value / 1_048_576)
        case "ratio": return String(format: "%.4f", value)
        default:
            let name = metric.rawValue.replacingOccurrences(of: "_", with: " ")
            return (value == value.rounded() ? formatCount(value) : formatNumber(value)) + " " + name
        }
    }
}

extension Metric {
    /// Compared with statistics (times, memory levels), not as a count.
    var isStatistical: Bool { comparison == .statistical }
}

/// A run's summary, indexed for the rules.
struct RunView {
    private var rows: [SeriesKey: SampleSummary] = [:]

    init(_ summary: [SummaryRow]) {
        for row in summary { if let stats = row.summary { rows[row.key] = stats } }
    }

    /// The series' medians by size, smallest first.
    func series(_ selector: SeriesSelector, _ metric: Metric) -> [(size: Int, summary: SampleSummary)] {
        rows.filter { $0.key.metric == metric && selector.matches($0.key) }
            .map { (size: $0.key.size, summary: $0.value) }.sorted { $0.size < $1.size }
    }

    /// Both series at the sizes both measured, or what is missing.
    func pairs(
        _ a: SeriesSelector, _ b: SeriesSelector, _ metric: Metric
    ) -> (pairs: [(size: Int, a: SampleSummary, b: SampleSummary)], missing: String?) {
        let x = series(a, metric)
        let y = series(b, metric)
        let missing = [x.isEmpty ? a : nil, y.isEmpty ? b : nil].compactMap { $0 }
        guard missing.isEmpty else {
            return ([], "no series " + missing.map(\.description).joined(separator: ", ") + " (\(metric.rawValue))")
        }
        let pairs = x.compactMap { first in y.first { $0.size == first.size }.map { (size: first.size, a: first.summary, b: $0.summary) } }
        return (pairs, pairs.isEmpty ? "\(a) and \(b) share no size" : nil)
    }
}
