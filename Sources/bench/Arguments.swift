import ArgumentParser
import BenchKit
import Foundation

extension Profile: ExpressibleByArgument {}

/// Options shared by the commands that read scenario files.
struct ScenarioOptions: ParsableArguments {
    @Option(name: .customLong("scenarios"), help: "The folder of scenario files (default: the repository's Scenarios folder).")
    var folder: String?

    /// The folder's scenarios; a file listing a peer that cannot run it is refused here, as a malformed one is.
    func catalog() throws -> ScenarioCatalog {
        let catalog = try ScenarioCatalog(folder: folder ?? ScenarioCatalog.defaultFolder())
        for scenario in catalog.scenarios { try PeerSupport.check(scenario) }
        return catalog
    }
}

/// `--export github-action-benchmark FILE`: the summary also written as benchmark-action's JSON, optionally only
/// the series `--export-series FILE` names (a dashboard of thousands of series is unreadable).
struct ExportOption: ParsableArguments {
    @Option(
        parsing: .upToNextOption,
        help: "Also export the summary: github-action-benchmark FILE (JSON for benchmark-action/github-action-benchmark).")
    var export: [String] = []

    @Option(
        help: "Export only the series matching the shell patterns in this file, one per line (# comments; see scripts/headline-series.txt)."
    )
    var exportSeries: String?

    /// The export asked for, checked before any work is done.
    func target() throws -> ExportTarget? { try ExportTarget(export: export, seriesFile: exportSeries) }
}

/// `--sizes 1000,10000`: positive integers, comma-separated.
func parseSizes(_ text: String) throws -> [Int] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    return try parts.map { part in
        guard let value = Int(part), value > 0, value <= 100_000_000 else {
            throw BenchError.invalidInput("--sizes: '\(part)' is not a positive integer; give sizes like --sizes 1000,10000")
        }
        return value
    }
}

/// A comma-separated list of strategy names, with "did you mean ...?" for near misses and a pointer to `--variant` for
/// a modelling's name.
func parseStrategies(_ text: String) throws -> [Strategy] {
    try text.split(separator: ",", omittingEmptySubsequences: false).map {
        try Strategy.runnable(named: $0.trimmingCharacters(in: .whitespaces))
    }
}

/// One strategy name (`--strategy grdb`).
func parseStrategy(_ text: String) throws -> Strategy {
    let strategies = try parseStrategies(text)
    guard strategies.count == 1 else { throw BenchError.invalidInput("--strategy takes one strategy, got '\(text)'") }
    return strategies[0]
}

/// One warning line on standard error.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("bench: warning: \(message)\n".utf8))
}
