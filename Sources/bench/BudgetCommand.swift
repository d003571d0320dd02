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

    @Option(help: "The budget file (default: budgets.json in the scenario folder, Scenarios/budgets.json).")
    var budgets: String?

    func run() throws {
        let file = budgets ?? (ScenarioCatalog.defaultFolder() as NSString).appendingPathComponent("budgets.json")
        guard FileManager.default.fileExists(atPath: file) else {
            throw BenchError.invalidInput("no budget file \(file); write one (see bench budget --help) or give --budgets FILE")
        }
        let list = try BudgetFile.load(file)
        let data = try RunData.load(runFolder)
        let breaches = BudgetFile.check(list, against: data, file: file)
        if breaches.isEmpty {
            print("\(counted(list.count, "budget")) of \(file): every series within its budget")
            return
        }
        print(breaches.joined(separator: "\n"))
        throw ExitCode(6)
    }
}
