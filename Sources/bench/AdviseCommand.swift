import ArgumentParser
import BenchKit
import Foundation

struct AdviseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advise",
        abstract:
            "Find N+1 access patterns: run each scenario's ObjectGraph strategies once with their statements logged, and say which line of a fetch to change and what it saves.",
        discussion: """
            Exit codes: 0 after the advice (whatever it finds, unless a gate is asked for); with --baseline or \
            --fail-on, 1 when a finding not in the baseline has a severity of --fail-on (default problem,risk: a \
            suggestion never fails by default); 0 after --write-baseline; 64 for bad arguments, an unreadable run \
            folder or a baseline that is missing, unreadable or not advise's. --fail-on-findings is the old name of \
            --fail-on problem,risk.
            """
    )

    @Argument(help: "A run folder: advise on its scenarios, strategies and variants, with the savings it measured.")
    var runFolder: String?

    @Option(name: .customLong("scenario"), help: "A scenario to advise on instead of a run's (repeatable).")
    var scenarioNames: [String] = []

    @Option(
        parsing: .unconditional,
        help:
            "The size to run at, large enough for a per-row pattern to repeat (default: a run's largest size of each scenario, else 1000).")
    var size: Int?

    @Option(parsing: .unconditional, help: "Repeats of one statement in a phase above which it is flagged.")
    var threshold = 10

    @Option(help: "Also write the findings as JSON to this file.")
    var json: String?

    @Flag(help: ArgumentHelp("The same as --fail-on problem,risk (its old name).", visibility: .hidden))
    var failOnFindings = false

    @OptionGroup var gateOptions: GateOptions

    @OptionGroup var scenarioOptions: ScenarioOptions

    func validate() throws {
        guard (1...10_000_000).contains(size ?? 1000) else {
            throw BenchError.invalidInput("--size must be a positive integer up to 10000000")
        }
        guard threshold >= 1 else { throw ValidationError("--threshold must be a positive integer") }
        guard !failOnFindings || gateOptions.failOn == nil else {
            throw BenchError.invalidInput("--fail-on-findings is the old name of --fail-on problem,risk; give one of them")
        }
        guard (runFolder == nil) != scenarioNames.isEmpty else {
            throw ValidationError("give a run folder or --scenario NAME (not both)")
        }
    }

    func run() throws {
        try AtomicFile.refuseOverwriting(json, option: "--json", reportsOf: runFolder.map { [$0] } ?? [])
        if let json { try AtomicFile.checkWritable(json, option: "--json") }
        var gateOptions = gateOptions
        if failOnFindings { gateOptions.failOn = .standard }
        let baseline = try gateOptions.prepare(command: "advise")
        var pass: AdvicePass
        var summary: [SummaryRow] = []
        if let runFolder {
            let contents = try SummaryFile.load(runFolder)
            if let unknown = contents.unknown.first {
                throw BenchError.invalidInput(
                    "\(runFolder) holds series this bench cannot read (\(unknown): \(unknown.reason)); advise runs of this build")
            }
            summary = contents.rows
            let names = summary.map(\.key.scenario).reduce(into: [ScenarioName]()) { if !$0.contains($1) { $0.append($1) } }
            // A folder without run.json (a summary copied alone) advises from the catalog; a damaged one is an error.
            let runJSON = (runFolder as NSString).appendingPathComponent("run.json")
            let info = FileManager.default.fileExists(atPath: runJSON) ? try RunInfo.load(runJSON) : nil
            if info?.measurement == .deviceLog {
                throw BenchError.invalidInput("\(runFolder) was read from a device's log; 'bench log LOG' prints that log's findings")
            }
            let (scenarios, warnings) = try RunPipeline.scenarios(measuredBy: info, names: names, catalogFolder: scenarioOptions.folder)
            for warning in warnings { warn(warning) }
            pass = AdvicePass(scenarios: scenarios)
            pass.strategies = Set(summary.map(\.key.strategy)).sorted()
            if size == nil { pass.sizes = RunPipeline.largestSizes(summary) }
            if let info { pass.seed = info.seed }
        } else {
            let catalog = try scenarioOptions.catalog()
            pass = AdvicePass(scenarios: try scenarioNames.map(catalog.scenario(named:)))
        }
        pass.size = size ?? 1000
        pass.threshold = threshold
        var findings = try pass.run()
        if !summary.isEmpty { findings = AdvicePass.attachMeasurements(findings, summary: summary, scenarios: pass.scenarios) }
        if let json { try AtomicFile.write(String(decoding: try AdviceReport.json(findings), as: UTF8.self), to: json) }
        print(
            AdviceReport.text(
                findings, size: pass.scenarios.map(pass.size(of:)).max() ?? pass.size, threshold: threshold,
                known: baseline?.fingerprints ?? []))
        try gateOptions.finish(findings, baseline: baseline, command: "advise")
    }
}
