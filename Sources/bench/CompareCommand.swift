import ArgumentParser
import BenchKit
import Foundation

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a run with a baseline: exact counters exactly, timings and memory with statistics.",
        discussion: """
        Exit codes: 0 no significant change, 2 regression, 4 improvement only, 5 baseline missing or unreadable, \
        1 any other error.
        """)

    @Argument(help: "The baseline: a run folder, its samples.csv, or its summary.csv (counters only).")
    var baseline: String

    @Argument(help: "The run to judge, in the same forms.")
    var current: String

    @Option(help: "Significance level of the Mann-Whitney U test on timings and memory.")
    var alpha: Double = 0.01

    @Option(help: "Noise threshold on the median of timings and memory, in percent.")
    var threshold: Double = 10

    @Option(name: .customLong("threshold-for"), help: "A threshold for a metric, a scenario or scenario/metric: KEY=PERCENT (repeatable).")
    var thresholdsFor: [String] = []

    @Flag(help: "Compare the exact counters only (statements, faults, rows, links): timings on a shared machine are noise.")
    var countersOnly = false

    @Option(help: "Also write the comparison as Markdown to this file (for a CI job summary).")
    var markdown: String?

    func run() throws {
        guard alpha > 0, alpha < 1 else { throw BenchError.invalidInput("--alpha must be between 0 and 1") }
        var options = Comparison.Options()
        options.alpha = alpha
        options.threshold = threshold / 100
        options.countersOnly = countersOnly
        for item in thresholdsFor {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let percent = Double(parts[1]), percent >= 0 else {
                throw BenchError.invalidInput("--threshold-for '\(item)' must be KEY=PERCENT, e.g. wall_ms=15 or query/wall_ms=20")
            }
            options.thresholds[parts[0]] = percent / 100
        }
        let baselineRun: RunData
        do {
            baselineRun = try RunData.load(baseline)
        } catch {
            FileHandle.standardError.write(Data("bench: error: baseline \(baseline) is missing or unreadable (\(error)); save one with 'bench baseline save RUN'\n".utf8))
            throw ExitCode(5)
        }
        let currentRun = try RunData.load(current)
        let comparison = Comparison(baseline: baselineRun, current: currentRun, options: options)
        print(ComparisonReport.text(comparison, baseline: baseline, current: current))
        if let markdown {
            try AtomicFile.write(ComparisonReport.markdown(comparison, baseline: baseline, current: current), to: markdown)
        }
        throw ExitCode(comparison.exitCode)
    }
}

struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline", abstract: "Manage the committed baseline run CI compares against.", subcommands: [Save.self])

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save", abstract: "Copy a run's reports into Results/baseline/ (the newest run under Results/runs by default).")

        @Argument(help: "The run folder to save (default: the newest under Results/runs).")
        var runFolder: String?

        @Option(help: "Where the baseline lives.")
        var to: String = "Results/baseline"

        @Option(help: "The profile CI runs; a baseline of another profile is refused unless --any-profile.")
        var profile: Profile = .smoke

        @Flag(help: "Save a run of any profile.")
        var anyProfile = false

        func run() throws {
            let folder = try runFolder ?? newestRun()
            let info = try RunInfo.load((folder as NSString).appendingPathComponent("run.json"))
            guard info.status == "complete" else {
                throw BenchError.invalidInput("\(folder) is \(info.status), not complete; save a run that finished")
            }
            guard anyProfile || info.profile == profile.rawValue else {
                throw BenchError.invalidInput("\(folder) ran profile \(info.profile), but CI compares the \(profile.rawValue) profile; run 'bench run --all --profile \(profile.rawValue)' and save that (or pass --any-profile)")
            }
            try Baseline.save(from: folder, to: to)
            print("saved \(folder) as the baseline in \(to) (commit \(info.gitCommit), profile \(info.profile))")
        }

        private func newestRun() throws -> String {
            let runs = (try? FileManager.default.contentsOfDirectory(atPath: "Results/runs"))?.sorted() ?? []
            guard let newest = runs.last else {
                throw BenchError.invalidInput("no run under Results/runs; run 'bench run --all --profile smoke' first, or name the run folder")
            }
            return "Results/runs/\(newest)"
        }
    }
}

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Join the run folders of shards (bench run --shard K/N) into one run folder.")

    @Argument(help: "The run folder to write.")
    var output: String

    @Argument(help: "The shards' run folders.")
    var shards: [String]

    @Flag(help: "The runs repeat one another (a base or a head run several times, alternately): number their repetitions on.")
    var asRepetitions = false

    func run() throws {
        guard shards.count >= 1 else { throw BenchError.invalidInput("name the shards' run folders to merge") }
        let merged = try RunMerge.merge(shards, into: output, asRepetitions: asRepetitions)
        print("merged \(shards.count) shard(s), \(merged) samples, into \(output)")
    }
}

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Print a metric of a scenario over the runs recorded in the history store.")

    @Argument(help: "The scenario.")
    var scenario: String

    @Option(help: "The metric (e.g. wall_ms, sql_statements).")
    var metric: String = "wall_ms"

    @Option(help: "Only this strategy.") var strategy: String?
    @Option(help: "Only this variant (its stable text, e.g. prefetch=on).") var variant: String?
    @Option(help: "Only this size.") var size: Int?
    @Option(help: "Only this phase.") var phase: String?

    @Option(help: "The history store.")
    var history: String = "Results/history.sqlite"

    func run() throws {
        guard Metric(rawValue: metric) != nil else {
            let near = nearNames(metric, in: Metric.allCases.map(\.rawValue))
            throw BenchError.invalidInput("unknown metric '\(metric)'" + (near.isEmpty ? "" : " (did you mean '\(near[0])'?)"))
        }
        guard FileManager.default.fileExists(atPath: history) else {
            throw BenchError.invalidInput("no history store at \(history); every completed 'bench run' adds to it")
        }
        let entries = try HistoryStore(path: history).entries(scenario: scenario, metric: metric, strategy: strategy,
                                                              variant: variant, size: size, phase: phase)
        guard !entries.isEmpty else {
            throw BenchError.invalidInput("the history has no \(metric) for scenario '\(scenario)' with these filters")
        }
        var table = TextTable(header: ["time", "commit", "profile", "strategy", "variant", "size", "phase", "median", "95% CI"])
        for entry in entries {
            table.add([entry.time, String(entry.commit.prefix(10)), entry.profile, entry.key.strategy,
                       entry.key.variant.isEmpty ? "-" : entry.key.variant, String(entry.key.size), entry.key.phase,
                       formatNumber(entry.median), "[\(formatNumber(entry.ciLow)), \(formatNumber(entry.ciHigh))]"])
        }
        print(table.rendered)
    }
}
