import ArgumentParser
import BenchKit
import Foundation

struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a run with a baseline: exact counters exactly, timings and memory with statistics.",
        discussion: """
            Exit codes: 0 no significant change, 2 regression, 3 series of the baseline missing from the run (see \
            --allow-missing; with it too when the runs have no series in common), 4 improvement only, 5 baseline missing or unreadable, 6 over a budget (--budgets), 1 any \
            other error while comparing, 64 wrong arguments. A CI step that passes on 0 and 4 treats an improvement as a \
            pass.
            """)

    @Argument(help: "The baseline: a run folder, its samples.csv, or its summary.csv (counters only).")
    var baseline: String

    @Argument(help: "The run to judge, in the same forms.")
    var current: String

    @Option(
        parsing: .unconditional,
        help:
            "Significance level for timings and memory (default 0.01): Mann-Whitney U p-values adjusted over all series compared (Benjamini-Hochberg)."
    )
    var alpha: Double?

    @Option(parsing: .unconditional, help: "Noise threshold on the median of timings and memory, in percent (default 10).")
    var threshold: Double?

    @Option(
        name: .customLong("threshold-for"), help: "A threshold for a metric, a scenario or scenario/metric: KEY=PERCENT (repeatable).",
        transform: ThresholdOverride.init)
    var thresholdsFor: [ThresholdOverride] = []

    @Flag(
        help:
            "Compare only the counts that transfer to a device (statements, fetches, faults, rows, links lost, refused saves): the CI gate."
    )
    var countersOnly = false

    @Option(
        help: "Also gate ObjectGraph's own figures: 'allocations' (allocation counts and bytes, within 2% or --threshold-for).",
        transform: { text in
            guard text == "allocations" else {
                throw BenchError.invalidInput("--gate '\(text)' is not a gate; the one to add is 'allocations'")
            }
            return text
        })
    var gate: [String] = []

    @Option(help: "A budget file (JSON: scenario, phase, variant, size, metric, maximum): every breach fails with exit 6.")
    var budgets: String?

    @Option(help: "Also write the comparison as Markdown to this file (for a CI job summary).")
    var markdown: String?

    @Flag(help: "Do not fail when the run lacks series the baseline has (a run of fewer scenarios or sizes).")
    var allowMissing = false

    @Flag(help: "Also show the series that moved without being a regression or an improvement (noise).")
    var all = false

    func validate() throws {
        if let alpha { guard alpha > 0, alpha < 1 else { throw BenchError.invalidInput("--alpha must be between 0 and 1") } }
        if let threshold {
            guard threshold >= 0, threshold.isFinite else { throw BenchError.invalidInput("--threshold must be a percentage of 0 or more") }
        }
        // Every option given takes effect: one that the chosen comparison ignores is refused.
        if countersOnly {
            if threshold != nil || alpha != nil {
                throw BenchError.invalidInput(
                    "--\(threshold != nil ? "threshold" : "alpha") applies to timings and memory, which --counters-only does not compare; drop one of them"
                )
            }
            for item in thresholdsFor {
                let metric = item.key.split(separator: "/").last.map(String.init).flatMap(Metric.init(rawValue:))
                guard let metric, metric.isAllocationCount, !gate.isEmpty else {
                    throw BenchError.invalidInput(
                        "--threshold-for \(item.key) does not apply under --counters-only, which compares counts exactly"
                            + (metric.map { $0.isAllocationCount ? "; add --gate allocations to gate \($0.rawValue)" : "" } ?? ""))
                }
            }
        }
        for item in thresholdsFor {
            if let metric = item.key.split(separator: "/").last.map(String.init).flatMap(Metric.init(rawValue:)), metric.isAllocationCount,
                gate.isEmpty
            {
                throw BenchError.invalidInput(
                    "--threshold-for \(item.key): \(metric.rawValue) is gated only with --gate allocations; add it")
            }
            if let metric = item.key.split(separator: "/").last.map(String.init).flatMap(Metric.init(rawValue:)), metric.isExact {
                throw BenchError.invalidInput(
                    "--threshold-for \(item.key): \(metric.rawValue) is a count, compared exactly; a threshold cannot apply")
            }
        }
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
        if let alpha { options.alpha = alpha }
        if let threshold { options.threshold = threshold / 100 }
        options.countersOnly = countersOnly
        options.gateAllocations = !gate.isEmpty
        options.allowMissing = allowMissing
        for item in thresholdsFor { options.thresholds[item.key] = item.percent / 100 }
        let budgetList = try budgets.map(BudgetFile.load)
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
        // A threshold for a scenario neither run measured would silently apply to nothing.
        let scenarios = Set((baselineRun.series.keys.map(\.scenario) + currentRun.series.keys.map(\.scenario)).map(\.rawValue))
        for item in thresholdsFor where item.key.contains("/") || Metric(rawValue: item.key) == nil {
            let scenario = String(item.key.split(separator: "/").first ?? "")
            guard scenarios.contains(scenario) else {
                let near = nearNames(scenario, in: scenarios.sorted())
                throw CommandFailure(
                    message: "--threshold-for \(item.key): neither run measured a scenario '\(scenario)'"
                        + (item.key.contains("/") ? "" : ", and it is no metric")
                        + (near.isEmpty ? "" : " (did you mean '\(near[0])'?)"), code: 64)
            }
        }
        try Comparison.refuseDifferentKinds(baseline: baselineRun, current: currentRun, options: options)
        let comparison = Comparison(baseline: baselineRun, current: currentRun, options: options)
        if let reason = comparison.emptyReason { throw CommandFailure(message: reason, code: 3) }
        let breaches = budgetList.map { BudgetFile.check($0, against: currentRun, file: budgets ?? "") } ?? []
        var text = ComparisonReport.text(comparison, baseline: baseline, current: current, all: all)
        if budgetList != nil {
            text += "\n" + (breaches.isEmpty ? "budgets: every series within its budget" : breaches.joined(separator: "\n"))
        }
        print(text)
        if let markdown {
            var page = ComparisonReport.markdown(comparison, baseline: baseline, current: current, all: all)
            if budgetList != nil {
                page +=
                    "\n"
                    + (breaches.isEmpty ? "Every series within its budget.\n" : breaches.map { "- \($0)" }.joined(separator: "\n") + "\n")
            }
            try AtomicFile.write(page, to: markdown)
        }
        let code = comparison.exitCode
        throw ExitCode(code == 2 || code == 3 ? code : breaches.isEmpty ? code : 6)
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
        // KEY is METRIC, SCENARIO or SCENARIO/METRIC: a misspelt metric would silently override nothing (a scenario
        // is checked against the runs once they are read).
        if key.contains("/") { _ = try parseMetric(String(key.split(separator: "/").last ?? "")) }
    }
}
