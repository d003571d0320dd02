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

    @OptionGroup var dataOptions: GeneratedDataOptions

    @Option(help: "Show only this phase (repeatable); the other phases still run, untraced.")
    var phase: [String] = []

    @Option(help: "The strategy (default: the scenario's first).", transform: { try parseStrategy($0) })
    var strategy: Strategy?

    @Option(
        parsing: .unconditional,
        help:
            "The size the data is made at (default 20): what the scenario's data section multiplies by \"size\" (a generated suite: the objects of each entity of the model; with --shape-from, of the entity the store has most rows of)."
    )
    var size: Int?

    @Option(
        help: "The variant, as name=value;name=value or name=value,name=value (default: the scenario's first).",
        transform: VariantFilter.init)
    var variant: VariantFilter?

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
        guard (1...10_000_000).contains(size ?? 20) else {
            throw BenchError.invalidInput("--size \(size ?? 0) must be a whole number from 1 to 10000000")
        }
        try checkTemporaryFolder()
        try dataOptions.validate(model: model)
        guard dataOptions.counts == nil || size == nil else {
            throw BenchError.invalidInput("--counts gives the data's size per entity; leave out --size (or --counts)")
        }
        guard maxLines >= 0 else { throw BenchError.invalidInput("--max-lines must be 0 or more") }
        guard [1, 2, 3, 4].contains(level) else { throw BenchError.invalidInput("--level must be 1, 2, 3 or 4 (SQLDebug's levels)") }
        guard threshold >= 1 else { throw BenchError.invalidInput("--threshold must be a positive integer") }
        guard (scenarioName == nil) != (model == nil) else {
            throw BenchError.invalidInput("give a scenario name or --model MODEL (not both)")
        }
    }

    func run() throws {
        let scenario =
            try model.map { try GeneratedSuite.scenario(modelPath: $0, options: try dataOptions.options(model: $0)) }
            ?? scenarioOptions.catalog().scenario(named: scenarioName ?? "")
        let chosen = try Explanation.choose(scenario, strategy: strategy, variant: variant, phases: phase)
        // Counts given per entity fix the data whatever the size: the suite's one size labels it.
        let size = self.size ?? (dataOptions.counts != nil ? scenario.sizes[.default]?.first ?? 20 : 20)
        if let line = GeneratedSuite.countsLine(scenario) { print(line) }
        if case let .generated(_, options) = scenario.origin, let shape = options.shape {
            print(
                ShapeReport.text(store: shape, generated: try GeneratedSuite.generatedShape(scenario, size: size, seed: 42), size: size)
                    + "\n")
        }
        var explanation = Explanation(scenario: scenario, strategy: chosen.strategy, variant: chosen.variant, size: size)
        explanation.phases = chosen.phases
        explanation.level = level
        explanation.exact = exact
        explanation.maxLines = maxLines
        explanation.threshold = threshold
        try explanation.run { print($0) }
    }
}
