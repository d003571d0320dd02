import Foundation
import ObjectGraph

/// What `bench run` was asked for.
public struct RunRequest {
    public var scenarios: [Scenario]
    public var profile: Profile = .default
    public var sizes: [Int]?
    /// Strategies to run among each scenario's (a bare `raw-sqlite` selects the raw peer of each modelling chosen,
    /// or of every modelling when none is); nil runs them all.
    public var strategies: [StrategySelector]?
    public var repetitions: Int?
    public var warmup: Int?
    public var seed: UInt64 = 42
    /// SQLite settings for every strategy. The read page cache stays SQLite's default unless set, as an app reads:
    /// a bulk-sized cache would hold a whole 1,000,000-row store and blur what batching saves.
    public var settings = StoreSettings()
    public var inMemory: Bool {
        get { settings.inMemory }
        set { settings.inMemory = newValue }
    }
    var options: StoreOptions { settings.storeOptions }
    var readPageCacheKiB: Int? { settings.readPageCacheKiB }
    /// Run only the scenarios of shard `index` (1-based) of `count`, for a CI matrix.
    public var shard: Shard?

    public init(scenarios: [Scenario]) { self.scenarios = scenarios }
}

/// One repetition to run: its scenario, size, strategy and variant, and whether it is a warmup.
public struct PlannedRepetition {
    public let scenario: Scenario
    public let size: Int
    public let strategy: StrategyID
    public let variant: Variant
    public let isWarmup: Bool
    /// 1-based among the measured repetitions of its series (0 for warmups).
    public let repetition: Int
}

/// The order a run executes its repetitions in. Within a scenario and size, every round runs each
/// (strategy, variant) once, rotated by one place per round, so that a drifting machine favours none.
public struct RunPlan {
    public let repetitions: [PlannedRepetition]
    public let scenarios: [Scenario]

    public var measuredCount: Int { repetitions.filter { !$0.isWarmup }.count }

    public init(_ request: RunRequest) throws {
        // A scenario, size or variant named twice runs once: twice would write each sample twice under one key.
        var seen = Set<String>()
        var scenarios = request.scenarios.filter { seen.insert($0.name).inserted }
        if let shard = request.shard {
            scenarios = scenarios.sorted { $0.name < $1.name }.enumerated()
                .filter { $0.offset % shard.count == shard.index - 1 }.map(\.element)
        }
        var planned: [PlannedRepetition] = []
        var used: [Scenario] = []
        for scenario in scenarios {
            let strategies = request.strategies.map { wanted in
                let chosen = StrategySelector.expand(wanted, available: scenario.strategies)
                return scenario.strategies.filter(chosen.contains)
            } ?? scenario.strategies
            guard !strategies.isEmpty else { continue }
            used.append(scenario)
            let sizes = request.sizes ?? scenario.sizes[request.profile] ?? []
            let repetitions = request.repetitions ?? scenario.repetitions[request.profile] ?? 1
            let warmup = request.warmup ?? scenario.warmup[request.profile] ?? 0
            var seenVariants = Set<String>()
            let variants = scenario.variants.filter { seenVariants.insert($0.description).inserted }
            let combinations = strategies.flatMap { strategy in variants.map { (strategy, $0) } }
            for size in Set(sizes).sorted() {
                for round in 0..<(warmup + repetitions) {
                    // The first measured round runs in declared order (reports list series in first-seen order).
                    let shift = ((round - warmup) % combinations.count + combinations.count) % combinations.count
                    for (strategy, variant) in combinations[shift...] + combinations[..<shift] {
                        planned.append(PlannedRepetition(scenario: scenario, size: size, strategy: strategy, variant: variant,
                                                         isWarmup: round < warmup, repetition: round < warmup ? 0 : round - warmup + 1))
                    }
                }
            }
        }
        // Judged over every scenario chosen, not only this shard's: a strategy none of them runs is a typo or a mix-up.
        if let strategies = request.strategies {
            let unused = strategies.filter { selector in !request.scenarios.contains { $0.strategies.contains(where: selector.matches) } }
            if !unused.isEmpty {
                let offered = Set(request.scenarios.flatMap(\.strategies).map(\.rawValue)).sorted()
                throw BenchError.invalidInput("no chosen scenario runs strategy \(unused.map(\.description).joined(separator: ", ")); "
                                              + "they run \(offered.joined(separator: ", ")) (see 'bench list')")
            }
        }
        if let strategies = request.strategies, used.isEmpty {
            throw BenchError.invalidInput("none of the chosen scenarios runs strategy \(strategies.map(\.description).joined(separator: ", ")); see 'bench list'")
        }
        self.repetitions = planned
        self.scenarios = used
    }
}
