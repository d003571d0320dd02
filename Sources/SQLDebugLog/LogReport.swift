/// A plain-text report of an analysis, for a terminal (what `bench log FILE` prints).
public enum LogReport {
    /// The device times a segment's log reports, each kind only where some statement was timed by it: a kind the log
    /// never times (a count request has no connection time; some logs time writes only by `sql execution time`) is
    /// named as absent, never printed as 0.0 ms as if measured.
    static func deviceTimesLine(_ segment: LogSegment) -> String {
        let counters = segment.counters
        let kinds: [(name: String, timed: Bool, seconds: Double)] = [
            ("fetch", segment.fingerprints.contains { $0.fetchExecutionTime.count > 0 }, counters.fetchExecutionSeconds),
            ("connection", segment.fingerprints.contains { $0.connectionTime.count > 0 }, counters.connectionSeconds),
            ("execution", segment.fingerprints.contains { $0.executionTime.count > 0 }, counters.executionSeconds),
        ]
        let shown = kinds.filter(\.timed).map { "\($0.name) \(milliseconds($0.seconds))" }
        guard !shown.isEmpty else {
            return "  device times: none in the log (no statement in this segment has a time annotation)"
        }
        // Execution time is an extra some logs add: its absence is not worth a word.
        let absent = kinds.prefix(2).filter { !$0.timed }.map(\.name)
        return "  device times: " + shown.joined(separator: ", ")
            + (absent.isEmpty ? "" : " (\(absent.joined(separator: " and ")) time not in the log)")
    }

    /// Per segment: the five metrics, statements by kind, transactions and saves, the most frequent fingerprints
    /// with their times, and the findings; then what could not be read.
    /// `known`: the ids of findings a baseline lists, printed with `known ` before them.
    public static func text(_ analysis: LogAnalysis, fingerprintsPerSegment: Int = 8, known: Set<String> = []) -> String {
        var lines: [String] = []
        for segment in analysis.segments {
            var state = ""
            if segment.occurrences > 1 { state += " (\(Finding.count(segment.occurrences)) times)" }
            if segment.unclosed > 0 {
                state += segment.occurrences > 1 ? " (\(Finding.count(segment.unclosed)) never ended)" : " (never ended)"
            }
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
            if counters.inferredObjectFaults + counters.inferredRelationshipFaults > 0 {
                lines.append(
                    "  inferred from the SQL's shape (the log has no fault annotations): \(counters.inferredObjectFaults) object faults, "
                        + "\(counters.inferredRelationshipFaults) to-many faults")
            }
            lines.append(
                deviceTimesLine(segment)
                    + (counters.statementsWithUnreportedRows > 0
                        ? "; rows not reported for \(counters.statementsWithUnreportedRows) statements (not counted)" : "")
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
                lines += findingLines(finding, known: known.contains(finding.id))
            }
        }
        lines.append(
            "findings: a statement (or fault, or save) repeated more than \(analysis.threshold) times in a segment (--threshold), "
                + "\(counted(analysis.findings.count, "finding"))")
        if analysis.markerProblems.count > 0 {
            let named = analysis.markerProblems.first.map { "'\($0.name)' \($0.kind.rawValue) (line \($0.line))" }
            lines.append(
                "markers: \(counted(analysis.markerProblems.count, "marker problem")): \(named.joined(separator: "; "))"
                    + (analysis.markerProblems.count > named.count ? "; ..." : ""))
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

    /// A finding as two lines: what was seen (rule, severity, identity) and the fix with what it saves.
    public static func findingLines(_ finding: Finding, indent: String = "  ", known: Bool = false) -> [String] {
        var saving = ""
        if let after = finding.statementsAfter, after < finding.statements {
            saving += " (\(Finding.count(finding.statements)) → \(Finding.count(after)) statements)"
        }
        if let time = finding.milliseconds, time.measured > 0 {
            saving += "; the log's times: \(milliseconds(time.saved / 1000)) of \(milliseconds(time.measured / 1000)) saved"
        }
        let what = finding.repeats > 0 ? "\(Finding.count(finding.repeats)) × " : ""
        let seen = finding.occurrences > 1 ? " (in \(finding.occurrences) of its segments)" : ""
        return [
            "\(indent)\(known ? "known " : "")\(finding.severity.rawValue) \(finding.rule.rawValue) [\(finding.id)]: \(what)\(finding.summary)\(seen)",
            "\(indent)  fix: \(finding.fix)\(saving)",
        ]
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(Finding.count(count)) \(noun)\(count == 1 ? "" : "s")"
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
