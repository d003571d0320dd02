/// A plain-text report of an analysis, for a terminal (what `bench log FILE` prints).
public enum LogReport {
    /// Per segment: the five metrics, statements by kind, transactions and saves, the most frequent fingerprints
    /// with their times, and the findings; then what could not be read.
    public static func text(_ analysis: LogAnalysis, fingerprintsPerSegment: Int = 8) -> String {
        var lines: [String] = []
        for segment in analysis.segments {
            let state = segment.closed ? "" : " (not closed)"
            lines.append("segment \(segment.name)\(state)")
            let counters = segment.counters
            lines.append("  " + counters.metricsLine)
            let kinds = SQLStatementKind.allCases.filter { counters.statementsByKind[$0] > 0 }
                .map { "\($0)=\(counters.statementsByKind[$0])" }.joined(separator: " ")
            lines.append(
                "  statements: \(kinds.isEmpty ? "none" : kinds); transactions=\(counters.transactions) saves=\(counters.saves)"
                    + (counters.rollbacks > 0 ? " rollbacks=\(counters.rollbacks)" : ""))
            if counters.problems > 0 || counters.migrationMessages > 0 {
                lines.append("  problems (error/fault/warning): \(counters.problems); migration messages: \(counters.migrationMessages)")
            }
            lines.append(
                "  device times: fetch \(milliseconds(counters.fetchExecutionSeconds)), connection \(milliseconds(counters.connectionSeconds))"
                    + (counters.statementsWithUnknownRows > 0 ? "; \(counters.statementsWithUnknownRows) statements with no row count" : "")
            )
            if !segment.entities.isEmpty {
                let entities = segment.entities.prefix(8).map { "\($0.entity.name) (\($0.table)) \($0.statements)" }.joined(separator: ", ")
                lines.append("  entities: \(entities)")
            }
            for fingerprint in segment.fingerprints.prefix(fingerprintsPerSegment) {
                let time =
                    fingerprint.connectionTime.count > 0
                    ? String(
                        " p50 %@ p95 %@", milliseconds(fingerprint.connectionTime.p50Seconds),
                        milliseconds(fingerprint.connectionTime.p95Seconds))
                    : ""
                lines.append(
                    "  \(pad(String(fingerprint.count), 6)) × \(fingerprint.role.rawValue): \(clip(fingerprint.fingerprint, 110))\(time)")
            }
            for finding in segment.findings {
                var saving = ""
                if let statements = finding.statementsSaved, statements > 0 { saving += " saves \(statements) statements" }
                if let saved = finding.millisecondsSaved {
                    saving += " and \(milliseconds(saved / 1000)) of \(milliseconds(finding.measuredMilliseconds / 1000))"
                }
                lines.append("  finding \(finding.pattern.rawValue): \(finding.summary)")
                lines.append("    fix: \(finding.fix)" + (saving.isEmpty ? "" : ";" + saving))
            }
        }
        var notes: [String] = []
        if analysis.garbledLines > 0 { notes.append("\(analysis.garbledLines) garbled lines") }
        if analysis.truncatedLines > 0 { notes.append("\(analysis.truncatedLines) truncated lines") }
        if analysis.unknownCoreDataLines > 0 { notes.append("\(analysis.unknownCoreDataLines) Core Data lines not interpreted") }
        if analysis.duplicateMessages > 0 { notes.append("\(analysis.duplicateMessages) console copies ignored") }
        if analysis.namesInferred { notes.append("names in upper case are inferred from Z names") }
        lines.append(
            "read \(analysis.lines) lines, \(analysis.coreDataLines) of Core Data"
                + (notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")))
        return lines.joined(separator: "\n")
    }

    private static func milliseconds(_ seconds: Double) -> String {
        let value = seconds * 1000
        let rounded = (value * 10).rounded() / 10
        return "\(rounded) ms"
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private static func clip(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }
}

extension String {
    /// `%@` placeholders replaced in order (no Foundation formatting needed).
    init(_ format: String, _ arguments: String...) {
        var result = ""
        var remaining = arguments[...]
        var rest = Substring(format)
        while let range = rest.firstRange(of: "%@") {
            result += rest[..<range.lowerBound]
            result += remaining.popFirst() ?? ""
            rest = rest[range.upperBound...]
        }
        self = result + rest
    }
}
