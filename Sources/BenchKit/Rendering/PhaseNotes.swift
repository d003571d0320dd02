import Foundation

/// Phases of declared scenarios whose numbers look fine but measure something else than meant, each with the
/// `bench explain` line that shows why.
package enum PhaseNotes {
    /// The notes of a finished run: empty fetches, then refused saves.
    package static func notes(_ summary: [SummaryRow], scenarios: [Scenario]) -> [String] {
        emptyFetches(summary, scenarios: scenarios) + refusedSaves(summary, scenarios: scenarios)
    }

    /// One note per scenario, variant and size whose phase only reads (fetch, count and read steps, one fetch with
    /// a predicate at least) and read no row in ObjectGraph: a predicate that selects no generated object
    /// (`blog.blogID == 1` where the IDs are random) measures an empty screen. A phase that writes first may
    /// rightly find nothing, so it is not judged; nor is one empty fetch among others that read rows.
    static func emptyFetches(_ summary: [SummaryRow], scenarios: [Scenario]) -> [String] {
        var notes: [String] = []
        for scenario in scenarios {
            let declared = scenario.declared
            let empty = summary.filter { row in
                guard row.key.scenario == scenario.name, row.key.strategy == .objectGraph,
                    row.key.metric == .rowsRead, row.summary?.median == 0,
                    let phase = declared.plans[row.key.variant]?.phases.first(where: { $0.name == row.key.phase })
                else { return false }
                // On the prepared store: a phase continuing one that deleted may rightly find nothing.
                return phase.store == .prepared && isFilteringRead(phase.steps)
            }
            for row in empty.sorted(by: { $0.key < $1.key }) {
                notes.append(
                    "\(label(row, scenario)): its fetches read no row; check their predicates against the generated data "
                        + "(\(explainLine(row, scenario)) shows each statement and its values)")
            }
        }
        return notes
    }

    /// One note per phase of a generated suite (`bench run --model`) whose save a Deny rule or a validation refused
    /// in ObjectGraph: the phase then times the attempt and its rollback, not a delete; a delete phase names the
    /// chain of delete rules that stops it. A scenario file's `"save": "may-fail"` asks for that and is not noted.
    static func refusedSaves(_ summary: [SummaryRow], scenarios: [Scenario]) -> [String] {
        var notes: [String] = []
        for scenario in scenarios {
            guard case .generated = scenario.origin else { continue }
            let refused = summary.filter { row in
                row.key.scenario == scenario.name && row.key.strategy == .objectGraph
                    && row.key.metric == .failedSaves && (row.summary?.median ?? 0) > 0
            }
            for row in refused.sorted(by: { $0.key < $1.key }) {
                notes.append(
                    "\(label(row, scenario)): its save was refused and rolled back (\(refusal(row, scenario))), so the phase "
                        + "times the attempt, not a delete (\(explainLine(row, scenario)) shows the refusal)")
            }
        }
        return notes
    }

    /// Why a generated delete phase's save was refused: the Deny rule its cascades reach, else a validation.
    static func refusal(_ row: SummaryRow, _ scenario: Scenario) -> String {
        let phase = row.key.phase.rawValue
        guard phase.hasPrefix("delete-"), let plan = scenario.declared.plans[row.key.variant],
            let entity = plan.model.entity(String(phase.dropFirst("delete-".count))),
            let chain = ModelLint.denyChain(deleting: entity), let deny = chain.last
        else { return "a Deny rule or a validation" }
        let denied = deny.entity.name
        if chain.count == 1 {
            return
                "\(deny.qualifiedName) is Deny: \(withArticle(denied)) with \(deny.isToMany ? deny.name : withArticle(deny.name)) cannot be deleted"
        }
        return
            "\(ModelLint.chainText(chain)): deleting \(withArticle(entity.name)) cascades into \(ModelLint.plural(denied)), and \(withArticle(denied)) with \(deny.isToMany ? deny.name : withArticle(deny.name)) cannot be deleted"
    }

    private static func label(_ row: SummaryRow, _ scenario: Scenario) -> String {
        "\(scenario.name) \(row.key.phase)\(row.key.variant.isEmpty ? "" : " \(row.key.variant)") n=\(row.key.size)"
    }

    private static func explainLine(_ row: SummaryRow, _ scenario: Scenario) -> String {
        Scenario.Origin.explainCommand(
            scenario.origin, scenario: scenario.name, variant: row.key.variant, size: row.key.size, phase: row.key.phase)
    }

    private static func isFilteringRead(_ steps: [Step]) -> Bool {
        var filters = false
        for step in steps {
            switch step {
            case let .fetch(fetch): filters = filters || fetch.predicate != nil
            case .count, .read: continue
            default: return false
            }
        }
        return filters
    }

}
