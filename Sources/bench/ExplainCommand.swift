import ArgumentParser
import BenchKit
import Foundation

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Run one small repetition with the SQL trace on: every statement of each phase, and its counters.")

    @Argument(help: "The scenario to explain.")
    var scenarioName: String?

    @Option(help: "Explain the suite generated from this Xcode model (what bench run --model runs) instead of a scenario.")
    var model: String?

    @Option(help: "Show only this phase (repeatable); the other phases still run, untraced.")
    var phase: [String] = []

    @Option(help: "The strategy (default: the scenario's first).", transform: { try parseStrategy($0) })
    var strategy: Strategy?

    @Option(parsing: .unconditional, help: "The scenario's size: what its data section scales by \"size\" (see bench list).")
    var size: Int = 20

    @Option(help: "The variant, as name=value;name=value or name=value,name=value (default: the scenario's first).", transform: VariantChoice.init)
    var variant: VariantChoice?

    @Option(parsing: .unconditional, help: "Trace lines shown per phase before the rest is summarized.")
    var maxLines: Int = 40

    @Option(parsing: .unconditional, help: "SQLDebug level: 1 statements and annotations, 2 (and 3) add bound values, 4 adds query plans.")
    var level: Int = 2

    @Flag(help: "Print statements exactly as Core Data's SQLDebug log writes them (spacing, annotations), to diff with a device's log.")
    var exact = false

    @Option(help: "Repeats of one statement in a phase above which the N+1 detector flags it.")
    var threshold = 10

    @OptionGroup var scenarioOptions: ScenarioOptions

    func validate() throws {
        guard (1...10_000_000).contains(size) else { throw BenchError.invalidInput("--size must be a positive integer up to 10000000") }
        guard maxLines >= 0 else { throw BenchError.invalidInput("--max-lines must be 0 or more") }
        guard [1, 2, 3, 4].contains(level) else { throw BenchError.invalidInput("--level must be 1, 2, 3 or 4 (SQLDebug's levels)") }
        guard threshold >= 1 else { throw BenchError.invalidInput("--threshold must be a positive integer") }
        guard (scenarioName == nil) != (model == nil) else {
            throw BenchError.invalidInput("give a scenario name or --model MODEL (not both)")
        }
    }

    func run() throws {
        let scenario = try model.map(GeneratedSuite.scenario(modelPath:)) ?? scenarioOptions.catalog().scenario(named: scenarioName!)
        let phaseNames = scenario.phaseNames.map(\.rawValue)
        for name in phase where !phaseNames.contains(name) {
            let near = nearNames(name, in: phaseNames)
            throw BenchError.invalidInput("scenario '\(scenario.name)' has no phase '\(name)'" + (near.isEmpty
                ? "; its phases: \(phaseNames.prefix(12).joined(separator: ", "))\(phaseNames.count > 12 ? ", ..." : "")"
                : " (did you mean '\(near[0])'?)"))
        }
        let chosen = try strategy.map { wanted -> Strategy in
            guard scenario.strategies.contains(wanted) else {
                throw BenchError.invalidInput("scenario '\(scenario.name)' does not run strategy '\(wanted)'; it runs \(scenario.strategies.map(\.rawValue).joined(separator: ", "))")
            }
            return wanted
        } ?? scenario.strategies[0]
        let chosenVariant = try variant.map { try $0.variant(of: scenario) } ?? scenario.variants[0]

        var request = RunRequest(scenarios: [scenario])
        request.sizes = [size]
        request.strategies = [chosen]
        request.repetitions = 1
        request.warmup = 0
        let plan = try RunPlan(request)
        guard let repetition = plan.repetitions.first(where: { $0.variant == chosenVariant }) else { return }

        print("explain \(scenario.name): strategy \(chosen), \(chosenVariant.description.isEmpty ? "no variant" : chosenVariant.description), size \(size)")
        print(scenario.description)
        final class State { var inPhase = false; var shown = 0; var hidden = 0; var setup = 0; var skipped = 0 }
        let state = State()
        let limit = maxLines
        let runner = Runner(request: request, plan: plan, folder: nil, progress: nil)
        let advisor = PhaseAdvisor(detector: NPlusOneDetector(threshold: threshold), scenario: scenario, variant: chosenVariant)
        if chosen == .objectGraph { advisor.attach(to: runner) }
        runner.traceLevel = level
        runner.traceExact = exact
        let chosenPhases = Set(phase.map { PhaseName($0) })
        runner.trace = { line in
            guard state.inPhase else {
                if !chosenPhases.isEmpty { return }
                if line.contains(": sql: ") || line.hasPrefix("sqlite: ") { state.setup += 1 }
                return
            }
            if state.shown < limit {
                print("  " + line)
                state.shown += 1
            } else {
                state.hidden += 1
            }
        }
        runner.observer = PhaseRecorder.Observer(
            phaseStarted: { phase in
                advisor.phaseStarted()
                guard chosenPhases.isEmpty || chosenPhases.contains(phase) else {
                    state.skipped += 1
                    return
                }
                let before = chosenPhases.isEmpty ? "\(state.setup) setup statements" : "\(state.skipped) phases"
                print("\n--- phase \(phase) (after \(before), not shown) ---")
                state.skipped = 0
                state.inPhase = true
                state.shown = 0
                state.hidden = 0
                state.setup = 0
            },
            phaseEnded: { phase, measurements in
                guard state.inPhase else { return }
                state.inPhase = false
                if state.hidden > 0 { print("  ... \(state.hidden) more trace lines (raise --max-lines to see them)") }
                let counters = measurements.filter(\.metric.isCounter)
                    .map { "\($0.metric.rawValue)=\($0.value.map(formatNumber) ?? "n/a")" }
                print("counters of \(phase): " + counters.joined(separator: " "))
                for finding in advisor.findings(phase: phase) {
                    print("N+1: " + finding.line)
                }
            })
        _ = try runner.run(repetition)
    }
}
