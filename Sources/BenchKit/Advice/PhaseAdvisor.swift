import ObjectGraph

/// Collects ObjectGraph's statements phase by phase while a runner runs, and hands each phase to the detector:
/// how `bench explain` and `bench advise` see a repetition.
package final class PhaseAdvisor {
    private let log = StatementLog()
    private let detector: NPlusOneDetector
    private let plan: DeclaredScenario.Plan?

    package init(detector: NPlusOneDetector, scenario: Scenario, variant: Variant) {
        self.detector = detector
        plan = scenario.declared.plans[variant]
    }

    /// Makes `runner` log ObjectGraph's statements (untimed passes only: logging costs time).
    package func attach(to runner: Runner) { runner.statementLog = log }

    /// Drops what ran before the phase (setup, filling).
    package func phaseStarted() { _ = log.take() }

    /// The findings of the phase that just ended.
    package func findings(phase: PhaseName) -> [QueryFinding] {
        let shape = plan?.phases.first { $0.name == phase }.map { NPlusOneDetector.PhaseShape(steps: $0.steps) }
        return detector.findings(phase: phase, entries: log.take(), model: log.model, shape: shape)
    }
}
