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
        try publish(merged, export: exportOption, history: history, skipAdvice: "the merged run folder is complete")
        print("merged \(shards.count) shard(s), \(merged.samples.count) samples, into \(output)")
    }
}
