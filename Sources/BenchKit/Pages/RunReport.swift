import Foundation

/// A run's page, as report.md and report.html: a `--model` run's lint by severity, what the run measured (the user's
/// own scenarios and models before the built-in ones, each with its plots where `scripts/plot.py` drew them), the
/// N+1 advice (before the verdicts when the user's own scenarios ran, after them otherwise), the verdicts it decided,
/// the claims that need a larger run in one line, and those it did not measure collapsed at the end.
package struct RunReport {
    package let folder: String
    package let info: RunInfo
    package let summary: [SummaryRow]
    package let samples: [SampleRecord]
    /// ObjectGraph's statements per phase (statements.csv): which arms run the same SQL.
    package let statements: [PhaseStatements]
    package let scenarios: [Scenario]
    package let verdicts: [Verdict]
    package let advice: [AdviceFinding]
    /// The lint of the model a `--model` run generated its suite from.
    package let lint: [RunLint]

    package init(
        folder: String, info: RunInfo, summary: [SummaryRow], samples: [SampleRecord], statements: [PhaseStatements],
        scenarios: [Scenario], verdicts: [Verdict], advice: [AdviceFinding], lint: [RunLint] = []
    ) {
        self.lint = lint
        self.folder = folder
        self.info = info
        self.summary = summary
        self.samples = samples
        self.statements = statements
        self.scenarios = scenarios
        self.verdicts = verdicts
        self.advice = advice
    }

    /// The plots under the folder's plots/, by file stem.
    var plots: Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: (folder as NSString).appendingPathComponent("plots"))) ?? []
        return Set(names.filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) })
    }

    /// The scenarios the run measured, the user's own (a file outside the repository's Scenarios folder, or a
    /// suite generated from a model) first.
    var orderedScenarios: [Scenario] {
        let measured = Set(summary.map(\.key.scenario))
        let run = scenarios.filter { measured.contains($0.name) }
        return run.filter { !Self.isBuiltIn($0) } + run.filter(Self.isBuiltIn)
    }

    /// Whether the run measured a scenario of the user's (a file outside the repository's Scenarios folder, or a
    /// suite generated from a model).
    var measuresTheUsersScenarios: Bool {
        orderedScenarios.contains { !Self.isBuiltIn($0) }
    }

    /// Whether `scenario` is one of the repository's (its file in the Scenarios folder).
    package static func isBuiltIn(_ scenario: Scenario) -> Bool {
        guard case let .file(path) = scenario.origin else { return false }
        let builtIn = URL(fileURLWithPath: ScenarioCatalog.defaultFolder()).standardizedFileURL.path
        return URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path == builtIn
    }

    /// One row per (strategy, variant, size, phase) of a scenario: the time with its interval labelled by its real
    /// coverage, the ratio to the floor, the counts, peak memory; a refused save says so instead of a time.
    func rows(_ scenario: ScenarioName, size only: Int? = nil, strategy: Strategy? = nil) -> (header: [String], rows: [[String]]) {
        var byKey: [SeriesKey: SummaryRow] = [:]
        for row in summary { byKey[row.key] = row }
        let measure: Metric = summary.contains { $0.key.scenario == scenario && $0.key.metric == .wallMs } ? .wallMs : .instructions
        let header = [
            "strategy", "variant", "size", "phase", measure == .wallMs ? "time (ms)" : "instructions", "interval", "× floor",
            "statements", "faults (object/to-many)", "rows", "process peak (MiB)",
        ]
        var rows: [[String]] = []
        for row in summary
        where row.key.scenario == scenario && row.key.metric == measure && (only == nil || row.key.size == only)
            && (strategy == nil || row.key.strategy == strategy)
        {
            func value(_ metric: Metric) -> Double? { byKey[row.key.with(metric)]?.summary?.median }
            func count(_ metric: Metric) -> String { value(metric).map(formatNumber) ?? "-" }
            var time = row.summary.map { Self.significant($0.median) } ?? "-"
            var interval = "-"
            if let stats = row.summary, measure == .wallMs, stats.n > 1 {
                let coverage =
                    stats.n >= Rule.repetitionsForAnInterval
                    ? "95% CI of \(stats.n)" : "range of \(stats.n) (\(Int((1 - pow(2, Double(1 - stats.n))) * 100))%)"
                interval = "[\(Self.significant(stats.ciLow)), \(Self.significant(stats.ciHigh))] \(coverage)"
            }
            if let failed = value(.failedSaves), failed > 0 { time = "refused: \(counted(Int(failed), "save")) (\(time))" }
            let faults = value(.objectFaults) == nil ? "-" : "\(count(.objectFaults)) / \(count(.relationshipFaults))"
            rows.append([
                row.key.strategy.rawValue, row.key.variant.isEmpty ? "-" : row.key.variant.description, formatCount(row.key.size),
                row.key.phase.rawValue, time, interval, row.floorRatioText,
                count(.sqlStatements), faults, count(.rowsRead), value(.peakRSSBytes).map { String(format: "%.1f", $0 / 1_048_576) } ?? "-",
            ])
        }
        return (header, rows)
    }

    /// Three significant digits: `0.128`, `12.3`, `1,234`.
    static func significant(_ value: Double) -> String {
        abs(value) >= 1000 ? formatCount(value.rounded()) : String(format: "%.3g", value)
    }

    /// The largest size the scenario measured.
    func largestSize(_ scenario: ScenarioName) -> Int? {
        summary.filter { $0.key.scenario == scenario }.map(\.key.size).max()
    }

    /// The run in one line: when, what, where.
    var facts: String {
        let command = info.commandLine.isEmpty ? "bench run" : (["bench"] + info.commandLine.dropFirst()).joined(separator: " ")
        return
            "\(info.utcTime) at commit \(info.gitCommit.prefix(12)): `\(command)` (profile \(info.profile.rawValue), seed \(info.seed)), \(info.host), \(info.cpuCount) CPUs, \(info.swiftVersion), SQLite \(info.sqliteVersion), \(info.buildConfiguration.rawValue) build; \(info.finishedRepetitions) repetitions, \(info.status.rawValue)"
    }

    var decided: [Verdict] { verdicts.filter { !$0.outcome.needsMoreData } }
    var undecided: [Verdict] { verdicts.filter { $0.outcome.needsMoreData && $0.outcome.kind != "not-measured" } }
    var unmeasured: [Verdict] { verdicts.filter { $0.outcome.kind == "not-measured" } }
}
