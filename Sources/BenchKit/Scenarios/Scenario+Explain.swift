import Foundation

extension Scenario.Origin {
    /// What `bench explain` takes for a scenario of this origin: its name (with ` --scenarios DIR` when its file is not
    /// in the repository's folder, which explain reads by default), or `--model PATH` for a generated suite.
    package func explainTarget(_ name: String) -> String {
        switch self {
        case let .generated(model): return "--model \(shellWord(model))"
        case let .file(path):
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
            let standard = URL(fileURLWithPath: ScenarioCatalog.defaultFolder()).standardizedFileURL.path
            return name + (folder == standard ? "" : " --scenarios \(shellWord(folder))")
        }
    }
}
