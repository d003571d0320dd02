import ArgumentParser
import BenchKit
import Foundation

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Join the run folders of shards (bench run --shard K/N) into one run folder.")

    @Argument(help: "The run folder to write.")
    var output: String

    @Argument(help: "The shards' run folders.")
    var shards: [String]

    @Flag(help: "The runs repeat one another (a base or a head run several times, alternately): number their repetitions on.")
    var asRepetitions = false

    @Option(help: "Also add the merged run to this history store (shards run with --no-history).")
    var history: String?

    @OptionGroup var exportOption: ExportOption

    func run() throws {
        guard shards.count >= 1 else { throw BenchError.invalidInput("name the shards' run folders to merge") }
        try exportOption.check()
        let merged = try RunMerge.merge(shards, into: output, asRepetitions: asRepetitions)
        if history != nil || !exportOption.export.isEmpty {
            let summary = SummaryFile.summarize(try SamplesFile.load((output as NSString).appendingPathComponent("samples.csv")))
            try exportOption.write(summary)
            if let history {
                let info = try RunInfo.load((output as NSString).appendingPathComponent("run.json"))
                if info.status == "complete" {
                    addToHistory(history, info: info, folder: output, summary: summary, skipAdvice: "the merged run folder is complete")
                } else {
                    FileHandle.standardError.write(Data("bench: warning: not added to the history: a shard's run is \(info.status), so the merged run is incomplete; rerun that shard and merge again\n".utf8))
                }
            }
        }
        print("merged \(shards.count) shard(s), \(merged) samples, into \(output)")
    }
}
