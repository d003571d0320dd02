import Foundation

/// How a claim is decided from a run. Counts compare exactly. Times and memory compare by the ratio of the two arms
/// (Hodges-Lehmann, with an exact distribution-free interval): the arms differ when the interval of the ratio lies
/// wholly beyond the claim's margin (a difference larger than the band of practical equivalence), and are no different
/// when the narrower interval lies wholly within it (two one-sided tests); otherwise the run cannot tell. The zones are
/// apart, so a ratio inside the band is never "faster" in one run and "no difference" in another. Before any time or memory is compared, the arms' statements are: two arms that
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
        return Judgement(
            outcome: outcome, evidence: evidence, rule: text, sizes: judge.sizes, repetitions: judge.repetitions, pending: judge.pending,
            stops: judge.stops)
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

    /// The comparisons of `claim` that `run` (a sequential run, so far) has not decided and that another round could.
    package func pending(_ run: RunEvidence, for claim: Claim) -> [PendingComparison] {
        evaluate(run, for: claim).pending
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
    /// The sequential comparisons whose next look the run has not reached.
    let pending: [PendingComparison]
    /// Where each comparison of time or memory stopped.
    let stops: [ComparisonStop]
}

/// A comparison of time or memory a sequential run has not decided yet: its arms, the size, and the rounds of its next
/// look (the runner runs both arms, round by round, until then).
package struct PendingComparison: Sendable {
    package let a: SeriesSelector
    package let b: SeriesSelector
    package let size: Int
    package let rounds: Int
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
    var pending: [PendingComparison] = []
    var stops: [ComparisonStop] = []
    /// The part being evaluated, for `stops`.
    var part: String?

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
                self.part = part.label
                defer { self.part = nil }
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
        let text = "\(metric.rawValue) of \(a) \(wanted) \(b)'s at each size of \(claim.sizes.text): " + ruleText(metric, expect)
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
            // Memory held is shown with SQLite's share (each arm's replay) beside ObjectGraph's, whatever is decided.
            let share = metric == .retainedBytes ? sqliteShare(a, b, size: size).map { "; " + $0 } ?? "" : ""
            evidence.append("size \(formatCount(size)): \(line)\(share)")
            let outcome: Outcome
            switch (direction, expect) {
            case let (.unknown(reason), _): outcome = .undecided(reason)
            case let (.emulationOnly(reason), _): outcome = .cannotJudge(reason)
            case let (.notAVerdict(reason), _): outcome = .notJudged(reason)
            case (.lower, .lower), (.higher, .higher), (.higher, .notLower), (.equal, .notLower): outcome = .holds
            case (.higher, .lower), (.lower, .higher), (.lower, .notLower): outcome = .opposite
            case (.equal, _): outcome = .noDifference
            }
            outcomes.append(Outcome.SizeOutcome(size: size, outcome: outcome))
        }
        return (Outcome.combining(outcomes), evidence, text)
    }

    /// How a comparison of `metric` is decided, in words, for the verdict's rule.
    private func ruleText(_ metric: Metric, _ expect: Rule.Expect) -> String {
        if metric == .peakRSSBytes { return "not judged: a peak is the whole process's" }
        if claim.asserts == .magnitude && metric.isStatistical { return "not judged: a magnitude of ObjectGraph's own" }
        guard metric.isStatistical else { return metric.comparison == .exact ? "exact medians" : "beyond \(metric.rawValue)'s tolerance" }
        let margin = formatNumber(claim.margin * 100)
        let design = SequentialDesign.starting(at: max(claim.repetitions, SequentialDesign.firstLook))
        let looks = design.looksText
        let spending = design.spendingText
        let sameSQL =
            "not judged where both arms run the same SQL (statements, plans, rows, and the indexes and triggers their writes keep)"
        if expect == .notLower {
            return
                "the ratio's interval wholly above 1/(1 + \(margin)%) (not below: holds) or wholly below it (the opposite), else undecided; at 2.5% overall error, one-sided: a sequential run looks after \(looks) (the median cost of a round of both arms times the look's rounds), with \(spending), and stops at the first that decides, a run of fixed repetitions looks once (\(claim.repetitions)+ repetitions a series); \(sameSQL)"
        }
        return
            "the ratio's interval wholly beyond ±\(margin)% (a difference larger than the margin), or wholly within it (no difference, two one-sided tests), else undecided; at 5% overall error: a sequential run looks after \(looks) (the median cost of a round of both arms times the look's rounds), with \(spending), and stops at the first that decides, a run of fixed repetitions looks once (95% and 90% intervals, \(claim.repetitions)+ repetitions a series); \(sameSQL)"
    }

    private enum Direction {
        case lower, higher, equal
        case unknown(String)
        /// Not a statement about Core Data: the arms run the same SQL, or the figure is ObjectGraph's own.
        case emulationOnly(String)
        /// A figure that says nothing of the arm alone (a peak is the whole process's).
        case notAVerdict(String)
    }

    /// What the SQL replay of each arm held in the phase (SQLite's share of the memory, without ObjectGraph), for the
    /// evidence beside ObjectGraph's; nil where the run has no replay of both arms.
    private func sqliteShare(_ a: SeriesSelector, _ b: SeriesSelector, size: Int) -> String? {
        let replays = [a, b].map { SeriesSelector(replaying: $0) }
        let summaries = replays.compactMap { Self.summary(run.series($0, .retainedBytes), at: size) }
        guard summaries.count == 2 else { return nil }
        return
            "SQLite's share (the sql-replay's): \(describeSummary(summaries[0], .retainedBytes)) against \(describeSummary(summaries[1], .retainedBytes))"
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
            if metric == .peakRSSBytes {
                return (
                    .notAVerdict(
                        "peak memory is the whole bench process's (VmHWM): it depends on what else ran in the process before the phase, not only on the arm, so it decides no verdict; memory held is the phase's own"
                    ), against
                )
            }
            // Every claim, whatever it asserts: arms that give SQLite the same work differ only in ObjectGraph.
            guard run.hasStatements else {
                return (
                    .unknown("this run has no statements.csv, so whether the arms run the same SQL is unknown: run it again"), against
                )
            }
            if let left = run.statements(a, size: size), let right = run.statements(b, size: size), left.work == right.work {
                let shapes = left.work.count
                return (
                    .emulationOnly(
                        "both arms run the same SQL (\(counted(left.statements, "statement")) of \(counted(shapes, "shape")) and plan\(shapes == 1 ? "" : "s"), the same indexes and triggers kept, \(counted(left.rows, "row"))): the difference is ObjectGraph's own"
                    ),
                    against + "; the same SQL"
                )
            }
            if claim.asserts == .magnitude {
                return (
                    .emulationOnly(
                        "the claim is a magnitude of memory or time, and ObjectGraph's \(metric.unit == .bytes ? "memory" : "time") is not Core Data's, although the arms' SQL differs"
                    ), against
                )
            }
            // Memory a phase held may be zero or negative: its shift is taken in bytes, against b's median (64 KiB at least).
            let scale = metric.unit == .bytes ? max(abs(y.median), 65536) : nil
            // Arms of one scenario ran round by round, interleaved: each round's pair shares the machine's state, so
            // the paired interval is used where the arms share rounds.
            let rounds = pairs(a, b, metric, size: size)
            let paired = rounds?.map { ($0.a, $0.b) }
            let available = paired?.count ?? min(x.n, y.n)
            let design: SequentialDesign
            if run.schedule(a.scenario)?.sequential == true {
                design = SequentialDesign.starting(at: max(claim.repetitions, SequentialDesign.firstLook))
                guard available >= design.looks[0] else {
                    pending.append(PendingComparison(a: a, b: b, size: size, rounds: design.looks[0]))
                    return (
                        .unknown(
                            "needs \(design.looks[0]) rounds for its first look (looks at \(design.looksText)); this run has \(available)"),
                        against
                    )
                }
            } else {
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
                design = .fixed(rounds: available)
            }
            let margin = claim.margin
            guard
                let result = SequentialComparison.decide(
                    pairs: paired, first: first, second: second, design: design, margin: margin,
                    question: expect == .notLower ? .notLower : .difference, scale: scale,
                    roundCosts: design.hasExtension ? roundCosts(a, b, size: size, rounds: rounds?.map(\.round)) : nil)
            else {
                return (.unknown("a value is not positive, so no ratio can be taken"), against)
            }
            guard let wide = result.interval else {
                // No look yet had rounds enough for the level it spends.
                if case let .undecided(next?) = result.finding {
                    pending.append(PendingComparison(a: a, b: b, size: size, rounds: next))
                }
                return (.unknown("\(result.available) rounds give no interval at the level of the design's looks so far"), against)
            }
            let line =
                against
                + String(
                    format: "; ratio %.2f [%.2f, %.2f] (%.1f%%%@)", wide.ratio, wide.low, wide.high, wide.coverage * 100,
                    result.paired ? ", paired by round" : "")
                + "; " + Self.stopping(result, design)
            let stopped: String
            switch result.finding {
            case .lower, .higher, .equivalent: stopped = "decided"
            case .undecided(next: nil): stopped = result.beyondBudget == nil ? "cap" : "budget"
            case .undecided: stopped = "pending"
            }
            stops.append(
                ComparisonStop(
                    part: part, size: size, rounds: result.rounds, roundsRun: result.available, look: result.look, looks: design.looks,
                    stopped: stopped))
            switch result.finding {
            case .higher: return (.higher, line)
            case .lower: return (.lower, line)
            case .equivalent: return (.equal, line)
            case let .undecided(next):
                if let next { pending.append(PendingComparison(a: a, b: b, size: size, rounds: next)) }
                let bounds =
                    expect == .notLower
                    ? String(format: "reaches below 1/(1+%@%%) and above it", formatNumber(margin * 100))
                    : String(
                        format: "reaches across the edge of ±%@%% (neither wholly beyond it nor within it)", formatNumber(margin * 100))
                return (
                    .unknown(
                        String(format: "the ratio's interval [%.2f, %.2f] ", wide.low, wide.high) + bounds
                            + (next == nil
                                ? (design.isFixed
                                    ? ": more repetitions would tell"
                                    : result.beyondBudget != nil
                                        ? " at \(result.rounds) rounds, the last look within the budget: the difference is too close to the margin for the rounds this comparison can afford"
                                        : " at the design's cap (\(design.cap) rounds): the difference is too close to the margin for this design")
                                : ": the next look, at \(next ?? 0) rounds, would tell")), line
                )
            }
        }
    }

    /// How a comparison stopped, for its evidence: `decided after 10 rounds at look 2 of 10 (at 7, 10, 14, 20, 28 and 40
    /// rounds, then 56, 80, 113 and 160 while they cost at most 120 s); overall error ≤ 5%, Pocock spending ...`.
    private static func stopping(_ result: SequentialComparison.Result, _ design: SequentialDesign) -> String {
        let error = "overall error ≤ \(formatNumber(design.alpha * 100))%"
        if design.isFixed {
            return "one look at \(result.rounds) rounds (a run of fixed repetitions); \(error)"
        }
        let looks = "of \(design.looks.count) (at \(design.looksText))"
        let spending = "\(error), \(design.spendingText)"
        switch result.finding {
        case .lower, .higher, .equivalent:
            return "decided after \(result.rounds) rounds at look \(result.look) \(looks); \(spending)"
        case .undecided(next: nil):
            if let beyond = result.beyondBudget {
                let cost =
                    beyond.seconds.map { "would cost about \(formatNumber(($0 * 10).rounded() / 10)) s, beyond" }
                    ?? "has no measured cost of a round within"
                return
                    "cap reached: \(result.rounds) rounds, \(result.look) looks undecided; the next look (\(beyond.next) rounds) \(cost) the \(formatNumber(design.budgetSeconds ?? 0)) s a comparison may spend; \(spending)"
            }
            return "cap reached: \(design.cap) rounds, \(design.looks.count) looks undecided; \(spending)"
        case let .undecided(next?):
            return "\(result.available) rounds: look \(result.look) \(looks) undecided, the next at \(next); \(spending)"
        }
    }

    /// Each round's values of two arms of one scenario, in round order, with the round's number, for the rounds both ran
    /// (an arm a sequential comparison no longer needed stops while the other goes on); nil for arms of two scenarios
    /// or without two shared rounds.
    private func pairs(_ a: SeriesSelector, _ b: SeriesSelector, _ metric: Metric, size: Int) -> [(round: Int, a: Double, b: Double)]? {
        guard a.scenario == b.scenario, let first = run.rounds(a, metric).first(where: { $0.size == size })?.values,
            let second = run.rounds(b, metric).first(where: { $0.size == size })?.values
        else { return nil }
        let byRound = Dictionary(second.map { ($0.repetition, $0.value) }, uniquingKeysWith: { first, _ in first })
        let shared = first.compactMap { round in byRound[round.repetition].map { (round.repetition, round.value, $0) } }
        return shared.count >= 2 ? shared : nil
    }

    /// What each of `rounds` cost with both arms (every phase's wall_ms of each), in the same order; without pairs, the
    /// arms' rounds in order, position by position. nil where a round has no cost of both arms. The sequential
    /// budget reads it (`SequentialDesign.affordable`).
    private func roundCosts(_ a: SeriesSelector, _ b: SeriesSelector, size: Int, rounds: [Int]?) -> [Double]? {
        let first = run.roundCosts(a, size: size)
        let second = run.roundCosts(b, size: size)
        if let rounds {
            let costs = rounds.compactMap { round in first[round].flatMap { x in second[round].map { x + $0 } } }
            return costs.count == rounds.count ? costs : nil
        }
        let x = first.sorted { $0.key < $1.key }.map(\.value)
        let y = second.sorted { $0.key < $1.key }.map(\.value)
        return zip(x, y).map { $0 + $1 }
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
