import Foundation

/// How a claim is decided from a run. Counts compare exactly. Times and memory compare by the ratio of the two arms
/// (Hodges-Lehmann, with an exact distribution-free interval): the arms differ when the 95% interval of the ratio
/// excludes 1, and are no different when its 90% interval lies within the claim's margin (two one-sided tests);
/// otherwise the run cannot tell. Before any time or memory is compared, the arms' statements are: two arms that
/// give SQLite the same work differ only in ObjectGraph, which says nothing about Core Data.
package indirect enum Rule: Sendable {
    /// The first series' metric against the second's, at each size.
    case compare(SeriesSelector, SeriesSelector, Metric, Expect)
    /// The metric equal to a value at every size.
    case equals(SeriesSelector, Metric, Double)
    /// The metric at least a value at every size.
    case atLeast(SeriesSelector, Metric, Double)
    /// Medians that never fall along the list and end above where they start, at every size.
    case increasing([SeriesSelector], Metric)
    /// How the metric grows from the claim's smallest size to its largest: flat, or with the size.
    case growth(SeriesSelector, Metric, Growth)
    /// Every part, each named and judged.
    case all([(label: String, rule: Rule)])
    /// A claim an emulation cannot judge, and why.
    case cannotJudge(String)

    package enum Expect: Sendable, Equatable {
        case lower, higher
        /// Higher or no different: a larger option is not better.
        case notLower
    }

    package enum Growth: String, Sendable {
        case flat, growing
    }

    /// The fewest repetitions whose median has a distribution-free 95% interval (1 - 2^(1-n) ≥ 0.95).
    package static let repetitionsForAnInterval = 6

    /// Applies the rule for `claim` to `run`.
    func evaluate(_ run: RunEvidence, for claim: Claim) -> Judgement {
        var judge = Judging(run: run, claim: claim)
        let (outcome, evidence, text) = judge.evaluate(self)
        return Judgement(outcome: outcome, evidence: evidence, rule: text, sizes: judge.sizes, repetitions: judge.repetitions)
    }

    /// Every series the rule reads, with the metric it reads of it (a test checks each against the shipped scenarios).
    package var selections: [(series: SeriesSelector, metric: Metric)] {
        switch self {
        case let .compare(first, second, metric, _): return [(first, metric), (second, metric)]
        case let .equals(series, metric, _), let .atLeast(series, metric, _), let .growth(series, metric, _): return [(series, metric)]
        case let .increasing(list, metric): return list.map { ($0, metric) }
        case let .all(parts): return parts.flatMap(\.rule.selections)
        case .cannotJudge: return []
        }
    }

    /// Whether the rule compares a time or memory figure anywhere (and so needs repetitions for intervals).
    var isStatistical: Bool {
        switch self {
        case let .compare(_, _, metric, _): return metric.isStatistical
        case let .all(parts): return parts.contains { $0.rule.isStatistical }
        default: return false
        }
    }
}

/// What a rule decided, the evidence, the rule in words, and the sizes and repetitions it rests on.
struct Judgement {
    let outcome: Outcome
    let evidence: [String]
    let rule: String
    let sizes: Set<Int>
    let repetitions: [Int]
}

extension Metric {
    /// Compared with statistics (times, memory levels), not as a count.
    var isStatistical: Bool { comparison == .statistical }
}

/// One evaluation: the run, the claim (its sizes, margin and what it asserts), and what was used.
private struct Judging {
    let run: RunEvidence
    let claim: Claim
    var sizes = Set<Int>()
    var repetitions: [Int] = []

    mutating func evaluate(_ rule: Rule) -> (Outcome, [String], String) {
        switch rule {
        case let .compare(a, b, metric, expect): return compare(a, b, metric, expect)
        case let .equals(series, metric, wanted):
            return self.value(series, metric, "== \(formatNumber(wanted))", want: wanted) { $0 == wanted }
        case let .atLeast(series, metric, value):
            return self.value(series, metric, ">= \(formatNumber(value))", want: value) { $0 >= value }
        case let .increasing(list, metric): return increasing(list, metric)
        case let .growth(series, metric, growth): return self.growth(series, metric, growth)
        case let .all(parts):
            var outcomes: [Outcome.PartOutcome] = []
            var evidence: [String] = []
            var texts: [String] = []
            for part in parts {
                let (outcome, partEvidence, text) = evaluate(part.rule)
                outcomes.append(Outcome.PartOutcome(label: part.label, outcome: outcome))
                evidence += partEvidence.map { "\(part.label): \($0)" }
                texts.append("\(part.label): \(text)")
            }
            return (Outcome.combining(outcomes), evidence, texts.joined(separator: "; "))
        case let .cannotJudge(reason):
            return (.cannotJudge(reason), [], "none: \(reason)")
        }
    }

    // MARK: Sizes

    /// The series' sizes the claim is about, or the outcome saying there are none.
    private func inScope(_ measured: [Int], _ series: SeriesSelector) -> (sizes: [Int], missing: Outcome?) {
        guard !measured.isEmpty else { return ([], .notMeasured("no series \(series)")) }
        let sizes = measured.filter(claim.sizes.contains)
        guard !sizes.isEmpty else {
            return (
                [],
                .undecided(
                    "the claim is about sizes \(claim.sizes.text); this run measured \(measured.map(formatCount).joined(separator: ", "))")
            )
        }
        return (sizes, nil)
    }

    // MARK: Comparing two arms

    private mutating func compare(
        _ a: SeriesSelector, _ b: SeriesSelector, _ metric: Metric, _ expect: Rule.Expect
    ) -> (Outcome, [String], String) {
        let wanted: String
        switch expect {
        case .lower: wanted = "below"
        case .higher: wanted = "above"
        case .notLower: wanted = "not below"
        }
        let text =
            "\(metric.rawValue) of \(a) \(wanted) \(b)'s at each size of \(claim.sizes.text): "
            + (metric.isStatistical
                ? "the ratio's 95% interval apart from 1, or its 90% interval within ±\(formatNumber(claim.margin * 100))% (no difference), with \(Rule.repetitionsForAnInterval)+ repetitions a series; not judged where both arms run the same SQL"
                : metric.comparison == .exact ? "exact medians" : "beyond \(metric.rawValue)'s tolerance")
        let x = run.series(a, metric)
        let y = run.series(b, metric)
        guard !x.isEmpty, !y.isEmpty else {
            let missing = [x.isEmpty ? a : nil, y.isEmpty ? b : nil].compactMap { $0 }
            return (.notMeasured("no series " + missing.map(\.description).joined(separator: ", ") + " (\(metric.rawValue))"), [], text)
        }
        let shared = x.map(\.size).filter { size in y.contains { $0.size == size } }
        let (sizes, missing) = inScope(shared, a)
        if let missing { return (missing, [], text) }
        var outcomes: [Outcome.SizeOutcome] = []
        var evidence: [String] = []
        for size in sizes {
            guard let first = x.first(where: { $0.size == size })?.values, let second = y.first(where: { $0.size == size })?.values
            else { continue }
            self.sizes.insert(size)
            let (direction, line) = decide(a, first, b, second, metric, size: size, expect: expect)
            evidence.append("size \(formatCount(size)): \(line)")
            let outcome: Outcome
            switch (direction, expect) {
            case let (.unknown(reason), _): outcome = .undecided(reason)
            case let (.sameWork(reason), _): outcome = .cannotJudge(reason)
            case (.lower, .lower), (.higher, .higher), (.higher, .notLower), (.equal, .notLower): outcome = .holds
            case (.higher, .lower), (.lower, .higher), (.lower, .notLower): outcome = .opposite
            case (.equal, _): outcome = .noDifference
            }
            outcomes.append(Outcome.SizeOutcome(size: size, outcome: outcome))
        }
        return (Outcome.combining(outcomes), evidence, text)
    }

    private enum Direction {
        case lower, higher, equal
        case unknown(String)
        case sameWork(String)
    }

    /// How `first` (series a) compares with `second` (series b) at one size, and the evidence line.
    private mutating func decide(
        _ a: SeriesSelector, _ first: [Double], _ b: SeriesSelector, _ second: [Double], _ metric: Metric, size: Int,
        expect: Rule.Expect
    ) -> (Direction, String) {
        guard let x = SampleSummary(first), let y = SampleSummary(second) else {
            return (.unknown("a series has no value at size \(formatCount(size))"), "")
        }
        repetitions += [x.n, y.n]
        let against = "\(a.label(against: b)) \(describeSummary(x, metric)) against \(b.label(against: a)) \(describeSummary(y, metric))"
        switch metric.comparison {
        case .exact:
            return (x.median < y.median ? .lower : x.median > y.median ? .higher : .equal, against)
        case let .tolerance(relative, absolute):
            let slack = max(relative * abs(y.median), absolute)
            return (x.median < y.median - slack ? .lower : x.median > y.median + slack ? .higher : .equal, against)
        case .instructionCount:
            return (x.median < y.median * 0.99 ? .lower : x.median > y.median * 1.01 ? .higher : .equal, against)
        case .statistical:
            if claim.asserts != .magnitude {
                guard run.hasStatements else {
                    return (
                        .unknown("this run has no statements.csv, so whether the arms run the same SQL is unknown: run it again"), against
                    )
                }
                if let left = run.statements(a, size: size), let right = run.statements(b, size: size), left.work == right.work {
                    let shapes = left.work.count
                    return (
                        .sameWork(
                            "both arms run the same SQL (\(counted(left.statements, "statement")) of \(counted(shapes, "shape")) and plan\(shapes == 1 ? "" : "s"), \(counted(left.rows, "row"))): the difference is ObjectGraph's own"
                        ),
                        against + "; the same SQL"
                    )
                }
            }
            guard min(x.n, y.n) >= claim.repetitions else {
                return (
                    .unknown(
                        claim.repetitions == Rule.repetitionsForAnInterval
                            ? "needs \(claim.repetitions) repetitions a series for a 95% interval; this run has \(min(x.n, y.n))"
                            : "needs \(claim.repetitions) repetitions a series to tell its small differences from the machine's noise; this run has \(min(x.n, y.n))"
                    ),
                    against
                )
            }
            // Memory a phase held may be zero or negative: its shift is taken in bytes, against b's median (64 KiB at least).
            let scale = metric.unit == .bytes ? max(abs(y.median), 65536) : nil
            // Arms of one scenario ran round by round, interleaved: each round's pair shares the machine's state, so
            // the paired interval is used where every repetition has its pair.
            let paired = pairs(a, b, metric, size: size)
            let interval: (wide: (ratio: Double, low: Double, high: Double, coverage: Double), narrow: (low: Double, high: Double))
            if let paired, let wide = PairedShiftInterval(paired, level: 0.95, scale: scale),
                let narrow = PairedShiftInterval(paired, level: 0.90, scale: scale)
            {
                interval = ((wide.ratio, wide.low, wide.high, wide.coverage), (narrow.low, narrow.high))
            } else if let wide = ShiftInterval(first, second, level: 0.95, scale: scale),
                let narrow = ShiftInterval(first, second, level: 0.90, scale: scale)
            {
                interval = ((wide.ratio, wide.low, wide.high, wide.coverage), (narrow.low, narrow.high))
            } else {
                return (.unknown("a value is not positive, so no ratio can be taken"), against)
            }
            let (wide, narrow) = interval
            let line =
                against
                + String(
                    format: "; ratio %.2f [%.2f, %.2f] (%.1f%%%@)", wide.ratio, wide.low, wide.high, wide.coverage * 100,
                    paired == nil ? "" : ", paired by round")
            let margin = claim.margin
            if expect == .notLower {
                // Non-inferiority, one-sided: not lower by more than the margin holds, lower by more is the opposite.
                if wide.low >= 1 / (1 + margin) { return (.higher, line) }
                if wide.high < 1 / (1 + margin) { return (.lower, line) }
                return (
                    .unknown(
                        String(
                            format: "the ratio's interval [%.2f, %.2f] reaches below 1/(1+%@%%) and above it: more repetitions would tell",
                            wide.low, wide.high, formatNumber(margin * 100))), line
                )
            }
            if narrow.low >= 1 / (1 + margin) && narrow.high <= 1 + margin { return (.equal, line) }
            if wide.high < 1 { return (.lower, line) }
            if wide.low > 1 { return (.higher, line) }
            return (
                .unknown(
                    String(
                        format: "the ratio's interval [%.2f, %.2f] is neither apart from 1 nor within ±%@%%: more repetitions would tell",
                        wide.low, wide.high, formatNumber(margin * 100))), line
            )
        }
    }

    /// Each round's values of two arms of one scenario, when every repetition of each has its pair.
    private func pairs(_ a: SeriesSelector, _ b: SeriesSelector, _ metric: Metric, size: Int) -> [(Double, Double)]? {
        guard a.scenario == b.scenario, let first = run.rounds(a, metric).first(where: { $0.size == size })?.values,
            let second = run.rounds(b, metric).first(where: { $0.size == size })?.values, first.count == second.count,
            zip(first, second).allSatisfy({ $0.repetition == $1.repetition })
        else { return nil }
        return zip(first, second).map { ($0.value, $1.value) }
    }

    // MARK: Values, trends and growth

    /// The summary of a series' values at `size`; nil when the run has none there.
    private static func summary(_ column: [(size: Int, values: [Double])], at size: Int) -> SampleSummary? {
        column.first { $0.size == size }.flatMap { SampleSummary($0.values) }
    }

    private mutating func value(
        _ series: SeriesSelector, _ metric: Metric, _ wanted: String, want: Double, _ test: (Double) -> Bool
    ) -> (Outcome, [String], String) {
        let text = "\(metric.rawValue) of \(series) \(wanted) at every size of \(claim.sizes.text)"
        let values = run.series(series, metric)
        let (sizes, missing) = inScope(values.map(\.size), series)
        if let missing { return (missing, [], text) }
        var outcomes: [Outcome.SizeOutcome] = []
        var evidence: [String] = []
        for size in sizes {
            guard let summary = Self.summary(values, at: size) else { continue }
            self.sizes.insert(size)
            repetitions.append(summary.n)
            outcomes.append(Outcome.SizeOutcome(size: size, outcome: test(summary.median) ? .holds : .opposite))
            evidence.append("size \(formatCount(size)): \(describeSummary(summary, metric))")
        }
        return (Outcome.combining(outcomes), evidence, text)
    }

    private mutating func increasing(_ list: [SeriesSelector], _ metric: Metric) -> (Outcome, [String], String) {
        let text =
            "\(metric.rawValue) never falls along " + list.map(\.description).joined(separator: ", ")
            + " and ends above where it starts, at every size (exact)"
        let columns = list.map { run.series($0, metric) }
        if let empty = columns.firstIndex(where: \.isEmpty) {
            return (.notMeasured("no series \(list[empty]) \(metric.rawValue)"), [], text)
        }
        let shared = columns[0].map(\.size).filter { size in columns.allSatisfy { column in column.contains { $0.size == size } } }
        let (sizes, missing) = inScope(shared, list[0])
        if let missing { return (missing, [], text) }
        var outcomes: [Outcome.SizeOutcome] = []
        var evidence: [String] = []
        for size in sizes {
            let medians = columns.compactMap { Self.summary($0, at: size) }
            guard medians.count == columns.count, let start = medians.first?.median, let end = medians.last?.median else { continue }
            self.sizes.insert(size)
            repetitions += medians.map(\.n)
            let values = medians.map(\.median)
            let rising = zip(values, values.dropFirst()).allSatisfy { $1 >= $0 }
            let falling = zip(values, values.dropFirst()).allSatisfy { $1 <= $0 }
            let outcome: Outcome =
                rising && end > start
                ? .holds
                : falling && end < start
                    ? .opposite : values.allSatisfy({ $0 == values[0] }) ? .noDifference : .undecided("it rises and falls along the list")
            outcomes.append(Outcome.SizeOutcome(size: size, outcome: outcome))
            evidence.append("size \(formatCount(size)): " + values.map { metric.format($0, .evidence) }.joined(separator: ", "))
        }
        return (Outcome.combining(outcomes), evidence, text)
    }

    /// Flat or growing from the smallest size of the claim's to its largest: the exponent e of value ∝ size^e (below
    /// a quarter is flat, above three quarters grows with the size); memory below 64 KiB counts as 64 KiB, the
    /// resolution of what a phase holds.
    private mutating func growth(_ series: SeriesSelector, _ metric: Metric, _ expected: Rule.Growth) -> (Outcome, [String], String) {
        let text =
            "\(metric.rawValue) of \(series) \(expected == .flat ? "flat" : "growing with the size") from the claim's smallest size to its largest: exponent of value ∝ size^e below 0.25 is flat, above 0.75 grows"
        let values = run.series(series, metric)
        let (sizes, missing) = inScope(values.map(\.size), series)
        if let missing { return (missing, [], text) }
        guard sizes.count >= 2, let low = sizes.first, let high = sizes.last else {
            return (.undecided("telling flat from growing needs two sizes of \(claim.sizes.text); this run has one"), [], text)
        }
        let floor = metric.unit == .bytes ? 65536.0 : 1
        guard let small = Self.summary(values, at: low), let large = Self.summary(values, at: high) else {
            return (.notMeasured("no values of \(series) at \(formatCount(low)) and \(formatCount(high))"), [], text)
        }
        self.sizes.formUnion([low, high])
        repetitions += [small.n, large.n]
        let exponent = log(max(large.median, floor) / max(small.median, floor)) / log(Double(high) / Double(low))
        let found: Rule.Growth? = exponent < 0.25 ? .flat : exponent > 0.75 ? .growing : nil
        let evidence = [
            "size \(formatCount(low)): \(describeSummary(small, metric)); size \(formatCount(high)): \(describeSummary(large, metric)); "
                + String(format: "grows as size^%.2f", exponent)
        ]
        guard let found else {
            return (.undecided(String(format: "it grows as size^%.2f: neither flat nor proportional", exponent)), evidence, text)
        }
        return (found == expected ? .holds : .opposite, evidence, text)
    }
}

/// `12.3 ms [12.1 ms, 12.6 ms] (95% CI of 7)`, or `[min, max] (range of 3: 75%)` where 3 samples give no 95%
/// interval; a count as its value.
func describeSummary(_ summary: SampleSummary, _ metric: Metric) -> String {
    guard metric.isStatistical, summary.n > 1 else { return metric.format(summary.median, .evidence) }
    let interval = "[\(metric.format(summary.ciLow, .evidence)), \(metric.format(summary.ciHigh, .evidence))]"
    if summary.n >= Rule.repetitionsForAnInterval {
        return "\(metric.format(summary.median, .evidence)) \(interval) (95% CI of \(summary.n))"
    }
    let coverage = (1 - pow(2, Double(1 - summary.n))) * 100
    return "\(metric.format(summary.median, .evidence)) \(interval) (range of \(summary.n): \(Int(coverage))%)"
}
