import Foundation

/// Deliberate regressions, for checking that `bench compare` catches what it should (and only that):
///
/// - `RELBENCH_INJECT_SLOWDOWN=query/walk=0.15` makes the `walk` phase of scenario `query` spin for 15% of its
///   measured time more, inside the timed region, for every strategy;
/// - `RELBENCH_INJECT_STATEMENT=query/walk` makes ObjectGraph run one extra statement (a count request) per object
///   the `walk` phase of scenario `query` reads, as a change that added a query per owner would.
package struct Injection: Sendable {
    package var slowdown: (scenario: String, phase: String, fraction: Double)?
    package var extraStatement: (scenario: String, phase: String)?

    package static let current = Injection(environment: ProcessInfo.processInfo.environment)

    package init(environment: [String: String]) {
        if let text = environment["RELBENCH_INJECT_SLOWDOWN"] {
            let parts = text.split(separator: "=", maxSplits: 1)
            let target = parts.first?.split(separator: "/") ?? []
            if parts.count == 2, target.count == 2, let fraction = Double(parts[1]), fraction > 0 {
                slowdown = (String(target[0]), String(target[1]), fraction)
            }
        }
        if let target = environment["RELBENCH_INJECT_STATEMENT"]?.split(separator: "/"), target.count == 2 {
            extraStatement = (String(target[0]), String(target[1]))
        }
    }

    /// Whether ObjectGraph runs an extra statement per object read in this phase.
    func addsStatement(scenario: ScenarioName, phase: PhaseName) -> Bool {
        extraStatement.map { $0.scenario == scenario.rawValue && $0.phase == phase.rawValue } ?? false
    }

    /// The `RELBENCH_INJECT_*` variables set in `environment`, recorded in run.json.
    package static func variables(_ environment: [String: String]) -> [String: String] {
        environment.filter { $0.key.hasPrefix("RELBENCH_INJECT_") }
    }

    /// The share of its time the phase is slowed down by, or nil when it is not the one slowed down.
    func slowdownFraction(scenario: ScenarioName?, phase: PhaseName) -> Double? {
        guard let slowdown, slowdown.scenario == scenario?.rawValue, slowdown.phase == phase.rawValue else { return nil }
        return slowdown.fraction
    }

    /// Spins for `milliseconds`.
    static func spin(milliseconds: Double) {
        let until = MonotonicClock.now() + UInt64(milliseconds * 1_000_000)
        var work: UInt64 = 0x9E37_79B9
        while MonotonicClock.now() < until {
            for _ in 0..<64 { work = work &* 6_364_136_223_846_793_005 &+ 1 }
        }
        if work == 42 { print("") }
    }
}
