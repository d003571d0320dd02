/// A scenario file, checked: a model (an Xcode model file, or inline), the data to fill it with, phases of steps, the
/// variants (some change the model: the modelling of a relationship, a delete rule, ...), the strategies that run it
/// and the sizes, repetitions and warmups of each profile.
public struct Scenario: Sendable {
    public let name: ScenarioName
    public let description: String
    /// The model, data and phases, one plan per variant.
    public let declared: DeclaredScenario
    public let strategies: [Strategy]
    /// Variant axes in declared order.
    public let axes: [(name: String, values: [VariantValue])]
    public let sizes: [Profile: [Int]]
    public let repetitions: [Profile: Int]
    public let warmup: [Profile: Int]
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
    public var phaseNames: [PhaseName] { declared.phaseNames }

    /// The model it runs, for listings.
    public var modelSource: String { declared.model.source }

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
