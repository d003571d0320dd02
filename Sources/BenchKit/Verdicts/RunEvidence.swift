import Foundation

/// What a run gives the rules: every sample of every series (intervals need them), ObjectGraph's statements per
/// phase (to tell whether two arms gave SQLite the same work), and the profile and schedule it ran.
package struct RunEvidence: Sendable {
    /// Each series' values with the repetition (the round) each was measured in.
    private var samples: [SeriesKey: [(repetition: Int, value: Double)]] = [:]
    private var statements: [PhaseStatements.Key: PhaseStatements] = [:]
    /// Whether the run recorded its statements (runs before statements.csv did not).
    package let hasStatements: Bool
    package let info: RunInfo?

    package init(samples: [SampleRecord], statements: [PhaseStatements], info: RunInfo?, hasStatements: Bool = true) {
        for sample in samples {
            if let value = sample.value { self.samples[sample.key, default: []].append((sample.repetition, value)) }
        }
        for phase in statements { self.statements[phase.key] = phase }
        self.hasStatements = hasStatements
        self.info = info
    }

    /// A run folder's samples.csv, statements.csv and run.json.
    package static func load(folder: String) throws -> RunEvidence {
        let samples = try SamplesFile.load((folder as NSString).appendingPathComponent("samples.csv")).samples
        let hasStatements = FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("statements.csv"))
        let info = try RunInfo.loadIfPresent(folder: folder)
        return RunEvidence(samples: samples, statements: try StatementsFile.load(folder: folder), info: info, hasStatements: hasStatements)
    }

    package var isEmpty: Bool { samples.isEmpty }

    /// Whether the run measured anything of `scenario`.
    func measured(_ scenario: ScenarioName) -> Bool { samples.keys.contains { $0.scenario == scenario } }

    /// The series' samples by size, smallest first, each in the order of its repetitions.
    func series(_ selector: SeriesSelector, _ metric: Metric) -> [(size: Int, values: [Double])] {
        rounds(selector, metric).map { (size: $0.size, values: $0.values.map(\.value)) }
    }

    /// The series' samples by size with the repetition each was measured in.
    func rounds(_ selector: SeriesSelector, _ metric: Metric) -> [(size: Int, values: [(repetition: Int, value: Double)])] {
        samples.filter { $0.key.metric == metric && selector.matches($0.key) }
            .map { (size: $0.key.size, values: $0.value.sorted { $0.repetition < $1.repetition }) }.sorted { $0.size < $1.size }
    }

    /// What each round of the series' arm (its scenario, strategy and variant) cost at `size`: the sum of its phases'
    /// wall_ms, by repetition. A sequential comparison's budget reads it.
    func roundCosts(_ selector: SeriesSelector, size: Int) -> [Int: Double] {
        var costs: [Int: Double] = [:]
        for (key, values) in samples where key.metric == .wallMs && key.size == size && selector.matchesArm(key) {
            for value in values { costs[value.repetition, default: 0] += value.value }
        }
        return costs
    }

    /// ObjectGraph's statements for the series' variant and phase at `size`.
    func statements(_ selector: SeriesSelector, size: Int) -> PhaseStatements? {
        statements.first { $0.key.size == size && selector.matches($0.key) }?.value
    }

    /// The schedule `scenario` ran with, from run.json.
    func schedule(_ scenario: ScenarioName) -> RunInfo.Schedule? { info?.schedules?[scenario.rawValue] }
}
