import Foundation

/// Which arms of a scenario run one more round in a sequential run: those of every claim's comparison of time or
/// memory there that its design has not decided and that has not reached its cap, found by the very rule that judges
/// the claim (`Rule.pending`), so that the rounds run are the rounds the verdict's looks read. Counts decide with one
/// repetition and arms that run the same SQL are not judged on time, so neither ever asks for a round.
package enum SequentialRounds {
    /// The arms (strategy, variant) of `scenario` at `size` to run once more, in the claims' order; empty when none.
    package static func arms(
        samples: [SampleRecord], statements: [PhaseStatements], info: RunInfo, scenario: Scenario, size: Int,
        claims: [Claim] = ClaimCatalog.all
    ) -> [(Strategy, Variant)] {
        let ours = statements.filter { $0.key.scenario == scenario.name && $0.key.size == size }
        let run = RunEvidence(samples: samples, statements: ours, info: info)
        var arms: [(Strategy, Variant)] = []
        for claim in claims where claim.rule.isStatistical && claim.scenarios.contains(scenario.name) {
            for pending in claim.rule.pending(run, for: claim) where pending.size == size {
                for selector in [pending.a, pending.b] where selector.scenario == scenario.name {
                    guard let variant = scenario.variants.first(where: selector.matches(variant:)) else { continue }
                    if !arms.contains(where: { $0.0 == selector.strategy && $0.1.description == variant.description }) {
                        arms.append((selector.strategy, variant))
                    }
                }
            }
        }
        return arms
    }

    /// The most rounds any claim's design can look at (its cap, extension looks included): past it no comparison asks
    /// for another round, so the runner stops there even if an arm records no value and so never decides.
    package static func roundCap(claims: [Claim] = ClaimCatalog.all) -> Int {
        claims.filter(\.rule.isStatistical).map { SequentialDesign.starting(at: max($0.repetitions, SequentialDesign.firstLook)).cap }
            .max() ?? 0
    }
}
