import Foundation

/// What `bench compare` decides for every series both runs measured.
///
/// Exact counters (statements, faults, rows, links lost, ...) are compared exactly: any increase is a regression,
/// any decrease an improvement. Timings and memory are a regression (or an improvement) only when the change is
/// both significant and larger than a noise threshold on the median. Significance is the Mann-Whitney U test
/// with its p-values adjusted over every timing and memory series compared (Benjamini-Hochberg), so that alpha
/// bounds the share of false findings in the whole table rather than per series: with hundreds of series at
/// 0.01 each, a comparison of identical builds would otherwise flag a few. Instruction counts repeat to within
/// a few thousand instructions a phase, so they need no test: a small relative threshold and an absolute floor.
package struct Comparison {
    package enum Verdict: String, Sendable {
        case regression, improvement
        /// A timing that moved more than the threshold without being significant, or the reverse.
        case noise
        /// A metric that is neither better nor worse when it moves (links intended: the workload changed).
        case changed
    }

    package struct Change: Sendable {
        package let key: SeriesKey
        package var unit: MetricUnit { key.metric.unit }
        package let baseline: Double
        package let current: Double
        /// (current - baseline) / baseline; infinite when the baseline is 0.
        package let relative: Double
        /// The Mann-Whitney p-value adjusted for the number of series compared (Benjamini-Hochberg).
        package let pValue: Double?
        package let threshold: Double?
        package let verdict: Verdict
    }

    package struct Options: Sendable {
        package var alpha = 0.01
        /// The default noise threshold on timings and memory, as a fraction (0.10 = 10%).
        package var threshold = 0.10
        /// Thresholds for instruction counts, which repeat almost exactly.
        package var instructionThreshold = 0.005
        /// Instruction counts move by a few thousand between runs of one build (the heap's layout decides how much
        /// work malloc does), which is more than 0.5% of a phase at size 100: changes smaller than this are noise.
        package var instructionFloor = 25_000.0
        /// Overrides by metric (`wall_ms`), scenario (`query`) or both (`query/wall_ms`); the most specific wins.
        package var thresholds: [String: Double] = [:]

        /// The threshold given for the series' metric (with or without its scenario), if any.
        func explicitThreshold(for key: SeriesKey) -> Double? {
            thresholds["\(key.scenario)/\(key.metric.rawValue)"] ?? thresholds[key.metric.rawValue]
        }
        /// Compare only the counts that transfer to a device (`Metric.transfers`): the CI gate, on a shared machine
        /// where timings are noise and ObjectGraph's own figures say nothing about Core Data.
        package var countersOnly = false
        /// ObjectGraph's allocation counts (allocations, allocated_bytes) compared too, within their tolerance or the
        /// threshold given for them (`--gate allocations`).
        package var gateAllocations = false
        /// Series of the baseline the current run lacks do not fail the comparison (a run of fewer scenarios).
        package var allowMissing = false

        package init() {}

        /// Whether `metric` is compared at all under these options.
        func compares(_ metric: Metric) -> Bool {
            if metric.isAllocationCount { return gateAllocations }
            return countersOnly ? metric.transfers : true
        }

        func threshold(for key: SeriesKey) -> Double {
            if let value = thresholds["\(key.scenario)/\(key.metric.rawValue)"] { return value }
            if let value = thresholds[key.metric.rawValue] { return value }
            // A scenario's override is about its noisy timings; its instruction counts keep their own threshold.
            if key.metric.comparison == .instructionCount { return instructionThreshold }
            return thresholds[key.scenario.rawValue] ?? threshold
        }
    }

    package let changes: [Change]
    package let onlyInBaseline: [SeriesKey]
    /// The baseline's series this binary cannot read (unknown metric or strategy): missing, as the gate must see.
    package let unreadable: [UnknownSeries]
    package let onlyInCurrent: [SeriesKey]
    /// Series both runs measured (whether or not their values moved): 0 means nothing could be compared.
    package let inCommon: Int
    package let compared: Int
    package let options: Options
    /// For each regressed or improved count of ObjectGraph's, the statements that were added and removed (from the
    /// runs' statements.csv), and the `bench explain` that shows them.
    package let why: [SeriesKey: StatementChange]
    /// Notes for the reader (timings skipped because a side has no samples, ...).
    package let notes: [String]

    package var regressions: [Change] { changes.filter { $0.verdict == .regression } }
    package var improvements: [Change] { changes.filter { $0.verdict == .improvement } }

    /// Series of the baseline the current run lacks that fail the comparison (none with `allowMissing`).
    package var missing: [SeriesKey] { options.allowMissing ? [] : onlyInBaseline }

    /// Whether the comparison fails for series it could not compare: missing ones, or ones it cannot read.
    package var hasMissing: Bool { !missing.isEmpty || !unreadable.isEmpty }

    /// 0 when nothing significant changed, 2 on any regression, 3 when the run lacks series of the baseline (an
    /// interrupted or partial run must not pass a gate), 4 on improvements only.
    package var exitCode: Int32 {
        if !regressions.isEmpty { return 2 }
        if hasMissing { return 3 }
        if !improvements.isEmpty { return 4 }
        return 0
    }

    package init(baseline: RunData, current: RunData, options: Options = Options()) {
        self.options = options
        var changes: [Change] = []
        var tested: [(key: SeriesKey, old: Double, new: Double, relative: Double, p: Double, worse: Bool, samples: Int)] = []
        var notes: [String] = []
        var compared = 0
        notes += [baseline.statusNote, current.statusNote].compactMap { $0 }
        let timingsComparable = baseline.hasSamples && current.hasSamples
        if !timingsComparable && !options.countersOnly {
            notes.append(
                "timings and memory were not compared: \(baseline.hasSamples ? current.source : baseline.source) has no samples (give run folders or samples.csv files)"
            )
        }
        for key in baseline.series.keys.sorted() {
            guard let before = baseline.series[key], let after = current.series[key], Self.isCompared(key, options) else { continue }
            let metric = key.metric
            guard !before.isEmpty, !after.isEmpty else { continue }
            if !metric.isCounter && (options.countersOnly || !timingsComparable) { continue }
            compared += 1
            let old = Statistics.median(before)
            let new = Statistics.median(after)
            let relative = old == 0 ? (new == 0 ? 0 : .infinity) : (new - old) / old
            let worse: Bool
            switch metric.polarity {
            case .lowerIsBetter, .neutral: worse = new > old
            case .higherIsBetter: worse = new < old
            }
            let judged: Verdict = metric.polarity == .neutral ? .changed : (worse ? .regression : .improvement)
            switch metric.comparison {
            case .exact:
                guard new != old else { continue }
                changes.append(
                    Change(key: key, baseline: old, current: new, relative: relative, pValue: nil, threshold: nil, verdict: judged))
                continue
            case let .tolerance(defaultRelative, absoluteTolerance):
                // A threshold given for the metric (or its scenario) replaces the relative tolerance.
                let relativeTolerance = options.explicitThreshold(for: key) ?? defaultRelative
                guard abs(new - old) > absoluteTolerance, abs(relative) > relativeTolerance else { continue }
                changes.append(
                    Change(
                        key: key, baseline: old, current: new, relative: relative, pValue: nil, threshold: relativeTolerance,
                        verdict: judged))
                continue
            case .instructionCount, .statistical:
                break
            }
            let threshold = options.threshold(for: key)
            let large = abs(relative) > threshold
            if metric.comparison == .instructionCount {
                guard large, abs(new - old) > options.instructionFloor else { continue }
                changes.append(
                    Change(
                        key: key, baseline: old, current: new, relative: relative, pValue: nil, threshold: threshold,
                        verdict: worse ? .regression : .improvement))
                continue
            }
            tested.append((key, old, new, relative, MannWhitney.pValue(before, after), worse, min(before.count, after.count)))
        }
        let adjusted = Self.benjaminiHochberg(tested.map(\.p))
        for (series, p) in zip(tested, adjusted) {
            let threshold = options.threshold(for: series.key)
            let large = abs(series.relative) > threshold
            let significant = p < options.alpha
            guard large || significant else { continue }
            let verdict: Verdict = large && significant ? (series.worse ? .regression : .improvement) : .noise
            changes.append(
                Change(
                    key: series.key, baseline: series.old, current: series.new, relative: series.relative, pValue: p,
                    threshold: threshold, verdict: verdict))
        }
        // A series with no value (every sample empty: the strategy could not measure it) is absent, so that a
        // counter the baseline has and the run lost reads as missing rather than as silently not compared. A
        // platform-dependent metric the run measured nowhere is excused, and noted, when its run.json says the
        // platform cannot measure it (or says nothing, as older runs): allocation counts off glibc. A Linux run
        // whose allocation counts went missing has missing series.
        let measuredInRun = Set(current.series.filter { !$0.value.isEmpty }.map(\.key.metric))
        let unmeasured = Set(baseline.series.filter { !$0.value.isEmpty }.map(\.key.metric)).subtracting(measuredInRun)
            .filter { metric in metric.dependsOnPlatform && (current.unmeasurable?.contains(metric) ?? true) }
        if !unmeasured.isEmpty {
            notes.append(
                "the run measured no \(unmeasured.sorted().map(\.rawValue).joined(separator: ", ")) in any series (\(current.unmeasurable == nil ? "not available on its platform?" : "its platform cannot")): not compared"
            )
        }
        func measurable(_ run: RunData) -> Set<SeriesKey> {
            Set(
                run.series.keys.filter { key in
                    guard run.series[key]?.isEmpty == false, !unmeasured.contains(key.metric), Self.isCompared(key, options) else {
                        return false
                    }
                    return key.metric.isCounter || !options.countersOnly
                })
        }
        if baseline.series.keys.contains(where: { $0.strategy == .sqlReplay && $0.metric.isCounter }) {
            notes.append(
                "sql-replay's counts are ObjectGraph's by construction (it replays its statements): compared once, as objectgraph's")
        }
        for (scenario, change) in Self.changedDefinitions(baseline: baseline.info, current: current.info) {
            notes.append("\(scenario)'s \(change) changed since the baseline: its counts may differ for that reason")
        }
        if let note = Self.underpoweredNote(samples: tested.map(\.samples), alpha: options.alpha) { notes.append(note) }
        let before = measurable(baseline)
        let after = measurable(current)
        onlyInBaseline = before.subtracting(after).sorted()
        // A series this binary cannot type (a renamed metric, a strategy it does not know) fails as missing: never
        // silently dropped from the gate.
        unreadable = baseline.unknown.sorted { $0.description < $1.description }
        onlyInCurrent = after.subtracting(before).sorted()
        inCommon = before.intersection(after).count
        self.changes = changes
        self.compared = compared
        self.notes = notes
        var why: [SeriesKey: StatementChange] = [:]
        for change in changes where change.key.metric.transfers && change.verdict != .noise {
            if let explained = StatementChange(change.key, baseline: baseline, current: current) { why[change.key] = explained }
        }
        self.why = why
    }

    /// Whether a series is compared: its metric under the options, and not a count of `sql-replay`, which equals
    /// ObjectGraph's by construction (listing both would say every change twice).
    static func isCompared(_ key: SeriesKey, _ options: Options) -> Bool {
        guard options.compares(key.metric) else { return false }
        return !(key.strategy == .sqlReplay && key.metric.isCounter)
    }

    /// Scenarios both runs measured whose scenario file or model file differ in content (`run.json`'s hashes).
    static func changedDefinitions(baseline: RunInfo?, current: RunInfo?) -> [(String, String)] {
        guard let old = baseline?.definitionHashes, let new = current?.definitionHashes else { return [] }
        return old.keys.sorted().compactMap { scenario -> (String, String)? in
            guard let before = old[scenario], let after = new[scenario] else { return nil }
            if before.scenario != after.scenario { return (scenario, "scenario file") }
            if before.model != after.model { return (scenario, "model") }
            return nil
        }
    }

    /// A note when a change in one series alone could never be significant: after adjusting over m series its
    /// p-value is at least m times the smallest the sample sizes allow (fewer samples are needed when many series
    /// move together, and more when values tie, as peak memory in pages does).
    static func underpoweredNote(samples: [Int], alpha: Double) -> String? {
        let series = Double(samples.count)
        let short = samples.filter { MannWhitney.smallestPValue($0, $0) * series >= alpha }
        guard let fewest = short.min() else { return nil }
        let needed = (2...1000).first { MannWhitney.smallestPValue($0, $0) * series < alpha } ?? 1000
        return """
            \(short.count) of \(samples.count) timing and memory series have too few samples (down to \(fewest) a side) for a \
            change in one series alone to be significant at alpha \(alpha) over \(samples.count) series: give each side \
            \(needed) or more (--repetitions, or alternate rounds joined with 'bench merge --as-repetitions'), or compare \
            counters or --instructions runs
            """
    }

    /// Benjamini-Hochberg adjusted p-values, in the order given: p·m/rank, made monotone from the largest down.
    static func benjaminiHochberg(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var adjusted = [Double](repeating: 1, count: pValues.count)
        var running = 1.0
        for (rank, index) in order.enumerated().reversed() {
            running = min(running, pValues[index] * Double(pValues.count) / Double(rank + 1))
            adjusted[index] = min(1, running)
        }
        return adjusted
    }
}
