import SQLDebugLog

extension AdviceFinding: GatedFinding {
    /// The SQL finding's id (rule, phase, subject and, for fetch rules, the statement) with the scenario, strategy and
    /// variant it was found in: two scenarios' phases of one name are different screens. Never the size or counts.
    package var fingerprint: String {
        FindingID.hash(["advise", scenario.rawValue, strategy.rawValue, variant.description, finding.id])
    }

    package var ruleID: String { finding.rule.rawValue }
    package var severity: FindingSeverity { finding.severity }
    package var subjectText: String {
        "\(scenario) \(strategy)" + (variant.isEmpty ? "" : " \(variant)") + ": \(finding.segment) \(finding.subject)"
    }

    package var shortText: String {
        let text = "\(subjectText): \(finding.summary)"
        return text.count > 160 ? String(text.prefix(157)) + "..." : text
    }
}
