import Foundation

/// Phases of a declared scenario whose fetches found nothing: a predicate that selects no generated object
/// (`blog.blogID == 1` where the IDs are random) measures an empty screen, and the numbers look fine.
public enum EmptyFetches {
    /// One note per scenario, variant and size whose phase fetched (a fetch step with a predicate) and read no
    /// row in ObjectGraph, with what to check.
    public static func notes(_ summary: [SummaryRow], scenarios: [Scenario]) -> [String] {
        var notes: [String] = []
        for scenario in scenarios {
            guard let declared = scenario.declared else { continue }
            let filtering = Set(declared.plans.values.flatMap { plan in
                plan.phases.filter { phase in phase.steps.contains { if case let .fetch(fetch) = $0 { fetch.predicate != nil } else { false } } }.map(\.name)
            })
            let empty = summary.filter {
                $0.key.scenario == scenario.name && $0.key.strategy == StrategyID.objectGraph.description
                    && $0.key.metric == Metric.rowsRead.rawValue && filtering.contains($0.key.phase) && $0.summary?.median == 0
            }
            for row in empty.sorted(by: { $0.key < $1.key }) {
                let variant = row.key.variant.isEmpty ? "" : " \(row.key.variant)"
                let choice = row.key.variant.isEmpty ? "" : " --variant '\(row.key.variant)'"
                notes.append("\(scenario.name) \(row.key.phase)\(variant) n=\(row.key.size): its fetches read no row; check their predicates "
                             + "against the generated data (bench explain \(scenario.name)\(folderOption(scenario))\(choice) --size \(row.key.size) "
                             + "shows each statement and its values)")
            }
        }
        return notes
    }

    /// ` --scenarios DIR` when the scenario's file is not in the repository's folder, which explain reads by default.
    private static func folderOption(_ scenario: Scenario) -> String {
        guard case let .file(path) = scenario.origin else { return "" }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        let standard = URL(fileURLWithPath: ScenarioCatalog.defaultFolder()).standardizedFileURL.path
        return folder == standard ? "" : " --scenarios \(folder)"
    }
}
