import Foundation

extension Scenario.Origin {
    /// What `bench explain` takes for a scenario of this origin: its name (with ` --scenarios DIR` when its file is not
    /// in the repository's folder, which explain reads by default), or `--model PATH` for a generated suite, with the
    /// counts or store shape its data followed.
    package func explainTarget(_ name: ScenarioName) -> String {
        switch self {
        case let .generated(model, options): return "--model \(shellWord(model))" + options.arguments
        case let .file(path):
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
            let standard = URL(fileURLWithPath: ScenarioCatalog.defaultFolder()).standardizedFileURL.path
            return name.rawValue + (folder == standard ? "" : " --scenarios \(shellWord(folder))")
        }
    }

    /// The `bench explain` that shows one series' phase statement by statement; `origin` nil (a run before run.json
    /// recorded it) names the scenario alone.
    package static func explainCommand(
        _ origin: Scenario.Origin?, scenario: ScenarioName, variant: Variant, size: Int, phase: PhaseName
    ) -> String {
        let choice = variant.isEmpty ? "" : " --variant '\(variant)'"
        // Counts given per entity are the data's size: explain takes them instead of --size.
        var sized = true
        if case let .generated(_, options) = origin { sized = options.counts.isEmpty }
        let target = origin?.explainTarget(scenario) ?? scenario.rawValue
        return "bench explain \(target)\(choice)\(sized ? " --size \(size)" : "") --phase \(phase)"
    }
}
