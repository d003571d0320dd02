import Foundation
import TestSupport

@testable import SQLDebugLog

/// Runs this package's bench (built with the tests) over its Scenarios folder and splits what `bench explain --exact`
/// prints into phases.
enum BenchTrace {
    /// The bench executable next to the test bundle, and the repository's Scenarios.
    static let bench = BenchBinary.path
    static let scenarios = BenchBinary.root.appendingPathComponent("Scenarios").path
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: bench) && FileManager.default.fileExists(atPath: scenarios)
    }

    /// One phase of a trace: its lines (two leading spaces stripped) and the counters bench printed.
    struct Phase {
        var name: String
        var lines: [String]
        var counters: [String: Int]
    }

    /// Every scenario that ObjectGraph runs, once per value of its `modelling` variant (once if it has none).
    static func objectGraphRuns() throws -> [(scenario: String, variant: String?)] {
        let output = try run(["list", "--scenarios", scenarios])
        var runs: [(String, String?)] = []
        var scenario: String?
        var runsObjectGraph = false
        var modellings: [String] = []
        func close() {
            guard let scenario, runsObjectGraph else { return }
            runs += modellings.isEmpty ? [(scenario, nil)] : modellings.map { (scenario, "modelling=\($0)") }
        }
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first != " ", line.contains(" (model ") {
                close()
                scenario = String(line.prefix { $0 != " " })
                runsObjectGraph = false
                modellings = []
            } else if line.hasPrefix("  strategies:") {
                runsObjectGraph = line.contains("objectgraph")
            } else if line.hasPrefix("  variant modelling:") {
                modellings = line.dropFirst("  variant modelling:".count).split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
            } else if line.hasPrefix("strategies (") {
                break
            }
        }
        close()
        return runs
    }

    static func explain(_ scenario: String, size: Int, level: Int, variant: String? = nil) throws -> (text: String, phases: [Phase]) {
        var arguments = [
            "explain", scenario, "--scenarios", scenarios, "--exact", "--size", String(size), "--max-lines", "1000000",
            "--strategy", "objectgraph", "--level", String(level),
        ]
        if let variant { arguments += ["--variant", variant] }
        let text = try run(arguments)
        return (text, phases(in: text))
    }

    static func phases(in text: String) -> [Phase] {
        var phases: [Phase] = []
        var current: Phase?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("--- phase ") {
                let name = line.dropFirst("--- phase ".count).prefix { $0 != " " }
                current = Phase(name: String(name), lines: [], counters: [:])
            } else if line.hasPrefix("counters of "), var phase = current {
                for pair in line.split(separator: " ") {
                    let parts = pair.split(separator: "=")
                    if parts.count == 2, let value = Int(parts[1]) { phase.counters[String(parts[0])] = value }
                }
                phases.append(phase)
                current = nil
            } else if current != nil {
                current?.lines.append(line.hasPrefix("  ") ? String(line.dropFirst(2)) : String(line))
            }
        }
        return phases
    }

    /// What bench printed: its output, then its messages.
    static func run(_ arguments: [String]) throws -> String {
        let result = try BenchBinary.run(arguments)
        return result.output + result.error
    }

    /// The five metrics of an analysed segment, keyed as bench prints them.
    static func metrics(_ counters: LogCounters) -> [String: Int] {
        [
            "sql_statements": counters.sqlStatements, "fetch_requests": counters.fetchRequests, "object_faults": counters.objectFaults,
            "relationship_faults": counters.relationshipFaults, "rows_read": counters.rowsRead,
        ]
    }

    static let metricNames = ["sql_statements", "fetch_requests", "object_faults", "relationship_faults", "rows_read"]

    /// The metrics where the parsed counters and bench's differ, with both values. rows_read counts only rows the
    /// trace reports: where some statement's rows are not reported (a pragma, a Z_MAX read, a batch), the parsed rows
    /// must be at most bench's, which counts every row SQLite returned.
    static func mismatches(_ counters: LogCounters, _ bench: [String: Int]) -> [String: String] {
        var found: [String: String] = [:]
        let parsed = metrics(counters)
        for metric in metricNames {
            guard let expected = bench[metric], let got = parsed[metric] else { continue }
            if metric == "rows_read", counters.statementsWithUnreportedRows > 0 {
                if got > expected { found[metric] = "parsed \(got) reported rows, more than bench's \(expected)" }
            } else if got != expected {
                found[metric] = "parsed \(got), bench \(expected)"
            }
        }
        return found
    }
}
