import ArgumentParser
import BenchKit
import Foundation

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write a run folder's report.md and report.html again, with the plots scripts/plot.py drew into it.")

    @Argument(help: "The run folder.")
    var runFolder: String

    @OptionGroup var scenarios: ScenarioOptions

    func run() throws {
        let (_, warnings) = try RunPipeline.report(folder: runFolder, catalogFolder: scenarios.folder)
        for warning in warnings { FileHandle.standardError.write(Data("bench: warning: \(warning)\n".utf8)) }
        print("wrote \((runFolder as NSString).appendingPathComponent("report.md")) and report.html")
    }
}
