import ArgumentParser
import BenchKit
import Foundation

struct BudgetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Check a run against a budget file: each series over its maximum, one line each.",
        discussion: """
            A budget file is a JSON array: [{"scenario": "social-feed", "phase": "feed", "variant": "prefetch=on", \\
            "metric": "sql_statements", "maximum": 2}] ("variant", "size", "metric" (default sql_statements) and \\
            "strategy" (default objectgraph) are optional). Exit codes: 0 within every budget, 6 over a budget or a \\
            budget that matches no series of the run, 64 a bad budget file or run.
            """)

    @Argument(help: "The run folder (or its samples.csv) to check.")
    var runFolder: String

    @Option(
        help:
            "The budget file (default: budgets.json beside the scenario files the run read, its --scenarios folder; Scenarios/budgets.json for the project's)."
    )
    var budgets: String?

    func run() throws {
        let data = try RunData.load(runFolder)
        let file = try budgets ?? Self.defaultBudgets(for: data)
        guard FileManager.default.fileExists(atPath: file) else {
            throw BenchError.invalidInput("no budget file \(file); write one (see bench budget --help) or give --budgets FILE")
        }
        let list = try BudgetFile.load(file)
        let breaches = BudgetFile.check(list, against: data, file: file)
        if breaches.isEmpty {
            print("\(counted(list.count, "budget")) of \(file): every series within its budget")
            return
        }
        print(breaches.joined(separator: "\n"))
        throw ExitCode(6)
    }

    /// budgets.json in the folder the run's scenario files were read from (run.json's scenario origins), else in the
    /// project's Scenarios folder; a run whose scenarios came from two folders must name its budget file.
    static func defaultBudgets(for data: RunData) throws -> String {
        let folders = Set(
            (data.info?.scenarioOrigins?.values.compactMap { origin -> String? in
                guard case let .file(path) = origin else { return nil }
                return URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
            }) ?? [])
        guard folders.count <= 1 else {
            throw BenchError.invalidInput(
                "the run read scenario files from \(folders.count) folders (\(folders.sorted().joined(separator: ", "))); give --budgets FILE"
            )
        }
        let folder = folders.first ?? ScenarioCatalog.defaultFolder()
        return (folder as NSString).appendingPathComponent("budgets.json")
    }
}
