import ArgumentParser
import BenchKit
import Foundation

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Print a metric of a scenario over the runs recorded in the history store, series by series.")

    @Argument(help: "The scenario.")
    var scenario: String

    @Option(help: "The metric (e.g. wall_ms, sql_statements).", transform: parseMetric)
    var metric: Metric = .wallMs

    @Option(help: "Only this strategy.", transform: { try Strategy.named($0) }) var strategy: Strategy?
    @Option(help: "Only this variant (its stable text, e.g. prefetch=on).") var variant: String?
    @Option(parsing: .unconditional, help: "Only this size.", transform: { try parseBounded($0, option: "--size", 1...100_000_000) })
    var size: Int?
    @Option(help: "Only this phase.") var phase: String?
    @Option(help: "Only runs of this profile (runs of different profiles are not comparable).") var profile: Profile?

    @Option(help: "The history store.")
    var history: String = "Results/history.sqlite"

    func run() throws {
        guard FileManager.default.fileExists(atPath: history) else {
            throw BenchError.invalidInput("no history store at \(history); every completed 'bench run' of a release build adds to it")
        }
        let store = try HistoryStore(path: history, create: false)
        let (entries, skipped) = try store.entries(
            scenario: ScenarioName(scenario), metric: metric, strategy: strategy, variant: variant,
            size: size, phase: phase.map { PhaseName($0) }, profile: profile)
        if skipped > 0 {
            warn(
                "\(skipped) row(s) of older runs name strategies or variants this bench no longer reads (the modellings became variants); they are left out"
            )
        }
        guard !entries.isEmpty else {
            let known = try store.scenarios()
            if !known.contains(scenario) {
                let near = nearNames(scenario, in: known)
                throw BenchError.invalidInput(
                    "the history has no scenario '\(scenario)'"
                        + (near.isEmpty
                            ? (known.isEmpty ? "; it is empty" : "; it has \(known.joined(separator: ", "))")
                            : " (did you mean '\(near[0])'?)"))
            }
            throw BenchError.invalidInput("the history has no \(metric.rawValue) for scenario '\(scenario)' with these filters")
        }
        print(HistoryReport.text(entries, metric: metric))
    }
}

/// A metric name, with "did you mean" for a near miss.
func parseMetric(_ text: String) throws -> Metric {
    let metric = try Metric.named(text)
    return metric
}
