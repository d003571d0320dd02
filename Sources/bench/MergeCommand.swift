import ArgumentParser
import BenchKit
import Foundation

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the run folders of shards (bench run --shard K/N) into one run folder, with its verdicts and advice.")

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

    @Flag(help: "Skip the N+1 advice pass over the merged run's scenarios.")
    var noAdvice = false

    @OptionGroup var exportOption: ExportOption

    @OptionGroup var scenarioOptions: ScenarioOptions

    func validate() throws {
        guard shards.count >= 1 else { throw BenchError.invalidInput("name the shards' run folders to merge") }
        guard !(noHistory && history != nil) else {
            throw BenchError.invalidInput("--history and --no-history contradict each other; give one")
        }
        _ = try exportOption.target()
    }

    func run() throws {
        try HistoryStore.checkBeforeRun(history, default: "")
        var publishing = Publishing()
        publishing.export = try exportOption.target()
        publishing.history = history
        publishing.advice = !noAdvice
        let merged = try RunMerge.merge(shards, into: output, asRepetitions: asRepetitions)
        let info = merged.info
        let (scenarios, warnings) = try RunPipeline.scenarios(
            measuredBy: info, names: info.scenarios, catalogFolder: scenarioOptions.folder,
            lenient: true)
        for warning in warnings { warn(warning) }
        let conclusion = try RunPipeline.conclude(merged, scenarios: scenarios, publishing: publishing, seed: info.seed)
        for warning in conclusion.warnings { warn(warning) }
        print("merged \(counted(shards.count, "shard")), \(merged.samples.count) samples, into \(output)")
        let decided = VerdictReport.lines(conclusion.verdicts)
        if !decided.isEmpty { print(decided) }
    }
}
