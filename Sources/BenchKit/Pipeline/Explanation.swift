import Foundation
import SQLDebugLog

/// `bench explain`: one small repetition of one strategy and variant with the SQL trace on, phase by phase: every
/// statement (compact, or exactly as Core Data's SQLDebug log writes it), the phase's counters and its N+1 findings.
package struct Explanation {
    package var scenario: Scenario
    package var strategy: Strategy
    package var variant: Variant
    package var size: Int
    /// Phases to show (the others still run, untraced); empty: every phase.
    package var phases: Set<PhaseName> = []
    package var level = 2
    package var exact = false
    /// Trace lines shown per phase before the rest is counted.
    package var maxLines = 40
    package var threshold = 10
    /// Prepared phases after the first go on with its store, their changes undone, instead of a new copy each
    /// (`Runner.undoesChanges`); the same counters either way.
    package var undoesChanges = true

    package init(scenario: Scenario, strategy: Strategy, variant: Variant, size: Int) {
        self.scenario = scenario
        self.strategy = strategy
        self.variant = variant
        self.size = size
    }

    /// The scenario's strategy and variant as chosen on the command line: its first when not given; a strategy it
    /// does not run, or a phase it does not have, is refused with what it has.
    package static func choose(
        _ scenario: Scenario, strategy: Strategy?, variant: VariantFilter?, phases: [String]
    ) throws
        -> (strategy: Strategy, variant: Variant, phases: Set<PhaseName>)
    {
        let phaseNames = scenario.phaseNames.map(\.rawValue)
        for name in phases where !phaseNames.contains(name) {
            throw BenchError(
                problem: "scenario '\(scenario.name)' has no phase '\(name)'", nearest: nearNames(name, in: phaseNames).first,
                allowed: "its phases: \(phaseNames.prefix(12).joined(separator: ", "))\(phaseNames.count > 12 ? ", ..." : "")")
        }
        if let strategy, !scenario.strategies.contains(strategy) {
            throw BenchError.invalidInput(
                "scenario '\(scenario.name)' does not run strategy '\(strategy)'; it runs \(scenario.strategies.map(\.rawValue).joined(separator: ", "))"
            )
        }
        return (
            strategy ?? scenario.strategies[0], try variant.map { try $0.variant(of: scenario) } ?? scenario.variants[0],
            Set(phases.map { PhaseName($0) })
        )
    }

    /// Runs the repetition, handing each line of the explanation to `output`. With `exact`, each phase's trace is
    /// between `RelBench: begin PHASE` and `RelBench: end PHASE` lines, the markers `bench log` splits a log by.
    package func run(_ output: @escaping (String) -> Void) throws {
        try MemoryBudget.check(scenario, size: size, option: "--size")
        final class State {
            var inPhase = false
            var shown = 0
            var hidden = 0
            var setup = 0
            var skipped = 0
        }
        let state = State()
        let chosen = phases
        let limit = maxLines
        let exact = exact
        let descriptions = Dictionary(scenario.phaseDescriptions.map { ($0.name, $0.description) }, uniquingKeysWith: { first, _ in first })
        try execute(
            header: output,
            line: { line in
                guard state.inPhase else {
                    if !chosen.isEmpty { return }
                    if line.contains(": sql: ") || line.hasPrefix("sqlite: ") { state.setup += 1 }
                    return
                }
                if state.shown < limit {
                    output("  " + line)
                    state.shown += 1
                } else if line.hasPrefix("RelBench: ") {
                    // The harness's own lines (a refused save and why) show past the limit, after what was left out.
                    if state.hidden > 0 { output("  ... \(state.hidden) trace lines not shown") }
                    state.hidden = 0
                    output("  " + line)
                } else {
                    state.hidden += 1
                }
            },
            phaseStarted: { phase in
                guard chosen.isEmpty || chosen.contains(phase) else {
                    state.skipped += 1
                    return
                }
                let before = chosen.isEmpty ? "\(state.setup) setup statements" : "\(state.skipped) phases"
                output(exact ? "\nRelBench: begin \(phase)" : "")
                output("--- phase \(phase) (after \(before), not shown) ---")
                if let description = descriptions[phase] { output("covers: \(description)") }
                state.skipped = 0
                state.inPhase = true
                state.shown = 0
                state.hidden = 0
                state.setup = 0
            },
            phaseEnded: { phase, counters, findings in
                guard state.inPhase else { return }
                state.inPhase = false
                if state.hidden > 0 { output("  ... \(state.hidden) more trace lines (raise --max-lines to see them)") }
                output("counters of \(phase): " + counters)
                for finding in findings {
                    output("finding: " + (finding.severity == .risk ? "" : "\(finding.severity.rawValue): ") + finding.line)
                }
                if exact { output("RelBench: end \(phase)") }
            })
    }

    /// Every phase's whole trace (none cut at `maxLines`), in the order the phases ran.
    package func phaseTraces() throws -> [(phase: PhaseName, lines: [String])] {
        final class Collected {
            var phases: [(phase: PhaseName, lines: [String])] = []
            var current: [String]?
        }
        let collected = Collected()
        try execute(
            header: { _ in },
            line: { line in collected.current?.append(line) },
            phaseStarted: { _ in collected.current = [] },
            phaseEnded: { phase, _, _ in
                collected.phases.append((phase, collected.current ?? []))
                collected.current = nil
            })
        return collected.phases
    }

    /// Runs the repetition with the trace on: `line` gets every trace line, `phaseStarted` and `phaseEnded` (with the
    /// phase's counters as `name=value` pairs and its findings) bracket each phase.
    ///
    /// The findings are the SQL analysis of ObjectGraph's exact trace at SQLDebug level 2, as `bench advise` reads it:
    /// when the trace shown is that one, it is read as it is printed; another level or the compact form is shown from
    /// the repetition run again, after a first, silent run the findings come from (the same seed: the same SQL).
    private func execute(
        header: (String) -> Void, line: @escaping (String) -> Void, phaseStarted: @escaping (PhaseName) -> Void,
        phaseEnded: @escaping (PhaseName, String, [Finding]) -> Void
    ) throws {
        var request = RunRequest(scenarios: [scenario])
        request.sizes = [size]
        request.strategies = [strategy]
        request.repetitions = 1
        request.warmup = 0
        let plan = try RunPlan(request)
        guard let repetition = plan.repetitions.first(where: { $0.variant == variant }) else { return }
        header("explain \(scenario.name): strategy \(strategy), \(variant.isEmpty ? "no variant" : variant.description), size \(size)")
        header(scenario.description)
        let advised = strategy == .objectGraph
        let readsShownTrace = advised && exact && level == TraceAdvisor.level
        final class Found { var findings: [PhaseName: [Finding]] = [:] }
        let found = Found()
        if advised && !readsShownTrace {
            let silent = Runner(request: request, plan: plan, folder: nil, progress: nil)
            silent.measuresMemory = false
            silent.undoesChanges = undoesChanges
            let advisor = TraceAdvisor(scenario: scenario, variant: variant, threshold: threshold)
            advisor.attach(to: silent)
            silent.observer = PhaseRecorder.Observer(
                phaseStarted: { advisor.phaseStarted($0) }, phaseEnded: { phase, _ in found.findings[phase] = advisor.phaseEnded(phase) })
            _ = try silent.run(repetition)
        }
        let runner = Runner(request: request, plan: plan, folder: nil, progress: nil)
        runner.measuresMemory = false
        runner.undoesChanges = undoesChanges
        let advisor = readsShownTrace ? TraceAdvisor(scenario: scenario, variant: variant, threshold: threshold) : nil
        if let advisor {
            advisor.attach(to: runner, also: line)
        } else {
            runner.traceLevel = level
            runner.traceExact = exact
            runner.trace = line
        }
        runner.observer = PhaseRecorder.Observer(
            phaseStarted: { phase in
                advisor?.phaseStarted(phase)
                phaseStarted(phase)
            },
            phaseEnded: { phase, measurements in
                let counters = measurements.filter(\.metric.isCounter).map {
                    "\($0.metric.rawValue)=\($0.value.map(formatNumber) ?? "n/a")"
                }
                let findings = advisor?.phaseEnded(phase) ?? found.findings[phase] ?? []
                phaseEnded(phase, counters.joined(separator: " "), findings)
            })
        _ = try runner.run(repetition)
    }
}

extension VariantFilter {
    /// The one variant of `scenario` these values choose (`--variant 'batch=20;access=all'`): unknown axes and values
    /// are refused; axes left out take the scenario's first value, with a warning when that is a guess.
    package func variant(of scenario: Scenario) throws -> Variant {
        let axes = scenario.axes.map(\.name)
        for pair in pairs where !axes.contains(pair.axis) {
            guard !axes.isEmpty else {
                throw BenchError.invalidInput("scenario '\(scenario.name)' has no variant axis '\(pair.axis)' (it has no variants)")
            }
            throw BenchError(
                problem: "scenario '\(scenario.name)' has no variant axis '\(pair.axis)'",
                nearest: nearNames(pair.axis.rawValue, in: axes.map(\.rawValue)).first,
                allowed: "its axes are \(axes.map(\.rawValue).joined(separator: ", "))")
        }
        let candidates = scenario.variants.filter(matches)
        guard let variant = candidates.first else {
            throw BenchError.invalidInput(
                "scenario '\(scenario.name)' has no variant '\(self)'; its variants are \(scenario.variants.map(\.description).joined(separator: " | "))"
            )
        }
        let missing = axes.filter { axis in !pairs.contains { $0.axis == axis } }
        if !missing.isEmpty && candidates.count > 1 {
            FileHandle.standardError.write(
                Data(
                    "bench: warning: --variant '\(self)' names \(pairs.map(\.axis.rawValue).joined(separator: ", ")) only; using \(variant) (quote a value with ';', or separate with ',': --variant '\(variant)')\n"
                        .utf8))
        }
        return variant
    }
}
