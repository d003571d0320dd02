import Foundation
import ObjectGraph
import SQLDebugLog

/// Runs scenarios once, untimed, with ObjectGraph's exact SQLDebug trace read phase by phase by the analyzer `bench
/// log` reads a device's log with (`TraceAdvisor`): what `bench advise` and the end of `bench run` report. Only ObjectGraph's strategies run (the peers issue the
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
    /// Repeats of one statement in a phase above which it is a finding.
    package var threshold = 10

    package init(scenarios: [Scenario]) { self.scenarios = scenarios }

    /// The size each scenario runs at.
    package func size(of scenario: Scenario) -> Int { sizes[scenario.name] ?? size }

    /// Every finding, scenario by scenario in the order given.
    package func run() throws -> [AdviceFinding] {
        var findings: [AdviceFinding] = []
        for size in Set(scenarios.map(size(of:))).sorted() {
            findings += try run(scenarios.filter { self.size(of: $0) == size }, size: size)
        }
        let order = Dictionary(scenarios.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
        return findings.enumerated().sorted { (order[$0.element.scenario] ?? 0, $0.offset) < (order[$1.element.scenario] ?? 0, $1.offset) }
            .map(\.element)
    }

    /// The findings of `scenarios` at `size`, with the run's strategies and variants narrowed to those the scenarios
    /// have (a run's choice may name an axis only other scenarios, run at other sizes, have).
    private func run(_ scenarios: [Scenario], size: Int) throws -> [AdviceFinding] {
        var request = RunRequest(scenarios: scenarios)
        request.sizes = [size]
        request.repetitions = 1
        request.warmup = 0
        request.seed = seed
        if let strategies {
            request.strategies = strategies.filter { strategy in scenarios.contains { $0.strategies.contains(strategy) } }
            if request.strategies?.isEmpty == true { return [] }
        }
        if let variants {
            let applying = variants.filter { filter in scenarios.contains(where: filter.applies) }
            request.variants = applying.isEmpty ? nil : applying
        }
        let plan = try RunPlan(request)
        let runner = Runner(request: request, plan: plan, folder: nil, progress: nil)
        var findings: [AdviceFinding] = []
        runner.measuresMemory = false
        runner.undoesChanges = true
        for repetition in plan.repetitions where repetition.strategy == .objectGraph {
            let advisor = TraceAdvisor(scenario: repetition.scenario, variant: repetition.variant, threshold: threshold)
            advisor.attach(to: runner)
            final class Found { var findings: [Finding] = [] }
            let found = Found()
            // A reference phase's pattern is the comparison's point (the suite's walk without prefetching): no advice.
            let references = Set(
                (repetition.scenario.declared.plans[repetition.variant]?.phases ?? []).filter(\.isReference).map(\.name))
            runner.observer = PhaseRecorder.Observer(
                phaseStarted: { advisor.phaseStarted($0) },
                phaseEnded: { phase, _ in
                    let findings = advisor.phaseEnded(phase)
                    if !references.contains(phase) { found.findings += findings }
                })
            _ = try runner.run(repetition)
            findings += found.findings.map {
                AdviceFinding(
                    scenario: repetition.scenario.name, strategy: repetition.strategy, variant: repetition.variant,
                    size: repetition.size, finding: $0)
            }
        }
        return findings
    }

    /// Adds to each finding what the run measured for the same phase without the pattern: a sibling variant (same
    /// scenario, strategy and size) that differs from the finding's in one axis alone, in which the advice found no such
    /// pattern, and whose phase (from `scenarios`' declared steps) fetches and reads as the finding's does but for the
    /// advised change (the prefetch, the count read, the batch size); so the saving quoted is that change's and nothing
    /// else's. The one with the fewest statements where several qualify; without one, "not measured" when the run had
    /// other variants.
    package static func attachMeasurements(
        _ findings: [AdviceFinding], summary: [SummaryRow], scenarios: [Scenario] = []
    ) -> [AdviceFinding] {
        let statements = summary.filter { $0.key.metric == .sqlStatements }
        func pattern(_ finding: AdviceFinding, in variant: Variant) -> String {
            "\(finding.scenario) \(finding.strategy) \(variant) \(finding.phase) \(finding.finding.rule.rawValue) \(finding.finding.subject)"
        }
        let found = Set(findings.map { pattern($0, in: $0.variant) })
        let byName = Dictionary(scenarios.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func access(_ scenario: ScenarioName, _ variant: Variant, _ phase: PhaseName) -> SegmentAccess? {
            guard let plan = byName[scenario]?.declared.plans[variant] else { return nil }
            return PhaseAccess.of(plan)[phase.rawValue]
        }
        return findings.map { finding in
            var finding = finding
            let siblings = statements.filter {
                $0.key.scenario == finding.scenario && $0.key.strategy == finding.strategy && $0.key.phase == finding.phase
            }
            guard finding.finding.statementsAfter != nil else { return finding }
            guard let size = siblings.map(\.key.size).filter({ $0 <= max(finding.size, 1) }).max() ?? siblings.map(\.key.size).min(),
                let own = siblings.first(where: { $0.key.size == size && $0.key.variant == finding.variant })?.summary?.median
            else { return finding }
            let others = siblings.filter { $0.key.size == size && $0.key.variant != finding.variant }
            let ownAccess = access(finding.scenario, finding.variant, finding.phase)
            let alike = others.filter { sibling in
                guard differsInOneAxis(sibling.key.variant, finding.variant), !found.contains(pattern(finding, in: sibling.key.variant))
                else { return false }
                guard let ownAccess, let other = access(finding.scenario, sibling.key.variant, finding.phase) else { return true }
                return differsInTheFixAlone(finding.finding.rule, ownAccess, other)
            }
            guard let best = alike.min(by: { ($0.summary?.median ?? .infinity) < ($1.summary?.median ?? .infinity) }),
                let bestMedian = best.summary?.median, bestMedian < own
            else {
                if !others.isEmpty {
                    finding.measured = "not measured: no variant of the run differs from \(finding.variant) in this change alone"
                }
                return finding
            }
            finding.measured =
                "measured at size \(formatCount(size)): \(best.key.variant) ran \(formatNumber(bestMedian)) statements against \(formatNumber(own))"
            return finding
        }
    }

    /// Whether two variants of one scenario differ in the value of exactly one axis.
    static func differsInOneAxis(_ one: Variant, _ other: Variant) -> Bool {
        guard one.values.count == other.values.count else { return false }
        return zip(one.values, other.values).filter { $0.name != $1.name || $0.value.description != $1.value.description }.count == 1
    }

    /// Whether a phase's two declared accesses are the same fetches and reads but for what the fix of `rule` changes:
    /// the prefetched key paths, the key paths read (a derived count for a count through faults), the batch size; for
    /// a rule whose fix the access does not show (an index, a fetch moved out of a loop), the same access.
    static func differsInTheFixAlone(_ rule: FindingRule, _ one: SegmentAccess, _ other: SegmentAccess) -> Bool {
        guard one.fetches.count == other.fetches.count else { return false }
        return zip(one.fetches, other.fetches).allSatisfy { pair in
            var (first, second) = pair
            switch rule {
            case .toManyFaultPerOwner, .toOneFaultPerObject, .unusedPrefetch:
                (first.prefetch, second.prefetch) = ([], [])
            case .countThroughFaults:
                (first.reads, second.reads) = ([], [])
            case .smallBatches, .largeUnbatchedFetch, .oversizedBatch:
                (first.batchSize, second.batchSize) = (0, 0)
            default:
                break
            }
            return first == second
        }
    }
}
