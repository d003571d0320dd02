import Foundation
import ObjectGraph

/// What `bench run` was asked for.
package struct RunRequest {
    package var scenarios: [Scenario]
    package var profile: Profile = .default
    package var sizes: [Int]?
    /// Strategies to run among each scenario's; nil runs them all.
    package var strategies: [Strategy]?
    /// Variants to run among each scenario's: one that matches any of these (every pair given, `modelling=many-to-one`);
    /// nil runs them all.
    package var variants: [VariantFilter]?
    package var repetitions: Int?
    package var warmup: Int?
    /// Whether the arms a claim compares on time or memory (where their SQL differs) go on, round by round, after the
    /// profile's repetitions until the claim's sequential design decides or its cap is reached. Off for the smoke
    /// profile (counts only), for `--repetitions N` (N asked for) and `--fixed-repetitions`.
    package var sequential = false
    package var seed: UInt64 = 42
    /// SQLite settings for every strategy. The read page cache stays SQLite's default unless set, as an app reads:
    /// a bulk-sized cache would hold a whole 1,000,000-row store and blur what batching saves.
    package var settings = StoreSettings()
    var options: StoreOptions { settings.storeOptions }
    var readPageCacheKiB: Int? { settings.readPageCacheKiB }
    /// Run only the scenarios of shard `index` (1-based) of `count`, for a CI matrix.
    package var shard: Shard?

    package init(scenarios: [Scenario]) { self.scenarios = scenarios }

    /// The request of `arguments` for `scenarios` (those the arguments name, resolved).
    package init(_ arguments: RunArguments, scenarios: [Scenario]) {
        self.scenarios = scenarios
        profile = arguments.profile
        sizes = arguments.sizes
        strategies = arguments.strategies
        variants = arguments.variants
        repetitions = arguments.repetitions
        sequential = arguments.repetitions == nil && arguments.fixedRepetitions != true && arguments.profile != .smoke
        warmup = arguments.warmup
        seed = arguments.seed
        settings = arguments.settings
        shard = arguments.shard
    }
}

/// `--variant modelling=many-to-one;prefetch=on`: the variants whose values include every pair.
package struct VariantFilter: Sendable, CustomStringConvertible, Codable, Equatable {
    package let pairs: [(axis: AxisName, value: String)]

    /// Parses `axis=value` pairs separated by `;` or `,`.
    package init(_ text: String) throws {
        let parts = text.split(whereSeparator: { $0 == ";" || $0 == "," }).map { $0.trimmingCharacters(in: .whitespaces) }
        let pairs = parts.map { part -> (String, String)? in
            let halves = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty else { return nil }
            return (halves[0], halves[1])
        }
        guard !pairs.isEmpty, pairs.allSatisfy({ $0 != nil }) else {
            throw BenchError.invalidInput(
                "--variant '\(text)': each part is AXIS=VALUE, separated by ';' or ',', e.g. --variant 'modelling=many-to-one;prefetch=on'")
        }
        self.pairs = pairs.compactMap { $0.map { (axis: AxisName($0.0), value: $0.1) } }
    }

    package func matches(_ variant: Variant) -> Bool { pairs.allSatisfy { variant[$0.axis]?.description == $0.value } }

    /// Whether every axis the filter names is one of `scenario`'s.
    func names(axesOf scenario: Scenario) -> Bool {
        pairs.allSatisfy { pair in scenario.axes.contains { $0.name == pair.axis } }
    }

    /// Whether the filter names axes and values `scenario` has.
    func applies(to scenario: Scenario) -> Bool {
        pairs.allSatisfy { pair in scenario.axes.contains { $0.name == pair.axis && $0.values.contains { $0.description == pair.value } } }
    }

    package var description: String { pairs.map { "\($0.axis)=\($0.value)" }.joined(separator: ";") }

    package static func == (lhs: VariantFilter, rhs: VariantFilter) -> Bool { lhs.description == rhs.description }

    package init(from decoder: any Decoder) throws { try self.init(try decoder.singleValueContainer().decode(String.self)) }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// One repetition to run: its scenario, size, strategy and variant, and whether it is a warmup.
package struct PlannedRepetition {
    package let scenario: Scenario
    package let size: Int
    package let strategy: Strategy
    package let variant: Variant
    package let isWarmup: Bool
    /// 1-based among the measured repetitions of its series (0 for warmups).
    package let repetition: Int
    /// Whether this repetition measures the phases' peak resident memory: the first round of its series only (its
    /// warmup where it has one), because the peak needs the freed heap returned to the system before each phase
    /// (`PeakMemory.reset`), which makes the phase fault its memory in again: that first touch is not timed in the
    /// measured repetitions after it.
    package var measuresPeak = false
}

/// The order a run executes its repetitions in. Within a scenario and size, every round runs each
/// (strategy, variant) once, rotated by one place per round, so that a drifting machine favours none.
package struct RunPlan {
    package let repetitions: [PlannedRepetition]
    package let scenarios: [Scenario]
    /// The sizes, repetitions and warmups of each scenario planned, for run.json.
    package private(set) var schedules: [String: RunInfo.Schedule] = [:]

    package var measuredCount: Int { repetitions.filter { !$0.isWarmup }.count }

    package init(_ request: RunRequest) throws {
        // A scenario, size or variant named twice runs once: twice would write each sample twice under one key.
        var seen = Set<ScenarioName>()
        var scenarios = request.scenarios.filter { seen.insert($0.name).inserted }
        if let shard = request.shard {
            scenarios = scenarios.sorted { $0.name < $1.name }.enumerated()
                .filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
            // More shards than scenarios: this one would run nothing and write an empty run.
            guard !scenarios.isEmpty else {
                let count = seen.count
                let empty =
                    count + 1 == shard.count
                    ? "shard \(shard.count) of \(shard.count) runs" : "shards \(count + 1)-\(shard.count) of \(shard.count) run"
                throw BenchError.invalidInput(
                    "--shard \(shard) is empty: the run chose \(count) scenario\(count == 1 ? "" : "s"), one per shard, so \(empty) none; give at most \(count) shards (--shard K/\(count))"
                )
            }
        }
        var planned: [PlannedRepetition] = []
        var used: [Scenario] = []
        for scenario in scenarios {
            let strategies = request.strategies.map { wanted in scenario.strategies.filter(wanted.contains) } ?? scenario.strategies
            var seenVariants = Set<String>()
            // A filter constrains the scenarios that have its axes; one without them runs all its variants.
            let filters = request.variants?.filter { $0.names(axesOf: scenario) } ?? []
            let variants = scenario.variants.filter { variant in
                seenVariants.insert(variant.description).inserted && (filters.isEmpty || filters.contains { $0.matches(variant) })
            }
            guard !strategies.isEmpty, !variants.isEmpty else { continue }
            if strategies.contains(where: \.isPeer) { try PeerSupport.check(scenario) }
            used.append(scenario)
            let sizes = request.sizes ?? scenario.sizes[request.profile] ?? []
            if let largest = sizes.max() {
                try MemoryBudget.check(
                    scenario, size: largest, option: request.sizes != nil ? "--sizes" : "the \(request.profile) profile's size")
            }
            let repetitions = request.repetitions ?? scenario.repetitions[request.profile] ?? 1
            let warmup = request.warmup ?? scenario.warmup[request.profile] ?? 0
            schedules[scenario.name.rawValue] = RunInfo.Schedule(
                sizes: Set(sizes).sorted(), repetitions: repetitions, warmup: warmup, sequential: request.sequential ? true : nil)
            let combinations = strategies.flatMap { strategy in variants.map { (strategy, $0) } }
            for size in Set(sizes).sorted() {
                for round in 0..<(warmup + repetitions) {
                    // The first measured round runs in declared order (reports list series in first-seen order).
                    let shift = ((round - warmup) % combinations.count + combinations.count) % combinations.count
                    let rotated = Array(combinations[shift...]) + Array(combinations[..<shift])
                    for (strategy, variant) in rotated {
                        planned.append(
                            PlannedRepetition(
                                scenario: scenario, size: size, strategy: strategy, variant: variant,
                                isWarmup: round < warmup, repetition: round < warmup ? 0 : round - warmup + 1,
                                measuresPeak: round == 0))
                    }
                }
            }
        }
        // Judged over every scenario chosen, not only this shard's: a strategy or variant none of them runs is a typo.
        if let strategies = request.strategies {
            let unused = strategies.filter { strategy in !request.scenarios.contains { $0.strategies.contains(strategy) } }
            if !unused.isEmpty {
                let offered = Set(request.scenarios.flatMap(\.strategies)).sorted().map(\.rawValue)
                throw BenchError.invalidInput(
                    "no chosen scenario runs strategy \(unused.map(\.rawValue).joined(separator: ", ")); "
                        + "they run \(offered.joined(separator: ", ")) (see 'bench list')")
            }
        }
        if let filters = request.variants {
            for filter in filters where !request.scenarios.contains(where: filter.applies) {
                let axes = Set(
                    request.scenarios.flatMap {
                        $0.axes.map(\.listing)
                    }
                ).sorted()
                throw BenchError.invalidInput(
                    "no chosen scenario has the variant \(filter); they have \(axes.isEmpty ? "no variants" : axes.joined(separator: ", ")) (see 'bench list')"
                )
            }
        }
        if request.strategies != nil || request.variants != nil, used.isEmpty {
            throw BenchError.invalidInput(
                "none of the chosen scenarios runs that choice of strategies and variants together; see 'bench list'")
        }
        self.repetitions = planned
        self.scenarios = used
    }
}
