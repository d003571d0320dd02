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

    @Flag(help: "Do not add the merged run to a history store (the default; as 'bench run --no-history').")
    var noHistory = false

    @OptionGroup var exportOption: ExportOption

    func validate() throws {
        guard shards.count >= 1 else { throw BenchError.invalidInput("name the shards' run folders to merge") }
        guard !(noHistory && history != nil) else { throw BenchError.invalidInput("--history and --no-history contradict each other; give one") }
        try exportOption.check()
    }

    func run() throws {
        try checkHistory(history, default: "")
        let merged = try RunMerge.merge(shards, into: output, asRepetitions: asRepetitions)
        try publish(merged, export: exportOption, history: history, skipAdvice: "the merged run folder is complete")
        print("merged \(shards.count) shard(s), \(merged.samples.count) samples, into \(output)")
    }
}
