/// The statements behind regressed counters: for each phase whose statements, faults or rows grew, the fingerprints
/// that ran more often than in the baseline, or are new, from both runs' statements.csv.
package struct StatementChange: Sendable, Equatable {
    package let phase: PhaseStatements.Key
    package let fingerprint: String
    /// How many times it ran in each run (0: not at all).
    package let baseline: Int
    package let current: Int

    /// The counters whose growth is explained by statements.
    static let statementMetrics: Set<Metric> = [.sqlStatements, .fetchRequests, .objectFaults, .relationshipFaults, .rowsRead]

    /// The fingerprints that grew in the phases of `regressions`, most added first; phases either run lacks
    /// statements for are left out.
    static func changes(
        regressions: [Comparison.Change], baseline: [PhaseStatements], current: [PhaseStatements]
    ) -> [StatementChange] {
        let before = Dictionary(baseline.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(current.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var phases = Set<PhaseStatements.Key>()
        for change in regressions where statementMetrics.contains(change.key.metric) {
            let key = change.key
            phases.insert(PhaseStatements.Key(scenario: key.scenario, variant: key.variant, size: key.size, phase: key.phase))
        }
        var changes: [StatementChange] = []
        for phase in phases.sorted() {
            guard let old = before[phase], let new = after[phase] else { continue }
            var grown: [StatementChange] = []
            for (fingerprint, use) in new.fingerprints {
                let was = old.fingerprints[fingerprint]?.statements ?? 0
                if use.statements > was {
                    grown.append(StatementChange(phase: phase, fingerprint: fingerprint, baseline: was, current: use.statements))
                }
            }
            changes += grown.sorted { ($0.current - $0.baseline, $1.fingerprint) > ($1.current - $1.baseline, $0.fingerprint) }
        }
        return changes
    }

    /// `+3 × SELECT ... (new)` or `+3 × SELECT ... (2 → 5)`, under its phase's name.
    var line: String {
        let added = current - baseline
        return "+\(added) × \(fingerprint) " + (baseline == 0 ? "(new)" : "(\(baseline) → \(current))")
    }

    /// The phase as the comparison's other lines name it.
    var phaseName: String {
        "\(phase.scenario)\(phase.variant.isEmpty ? "" : " \(phase.variant)") n=\(phase.size) \(phase.phase)"
    }
}
