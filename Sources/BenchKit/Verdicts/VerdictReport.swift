import Foundation

/// Judges the claims against a run, and writes the verdicts: a block per claim, one line per decided claim (the
/// end of `bench run`), a Markdown table (report pages, README's Results section) and JSON.
package enum VerdictReport {
    /// Said once wherever verdicts are shown.
    package static let fidelity =
        "Statement, fault and row counts are what Core Data runs where ObjectGraph is faithful to it; every time and memory figure is ObjectGraph's on this machine (Core Data does not run on Linux)."

    /// Every claim of `claims` judged from `summary`.
    package static func judge(_ summary: [SummaryRow], claims: [Claim] = ClaimCatalog.all) -> [Verdict] {
        let run = RunView(summary)
        return claims.map { claim in
            let result = claim.rule.evaluate(run)
            return Verdict(claim: claim, outcome: result.outcome, evidence: result.evidence, rule: result.text)
        }
    }

    /// A block per claim: verdict and claim, source, evidence, rule, and how to measure what was not.
    package static func text(_ verdicts: [Verdict]) -> String {
        var lines: [String] = []
        for verdict in verdicts {
            lines.append("\(verdict.outcome.label.uppercased()): \(verdict.claim.statement)")
            lines.append("  source:   \(verdict.claim.source)")
            if !verdict.outcome.detail.isEmpty { lines.append("  parts:    \(verdict.outcome.detail)") }
            switch verdict.outcome {
            case let .notMeasured(reason):
                lines.append("  missing:  \(reason)")
                lines.append("  measure:  \(verdict.claim.command)")
            case let .cannotTest(reason):
                lines.append("  why:      \(reason)")
            default:
                for item in verdict.evidence { lines.append("  evidence: \(item)") }
            }
            lines.append("  rule:     \(verdict.rule)")
            lines.append("")
        }
        lines.append(tally(verdicts))
        lines.append(fidelity)
        return lines.joined(separator: "\n")
    }

    /// One line per claim the run decided, for the end of `bench run`.
    package static func lines(_ verdicts: [Verdict]) -> String {
        let decided = verdicts.filter(\.outcome.isDecided)
        guard !decided.isEmpty else { return "" }
        let width = decided.map { $0.outcome.label.count }.max()!
        var lines = ["verdicts this run decides (bench verdicts RUN for the evidence and the rules):"]
        for verdict in decided {
            let label = verdict.outcome.label
            let detail = verdict.outcome.detail.isEmpty ? "" : ": \(verdict.outcome.detail)"
            lines.append(
                "  " + label + String(repeating: " ", count: max(1, width - label.count + 2))
                    + "\(verdict.claim.statement) (\(shortSource(verdict.claim.source)))\(detail)")
        }
        lines.append("  \(verdicts.count - decided.count) other claim(s) need scenarios or repetitions this run does not have.")
        return lines.joined(separator: "\n")
    }

    /// A Markdown table; `figures` links each verdict to its plot under `figures` (a folder of PNGs), if given.
    package static func markdown(_ verdicts: [Verdict], figures: String? = nil) -> String {
        var lines = ["| verdict | claim | source | evidence | rule |", "|---|---|---|---|---|"]
        for verdict in verdicts {
            var claim = verdict.claim.statement
            if let figures, let figure = verdict.claim.figure { claim += " ([figure](\(figures)/\(figure).png))" }
            let evidence: String
            switch verdict.outcome {
            case let .notMeasured(reason): evidence = "\(reason); measure: `\(verdict.claim.command)`"
            case let .cannotTest(reason): evidence = reason
            default: evidence = verdict.evidence.joined(separator: "<br>")
            }
            let detail = verdict.outcome.detail.isEmpty ? "" : ": \(verdict.outcome.detail)"
            lines.append(
                "| **\(verdict.outcome.label)**\(cell(detail)) | \(cell(claim)) | \(cell(verdict.claim.source)) | \(cell(evidence)) | \(cell(verdict.rule)) |"
            )
        }
        lines.append("")
        lines.append(tally(verdicts) + " " + fidelity)
        return lines.joined(separator: "\n")
    }

    /// The verdicts as JSON: claim, source, outcome (kind and label), evidence, rule, command, figure.
    package static func json(_ verdicts: [Verdict]) throws -> Data {
        struct Entry: Encodable {
            let id, claim, source, verdict, label, rule, command: String
            let evidence: [String]
            let reason: String?
            let figure: String?
        }
        let entries = verdicts.map { verdict -> Entry in
            var reason: String?
            switch verdict.outcome {
            case let .notMeasured(text), let .cannotTest(text), let .partly(text): reason = text
            default: reason = nil
            }
            return Entry(
                id: verdict.claim.id, claim: verdict.claim.statement, source: verdict.claim.source, verdict: verdict.outcome.kind,
                label: verdict.outcome.label, rule: verdict.rule, command: verdict.claim.command, evidence: verdict.evidence,
                reason: reason, figure: verdict.claim.figure)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(entries)
    }

    static func tally(_ verdicts: [Verdict]) -> String {
        var counts: [String: Int] = [:]
        for verdict in verdicts { counts[verdict.outcome.kind, default: 0] += 1 }
        let order = [
            "holds", "holds-from-size", "holds-for-statements-not-time", "holds-for-time-not-statements", "partly", "does-not-hold",
            "not-measured", "cannot-test",
        ]
        return "\(verdicts.count) claims: "
            + order.compactMap { kind in counts[kind].map { "\($0) \(kind.replacingOccurrences(of: "-", with: " "))" } }.joined(
                separator: ", ") + "."
    }

    private static func shortSource(_ source: String) -> String {
        String(source.prefix { $0 != "(" && $0 != "," }).trimmingCharacters(in: .whitespaces)
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
