/// A scenario file, checked: a workload combined with strategies, variants, sizes and parameters.
public struct Scenario: Sendable {
    public let name: String
    public let description: String
    public let workload: any Workload.Type
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

    /// Every combination of the variant axes (one empty variant when there are none).
    public var variants: [Variant] {
        var combinations: [[(name: String, value: VariantValue)]] = [[]]
        for axis in axes {
            combinations = combinations.flatMap { prefix in axis.values.map { prefix + [(axis.name, $0)] } }
        }
        return combinations.map(Variant.init)
    }
}
