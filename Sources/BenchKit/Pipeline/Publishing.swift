import Foundation

/// Where a finished run's results go besides its folder: an export for a dashboard, the history store, the N+1 advice.
package struct Publishing: Sendable {
    /// `--export github-action-benchmark FILE`, narrowed to the series `--export-series FILE` names.
    package var export: ExportTarget?
    /// The history store a completed, representative run is added to; nil: none.
    package var history: String?
    /// Whether the untimed N+1 advice pass runs after the run.
    package var advice = true
    /// Strategies and variants the advice pass runs (the run's own choice).
    package var strategies: [Strategy]?
    package var variants: [VariantFilter]?

    package init() {}
}

/// The JSON benchmark-action/github-action-benchmark reads, written after a run, optionally only for some series.
package struct ExportTarget: Sendable {
    package let file: String
    /// Shell patterns of the series to export (`query objectgraph [[]prefetch=off] n=* walk wall_ms`); nil: every one.
    package let patterns: [String]?

    /// From `--export FORMAT FILE` and `--export-series FILE`, checked before any work is done; nil when not asked for.
    package init?(export: [String], seriesFile: String?) throws {
        guard !export.isEmpty else {
            guard seriesFile == nil else {
                throw BenchError.invalidInput("--export-series narrows an export: give --export github-action-benchmark FILE too")
            }
            return nil
        }
        guard export.count == 2 && export[0] == "github-action-benchmark" else {
            throw BenchError.invalidInput("--export takes a format and a file: --export github-action-benchmark FILE")
        }
        var patterns: [String]?
        if let seriesFile {
            guard let text = try? String(contentsOfFile: seriesFile, encoding: .utf8) else {
                throw BenchError.invalidInput(
                    "cannot read --export-series \(seriesFile); give a text file of series patterns, one per line")
            }
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty && !$0.hasPrefix("#")
            }
            guard !lines.isEmpty else { throw BenchError.invalidInput("--export-series \(seriesFile) names no series") }
            patterns = lines
        }
        try AtomicFile.checkWritable(export[1], option: "--export github-action-benchmark")
        file = export[1]
        self.patterns = patterns
    }

    /// Writes the export of `summary`; returns a warning when patterns were given and some matched no series (a
    /// misspelt pattern would otherwise drop its series from the dashboard without a word).
    package func write(_ summary: [SummaryRow]) throws -> String? {
        try AtomicFile.write(try GitHubBenchmarkExport.encode(summary, patterns: patterns), to: file)
        guard let patterns else { return nil }
        if GitHubBenchmarkExport.entries(summary, patterns: patterns).isEmpty {
            return "--export-series: no series of the run matches its \(patterns.count) pattern(s); the export is empty"
        }
        let unmatched = patterns.filter { GitHubBenchmarkExport.entries(summary, patterns: [$0]).isEmpty }
        guard !unmatched.isEmpty else { return nil }
        let shown = unmatched.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (unmatched.count > 3 ? ", ..." : "")
        return
            "--export-series: \(unmatched.count) of \(patterns.count) pattern(s) match no series of the run (\(shown)); check their spelling"
    }
}

extension HistoryStore {
    /// Refuses, before the run, a history store it could not be added to, so that a long run does not end in a
    /// warning: an existing file is opened (a RelBench history, or an empty database it becomes one); a new one needs
    /// its folder, which is made for the default store (Results/, where runs go) of a release build.
    package static func checkBeforeRun(_ path: String?, default defaultPath: String) throws {
        guard let path else { return }
        if FileManager.default.fileExists(atPath: path) {
            _ = try HistoryStore(path: path)
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder), isFolder.boolValue { return }
        guard path == defaultPath else {
            throw BenchError.invalidInput(
                "--history \(path): the folder \(folder) does not exist; create it, give another path or pass --no-history")
        }
        // A debug build's runs never reach the history: no folder for them.
        guard BuildConfiguration.current == .release else { return }
        if let reason = RunFolder.makeDirectories(folder) {
            throw BenchError.invalidInput(
                "cannot create \(folder) for the history store \(path) (\(reason)); pass --history PATH or --no-history")
        }
    }
}
