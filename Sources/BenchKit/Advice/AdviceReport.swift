import Foundation
import SQLDebugLog

/// The findings as text (grouped by scenario, strategy and variant), and as JSON (advice.json in a run folder).
package enum AdviceReport {
    /// The version of advice.json's layout: a list of findings, each with `finding` as `bench log --json` writes it.
    package static let version = 2

    /// One block per scenario, strategy and variant, a line per finding; `known ` before those a baseline lists.
    package static func text(_ findings: [AdviceFinding], size: Int, threshold: Int, known: Set<String> = []) -> String {
        guard !findings.isEmpty else {
            return "no finding: no statement repeated more than \(threshold) times in a phase at size \(formatCount(size)), "
                + "and no other pattern the analysis knows"
        }
        var lines: [String] = []
        var current = ""
        for finding in findings {
            let heading = "\(finding.scenario) \(finding.strategy)" + (finding.variant.isEmpty ? "" : " \(finding.variant)")
            if heading != current {
                if !current.isEmpty { lines.append("") }
                lines.append(heading + " (size \(formatCount(finding.size)))")
                current = heading
            }
            let severity = finding.finding.severity == .risk ? "" : "\(finding.finding.severity.rawValue): "
            lines.append("  " + (known.contains(finding.fingerprint) ? "known " : "") + severity + finding.line)
        }
        lines.append("")
        lines.append(
            "\(counted(findings.count, "finding")) (a statement repeated more than \(threshold) times in a phase, --threshold); "
                + "statement counts are what Core Data would run where ObjectGraph is faithful to it; `bench log` gives the same "
                + "findings on a device's log of the same screens.")
        return lines.joined(separator: "\n")
    }

    package static func json(_ findings: [AdviceFinding]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Document(version: version, findings: findings))
    }

    package static func decode(_ data: Data, file: String) throws -> [AdviceFinding] {
        do {
            let document = try JSONDecoder().decode(Document.self, from: data)
            guard document.version == version else {
                throw BenchError.invalidInput(
                    "\(file) holds advice of layout \(document.version), this bench reads \(version); run 'bench advise' again")
            }
            return document.findings
        } catch let error as DecodingError {
            throw BenchError.invalidInput(
                "\(file) is not a list of findings written by this 'bench advise' (\(error.plainDescription)); run 'bench advise' again")
        }
    }

    struct Document: Codable {
        let version: Int
        let findings: [AdviceFinding]
    }
}
