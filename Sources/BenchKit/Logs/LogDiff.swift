import Foundation
import SQLDebugLog

/// `bench log diff`: the statements a device's log ran in each segment against those of ObjectGraph's exact trace of
/// the same scenario's phase of the same name, both as fingerprints: bound values, literals, id lists, int-array
/// tables and whitespace normalised; addresses, UUIDs, primary keys and times live in annotations, which are not
/// compared. A log without markers is compared whole with every phase in order.
package struct LogDiff {
    /// One phase compared.
    package struct Phase {
        package let name: String
        /// ObjectGraph's statements and the device's.
        package let expected: Int
        package let actual: Int
        /// nil when the log has no segment of the phase's name.
        package let diff: SequenceDiff?

        package var isEqual: Bool { diff?.isEqual ?? false }
    }

    package let phases: [Phase]
    /// Segments of the log no phase is named after (not compared).
    package let otherSegments: [String]
    /// Whether the log has no markers, so that it was compared whole.
    package let wholeLog: Bool

    package var isEqual: Bool { phases.allSatisfy(\.isEqual) }

    /// Compares the log at `path` (`-`: standard input) with `explanation`'s trace (run exact, at level 1).
    package init(logPath path: String, explanation: Explanation) throws {
        let device = try Self.segments(path)
        var explanation = explanation
        explanation.exact = true
        explanation.level = 1
        let traces = try explanation.phaseTraces().map { (name: $0.phase.rawValue, statements: Self.statements(in: $0.lines)) }
        let named = device.order.filter { $0 != LogAnalysis.outsideSegmentName }
        if named.isEmpty {
            let expected = traces.flatMap(\.statements)
            let actual = device.statements[LogAnalysis.outsideSegmentName] ?? []
            let name = traces.map(\.name).joined(separator: ", ")
            phases = [
                Phase(
                    name: "whole log / \(name)", expected: expected.count, actual: actual.count,
                    diff: SequenceDiff(expected: expected, actual: actual))
            ]
            otherSegments = []
            wholeLog = true
            return
        }
        phases = traces.map { trace in
            let actual = device.statements[trace.name]
            return Phase(
                name: trace.name, expected: trace.statements.count, actual: actual?.count ?? 0,
                diff: actual.map { SequenceDiff(expected: trace.statements, actual: $0) })
        }
        otherSegments = named.filter { name in !traces.contains { $0.name == name } }
        wholeLog = false
    }

    /// The fingerprints of the statements of some trace lines.
    static func statements(in lines: [String]) -> [String] {
        var parser = SQLDebugLogParser()
        var statements: [String] = []
        for line in lines {
            parser.feed(Substring(line)) { event in
                if case let .statement(statement) = event { statements.append(Fingerprint.of(statement.sql)) }
            }
        }
        parser.finish { event in
            if case let .statement(statement) = event { statements.append(Fingerprint.of(statement.sql)) }
        }
        return statements
    }

    /// The log's statements per segment name (segments of one name joined in order), in the order names first appear;
    /// statements outside every marked segment under `LogAnalysis.outsideSegmentName`.
    static func segments(_ path: String) throws -> (order: [String], statements: [String: [String]]) {
        var order = [LogAnalysis.outsideSegmentName]
        var statements: [String: [String]] = [:]
        var active: [String] = []
        var fingerprints: [String: String] = [:]
        func consume(_ event: LogEvent) {
            switch event {
            case let .statement(statement):
                let fingerprint = fingerprints[statement.sql] ?? Fingerprint.of(statement.sql)
                if fingerprints.count < 20_000 { fingerprints[statement.sql] = fingerprint }
                statements[active.last ?? LogAnalysis.outsideSegmentName, default: []].append(fingerprint)
            case let .marker(marker) where marker.kind == .begin:
                active.append(marker.name)
                if !order.contains(marker.name) { order.append(marker.name) }
            case let .marker(marker):
                if let position = active.lastIndex(of: marker.name) { active.removeSubrange(position...) }
            default:
                break
            }
        }
        let statistics: ParserStatistics
        do {
            if path == "-" {
                statistics = try SQLDebugLogParser.parse(handle: .standardInput, consume)
            } else {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw BenchError.invalidInput("\(path.isEmpty ? "''" : path) does not exist; give the device's SQLDebug log")
                }
                if isDirectory.boolValue { throw BenchError.invalidInput("\(path) is a folder; give the device's SQLDebug log") }
                statistics = try SQLDebugLogParser.parse(fileAt: path, consume)
            }
        } catch let error as LogReadError {
            throw BenchError.invalidInput("\(error); give the device's SQLDebug log")
        }
        guard statistics.coreDataLines > 0 else {
            throw BenchError.invalidInput(
                "\(path == "-" ? "standard input" : path) holds no Core Data line; capture the log with -com.apple.CoreData.SQLDebug 1 (see the README)"
            )
        }
        return (order, statements)
    }

    /// What `bench log diff` prints: each phase equal or its differences, then the verdict.
    package func text(context: Int = 2) -> String {
        var lines: [String] = []
        if wholeLog { lines.append("the log has no RelBench markers: compared whole with every phase in order") }
        for phase in phases {
            guard let diff = phase.diff else {
                lines.append(
                    "phase \(phase.name): not in the log (no 'RelBench: begin \(phase.name)' marker); objectgraph ran \(phase.expected) statements"
                )
                continue
            }
            if diff.isEqual {
                lines.append("phase \(phase.name): equal (\(phase.expected) statements)")
                continue
            }
            let counts = diff.counts
            lines.append(
                "phase \(phase.name): differs: \(counts.added) added, \(counts.removed) removed, \(counts.changed) changed "
                    + "(objectgraph \(phase.expected) statements, device \(phase.actual))")
            lines += diff.lines(context: context).map { "  " + $0 }
        }
        if !otherSegments.isEmpty {
            lines.append("not compared (no phase of that name): \(otherSegments.joined(separator: ", "))")
        }
        let differing = phases.filter { !$0.isEqual }.count
        lines.append(isEqual ? "equal" : "differs: \(differing) of \(phases.count) phases")
        return lines.joined(separator: "\n")
    }
}
