/// The `bench run` that would decide a claim a run left undecided or did not measure: its scenarios, the profile,
/// and the sizes and repetitions beyond the profile's it needs.
package struct DecidingRun: Sendable, Equatable, CustomStringConvertible {
    package var scenarios: [ScenarioName]
    package var profile: Profile
    package var sizes: Int?
    package var repetitions: Int?

    /// The options after the scenario names: runs with equal options can be one command.
    package var options: String {
        var text = "--profile \(profile.rawValue)"
        if let sizes { text += " --sizes \(sizes)" }
        if let repetitions { text += " --repetitions \(repetitions)" }
        return text
    }

    package var description: String { "bench run \(scenarios.map(\.rawValue).joined(separator: " ")) \(options)" }

    /// The runs as few commands as their options allow: one per set of options, scenarios in order and once each.
    package static func merged(_ runs: [DecidingRun]) -> [DecidingRun] {
        var merged: [DecidingRun] = []
        for run in runs {
            if let index = merged.firstIndex(where: { $0.options == run.options }) {
                for scenario in run.scenarios where !merged[index].scenarios.contains(scenario) {
                    merged[index].scenarios.append(scenario)
                }
            } else {
                merged.append(run)
            }
        }
        return merged.map { run in
            var sorted = run
            sorted.scenarios.sort { $0.rawValue < $1.rawValue }
            return sorted
        }
    }
}
