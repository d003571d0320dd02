import ArgumentParser
import BenchKit
import Foundation

struct VerdictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verdicts",
        abstract:
            "Judge every claim of the seed articles and of published Core Data measurements from a run: the verdict, its evidence and the rule that decided it."
    )

    @Argument(help: "The run folder to judge.")
    var runFolder: String

    @Option(help: "Also write the verdicts as a Markdown table to this file.")
    var markdown: String?

    @Option(help: "Also write the verdicts as JSON to this file.")
    var json: String?

    @Option(help: "Replace the Results section of this README (between its results markers) with one generated from the run.")
    var readme: String?

    func run() throws {
        try AtomicFile.refuseOverwriting(markdown, option: "--markdown", reportsOf: [runFolder])
        if let markdown { try AtomicFile.checkWritable(markdown, option: "--markdown") }
        try AtomicFile.refuseOverwriting(json, option: "--json", reportsOf: [runFolder])
        if let json { try AtomicFile.checkWritable(json, option: "--json") }
        let info = try RunInfo.loadIfPresent(folder: runFolder)
        let summaryFile = (runFolder as NSString).appendingPathComponent("summary.csv")
        let summary: [SummaryRow]
        if let info, info.status != .complete, !FileManager.default.fileExists(atPath: summaryFile) {
            // Killed before it summarised its samples: samples.csv holds whole rows, which are summarised here.
            summary = SummaryFile.summarize(try SamplesFile.load((runFolder as NSString).appendingPathComponent("samples.csv")).samples)
        } else {
            summary = try SummaryFile.load(runFolder).rows
        }
        let evidence = try RunEvidence.load(folder: runFolder)
        guard !summary.isEmpty, !evidence.isEmpty else {
            throw BenchError.invalidInput("\(runFolder) holds no series (its summary.csv has no rows); give a run that measured something")
        }
        if let note = info?.unfinishedNote(runFolder) { warn(note) }
        let verdicts = VerdictReport.judge(evidence, scenarios: RunPipeline.catalogScenarios(besides: []))
        print(VerdictReport.text(verdicts))
        if let markdown { try AtomicFile.write(VerdictReport.markdown(verdicts) + "\n", to: markdown) }
        if let json {
            try AtomicFile.write(String(decoding: try VerdictReport.json(verdicts, run: evidence.info), as: UTF8.self) + "\n", to: json)
        }
        if let readme {
            guard let text = try? String(contentsOfFile: readme, encoding: .utf8) else {
                throw BenchError.invalidInput("cannot read \(readme); give the README to update")
            }
            let info = try RunInfo.load(runFolder)
            let section = ResultsSection.markdown(folder: runFolder, info: info, summary: summary, verdicts: verdicts)
            try AtomicFile.write(try ResultsSection.replace(in: text, with: section, file: readme), to: readme)
            print("updated the Results section of \(readme)")
        }
    }
}
