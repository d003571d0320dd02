import Foundation

/// Phases of a declared scenario whose fetches found nothing: a predicate that selects no generated object
/// (`blog.blogID == 1` where the IDs are random) measures an empty screen, and the numbers look fine.
public enum EmptyFetches {
    /// One note per scenario, variant and size whose phase only reads (fetch, count and read steps, one fetch with
    /// a predicate at least) and read no row in ObjectGraph, with what to check. A phase that writes first may
    /// rightly find nothing, so it is not judged; nor is one empty fetch among others that read rows.
    public static func notes(_ summary: [SummaryRow], scenarios: [Scenario]) -> [String] {
        var notes: [String] = []
        for scenario in scenarios {
            guard let declared = scenario.declared else { continue }
            let empty = summary.filter { row in
                guard row.key.scenario == scenario.name, row.key.strategy == StrategyID.objectGraph.description,
                      row.key.metric == Metric.rowsRead.rawValue, row.summary?.median == 0,
                      let phase = declared.plans[row.key.variant]?.phases.first(where: { $0.name == row.key.phase }) else { return false }
                // On the prepared store: a phase continuing one that deleted may rightly find nothing.
                return phase.store == .prepared && isFilteringRead(phase.steps)
            }
            for row in empty.sorted(by: { $0.key < $1.key }) {
                let variant = row.key.variant.isEmpty ? "" : " \(row.key.variant)"
                let choice = row.key.variant.isEmpty ? "" : " --variant '\(row.key.variant)'"
                notes.append("\(scenario.name) \(row.key.phase)\(variant) n=\(row.key.size): its fetches read no row; check their predicates "
                             + "against the generated data (bench explain \(explainTarget(scenario))\(choice) --size \(row.key.size) "
                             + "--phase \(row.key.phase) shows each statement and its values)")
            }
        }
        return notes
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

    /// What `bench explain` takes for the scenario: its name (with ` --scenarios DIR` when its file is not in the
    /// repository's folder, which explain reads by default), or `--model PATH` for a generated suite.
    private static func explainTarget(_ scenario: Scenario) -> String {
        switch scenario.origin {
        case let .generated(model): return "--model \(model)"
        case let .file(path):
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
            let standard = URL(fileURLWithPath: ScenarioCatalog.defaultFolder()).standardizedFileURL.path
            return scenario.name + (folder == standard ? "" : " --scenarios \(folder)")
        }
    }
}
