import Foundation
import SQLDebugLog

/// The lint of the model a `--model` run generated its suite from, by severity, for the run's page and first screen:
/// problems and risks each with subject and fix, suggestions (guesses about how the app uses the model) counted.
package struct RunLint: Sendable {
    /// `model Shop.xcdatamodeld, version Shop 2 (current)`.
    package let heading: String
    package let findings: [ModelLint.Finding]

    package init(heading: String, findings: [ModelLint.Finding]) {
        self.heading = heading
        self.findings = findings
    }

    /// The lint of each model a generated suite of `scenarios` was made from, read again from its file; a model that
    /// is gone or no longer reads is left out (its run's lint.txt still holds what the run saw).
    package static func of(_ scenarios: [Scenario]) -> [RunLint] {
        var seen = Set<String>()
        return scenarios.compactMap { scenario in
            guard case let .generated(model, _) = scenario.origin, seen.insert(model).inserted,
                let file = try? ModelFile(path: model)
            else { return nil }
            return RunLint(heading: file.heading, findings: file.findings)
        }
    }

    /// The findings of `severity`, in lint's order.
    package func findings(_ severity: FindingSeverity) -> [ModelLint.Finding] {
        findings.filter { $0.severity == severity }
    }

    /// `1 problem, 3 risks, 3 suggestions`, or `no findings`.
    package var counts: String {
        let parts = FindingSeverity.allCases.compactMap { severity -> String? in
            let count = findings(severity).count
            return count == 0 ? nil : counted(count, severity.rawValue)
        }
        return parts.isEmpty ? "no findings" : parts.joined(separator: ", ")
    }

    /// The first screen's lines: a heading with the counts, each problem and risk with its subject and fix, and the
    /// suggestions in one line naming their subjects.
    package var lines: [String] {
        var lines = ["lint of \(heading): \(counts)"]
        for severity in [FindingSeverity.problem, .risk] {
            lines += findings(severity).map { "  \($0)" }
        }
        let suggestions = findings(.suggestion)
        if !suggestions.isEmpty {
            lines.append(
                "  \(counted(suggestions.count, "suggestion")) (\(suggestions.map(\.subject).joined(separator: ", "))): lint.txt in the run folder has them, with their fixes"
            )
        }
        return lines
    }
}
