/// Whether the hand-written peers can run a scenario: they implement the School model's shipped scenarios, phase
/// by phase (`SchoolPhase`), so a scenario file that lists `raw-sqlite` or `grdb` must be one of those.
package enum PeerSupport {
    /// Refuses `scenario` when it lists a peer that has no implementation of its model or of one of its phases, with
    /// a line naming the file and what the peers do implement.
    package static func check(_ scenario: Scenario) throws {
        guard let peer = scenario.strategies.first(where: \.isPeer) else { return }
        func fail(_ reason: String) -> BenchError { .invalidInput("\(scenario.file): field 'strategies': " + reason) }
        let variants = scenario.variants
        for variant in variants {
            let plan = try scenario.declared.plan(for: variant)
            guard SchoolSchema(model: plan.model, manualKeys: plan.manualKeys) != nil else {
                throw fail(
                    "\(peer) implements the School model's scenarios (Scenarios/models/School.xcdatamodeld); this scenario's model is another: run it with objectgraph and sql-replay"
                )
            }
            if let phase = plan.phases.first(where: { SchoolPhase(scenario: scenario.name.rawValue, phase: $0) == nil }) {
                let known = SchoolPhase.implemented.map { "\($0.key) (\($0.value.joined(separator: ", ")))" }.sorted()
                    .joined(separator: "; ")
                throw fail(
                    "\(peer) has no implementation of \(scenario.name)'s phase '\(phase.name)'\(variants.count > 1 ? " with \(variant)" : ""); the peers implement the shipped School scenarios as written: \(known)"
                )
            }
        }
    }
}
