import SQLDebugLog

/// The SQL analysis's findings (`bench log`'s) as a baseline and a gate see them.
extension Finding: GatedFinding {
    /// `id`: rule, segment, subject and (for fetch rules) the statement's fingerprint.
    package var fingerprint: String { id }
    package var ruleID: String { rule.rawValue }
    package var subjectText: String { "\(segment): \(subject)" }

    package var shortText: String {
        let text = "\(segment): \(summary)"
        return text.count > 160 ? String(text.prefix(157)) + "..." : text
    }
}
