/// A scenario file, checked: a workload combined with strategies, variants, sizes and parameters; or a model, data
/// and phases of steps the file declares itself.
public struct Scenario: Sendable {
    public let name: String
    public let description: String
    /// The school workload it runs; nil for a declared scenario.
    public let workload: (any Workload.Type)?
    /// The model, data and phases a declared scenario runs; nil for a workload scenario.
    public let declared: DeclaredScenario?
    public let strategies: [StrategyID]
    /// Variant axes in declared order.
    public let axes: [(name: String, values: [VariantValue])]
    public let sizes: [Profile: [Int]]
    public let repetitions: [Profile: Int]
    public let warmup: [Profile: Int]
    /// Workload parameters with the workload's defaults filled in.
    public let parameters: [String: Double]
    /// The file the scenario came from.
    public let file: String

    /// The phases it measures, in order.
    public var phaseNames: [String] { workload?.spec.phases ?? declared?.phaseNames ?? [] }

    /// What the scenario runs, for listings: its workload's name, or its model's source.
    public var runsText: String { workload.map { "workload \($0.spec.name)" } ?? "model \(declared?.model.source ?? "?")" }

    /// Every combination of the variant axes (one empty variant when there are none).
    public var variants: [Variant] {
        var combinations: [[(name: String, value: VariantValue)]] = [[]]
        for axis in axes {
            combinations = combinations.flatMap { prefix in axis.values.map { prefix + [(axis.name, $0)] } }
        }
        return combinations.map(Variant.init)
    }
}
