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
    /// The file the scenario came from, as messages name it.
    public let file: String
    /// Where the definition lives, recorded in run.json so that `bench advise RUN` reads the same one.
    public internal(set) var origin: Origin

    /// A scenario file, or the suite `bench run --model` generates from a model (absolute paths).
    public enum Origin: Sendable, Equatable {
        case file(String)
        case generated(model: String)
    }

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

extension Scenario.Origin: Codable {
    private enum CodingKeys: String, CodingKey { case file, model }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let path = try container.decodeIfPresent(String.self, forKey: .file) {
            self = .file(path)
        } else {
            self = .generated(model: try container.decode(String.self, forKey: .model))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .file(path): try container.encode(path, forKey: .file)
        case let .generated(model): try container.encode(model, forKey: .model)
        }
    }
}
