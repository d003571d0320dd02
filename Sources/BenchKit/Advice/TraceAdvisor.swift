import ObjectGraph
import SQLDebugLog

/// Reads ObjectGraph's exact SQLDebug trace of one repetition, phase by phase, with the analyzer `bench log` reads a
/// device's log with: each phase is a segment between `RelBench: begin` and `RelBench: end` markers, named by the
/// variant's model and qualified by the phase's declared steps. What `bench explain` and `bench advise` print.
package final class TraceAdvisor {
    /// The SQLDebug level the advice reads: bound values (to tell one value repeated from many), no query plans.
    package static let level = 2

    /// ObjectGraph's trace is one stream: no prologue held back (see `SQLDebugLogParser.init(singleStream:)`).
    private var parser = SQLDebugLogParser(singleStream: true)
    private var analyzer: LogAnalyzer
    private var phase: String?

    package init(scenario: Scenario, variant: Variant, threshold: Int) {
        // A variant the scenario has no plan for runs nothing to read: its trace is read without names.
        let plan = scenario.declared.plans[variant]
        var options = AnalysisOptions()
        options.repeatThreshold = threshold
        analyzer = LogAnalyzer(
            mapping: plan.map { ModelNameMapping.mapping($0.model) }, options: options, access: plan.map(PhaseAccess.of) ?? [:])
    }

    /// Makes `runner` trace ObjectGraph's statements exactly, at `level`, into this advisor (and `also`, when given).
    package func attach(to runner: Runner, also: ((String) -> Void)? = nil) {
        runner.traceExact = true
        runner.traceLevel = Self.level
        runner.trace = { [unowned self] line in
            also?(line)
            self.line(line)
        }
    }

    /// A phase begins: what ran before it (setup, filling) is not read.
    package func phaseStarted(_ name: PhaseName) {
        phase = name.rawValue
        feed("RelBench: begin \(name)")
    }

    /// A line of the trace.
    package func line(_ text: String) {
        guard phase != nil else { return }
        feed(text)
    }

    /// The phase ends: its findings.
    package func phaseEnded(_ name: PhaseName) -> [Finding] {
        guard phase == name.rawValue else { return [] }
        feed("RelBench: end \(name)")
        phase = nil
        return analyzer.findings(ofSegment: name.rawValue)
    }

    private func feed(_ text: String) {
        var text = text
        text.withUTF8 { bytes in parser.feed(bytes: bytes) { analyzer.consume($0) } }
    }
}
