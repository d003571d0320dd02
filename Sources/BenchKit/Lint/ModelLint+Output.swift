import SQLDebugLog

extension ModelLint.Finding: GatedFinding {
    package var ruleID: String { rule.rawValue }
    package var subjectText: String { subject }

    /// The line up to its first sentence's end, at most about 160 characters: for a person reading a baseline.
    package var shortText: String {
        let sentence = message.prefix { $0 != ":" }
        let text = "\(subject): \(sentence)"
        return text.count > 160 ? String(text.prefix(157)) + "..." : text
    }
}

extension ModelLint {
    /// The lines `bench lint` prints for `findings`: each as `description`, `known ` before those a baseline lists;
    /// suggestions (guesses about how the app uses the model) summed up in one line unless `suggestions`.
    package static func lines(_ findings: [Finding], known: Set<String> = [], suggestions: Bool = false) -> [String] {
        var lines: [String] = []
        var guesses: [Finding] = []
        for finding in findings {
            if finding.severity == .suggestion && !suggestions {
                guesses.append(finding)
                continue
            }
            lines.append((known.contains(finding.fingerprint) ? "known " : "") + finding.description)
        }
        if !guesses.isEmpty {
            var byRule: [(rule: LintRule, count: Int)] = []
            for guess in guesses {
                if let index = byRule.firstIndex(where: { $0.rule == guess.rule }) {
                    byRule[index].count += 1
                } else {
                    byRule.append((guess.rule, 1))
                }
            }
            let listed = byRule.map { "\($0.count) \($0.rule.rawValue)" }.joined(separator: ", ")
            lines.append(
                "suggestion: \(formatCount(guesses.count)) \(guesses.count == 1 ? "guess" : "guesses") about how the app uses the model (\(listed)), not shown: --suggestions prints them"
            )
        }
        return lines
    }
}
