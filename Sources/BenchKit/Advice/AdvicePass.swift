import Foundation
import ObjectGraph

/// Runs scenarios once, untimed, with ObjectGraph's statements logged, and hands each phase to the N+1 detector:
/// what `bench advise` and the end of `bench run` report. Only ObjectGraph's strategies run (the peers issue the
/// SQL they were written with); each scenario at the size a run measured it at (its largest), else at `size`, one
/// where an N+1 shows (1,000 by default: 20 classes of 50).
package struct AdvicePass {
    package var scenarios: [Scenario]
    /// Strategies to run among each scenario's ObjectGraph ones; nil runs them all.
    package var strategies: [Strategy]?
    /// Variants to run among each scenario's; nil runs them all.
    package var variants: [VariantFilter]?
    package var size = 1000
    /// The size of each scenario, overriding `size`: a run's largest.
    package var sizes: [ScenarioName: Int] = [:]
    package var seed: UInt64 = 42
    package var detector = NPlusOneDetector()

    package init(scenarios: [Scenario]) { self.scenarios = scenarios }

    /// The size each scenario runs at.
    package func size(of scenario: Scenario) -> Int { sizes[scenario.name] ?? size }

    /// Every finding, scenario by scenario in the order given.
    package func run() throws -> [QueryFinding] {
        var findings: [QueryFinding] = []
        for scenario in scenarios { findings += try run([scenario], size: size(of: scenario)) }
        return findings
    }

    private func run(_ scenarios: [Scenario], size: Int) throws -> [QueryFinding] {
        var request = RunRequest(scenarios: scenarios)
        request.sizes = [size]
        request.repetitions = 1
        request.warmup = 0
        request.seed = seed
        request.strategies = strategies
        request.variants = variants
        let plan = try RunPlan(request)
        let runner = Runner(request: request, plan: plan, folder: nil, progress: nil)
        var findings: [QueryFinding] = []
        for repetition in plan.repetitions where repetition.strategy == .objectGraph {
            let advisor = PhaseAdvisor(detector: detector, scenario: repetition.scenario, variant: repetition.variant)
            advisor.attach(to: runner)
            final class Found { var findings: [QueryFinding] = [] }
            let found = Found()
            runner.observer = PhaseRecorder.Observer(
                phaseStarted: { _ in advisor.phaseStarted() },
                phaseEnded: { phase, _ in found.findings += advisor.findings(phase: phase) })
            _ = try runner.run(repetition)
            for var finding in found.findings {
                finding.scenario = repetition.scenario.name
                finding.strategy = repetition.strategy
                finding.variant = repetition.variant
                finding.size = repetition.size
                findings.append(finding)
            }
        }
        return findings
    }

    /// Adds to each finding what the run measured for the same phase without the pattern: the sibling variant
    /// (same scenario, strategy and size, another value of one axis) with the fewest statements, where it ran fewer.
    package static func attachMeasurements(_ findings: [QueryFinding], summary: [SummaryRow]) -> [QueryFinding] {
        let statements = summary.filter { $0.key.metric == .sqlStatements }
        return findings.map { finding in
            var finding = finding
            let siblings = statements.filter {
                $0.key.scenario == finding.scenario && $0.key.strategy == finding.strategy && $0.key.phase == finding.phase
            }
            guard let size = siblings.map(\.key.size).filter({ $0 <= max(finding.size, 1) }).max() ?? siblings.map(\.key.size).min(),
                let own = siblings.first(where: { $0.key.size == size && $0.key.variant == finding.variant })?.summary?.median,
                let best = siblings.filter({ $0.key.size == size && $0.key.variant != finding.variant })
                    .min(by: { ($0.summary?.median ?? .infinity) < ($1.summary?.median ?? .infinity) }),
                let bestMedian = best.summary?.median, bestMedian < own
            else { return finding }
            finding.measured =
                "measured at size \(formatCount(size)): \(best.key.variant) ran \(formatNumber(bestMedian)) statements against \(formatNumber(own))"
            return finding
        }
    }
}
