import Foundation

@testable import SQLDebugLog

/// Runs this package's bench (built with the tests) over its Scenarios folder and splits what `bench explain --exact`
/// prints into phases.
enum BenchTrace {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The bench executable next to the test bundle, and the repository's Scenarios.
    static let bench: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bench").path,
            packageRoot.appendingPathComponent(".build/debug/bench").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }()
    static let scenarios = packageRoot.appendingPathComponent("Scenarios").path
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

    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bench)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The five metrics of an analysed segment, keyed as bench prints them.
    static func metrics(_ counters: LogCounters) -> [String: Int] {
        [
            "sql_statements": counters.sqlStatements, "fetch_requests": counters.fetchRequests, "object_faults": counters.objectFaults,
            "relationship_faults": counters.relationshipFaults, "rows_read": counters.rowsRead,
        ]
    }

    static let metricNames = ["sql_statements", "fetch_requests", "object_faults", "relationship_faults", "rows_read"]
}
