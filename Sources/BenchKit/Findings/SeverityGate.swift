import SQLDebugLog

/// The severities that fail a command (`--fail-on problem,risk`), and what a set of findings makes of it against a
/// baseline.
package struct SeverityGate: Equatable, Sendable, CustomStringConvertible {
    /// Problem and risk: a suggestion, a guess about how the app uses the model, never fails by default.
    package static let standard = SeverityGate(severities: [.problem, .risk])

    package var severities: Set<FindingSeverity>

    package init(severities: Set<FindingSeverity>) { self.severities = severities }

    /// `problem,risk`, `suggestion`, `all` or `none`; one line for anything else.
    package init(parsing text: String) throws {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        if names == ["none"] {
            severities = []
            return
        }
        if names == ["all"] {
            severities = Set(FindingSeverity.allCases)
            return
        }
        var chosen = Set<FindingSeverity>()
        for name in names {
            guard let severity = FindingSeverity(rawValue: name) else {
                throw BenchError.unknown(
                    "severity", name, among: FindingSeverity.allCases.map(\.rawValue) + ["all", "none"], plural: "severities",
                    place: "--fail-on", remedy: "give them comma-separated, e.g. --fail-on problem,risk")
            }
            chosen.insert(severity)
        }
        severities = chosen
    }

    package var description: String {
        severities.isEmpty ? "none" : FindingSeverity.allCases.filter(severities.contains).map(\.rawValue).joined(separator: ",")
    }

    /// The findings split into known (in `baseline`) and new, and the new ones this gate fails on.
    package func verdict<Finding: GatedFinding>(_ findings: [Finding], baseline: FindingBaseline?) -> GateVerdict<Finding> {
        let known = baseline?.fingerprints ?? []
        let new = findings.filter { !known.contains($0.fingerprint) }
        return GateVerdict(
            known: findings.filter { known.contains($0.fingerprint) }, new: new,
            failing: new.filter { severities.contains($0.severity) }, gate: self)
    }
}

/// What a gate made of a command's findings.
package struct GateVerdict<Finding: GatedFinding> {
    /// Findings the baseline lists: shown, counted, never failing.
    package var known: [Finding]
    package var new: [Finding]
    /// New findings of the gate's severities: the command exits 1 when there is one.
    package var failing: [Finding]
    package var gate: SeverityGate

    package var fails: Bool { !failing.isEmpty }

    /// `2 new findings (1 problem, 1 risk), 5 known (in baseline.json); exit 1 (--fail-on problem,risk)`.
    package func line(baseline: String?) -> String {
        if new.isEmpty && known.isEmpty { return "no findings" }
        let bySeverity = FindingSeverity.allCases.compactMap { severity -> String? in
            let count = new.filter { $0.severity == severity }.count
            return count == 0 ? nil : "\(count) \(severity.rawValue)"
        }
        var text = "\(counted(new.count, baseline == nil ? "finding" : "new finding"))"
        if !bySeverity.isEmpty { text += " (\(bySeverity.joined(separator: ", ")))" }
        if let baseline { text += ", \(formatCount(known.count)) known (in \(baseline))" }
        text += fails ? "; exit 1 (--fail-on \(gate))" : "; exit 0 (--fail-on \(gate))"
        return text
    }
}
