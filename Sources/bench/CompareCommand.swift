import ArgumentParser
import BenchKit
import Foundation

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a run with a baseline: exact counters exactly, timings and memory with statistics.",
        discussion: """
            Exit codes: 0 no significant change, 2 regression, 3 series of the baseline missing from the run (see \
            --allow-missing), 4 improvement only, 5 baseline missing or unreadable, 1 any other error while comparing, \
            64 wrong arguments.
            """)

    @Argument(help: "The baseline: a run folder, its samples.csv, or its summary.csv (counters only).")
    var baseline: String

    @Argument(help: "The run to judge, in the same forms.")
    var current: String

    @Option(
        parsing: .unconditional,
        help: "Significance level for timings and memory: Mann-Whitney U p-values adjusted over all series compared (Benjamini-Hochberg).")
    var alpha: Double = 0.01

    @Option(parsing: .unconditional, help: "Noise threshold on the median of timings and memory, in percent.")
    var threshold: Double = 10

    @Option(
        name: .customLong("threshold-for"), help: "A threshold for a metric, a scenario or scenario/metric: KEY=PERCENT (repeatable).",
        transform: ThresholdOverride.init)
    var thresholdsFor: [ThresholdOverride] = []

    @Flag(help: "Compare the exact counters only (statements, faults, rows, links): timings on a shared machine are noise.")
    var countersOnly = false

    @Option(help: "Also write the comparison as Markdown to this file (for a CI job summary).")
    var markdown: String?

    @Flag(help: "Do not fail when the run lacks series the baseline has (a run of fewer scenarios or sizes).")
    var allowMissing = false

    @Flag(help: "Also show the series that moved without being a regression or an improvement (noise).")
    var all = false

    func validate() throws {
        guard alpha > 0, alpha < 1 else { throw BenchError.invalidInput("--alpha must be between 0 and 1") }
        guard threshold >= 0, threshold.isFinite else { throw BenchError.invalidInput("--threshold must be a percentage of 0 or more") }
    }

    func run() throws {
        do {
            try compare()
        } catch let error as ExitCode {
            throw error
        } catch let error as BenchError {
            // compare keeps 1 for every failure after its arguments parsed: 64 is for the arguments themselves.
            throw CommandFailure(message: error.description, code: 1)
        }
    }

    private func compare() throws {
        try AtomicFile.refuseOverwriting(markdown, option: "--markdown", reportsOf: [baseline, current])
        if let markdown { try AtomicFile.checkWritable(markdown, option: "--markdown") }
        var options = Comparison.Options()
        options.alpha = alpha
        options.threshold = threshold / 100
        options.countersOnly = countersOnly
        options.allowMissing = allowMissing
        for item in thresholdsFor { options.thresholds[item.key] = item.percent / 100 }
        let baselineRun: RunData
        do {
            baselineRun = try RunData.load(baseline)
        } catch {
            FileHandle.standardError.write(
                Data(
                    "bench: error: baseline \(baseline) is missing or unreadable (\(error)); save one with 'bench baseline save RUN'\n".utf8
                ))
            throw ExitCode(5)
        }
        let currentRun = try RunData.load(current)
        let comparison = Comparison(baseline: baselineRun, current: currentRun, options: options)
        print(ComparisonReport.text(comparison, baseline: baseline, current: current, all: all))
        if let markdown {
            try AtomicFile.write(ComparisonReport.markdown(comparison, baseline: baseline, current: current, all: all), to: markdown)
        }
        throw ExitCode(comparison.exitCode)
    }
}

/// `--threshold-for query/wall_ms=20`: a noise threshold in percent for a metric, a scenario or both.
struct ThresholdOverride {
    let key: String
    let percent: Double

    init(_ text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, let percent = Double(parts[1]), percent >= 0, percent.isFinite else {
            throw BenchError.invalidInput("--threshold-for '\(text)' must be KEY=PERCENT, e.g. wall_ms=15 or query/wall_ms=20")
        }
        key = parts[0]
        self.percent = percent
        // KEY is METRIC or SCENARIO/METRIC: a misspelt metric would silently override nothing.
        _ = try parseMetric(String(key.split(separator: "/").last ?? ""))
    }
}
