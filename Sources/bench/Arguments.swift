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
            throw BenchError(
                place: "--sizes", problem: "'\(part)' is not a whole number from 1 to 100000000",
                remedy: "give sizes like --sizes 1000,10000")
        }
        return value
    }
}

/// `--seed 42`: a whole number from 0 to UInt64.max.
func parseSeed(_ text: String) throws -> UInt64 {
    guard let seed = UInt64(text.trimmingCharacters(in: .whitespaces)) else {
        throw BenchError(
            place: "--seed", problem: "'\(text)' is not a whole number from 0 to \(UInt64.max)", remedy: "give a seed like --seed 42")
    }
    return seed
}

/// `--counts Customer=10000,Order=50000`: entity names and positive counts, comma-separated.
func parseCounts(_ text: String) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    for part in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
        let pair = part.split(separator: "=", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard pair.count == 2, !pair[0].isEmpty, let count = Int(pair[1]), count > 0, count <= 100_000_000 else {
            throw BenchError(
                place: "--counts", problem: "'\(part)' is not ENTITY=COUNT with a count from 1 to 100000000",
                remedy: "give counts like --counts Customer=10000,Order=50000")
        }
        guard counts.updateValue(count, forKey: pair[0]) == nil else {
            throw BenchError.invalidInput("--counts names \(pair[0]) twice; give each entity once")
        }
    }
    return counts
}

/// Options shared by `bench run --model` and `bench explain --model`: what the generated suite's data follows.
struct GeneratedDataOptions: ParsableArguments {
    @Option(
        help:
            "With --model: objects per entity, comma-separated (e.g. Customer=10000,Order=50000); each entity not named gets the count of the nearest one named through the model's relationships.",
        transform: parseCounts)
    var counts: [String: Int]?

    @Option(
        help:
            "With --model: a Core Data or SwiftData store of the model (its -wal and -shm beside it) whose shape the data follows, scaled: rows per entity and members per owner, read from a copy, counts only."
    )
    var shapeFrom: String?

    /// Refuses the options without `--model`.
    func validate(model: String?) throws {
        guard model != nil || (counts == nil && shapeFrom == nil) else {
            throw BenchError.invalidInput(
                "--\(counts != nil ? "counts" : "shape-from") shapes the suite generated from a model; give --model MODEL with it")
        }
    }

    /// The suite's options, the store read when given; its warnings are printed.
    func options(model: String) throws -> GeneratedSuite.Options {
        let (options, warnings) = try GeneratedSuite.options(modelPath: model, counts: counts ?? [:], shapeFrom: shapeFrom)
        for warning in warnings { warn(warning) }
        return options
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

/// A whole number option within `range`, read as typed (`--size -1` is a value, not an option), with a message naming
/// the value and the range; `why` says where the upper bound comes from when it is not a fixed one.
func parseBounded(_ text: String, option: String, _ range: ClosedRange<Int>, why: String? = nil) throws -> Int {
    guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
        throw BenchError.invalidInput(
            "\(option) '\(shortened(text, limit: 40))' must be a whole number from \(range.lowerBound) to \(range.upperBound)\(why.map { " (\($0))" } ?? "")"
        )
    }
    return value
}

/// The page caches a run may ask SQLite for, in MiB: up to 65536, and no more than the memory the run may use.
enum PageCacheLimit {
    static let budget = MemoryBudget.machine
    static let range = 1...max(1, min(65_536, budget.map { Int($0.bytes / 1_048_576) } ?? 65_536))
    static let why: String? = budget.flatMap { $0.bytes / 1_048_576 < 65_536 ? "at most \($0.source)" : nil }
}

/// Refuses a `TMPDIR` that names no folder: the run's databases go there, and Foundation would make it silently.
func checkTemporaryFolder() throws {
    guard let folder = ProcessInfo.processInfo.environment["TMPDIR"], !folder.isEmpty else { return }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
        throw BenchError.invalidInput("TMPDIR=\(folder) is not a folder; create it, or point TMPDIR at one (the run's databases go there)")
    }
}

/// One warning line on standard error.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("bench: warning: \(message)\n".utf8))
}
