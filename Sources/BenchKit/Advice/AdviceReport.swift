import Foundation

/// The N+1 findings as text (grouped by scenario, strategy and variant), and as JSON (advice.json in a run folder).
package enum AdviceReport {
    /// One block per scenario, strategy and variant, a line per finding.
    package static func text(_ findings: [QueryFinding], size: Int, threshold: Int) -> String {
        guard !findings.isEmpty else {
            return "no N+1 pattern: no statement repeated more than \(threshold) times in a phase at size \(formatCount(size))"
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
            lines.append("  " + finding.line)
        }
        lines.append("")
        lines.append(
            "\(counted(findings.count, "finding")); statement counts are what Core Data would run where ObjectGraph is faithful to it.")
        return lines.joined(separator: "\n")
    }

    package static func json(_ findings: [QueryFinding]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(findings)
    }

    package static func decode(_ data: Data, file: String) throws -> [QueryFinding] {
        do {
            return try JSONDecoder().decode([QueryFinding].self, from: data)
        } catch let error as DecodingError {
            throw BenchError.invalidInput("\(file) is not a list of findings written by 'bench advise': \(error.plainDescription)")
        }
    }
}
