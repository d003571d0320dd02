import ArgumentParser
import BenchKit
import Foundation

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run scenarios and write samples.csv, summary.csv, complexity.csv and run.json.")

    @Argument(help: "The scenarios to run (see 'bench list').")
    var scenarioNames: [String] = []

    @Flag(help: "Run every scenario.")
    var all = false

    @Option(help: "Run the standard suite generated from this Xcode model (.xcdatamodeld, .xcdatamodel or contents) instead of scenarios.")
    var model: String?

    @OptionGroup var dataOptions: GeneratedDataOptions

    @Option(
        parsing: .unconditional, help: "Sizes to run instead of the profile's, comma-separated (e.g. 1000,10000).", transform: parseSizes)
    var sizes: [Int]?

    @Option(
        name: .customLong("strategies"), help: "Run only these strategies, comma-separated (e.g. objectgraph,sql-replay); give it once.",
        transform: parseStrategies)
    var strategyLists: [[Strategy]] = []

    /// The one --strategies list (validate refuses a second, which used to replace the first without a word).
    var strategies: [Strategy]? { strategyLists.first }

    @Option(
        name: .customLong("variant"),
        help:
            "Run only the variants with these values, as AXIS=VALUE pairs (e.g. modelling=many-to-one;prefetch=on), where a scenario has those axes; repeatable.",
        transform: VariantFilter.init)
    var variants: [VariantFilter] = []

    @Option(parsing: .unconditional, help: "Measured repetitions per series instead of the scenario's.")
    var repetitions: Int?

    @Flag(
        help:
            "Run the profile's repetitions and no more: no sequential rounds for the arms a claim compares on time or memory (--repetitions implies it)."
    )
    var fixedRepetitions = false

    @Option(parsing: .unconditional, help: "Unrecorded warmup repetitions per series instead of the scenario's.")
    var warmup: Int?

    @Option(help: "smoke (tiny, for CI), default (1,000 to 100,000) or full (adds 1,000,000).")
    var profile: Profile = .default

    @Option(help: "The run folder to write (default: Results/runs/<UTC timestamp>).")
    var output: String?

    @Option(
        parsing: .unconditional, help: "The random seed of the data; a run records it so that another run can reuse it.",
        transform: parseSeed)
    var seed: UInt64 = 42

    @Option(
        parsing: .unconditional,
        help: "SQLite's page cache per connection in MiB for bulk work: insert phases and filling the databases the other phases read.",
        transform: { try parseBounded($0, option: "--page-cache-mib", PageCacheLimit.range, why: PageCacheLimit.why) })
    var pageCacheMib: Int = 64

    @Option(
        parsing: .unconditional,
        help: "SQLite's page cache per connection in MiB for reading a prepared database (default: SQLite's own, 2000 KiB).",
        transform: { try parseBounded($0, option: "--read-page-cache-mib", PageCacheLimit.range, why: PageCacheLimit.why) })
    var readPageCacheMib: Int?

    @Option(
        parsing: .unconditional,
        help: "Run shard K of N (e.g. 2/4): the scenarios are split over N machines; join them with 'bench merge'.", transform: Shard.init)
    var shard: Shard?

    @Flag(help: "No progress on standard error.")
    var quiet = false

    @Flag(help: "Print every series' table (as summary.txt holds it) instead of a headline per scenario.")
    var verbose = false

    @Option(help: "The history store every completed run is added to.")
    var history: String = Self.defaultHistory
    static let defaultHistory = "Results/history.sqlite"

    @Flag(help: "Do not add this run to the history store.")
    var noHistory = false

    @OptionGroup var exportOption: ExportOption

    @Flag(
        help:
            "Count each phase's instructions under valgrind (callgrind) instead of timing it: repeatable to a few thousand instructions a phase, about 40 times slower."
    )
    var instructions = false

    @Flag(
        help:
            "Skip the N+1 advice pass after the run (each scenario's ObjectGraph strategy once more, untimed, with its statements logged).")
    var noAdvice = false

    @Flag(help: "Let a debug build write timing reports (its timings are not representative).")
    var allowDebug = false

    @Option(
        help:
            "Also predict each ObjectGraph phase's time on a device from the costs fitted to its log (bench log LOG --fit-costs FILE): predicted_device_ms."
    )
    var deviceCosts: String?

    @OptionGroup var scenarioOptions: ScenarioOptions

    @Option(help: .hidden)
    var plan: String?

    func validate() throws {
        // The child of an --instructions run reads everything from its plan file.
        if plan != nil { return }
        guard [all, !scenarioNames.isEmpty, model != nil].filter({ $0 }).count == 1 else {
            throw BenchError.invalidInput(
                all || model != nil || !scenarioNames.isEmpty
                    ? "give one of: scenario names, --all, or --model MODEL"
                    : "name the scenarios to run, pass --all, or --model MODEL for the suite generated from an Xcode model (see 'bench list')"
            )
        }
        try dataOptions.validate(model: model)
        guard dataOptions.counts == nil || sizes == nil else {
            throw BenchError.invalidInput("--counts gives the data's size per entity; leave out --sizes (or --counts)")
        }
        guard repetitions.map({ (1...100_000).contains($0) }) ?? true else {
            throw BenchError.invalidInput("--repetitions must be from 1 to 100000")
        }
        guard warmup.map({ (0...100_000).contains($0) }) ?? true else { throw BenchError.invalidInput("--warmup must be from 0 to 100000") }
        if strategyLists.count > 1 {
            throw BenchError.invalidInput(
                "--strategies is given \(strategyLists.count) times (\(strategyLists.map { $0.map(\.rawValue).joined(separator: ",") }.joined(separator: " and "))); give one comma-separated list, e.g. --strategies \(strategyLists.flatMap { $0 }.map(\.rawValue).joined(separator: ","))"
            )
        }
        if output == "" {
            throw BenchError.invalidInput("--output is empty; give the run folder's path, or leave --output out for Results/runs/<time>")
        }
        try checkTemporaryFolder()
        guard !(noHistory && history != Self.defaultHistory) else {
            throw BenchError.invalidInput("--history and --no-history contradict each other; give one")
        }
        _ = try exportOption.target()
        guard !(instructions && deviceCosts != nil) else {
            throw BenchError.invalidInput("--device-costs prices a timed run's counters; run without --instructions to use it")
        }
    }

    /// The run as typed values, what the pipeline plans it from.
    var arguments: RunArguments {
        var arguments = RunArguments()
        arguments.scenarioNames = scenarioNames
        arguments.all = all
        arguments.model = model
        arguments.counts = dataOptions.counts
        arguments.shapeFrom = dataOptions.shapeFrom
        arguments.sizes = sizes
        arguments.strategies = strategies
        arguments.variants = variants.isEmpty ? nil : variants
        arguments.repetitions = repetitions
        arguments.fixedRepetitions = fixedRepetitions ? true : nil
        arguments.warmup = warmup
        arguments.profile = profile
        arguments.seed = seed
        arguments.settings.bulkPageCacheMiB = pageCacheMib
        arguments.settings.readPageCacheMiB = readPageCacheMib
        arguments.shard = shard
        arguments.scenariosFolder = scenarioOptions.folder
        return arguments
    }

    func run() throws {
        if let plan {
            try runChild(plan)
            return
        }
        if BuildConfiguration.current == .debug && !allowDebug {
            throw BenchError.invalidInput(
                "this is a debug build, whose timings mislead; run the release build: swift run -c release bench run \(CommandLine.arguments.dropFirst(2).joined(separator: " ")) (or pass --allow-debug)"
            )
        }
        var options = RunPipeline.Options()
        options.deviceCosts = try deviceCosts.map(DeviceCosts.load)
        let planned = try RunPipeline.plan(arguments, suiteOptions: try model.map { try dataOptions.options(model: $0) })
        if !quiet { for line in planned.preamble { print(line) } }
        options.output = output
        options.instructions = instructions
        options.quiet = quiet
        options.publishing.export = try exportOption.target()
        options.publishing.history = noHistory ? nil : history
        options.publishing.advice = !noAdvice
        options.defaultHistory = Self.defaultHistory
        let conclusion = try RunPipeline.run(planned, options) { line in if !quiet { print(line) } }
        for warning in conclusion.warnings { warn(warning) }
        print(conclusion.text(verbose: verbose))
    }

    /// The child of an `--instructions` run, under callgrind: the plan its parent wrote, run quietly into the
    /// folder it names, with no history and no advice.
    private func runChild(_ path: String) throws {
        let child = try ChildRunPlan.load(path)
        var options = RunPipeline.Options()
        options.output = child.output
        options.quiet = true
        options.publishing.advice = false
        let planned = try RunPipeline.plan(child.arguments, suiteOptions: child.suiteOptions)
        print(try RunPipeline.run(planned, options) { _ in }.text(verbose: false))
    }
}
