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

/// `--export github-action-benchmark FILE`: the summary also written as benchmark-action's JSON.
struct ExportOption: ParsableArguments {
    @Option(parsing: .upToNextOption, help: "Also export the summary: github-action-benchmark FILE (JSON for benchmark-action/github-action-benchmark).")
    var export: [String] = []

    /// Checks the option before any work is done.
    func check() throws {
        guard export.isEmpty || (export.count == 2 && export[0] == "github-action-benchmark") else {
            throw BenchError.invalidInput("--export takes a format and a file: --export github-action-benchmark FILE")
        }
    }

    func write(_ summary: [SummaryRow]) throws {
        if export.count == 2 { try AtomicFile.write(GitHubBenchmarkExport.encode(summary), to: export[1]) }
    }
}

/// A finished run's export, and its entry in the history store (`history`, when given) if it completed.
/// A failure to add to the history only warns, since the run itself is safe on disk.
func publish(_ run: RunFolder, export: ExportOption, history: String?, skipAdvice: String) throws {
    let summary = run.summary, info = run.info
    try export.write(summary)
    guard let history else { return }
    guard info.status == "complete" else {
        FileHandle.standardError.write(Data("bench: warning: not added to the history: the run is \(info.status); finish it (or rerun the shard that did not) first\n".utf8))
        return
    }
    do {
        try HistoryStore(path: history).append(info: info, folder: run.path, summary: summary)
    } catch {
        FileHandle.standardError.write(Data("bench: warning: the run was not added to the history (\(error)); \(skipAdvice)\n".utf8))
    }
}

/// A comma-separated list of positive integers (`--sizes 1000,10000`).
func parseSizes(_ text: String, option: String) throws -> [Int] {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    return try parts.map { part in
        guard let value = Int(part), value > 0 else {
            throw BenchError.invalidInput("\(option): '\(part)' is not a positive integer; give sizes like --sizes 1000,10000")
        }
        return value
    }
}

/// A comma-separated list of strategy names (a bare peer, `raw-sqlite`, selects that peer of every modelling),
/// with "did you mean ...?" for near misses.
func parseStrategies(_ text: String) throws -> [StrategySelector] {
    try text.split(separator: ",").map { part in
        let name = part.trimmingCharacters(in: .whitespaces)
        guard let selector = StrategySelector(name) else {
            let near = StrategyID.suggestions(for: name)
            throw BenchError.invalidInput("unknown strategy '\(name)'" + (near.isEmpty
                ? "; the strategies are the modellings \(Modelling.allCases.map(\.rawValue).joined(separator: ", ")) and the peers raw-sqlite and grdb (raw-sqlite:many-to-many for one modelling's)"
                : " (did you mean '\(near[0])'?)"))
        }
        return selector
    }
}

/// A variant given as `name=value;name=value`, matched against a scenario's variants.
func parseVariant(_ text: String, of scenario: Scenario) throws -> Variant {
    let given = Dictionary(text.split(separator: ";").map { pair -> (String, String) in
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }, uniquingKeysWith: { $1 })
    let candidates = scenario.variants.filter { variant in
        given.allSatisfy { name, value in variant[name]?.description == value }
    }
    guard let variant = candidates.first else {
        let known = scenario.variants.map(\.description).joined(separator: " | ")
        throw BenchError.invalidInput("scenario '\(scenario.name)' has no variant '\(text)'; its variants are \(known)")
    }
    return variant
}
