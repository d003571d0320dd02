import ArgumentParser
import BenchKit
import Foundation

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
