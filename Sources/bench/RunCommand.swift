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

    func validate() throws {
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

    /// The run as typed values: what the request is built from and what a callgrind child is given again.
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
        if BuildConfiguration.current == .debug && !allowDebug {
            throw BenchError.invalidInput(
                "this is a debug build, whose timings mislead; run the release build: swift run -c release bench run \(CommandLine.arguments.dropFirst(2).joined(separator: " ")) (or pass --allow-debug)"
            )
        }
        let costs = try deviceCosts.map(DeviceCosts.load)
        var modelFile: ModelFile?
        let scenarios: [Scenario]
        if let model {
            let file = try ModelFile(path: model)
            modelFile = file
            let suite = try GeneratedSuite.scenario(modelPath: model, options: try dataOptions.options(model: model))
            if !quiet {
                for note in file.adjustments { print("note: \(note)") }
                print("lint of \(file.heading): \(file.findings.isEmpty ? "no findings" : counted(file.findings.count, "finding"))")
                for finding in file.findings { print("  \(finding)") }
                print("")
            }
            if !quiet, let line = GeneratedSuite.countsLine(suite) { print(line + "\n") }
            scenarios = [suite]
        } else {
            let catalog = try scenarioOptions.catalog()
            scenarios = all ? catalog.scenarios : try scenarioNames.map(catalog.scenario(named:))
        }
        // After the scenarios resolve, so that a mistyped name leaves no Results/ folder behind.
        try HistoryStore.checkBeforeRun(noHistory ? nil : history, default: Self.defaultHistory)
        var request = RunRequest(scenarios: scenarios)
        request.profile = profile
        request.sizes = sizes
        request.strategies = strategies
        request.variants = variants.isEmpty ? nil : variants
        request.repetitions = repetitions
        request.warmup = warmup
        request.seed = seed
        request.settings = arguments.settings
        request.shard = shard
        var publishing = Publishing()
        publishing.export = try exportOption.target()
        publishing.history = noHistory ? nil : history
        publishing.advice = !noAdvice
        publishing.strategies = request.strategies
        publishing.variants = request.variants
        let plan = try RunPlan(request)
        let folder: RunFolder
        if instructions {
            folder = try InstructionCount.run(arguments, output: output, quiet: quiet)
        } else {
            guard !plan.repetitions.isEmpty else {
                throw BenchError.invalidInput("nothing to run: the chosen scenarios have no sizes for profile \(profile.rawValue)")
            }
            var info = RunInfo.current(
                profile: profile, seed: seed, settings: request.settings, scenarios: plan.scenarios.map(\.name),
                plannedRepetitions: plan.measuredCount,
                origins: Dictionary(plan.scenarios.map { ($0.name.rawValue, $0.origin) }, uniquingKeysWith: { first, _ in first }))
            info.schedules = plan.schedules
            info.definitionHashes = Dictionary(
                plan.scenarios.map { ($0.name.rawValue, $0.definitionHash) }, uniquingKeysWith: { first, _ in first })
            info.deviceCosts = costs
            folder = try output.map { try RunFolder(path: $0, info: info) } ?? RunFolder.atDefaultPath(info: info)
            if let modelFile {
                try folder.writeFile(
                    (modelFile.adjustments.map { "note: \($0)" } + modelFile.findings.map { "\($0)" }).map { $0 + "\n" }.joined(),
                    named: "lint.txt")
            }
            if let suite = scenarios.first, case let .generated(_, options) = suite.origin, let shape = options.shape,
                let size = plan.repetitions.map(\.size).max()
            {
                let text = ShapeReport.text(
                    store: shape, generated: try GeneratedSuite.generatedShape(suite, size: size, seed: seed), size: size)
                try folder.writeFile(text + "\n", named: "shape.txt")
                if !quiet { print(text + "\n(shape.txt in the run folder)\n") }
            }
            try RunPipeline.measure(
                plan, request: request, into: folder, progress: quiet ? nil : Progress(plan: plan), deviceCosts: costs)
        }
        let conclusion = try RunPipeline.conclude(folder, scenarios: plan.scenarios, publishing: publishing, seed: seed)
        for warning in conclusion.warnings { warn(warning) }
        print(conclusion.text(verbose: verbose))
    }
}
