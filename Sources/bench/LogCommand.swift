import ArgumentParser
import BenchKit
import Foundation

struct LogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Read a device's Core Data SQLDebug log: what ran per segment, its N+1s with the fix, a run folder for CI, its costs.",
        discussion: """
            Segments are marked by lines the app prints, containing 'RelBench: begin NAME' and 'RelBench: end NAME' \
            (os_signpost intervals of 'log show --signpost' count too); without markers the log is one segment. \
            'bench log diff' compares a log with ObjectGraph's trace of a scenario.

            Exit codes of 'bench log FILE': 0 after the summary (whatever it finds, unless a gate is asked for); with \
            --baseline or --fail-on, 1 when a finding not in the baseline has a severity of --fail-on (default \
            problem,risk); 0 after --write-baseline; 64 for bad arguments, a log that cannot be read or holds no Core \
            Data line, or a baseline that is missing, unreadable or not log's.
            """,
        subcommands: [Read.self, Diff.self], defaultSubcommand: Read.self)

    struct Read: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read",
            abstract: "Summarize a log per segment with its findings (the default: 'bench log FILE'), or write it as a run folder.")

        @Argument(help: "The log file, or - for standard input.")
        var file: String

        @Option(
            help: "The app's Xcode model (.xcdatamodeld, .xcdatamodel or contents), to name tables and columns as entities and properties.")
        var model: String?

        @Option(
            help:
                "Name the log by this scenario's model and check its segments against the scenario's declared steps (a log of its phases: what bench explain --exact prints); with --variant."
        )
        var modelOf: String?

        @Option(
            help: "With --model-of: the variant, as name=value;name=value (default: the scenario's first).",
            transform: VariantFilter.init)
        var variant: VariantFilter?

        @OptionGroup var scenarioOptions: ScenarioOptions

        @Flag(help: "Print everything the summary shows as versioned JSON (Schemas/bench-log.schema.json) instead of the summary.")
        var json = false

        @Option(
            help: "Also write the log as a run folder (strategy device, one phase per segment) for bench baseline save and bench compare.")
        var output: String?

        @Option(help: "The scenario the run folder names (default: the log file's name without its extension).")
        var scenario: String?

        @Option(parsing: .unconditional, help: "The size the run folder records (the app's data size, if it has one).")
        var size = 0

        @Option(help: "Also fit the device's cost per statement kind and per row to the log's timed statements, into this JSON file.")
        var fitCosts: String?

        @Option(parsing: .unconditional, help: "Repeats of one statement in a segment above which it is flagged.")
        var threshold = 10

        @Flag(help: "Print how fast the log was read (MB/s) on standard error.")
        var timing = false

        @OptionGroup var gateOptions: GateOptions

        func validate() throws {
            guard (0...100_000_000).contains(size) else {
                throw BenchError.invalidInput("--size must be a whole number from 0 to 100000000")
            }
            guard threshold >= 1 else { throw BenchError.invalidInput("--threshold must be a positive integer") }
            guard model == nil || modelOf == nil else {
                throw BenchError.invalidInput("give --model (an Xcode model) or --model-of (a scenario), not both")
            }
            guard variant == nil || modelOf != nil else {
                throw BenchError.invalidInput("--variant chooses a variant of --model-of's scenario; give --model-of too")
            }
            if let scenario, scenario.trimmingCharacters(in: .whitespaces).isEmpty {
                throw BenchError.invalidInput("--scenario is empty; give the name the run folder's series should have")
            }
        }

        func run() throws {
            if let fitCosts { try AtomicFile.checkWritable(fitCosts, option: "--fit-costs") }
            if let output { try checkOutput(output) }
            let baseline = try gateOptions.prepare(command: "log")
            var options = DeviceLog.Options()
            options.mapping = try model.map(ModelNameMapping.load)
            var namedBy =
                model.map { "names: from \($0)" } ?? "names: no --model given, so entity and property names are inferred from the log"
            if let modelOf {
                let scenario = try scenarioOptions.catalog().scenario(named: modelOf)
                let chosen = try Explanation.choose(scenario, strategy: nil, variant: variant, phases: [])
                let context = try scenario.logContext(variant: chosen.variant)
                options.mapping = context.mapping
                options.access = context.access
                namedBy =
                    "names and declared reads: from scenario \(scenario.name)"
                    + (chosen.variant.isEmpty ? "" : " (\(chosen.variant))") + ", segments as its phases"
            }
            options.analysis.repeatThreshold = threshold
            options.fitsCosts = fitCosts != nil
            let log = try DeviceLog(path: file, options: options)
            let run = DeviceLogRun(
                log: log, scenario: scenario.map { ScenarioName($0) } ?? DeviceLogRun.defaultScenario(forLog: file), size: size)
            if let output { try run.write(to: output) }
            if let fitCosts, let costs = log.costs {
                try AtomicFile.write(String(decoding: try costs.encoded(), as: UTF8.self), to: fitCosts)
            }
            for warning in log.warnings(mapping: options.mapping, modelName: model ?? modelOf) {
                FileHandle.standardError.write(Data("bench: warning: \(warning)\n".utf8))
            }
            if json {
                // Streamed: a log of 300,000 distinct statements has 68 MB of JSON, which built whole took 230 MB.
                try run.writeJSON { FileHandle.standardOutput.write(Data($0)) }
                FileHandle.standardOutput.write(Data([10]))
            } else {
                print(namedBy)
                print(log.report(known: baseline?.fingerprints ?? []))
                if let costs = log.costs { print(costs.text(file: fitCosts ?? "")) }
                if let output { print("reports: \(output) (scenario \(run.scenario), strategy device)") }
            }
            if timing { FileHandle.standardError.write(Data("bench: \(log.timingLine)\n".utf8)) }
            // Under --json standard output is the JSON document alone: the gate's line goes to standard error.
            try gateOptions.finish(log.analysis.findings, baseline: baseline, command: "log") { line in
                if json { FileHandle.standardError.write(Data("bench: \(line)\n".utf8)) } else { print(line) }
            }
        }

        /// Refuses, before the log is read, an output that is a file or already holds a run.
        private func checkOutput(_ path: String) throws {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
            guard isFolder.boolValue else { throw BenchError.invalidInput("--output \(path) is a file; give a folder") }
            if FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("samples.csv")) {
                throw BenchError.invalidInput("--output \(path) already holds a run; choose another folder so that nothing is overwritten")
            }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract:
                "Compare a device's log with ObjectGraph's exact trace of a scenario, segment by phase: equal, or which statements differ.",
            discussion: "Exit codes: 0 equal, 2 the statements differ, 64 wrong arguments or an unreadable log.")

        @Argument(help: "The device's log, or - for standard input.")
        var file: String

        @Argument(help: "The scenario the log ran (see bench list).")
        var scenarioName: String?

        @Option(help: "Compare with the suite generated from this Xcode model (what bench run --model runs) instead of a scenario.")
        var model: String?

        @Option(parsing: .unconditional, help: "The scenario's size: what its data section scales by \"size\" (see bench list).")
        var size: Int = 20

        @Option(
            help: "The variant, as name=value;name=value or name=value,name=value (default: the scenario's first).",
            transform: VariantFilter.init)
        var variant: VariantFilter?

        @Option(parsing: .unconditional, help: "Same statements shown around each place the two part.")
        var context = 2

        @OptionGroup var scenarioOptions: ScenarioOptions

        func validate() throws {
            guard (1...10_000_000).contains(size) else { throw BenchError.invalidInput("--size must be a positive integer up to 10000000") }
            guard (0...100).contains(context) else { throw BenchError.invalidInput("--context must be from 0 to 100") }
            guard (scenarioName == nil) != (model == nil) else {
                throw BenchError.invalidInput("give a scenario name or --model MODEL (not both)")
            }
        }

        func run() throws {
            let scenario =
                try model.map { try GeneratedSuite.scenario(modelPath: $0) }
                ?? scenarioOptions.catalog().scenario(named: scenarioName ?? "")
            guard scenario.strategies.contains(.objectGraph) else {
                throw BenchError.invalidInput("scenario '\(scenario.name)' does not run objectgraph, whose trace a log is compared with")
            }
            let chosen = try Explanation.choose(scenario, strategy: .objectGraph, variant: variant, phases: [])
            let explanation = Explanation(scenario: scenario, strategy: .objectGraph, variant: chosen.variant, size: size)
            let diff = try LogDiff(logPath: file, explanation: explanation)
            print(diff.text(context: context))
            if !diff.isEqual {
                FileHandle.standardError.write(Data("bench: the log's statements differ from objectgraph's (above); exit 2\n".utf8))
                throw ExitCode(2)
            }
        }
    }
}
