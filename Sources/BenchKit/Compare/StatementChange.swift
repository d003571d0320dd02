/// Why a count changed: the statements ObjectGraph ran in the baseline and in the run, by fingerprint, for the
/// series' variant, size and phase, and the `bench explain` that shows them one by one.
package struct StatementChange: Sendable {
    /// Fingerprints run more often (or newly), and less often (or no more), with how many more or fewer.
    package let added: [(fingerprint: String, count: Int)]
    package let removed: [(fingerprint: String, count: Int)]
    package let explain: String

    /// Nil when either run lacks the phase's statements (a run before statements.csv, a peer's series).
    init?(_ key: SeriesKey, baseline: RunData, current: RunData) {
        // The hand-written peers run their own SQL, which statements.csv (ObjectGraph's, or a device's) does not hold.
        guard !key.strategy.isPeer else { return nil }
        let phase = PhaseStatements.Key(scenario: key.scenario, variant: key.variant, size: key.size, phase: key.phase)
        guard let before = baseline.statements[phase], let after = current.statements[phase] else { return nil }
        var added: [(String, Int)] = []
        var removed: [(String, Int)] = []
        for fingerprint in Set(before.fingerprints.keys).union(after.fingerprints.keys).sorted() {
            let difference = (after.fingerprints[fingerprint]?.statements ?? 0) - (before.fingerprints[fingerprint]?.statements ?? 0)
            if difference > 0 { added.append((fingerprint, difference)) }
            if difference < 0 { removed.append((fingerprint, -difference)) }
        }
        self.added = added.sorted { $0.1 > $1.1 }
        self.removed = removed.sorted { $0.1 > $1.1 }
        if key.strategy == .device {
            // Read from a device's log: nothing to explain with ObjectGraph; the logs themselves show the statements.
            func log(_ run: RunData) -> String? {
                run.info?.deviceLog.map { $0.path.contains(" ") ? "'\($0.path)'" : $0.path }
            }
            let now = log(current) ?? "LOG"
            explain =
                "bench log \(now) (segment \(key.phase))"
                + (log(baseline).map { $0 == now ? "" : "; the baseline's: bench log \($0)" } ?? "")
        } else {
            explain = Scenario.Origin.explainCommand(
                current.info?.scenarioOrigins?[key.scenario.rawValue], scenario: key.scenario, variant: key.variant, size: key.size,
                phase: key.phase)
        }
    }

    /// `+20 × SELECT ...` and `-1 × SELECT ...` lines, the largest first, at most `limit` of each.
    package func lines(limit: Int = 5) -> [String] {
        var lines = added.prefix(limit).map { "+\($0.count) × \($0.fingerprint)" }
        if added.count > limit { lines.append("+ \(added.count - limit) more fingerprints") }
        lines += removed.prefix(limit).map { "-\($0.count) × \($0.fingerprint)" }
        if removed.count > limit { lines.append("- \(removed.count - limit) more fingerprints") }
        return lines
    }
}
