import ArgumentParser
import BenchKit
import Foundation

extension Profile: ExpressibleByArgument {}

/// Options shared by the commands that read scenario files.
struct ScenarioOptions: ParsableArguments {
    @Option(name: .customLong("scenarios"), help: "The folder of scenario files (default: the repository's Scenarios folder).")
    var folder: String?

    func catalog() throws -> ScenarioCatalog {
        try ScenarioCatalog(folder: folder ?? ScenarioCatalog.defaultFolder())
    }
}

/// `--export github-action-benchmark FILE`: the summary also written as benchmark-action's JSON, optionally only
/// the series `--export-series FILE` names (a dashboard of thousands of series is unreadable).
struct ExportOption: ParsableArguments {
    @Option(parsing: .upToNextOption, help: "Also export the summary: github-action-benchmark FILE (JSON for benchmark-action/github-action-benchmark).")
    var export: [String] = []

    @Option(help: "Export only the series matching the shell patterns in this file, one per line (# comments; see scripts/headline-series.txt).")
    var exportSeries: String?

    /// Checks the option before any work is done.
    func check() throws {
        guard export.isEmpty || (export.count == 2 && export[0] == "github-action-benchmark") else {
            throw BenchError.invalidInput("--export takes a format and a file: --export github-action-benchmark FILE")
        }
        guard exportSeries == nil || !export.isEmpty else {
            throw BenchError.invalidInput("--export-series narrows an export: give --export github-action-benchmark FILE too")
        }
        _ = try patterns()
        if export.count == 2 { try AtomicFile.checkWritable(export[1], option: "--export github-action-benchmark") }
    }

    /// The patterns of `--export-series`, or nil to export every series.
    func patterns() throws -> [String]? {
        guard let exportSeries else { return nil }
        guard let text = try? String(contentsOfFile: exportSeries, encoding: .utf8) else {
            throw BenchError.invalidInput("cannot read --export-series \(exportSeries); give a text file of series patterns, one per line")
        }
        let patterns = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !patterns.isEmpty else { throw BenchError.invalidInput("--export-series \(exportSeries) names no series") }
        return patterns
    }

    func write(_ summary: [SummaryRow]) throws {
        if export.count == 2 { try AtomicFile.write(GitHubBenchmarkExport.encode(summary, patterns: try patterns()), to: export[1]) }
    }
}

/// A finished run's export, and its entry in the history store (`history`, when given) if it completed.
/// A failure to add to the history only warns, since the run itself is safe on disk.
func publish(_ run: RunFolder, export: ExportOption, history: String?, skipAdvice: String) throws {
    let summary = run.summary, info = run.info
    try export.write(summary)
    guard let history else { return }
    guard info.status == .complete else {
        warn("not added to the history: the run is \(info.status.rawValue); finish it (or rerun the shard that did not) first")
        return
    }
    if let reason = info.unrepresentativeReason {
        warn("not added to the history: \(reason)")
        return
    }
    do {
        try HistoryStore(path: history).append(info: info, folder: run.path, summary: summary)
    } catch {
        warn("the run was not added to the history (\(error)); \(skipAdvice)")
    }
}

/// Refuses, before the run, a history store it could not be added to, so that a long run does not end in a
/// warning: an existing file is opened (a RelBench history, or an empty database it becomes one); a new one
/// needs its folder, which is made for the default store (Results/, where runs go) of a release build.
func checkHistory(_ path: String?, default defaultPath: String) throws {
    guard let path else { return }
    if FileManager.default.fileExists(atPath: path) {
        _ = try HistoryStore(path: path)
        return
    }
    let folder = (path as NSString).deletingLastPathComponent
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder), isFolder.boolValue { return }
    guard path == defaultPath else {
        throw BenchError.invalidInput("--history \(path): the folder \(folder) does not exist; create it, give another path or pass --no-history")
    }
    // A debug build's runs never reach the history: no folder for them.
    guard BuildConfiguration.current == .release else { return }
    if let reason = RunFolder.makeDirectories(folder) {
        throw BenchError.invalidInput("cannot create \(folder) for the history store \(path) (\(reason)); pass --history PATH or --no-history")
    }
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
    try text.split(separator: ",", omittingEmptySubsequences: false).map { try Strategy.named($0.trimmingCharacters(in: .whitespaces)) }
}

/// One strategy name (`--strategy grdb`).
func parseStrategy(_ text: String) throws -> Strategy {
    let strategies = try parseStrategies(text)
    guard strategies.count == 1 else { throw BenchError.invalidInput("--strategy takes one strategy, got '\(text)'") }
    return strategies[0]
}

/// `--variant batch=20;access=all` (or with commas): axis = value pairs, matched against a scenario later.
struct VariantChoice: Sendable {
    let text: String
    let pairs: [(axis: String, value: String)]

    init(_ text: String) throws {
        let parts = text.split(whereSeparator: { $0 == ";" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }
        let pairs = parts.map { part -> (String, String)? in
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty else { return nil }
            return (halves[0], halves[1])
        }
        guard !pairs.isEmpty, pairs.allSatisfy({ $0 != nil }) else {
            throw BenchError.invalidInput("--variant '\(text)': each part is AXIS=VALUE, separated by ';' or ',', e.g. --variant 'batch=20;access=all'")
        }
        self.text = text
        self.pairs = pairs.map { (axis: $0!.0, value: $0!.1) }
    }

    /// The scenario's variant with these values; a warning names the axes left out (a shell splits an unquoted
    /// `a=1;b=2` at the semicolon), unknown axes and values are refused.
    func variant(of scenario: Scenario) throws -> Variant {
        let axes = scenario.variants.first.map { $0.values.map(\.name) } ?? []
        for pair in pairs where !axes.contains(pair.axis) {
            let near = nearNames(pair.axis, in: axes)
            throw BenchError.invalidInput("scenario '\(scenario.name)' has no variant axis '\(pair.axis)'" + (axes.isEmpty ? " (it has no variants)" : near.isEmpty
                ? "; its axes are \(axes.joined(separator: ", "))" : " (did you mean '\(near[0])'?)"))
        }
        let candidates = scenario.variants.filter { variant in pairs.allSatisfy { variant[$0.axis]?.description == $0.value } }
        guard let variant = candidates.first else {
            let known = scenario.variants.map(\.description).joined(separator: " | ")
            throw BenchError.invalidInput("scenario '\(scenario.name)' has no variant '\(text)'; its variants are \(known)")
        }
        let missing = axes.filter { axis in !pairs.contains { $0.axis == axis } }
        if !missing.isEmpty && candidates.count > 1 {
            warn("--variant '\(text)' names \(pairs.map(\.axis).joined(separator: ", ")) only; using \(variant) (quote a value with ';', or separate with ',': --variant '\(variant)')")
        }
        return variant
    }
}

/// One warning line on standard error.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("bench: warning: \(message)\n".utf8))
}
