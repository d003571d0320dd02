import Foundation

extension RunFolder {
    /// The folder `new` wanted exists already (another run made it first).
    package struct Taken: Error {}

    /// A new run folder under `<resultsFolder>/runs`, named after the UTC time it starts (`20250101T120000Z`) and made
    /// by this process: a run started in the same second as another takes the next free name (`...Z-2`, `...Z-3`),
    /// never the other's folder.
    package static func atDefaultPath(info: RunInfo, resultsFolder: String = "Results") throws -> RunFolder {
        let base = defaultPath(resultsFolder: resultsFolder)
        for attempt in 1...1000 {
            do {
                return try RunFolder(path: attempt == 1 ? base : "\(base)-\(attempt)", info: info, new: true)
            } catch is Taken {
                continue
            }
        }
        throw BenchError.io("\(base) and its next 999 names are taken; give the run folder with --output")
    }
}
