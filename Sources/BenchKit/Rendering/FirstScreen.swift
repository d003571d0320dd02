import Foundation

/// What `bench run` prints when it is over, for a person to read at a glance (as hyperfine does): per scenario one
/// headline at its largest size, on ObjectGraph: the variant that ran the fewest statements against the one that
/// ran the most, and how their times compare, with the interval of the ratio when the repetitions give one. The full
/// tables go to summary.txt (and to the terminal with --verbose).
package enum FirstScreen {
    /// `statements` (ObjectGraph's, from statements.csv) tell arms that run the same SQL, whose time difference is
    /// ObjectGraph's own, from arms with as many statements but other SQL, plans or rows, whose difference SQLite makes.
    /// `advice` points the headline of a scenario without variants at the phases it found something in.
    package static func render(
        _ samples: [SampleRecord], scenarios: [Scenario], statements: [PhaseStatements] = [], advice: [AdviceFinding] = []
    ) -> [String] {
        let work = work(statements)
        var values: [SeriesKey: [Double]] = [:]
        for sample in samples { if let value = sample.value { values[sample.key, default: []].append(value) } }
        var order: [ScenarioName] = []
        for name in scenarios.map(\.name) + samples.map(\.key.scenario) where !order.contains(name) { order.append(name) }
        var lines: [String] = []
        for scenario in order {
            let keys = values.keys.filter { $0.scenario == scenario && $0.strategy == .objectGraph }
            guard !keys.isEmpty else { continue }
            let sizes = Set(keys.map(\.size)).sorted()
            let variants = Set(keys.map(\.variant.description)).count
            lines.append(
                "\(scenario) (\(variants == 1 ? "1 variant" : "\(variants) variants"), size\(sizes.count == 1 ? "" : "s") \(sizes.map(formatCount).joined(separator: ", ")))"
            )
            let setup = scenarios.first { $0.name == scenario }.map(setupPhases) ?? []
            if let headline = headline(scenario, values: values, work: work, setup: setup, pointedAt: pointedAt(advice, scenario)) {
                lines.append("  " + headline)
            }
        }
        return lines
    }

    /// The scenario's headline on ObjectGraph at the largest size it timed (or counted instructions at); `work` is
    /// each phase's SQL by shape (`PhaseStatements.work`).
    package static func headline(
        _ scenario: ScenarioName, values: [SeriesKey: [Double]], work: [PhaseStatements.Key: [String: PhaseStatements.Use]],
        setup: Set<PhaseName> = [], pointedAt: Set<PhaseName> = []
    ) -> String? {
        let keys = values.keys.filter { $0.scenario == scenario && $0.strategy == .objectGraph }
        let measure: Metric = keys.contains { $0.metric == .wallMs } ? .wallMs : .instructions
        guard let size = keys.filter({ $0.metric == measure }).map(\.size).max() else { return nil }
        return headline(scenario, size: size, measure: measure, values: values, work: work, setup: setup, pointedAt: pointedAt)
    }

    /// The phases of `scenario` that only fill the store (insert the data and save it) for the others to read: the
    /// suite's bookkeeping, not a screen of the app. None when every phase does (the insert scenario measures that).
    package static func setupPhases(_ scenario: Scenario) -> Set<PhaseName> {
        let phases = scenario.declared.first.phases
        func fills(_ phase: DeclaredScenario.Phase) -> Bool {
            !phase.steps.isEmpty
                && phase.steps.allSatisfy { step in
                    switch step {
                    case .insertData, .save: return true
                    default: return false
                    }
                }
        }
        let setup = phases.filter(fills).map(\.name)
        return setup.count == phases.count ? [] : Set(setup)
    }

    /// The phases of `scenario` an advice finding on ObjectGraph points at.
    package static func pointedAt(_ advice: [AdviceFinding], _ scenario: ScenarioName) -> Set<PhaseName> {
        Set(advice.filter { $0.scenario == scenario && $0.strategy == .objectGraph }.map(\.phase))
    }

    /// Each phase's SQL by shape, for `headline`.
    package static func work(_ statements: [PhaseStatements]) -> [PhaseStatements.Key: [String: PhaseStatements.Use]] {
        Dictionary(statements.map { ($0.key, $0.work) }, uniquingKeysWith: { first, _ in first })
    }

    /// The phase and the two variants differing in one axis whose statements differ most, said in one line: the axis
    /// values that differ, the others in parentheses; without variants, the phase that runs the most statements.
    static func headline(
        _ scenario: ScenarioName, size: Int, measure: Metric, values: [SeriesKey: [Double]],
        work: [PhaseStatements.Key: [String: PhaseStatements.Use]], setup: Set<PhaseName> = [], pointedAt: Set<PhaseName> = []
    ) -> String? {
        let rows = values.keys.filter {
            $0.scenario == scenario && $0.strategy == .objectGraph && $0.size == size && $0.metric == measure && !setup.contains($0.phase)
        }
        func statements(_ key: SeriesKey) -> Double { values[key.with(.sqlStatements)].map(Statistics.median) ?? 0 }
        func differing(_ a: SeriesKey, _ b: SeriesKey) -> [AxisName] {
            a.variant.values.map(\.name).filter { a.variant[$0]?.description != b.variant[$0]?.description }
        }
        var best: (low: SeriesKey, high: SeriesKey, spread: Double)?
        for phase in Set(rows.map(\.phase)).sorted() {
            let arms = rows.filter { $0.phase == phase }.sorted { $0.variant.description < $1.variant.description }
            for low in arms {
                for high in arms where differing(low, high).count == 1 && statements(high) > statements(low) {
                    let spread = statements(high) - statements(low)
                    if spread > (best?.spread ?? 0) { best = (low, high, spread) }
                }
            }
        }
        let unit = measure.unit
        func time(_ key: SeriesKey) -> String {
            let median = Statistics.median(values[key] ?? [])
            return measure == .wallMs ? String(format: "%.3g ms", median) : formatCount(median) + " " + unit.rawValue
        }
        func refusedNote(_ keys: [SeriesKey]) -> String {
            let refused = keys.compactMap { key -> String? in
                guard let failed = values[key.with(.failedSaves)].map(Statistics.median), failed > 0 else { return nil }
                return "\(key.variant.description.isEmpty ? "its" : key.variant.description) save refused \(formatCount(failed))×"
            }
            return refused.isEmpty ? "" : " (" + refused.joined(separator: "; ") + ")"
        }
        if best == nil {
            // Statements alike everywhere: the pair whose times differ most, if by half or more.
            var widest: (fast: SeriesKey, slow: SeriesKey, factor: Double)?
            for phase in Set(rows.map(\.phase)).sorted() {
                let arms = rows.filter { $0.phase == phase }.sorted { $0.variant.description < $1.variant.description }
                for fast in arms {
                    for slow in arms where differing(fast, slow).count == 1 {
                        let factor = Statistics.median(values[slow] ?? []) / max(Statistics.median(values[fast] ?? []), 1e-12)
                        if factor >= 1.5, factor > (widest?.factor ?? 0) { widest = (fast, slow, factor) }
                    }
                }
            }
            if let widest {
                let axis = differing(widest.fast, widest.slow)[0]
                func phaseWork(_ key: SeriesKey) -> [String: PhaseStatements.Use]? {
                    work[PhaseStatements.Key(scenario: key.scenario, variant: key.variant, size: key.size, phase: key.phase)]
                }
                let count = counted(Int(statements(widest.fast)), "statement")
                let sql: String
                switch (phaseWork(widest.fast), phaseWork(widest.slow)) {
                case let (fast?, slow?) where fast == slow: sql = "the same SQL (\(count)), so ObjectGraph's own difference"
                case (_?, _?): sql = "both \(count), other SQL, plans or rows"
                default: sql = "both \(count)"
                }
                let fast = "\(axis)=\(widest.fast.variant[axis]?.description ?? "")"
                let slow = "\(axis)=\(widest.slow.variant[axis]?.description ?? "")"
                return "\(widest.fast.phase): \(fast) against \(slow), \(sql): "
                    + ratio(values[widest.fast] ?? [], values[widest.slow] ?? [], unit: unit) + " at \(formatCount(size))"
                    + refusedNote([widest.fast, widest.slow])
            }
        }
        guard let best else {
            // No variants to compare (a generated suite, a user's one screen): the phase that runs the most statements
            // per row it reads, among those the advice or a refused save points at when there are any; the setup that
            // fills the store (the suite's insert) is not a screen, and is left out.
            func median(_ key: SeriesKey) -> Double { Statistics.median(values[key] ?? []) }
            func rowsRead(_ key: SeriesKey) -> Double? { values[key.with(.rowsRead)].map(Statistics.median) }
            func perRow(_ key: SeriesKey) -> Double { statements(key) / max(rowsRead(key) ?? 0, 1) }
            func refused(_ key: SeriesKey) -> Bool { (values[key.with(.failedSaves)].map(Statistics.median) ?? 0) > 0 }
            let pointed = rows.filter { pointedAt.contains($0.phase) || refused($0) }
            let candidates = pointed.isEmpty ? rows : pointed
            guard
                let most = candidates.max(by: {
                    (perRow($0), statements($0), median($0), $1.phase.rawValue) < (
                        perRow($1), statements($1), median($1), $0.phase.rawValue
                    )
                })
            else { return nil }
            let phases = Set(rows.map(\.phase)).count
            let apart = setup.isEmpty ? "" : " besides the setup (\(setup.map(\.rawValue).sorted().joined(separator: ", ")))"
            let among =
                pointed.isEmpty
                ? "" : " among the \(Set(pointed.map(\.phase)).count) the advice or a refused save points at"
            let read = rowsRead(most).map { ", \(counted(Int($0), "row")) read" } ?? ""
            return (phases == 1 && setup.isEmpty ? "" : "\(counted(phases, "phase"))\(apart); the most statements per row read\(among): ")
                + "\(most.phase): \(counted(Int(statements(most)), "statement"))\(read), \(time(most)) at \(formatCount(size))\(refusedNote([most]))"
        }
        let axis = differing(best.low, best.high)[0]
        let shared = best.low.variant.values.filter { $0.name != axis }.map { "\($0.name)=\($0.value)" }
        let low = "\(axis)=\(best.low.variant[axis]?.description ?? "")"
        let high = "\(axis)=\(best.high.variant[axis]?.description ?? "")"
        return
            "\(best.low.phase): \(low) ran \(counted(Int(statements(best.low)), "statement")) against \(formatCount(statements(best.high))) for \(high)"
            + (shared.isEmpty ? "" : " (\(shared.joined(separator: ";")))") + ", "
            + ratio(values[best.low] ?? [], values[best.high] ?? [], unit: unit)
            + " at \(formatCount(size))\(refusedNote([best.low, best.high]))"
    }

    /// `2.3× faster [2.1, 2.5]`, `1.1× slower [1.0, 1.2]`, `4.1× faster (3 repetitions: no interval)`, or with
    /// fewer than `SampleSummary.repetitionsForARatio` a side `n = 1: no comparison`.
    static func ratio(_ first: [Double], _ second: [Double], unit: MetricUnit) -> String {
        let fewest = min(first.count, second.count)
        guard unit == .instructions || fewest >= SampleSummary.repetitionsForARatio else {
            return "n = \(fewest): no comparison (\(SampleSummary.repetitionsForARatio) repetitions needed)"
        }
        let a = Statistics.median(first)
        let b = Statistics.median(second)
        guard a > 0, b > 0 else { return "times \(formatNumber(a)) against \(formatNumber(b)) \(unit.rawValue)" }
        let faster = a <= b
        let factor = faster ? b / a : a / b
        let word = faster ? "faster" : "slower"
        if let interval = ShiftInterval(second, first, level: 0.95) {
            let (low, high) = faster ? (interval.low, interval.high) : (1 / interval.high, 1 / interval.low)
            return "\(formatFactor(factor))× \(word) [\(formatFactor(low)), \(formatFactor(high))]"
        }
        return "\(formatFactor(factor))× \(word) (\(counted(min(first.count, second.count), "repetition")): no interval)"
    }
}
