import Foundation
import SQLDebugLog

/// A finding of the SQL analysis (`SQLDebugLog`'s, the one `bench log` gives a device's log) on one phase of a run,
/// with where it ran and what only a run knows: the saving measured between variants.
package struct AdviceFinding: Sendable, Codable, Equatable {
    package var scenario: ScenarioName
    package var strategy: Strategy
    package var variant: Variant
    package var size: Int
    package var finding: Finding
    /// The same phase measured without the pattern in the run, when it has such a series (another variant).
    package var measured: String?

    package init(scenario: ScenarioName, strategy: Strategy, variant: Variant, size: Int, finding: Finding, measured: String? = nil) {
        self.scenario = scenario
        self.strategy = strategy
        self.variant = variant
        self.size = size
        self.finding = finding
        self.measured = measured
    }

    package var phase: PhaseName { PhaseName(finding.segment) }

    /// `walk: 20 × "SELECT ..." — to-many fault Class.students per owner: add ... (21 → 2 statements); measured ...`.
    package var line: String { finding.line + (measured.map { "; \($0)" } ?? "") }
}
