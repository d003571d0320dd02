import Foundation

/// A run from its typed arguments to its conclusion: `plan` resolves the scenarios (the catalog's, or the suite
/// generated from a model) and plans the repetitions; `run` starts the run folder (run.json, lint.txt, shape.txt),
/// measures (or counts instructions in a child under callgrind) and concludes. `bench run` parses its options into
/// `RunArguments` and prints; nothing of the run is decided there.
extension RunPipeline {
    /// A run planned from its arguments, before anything is written.
    package struct PlannedRun {
        package let arguments: RunArguments
        /// The generated suite's options (counts, a store's shape read once) of a `--model` run.
        package let suiteOptions: GeneratedSuite.Options?
        package let request: RunRequest
        package let plan: RunPlan
        /// The model file of a `--model` run: its reader's notes and lint findings (lint.txt).
        package let modelFile: ModelFile?
        /// What the run says before it starts, a line each: the model's notes and lint, the counts the suite makes.
        package let preamble: [String]
    }

    /// How a run is carried out and published besides what it measures.
    package struct Options {
        /// The run folder; nil: Results/runs/<UTC time>.
        package var output: String?
        /// Count each phase's instructions under callgrind instead of timing it.
        package var instructions = false
        /// Also say what the run stops on (valgrind's progress); a quiet run says nothing.
        package var quiet = false
        /// A device's fitted costs: each ObjectGraph phase also gets its predicted_device_ms.
        package var deviceCosts: DeviceCosts?
        package var publishing = Publishing()
        /// The history store used when none is given, whose folder a release build makes.
        package var defaultHistory = ""

        package init() {}
    }

    /// Plans the run `arguments` ask for; `suiteOptions` are a `--model` run's (its store read by the caller).
    package static func plan(_ arguments: RunArguments, suiteOptions: GeneratedSuite.Options? = nil) throws -> PlannedRun {
        var modelFile: ModelFile?
        var preamble: [String] = []
        let scenarios: [Scenario]
        if let model = arguments.model {
            let file = try ModelFile(path: model)
            modelFile = file
            let suite = try GeneratedSuite.scenario(modelPath: model, options: suiteOptions ?? GeneratedSuite.Options())
            preamble += file.adjustments.map { "note: \($0)" }
            // Listed by severity when the run ends (its first screen), and in lint.txt as soon as the run starts.
            let lint = RunLint(heading: file.heading, findings: file.findings)
            preamble.append(
                "lint of \(file.heading): \(lint.counts)\(file.findings.isEmpty ? "" : " (listed when the run ends; lint.txt)")")
            preamble.append("")
            let lines = GeneratedSuite.countsLines(suite)
            if !lines.isEmpty { preamble += lines + [""] }
            scenarios = [suite]
        } else {
            let catalog = try ScenarioCatalog(folder: arguments.scenariosFolder ?? ScenarioCatalog.defaultFolder())
            for scenario in catalog.scenarios { try PeerSupport.check(scenario) }
            scenarios = arguments.all ? catalog.scenarios : try arguments.scenarioNames.map(catalog.scenario(named:))
        }
        let request = RunRequest(arguments, scenarios: scenarios)
        return PlannedRun(
            arguments: arguments, suiteOptions: suiteOptions, request: request, plan: try RunPlan(request), modelFile: modelFile,
            preamble: preamble)
    }

    /// Runs `planned`: its folder started with run.json (and a `--model` run's lint.txt and shape.txt), measured, and
    /// concluded; `say` is told what the run prints along the way (the generated data's shape beside the store's).
    package static func run(_ planned: PlannedRun, _ options: Options, say: (String) -> Void) throws -> Conclusion {
        // After the scenarios resolve, so that a mistyped name leaves no Results/ folder behind.
        try HistoryStore.checkBeforeRun(options.publishing.history, default: options.defaultHistory)
        let plan = planned.plan
        let arguments = planned.arguments
        let folder: RunFolder
        if options.instructions {
            let child = ChildRunPlan(arguments: arguments, suiteOptions: planned.suiteOptions, output: "")
            folder = try InstructionCount.run(child, output: options.output, quiet: options.quiet)
        } else {
            guard !plan.repetitions.isEmpty else {
                throw BenchError.invalidInput(
                    "nothing to run: the chosen scenarios have no sizes for profile \(arguments.profile.rawValue)")
            }
            // Without --output, a folder of its own under Results/runs: a run started in the same second takes the next name.
            let started = info(planned, deviceCosts: options.deviceCosts)
            folder = try options.output.map { try RunFolder(path: $0, info: started) } ?? RunFolder.atDefaultPath(info: started)
            if let modelFile = planned.modelFile {
                try folder.writeFile(
                    (modelFile.adjustments.map { "note: \($0)" } + modelFile.findings.map { "\($0)" }).map { $0 + "\n" }.joined(),
                    named: "lint.txt")
            }
            if let suite = plan.scenarios.first, case let .generated(_, suiteOptions) = suite.origin, let shape = suiteOptions.shape,
                let size = plan.repetitions.map(\.size).max()
            {
                let text = ShapeReport.text(
                    store: shape, generated: try GeneratedSuite.generatedShape(suite, size: size, seed: arguments.seed), size: size)
                try folder.writeFile(text + "\n", named: "shape.txt")
                say(text + "\n(shape.txt in the run folder)\n")
            }
            try measure(
                plan, request: planned.request, into: folder, progress: options.quiet ? nil : Progress(plan: plan),
                deviceCosts: options.deviceCosts)
        }
        var publishing = options.publishing
        publishing.strategies = planned.request.strategies
        publishing.variants = planned.request.variants
        return try conclude(folder, scenarios: plan.scenarios, publishing: publishing, seed: arguments.seed)
    }

    /// run.json's record of a planned run before it starts.
    static func info(_ planned: PlannedRun, deviceCosts: DeviceCosts?) -> RunInfo {
        let plan = planned.plan
        var info = RunInfo.current(
            profile: planned.arguments.profile, seed: planned.arguments.seed, settings: planned.request.settings,
            scenarios: plan.scenarios.map(\.name), plannedRepetitions: plan.measuredCount,
            origins: Dictionary(plan.scenarios.map { ($0.name.rawValue, $0.origin) }, uniquingKeysWith: { first, _ in first }))
        info.schedules = plan.schedules
        info.definitionHashes = Dictionary(
            plan.scenarios.map { ($0.name.rawValue, $0.definitionHash) }, uniquingKeysWith: { first, _ in first })
        info.deviceCosts = deviceCosts
        return info
    }
}
