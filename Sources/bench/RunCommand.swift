import ArgumentParser
import BenchKit
import Dispatch
import Foundation
import ObjectGraph

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run scenarios and write samples.csv, summary.csv, complexity.csv and run.json.")

    @Argument(help: "The scenarios to run (see 'bench list').")
    var scenarioNames: [String] = []

    @Flag(help: "Run every scenario.")
    var all = false

    @Option(help: "Run the standard suite generated from this Xcode model (.xcdatamodeld, .xcdatamodel or contents) instead of scenarios.")
    var model: String?

    @Option(help: "Sizes to run instead of the profile's, comma-separated (e.g. 1000,10000).")
    var sizes: String?

    @Option(help: "Run only these strategies, comma-separated (e.g. many-to-one,raw-sqlite).")
    var strategies: String?

    @Option(help: "Measured repetitions per series instead of the scenario's.")
    var repetitions: Int?

    @Option(help: "Unrecorded warmup repetitions per series instead of the scenario's.")
    var warmup: Int?

    @Option(help: "smoke (tiny, for CI), default (1,000 to 100,000) or full (adds 1,000,000).")
    var profile: Profile = .default

    @Option(help: "The run folder to write (default: Results/runs/<UTC timestamp>).")
    var output: String?

    @Option(help: "The random seed of the data; a run records it so that another run can reuse it.")
    var seed: UInt64 = 42

    @Flag(help: "Use :memory: databases instead of files in a temporary folder.")
    var inMemory = false

    @Option(help: "SQLite's page cache per connection in MiB for bulk work: insert phases and filling the databases the other scenarios read.")
    var pageCacheMib: Int = 64

    @Option(help: "SQLite's page cache per connection in MiB for reading a prepared database (default: SQLite's own, 2000 KiB).")
    var readPageCacheMib: Int?

    @Option(help: "Run shard K of N (e.g. 2/4): the scenarios are split over N machines; join them with 'bench merge'.")
    var shard: String?

    @Flag(help: "No progress on standard error.")
    var quiet = false

    @Option(help: "The history store every completed run is added to.")
    var history: String = "Results/history.sqlite"

    @Flag(help: "Do not add this run to the history store.")
    var noHistory = false

    @OptionGroup var exportOption: ExportOption

    @Flag(help: "Count each phase's instructions under valgrind (callgrind) instead of timing it: repeatable to a few thousand instructions a phase, about 40 times slower.")
    var instructions = false

    @Flag(help: "Skip the N+1 advice pass after the run (each scenario's ObjectGraph strategies once more, untimed, with their statements logged).")
    var noAdvice = false

    @Flag(help: "Let a debug build write timing reports (its timings are not representative).")
    var allowDebug = false

    @OptionGroup var scenarioOptions: ScenarioOptions

    func run() throws {
        guard [all, !scenarioNames.isEmpty, model != nil].filter({ $0 }).count == 1 else {
            throw BenchError.invalidInput(all || model != nil || !scenarioNames.isEmpty
                ? "give one of: scenario names, --all, or --model MODEL"
                : "name the scenarios to run, pass --all, or --model MODEL for the suite generated from an Xcode model (see 'bench list')")
        }
        guard repetitions.map({ $0 >= 1 }) ?? true else { throw BenchError.invalidInput("--repetitions must be at least 1") }
        guard warmup.map({ $0 >= 0 }) ?? true else { throw BenchError.invalidInput("--warmup must be 0 or more") }
        guard pageCacheMib >= 1 else { throw BenchError.invalidInput("--page-cache-mib must be at least 1") }
        guard readPageCacheMib.map({ $0 >= 1 }) ?? true else { throw BenchError.invalidInput("--read-page-cache-mib must be at least 1") }
        guard !(inMemory && readPageCacheMib != nil) else {
            throw BenchError.invalidInput("--read-page-cache-mib sets the cache of file databases reopened for reading; in memory the reads share the connection that built them: use --page-cache-mib")
        }
        if RunInfo.buildConfiguration == "debug" && !allowDebug {
            throw BenchError.invalidInput("this is a debug build, whose timings mislead; run the release build: swift run -c release bench run \(CommandLine.arguments.dropFirst(2).joined(separator: " ")) (or pass --allow-debug)")
        }
        let scenarios: [Scenario]
        var modelFindings: [ModelLint.Finding]?
        if let model {
            let xcode = try loadModel(model)
            let findings = ModelLint.findings(try compile(xcode))
            modelFindings = findings
            if !quiet {
                print("lint of \(model): \(findings.isEmpty ? "no findings" : "\(findings.count) finding(s)")")
                for finding in findings { print("  \(finding)") }
                print("")
            }
            do {
                scenarios = [try GeneratedSuite.scenario(modelPath: model)]
            } catch let error as ObjectGraphError {
                throw BenchError.invalidInput("\(error)")
            }
        } else {
            let catalog = try scenarioOptions.catalog()
            scenarios = all ? catalog.scenarios : try scenarioNames.map(catalog.scenario(named:))
        }
        var request = RunRequest(scenarios: scenarios)
        request.profile = profile
        request.sizes = try sizes.map { try parseSizes($0, option: "--sizes") }
        request.strategies = try strategies.map(parseStrategies)
        request.repetitions = repetitions
        request.warmup = warmup
        request.seed = seed
        request.inMemory = inMemory
        request.options = StoreOptions(pageCacheKiB: pageCacheMib * 1024)
        request.readPageCacheKiB = readPageCacheMib.map { $0 * 1024 }
        request.shard = try shard.map(parseShard)
        try exportOption.check()
        if instructions {
            let folder = try InstructionCount.run(arguments: Array(CommandLine.arguments.dropFirst(2)),
                                                  output: output ?? RunFolder.defaultPath(), quiet: quiet)
            try report(folder, scenarios: [])
            return
        }
        let plan = try RunPlan(request)
        guard !plan.repetitions.isEmpty else { throw BenchError.invalidInput("nothing to run: the chosen scenarios have no sizes for profile \(profile.rawValue)") }

        let folder = try RunFolder(path: output ?? RunFolder.defaultPath(), info: RunInfo.current(
            profile: profile, seed: seed, inMemory: inMemory, options: request.options,
            readPageCacheKiB: request.readPageCacheKiB, scenarios: plan.scenarios.map(\.name),
            plannedRepetitions: plan.measuredCount))
        if let lint = modelFindings {
            try Data((lint.map(\.description).joined(separator: "\n") + (lint.isEmpty ? "" : "\n")).utf8)
                .write(to: URL(fileURLWithPath: folder.file("lint.txt")), options: .atomic)
        }
        let interrupt = Self.onInterrupt {
            try? folder.finish(status: "interrupted")
            FileHandle.standardError.write(Data("\nbench: interrupted; \(folder.path) holds the \(folder.info.finishedRepetitions) repetitions that finished\n".utf8))
            Foundation.exit(130)
        }
        defer { interrupt.cancel() }
        let runner = Runner(request: request, plan: plan, folder: folder, progress: quiet ? nil : Progress(plan: plan))
        do {
            try runner.run()
        } catch {
            try? folder.finish(status: "failed")
            throw error
        }
        try folder.finish(status: "complete")
        try report(folder, scenarios: plan.scenarios, strategies: request.strategies)
    }

    /// The finished run's export, history entry and printed summary.
    private func report(_ folder: RunFolder, scenarios: [Scenario], strategies: [StrategySelector]? = nil) throws {
        try publish(folder, export: exportOption, history: noHistory ? nil : history, skipAdvice: "pass --no-history to skip it")
        print(SummaryTable.render(folder.summary, scenarios: scenarios))
        let verdicts = VerdictReport.judge(folder.summary)
        try AtomicFile.write(String(decoding: try VerdictReport.json(verdicts), as: UTF8.self) + "\n", to: folder.file("verdicts.json"))
        try AtomicFile.write(VerdictReport.markdown(verdicts, figures: "plots") + "\n", to: folder.file("verdicts.md"))
        let decided = VerdictReport.lines(verdicts)
        if !decided.isEmpty { print("\n" + decided) }
        if !noAdvice && !scenarios.isEmpty {
            var pass = AdvicePass(scenarios: scenarios)
            pass.strategies = strategies
            pass.seed = seed
            let findings = AdvicePass.attachMeasurements(try pass.run(), summary: folder.summary)
            try AtomicFile.write(String(decoding: try AdviceReport.json(findings), as: UTF8.self) + "\n", to: folder.file("advice.json"))
            let phases = Set(findings.map { "\($0.scenario) \($0.strategy) \($0.variant) \($0.phase)" }).count
            print("\nN+1 advice: \(findings.isEmpty ? "no repeated statement" : "\(findings.count) finding(s) in \(phases) phase(s)") at size \(formatCount(pass.size)) (bench advise \(folder.path) prints them)")
        }
        print("reports: \(folder.path)")
    }

    private func parseShard(_ text: String) throws -> (Int, Int) {
        let parts = text.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
            throw BenchError.invalidInput("--shard '\(text)' must be K/N with 1 <= K <= N, e.g. --shard 1/4")
        }
        return (parts[0], parts[1])
    }

    /// Runs `handler` on Ctrl-C instead of dying mid-write.
    static func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }
}
