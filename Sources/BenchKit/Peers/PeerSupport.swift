/// Whether the hand-written peers can run a scenario: they implement the School model's operations (`SchoolOperation`),
/// each recognised from a phase's typed steps, so a scenario file that lists `raw-sqlite` or `grdb` must be on the
/// School model with every phase one of those operations.
package enum PeerSupport {
    /// Refuses `scenario` when it lists a peer that has no implementation of its model or of one of its phases, with
    /// a line naming the file and what the peers do implement.
    package static func check(_ scenario: Scenario) throws {
        guard let peer = scenario.strategies.first(where: \.isPeer) else { return }
        func fail(_ reason: String) -> BenchError { .field("strategies", of: scenario.file, reason) }
        let variants = scenario.variants
        for variant in variants {
            let plan = try scenario.declared.plan(for: variant)
            guard let school = School(model: plan.model, manualKeys: plan.manualKeys) else {
                throw fail(
                    "\(peer) implements the School model's scenarios (Scenarios/models/School.xcdatamodeld); this scenario's model is another: run it with objectgraph and sql-replay"
                )
            }
            if let phase = plan.phases.first(where: { SchoolOperation(phase: $0, school: school) == nil }) {
                throw fail(
                    "\(peer) has no implementation of \(scenario.name)'s phase '\(phase.name)'\(variants.count > 1 ? " with \(variant)" : ""); the peers implement these phases of the School model: \(SchoolOperation.implemented.joined(separator: "; "))"
                )
            }
        }
    }
}
