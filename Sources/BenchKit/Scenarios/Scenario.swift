/// A scenario file, checked: a model (an Xcode model file, or inline), the data to fill it with, phases of steps, the
/// variants (some change the model: the modelling of a relationship, a delete rule, ...), the strategies that run it
/// and the sizes, repetitions and warmups of each profile.
package struct Scenario: Sendable {
    package let name: ScenarioName
    package let description: String
    /// The model, data and phases, one plan per variant.
    package let declared: DeclaredScenario
    package let strategies: [Strategy]
    /// Variant axes in declared order.
    package let axes: [VariantAxis]
    package let sizes: [Profile: [Int]]
    package let repetitions: [Profile: Int]
    package let warmup: [Profile: Int]
    /// The file the scenario came from, as messages name it.
    package let file: String
    /// Where the definition lives, recorded in run.json so that `bench advise RUN` reads the same one.
    package internal(set) var origin: Origin

    /// A scenario file, or the suite `bench run --model` generates from a model (absolute paths) and what its data
    /// follows (`--counts`, `--shape-from`).
    package enum Origin: Sendable, Equatable {
        case file(String)
        case generated(model: String, options: GeneratedSuite.Options = GeneratedSuite.Options())
    }

    /// The phases it measures, in order.
    package var phaseNames: [PhaseName] { declared.phaseNames }

    /// What each phase covers, for the phases whose file says (every phase of a generated suite), in order.
    package var phaseDescriptions: [(name: PhaseName, description: String)] {
        declared.first.phases.compactMap { phase in phase.description.map { (phase.name, $0) } }
    }

    /// The model it runs, for listings.
    package var modelSource: String { declared.model.source }

    /// The content hashes of its scenario file and model file, for run.json: a changed definition is said by compare.
    package var definitionHash: DefinitionHash {
        switch origin {
        case let .file(path):
            return DefinitionHash(scenario: ContentHash.of(path: path), model: declared.model.path.flatMap(ContentHash.of))
        case let .generated(model, _):
            return DefinitionHash(scenario: nil, model: ContentHash.of(path: model))
        }
    }

    /// Every combination of the variant axes (one empty variant when there are none).
    package var variants: [Variant] {
        var combinations: [[(name: AxisName, value: VariantValue)]] = [[]]
        for axis in axes {
            combinations = combinations.flatMap { prefix in axis.values.map { prefix + [(axis.name, $0)] } }
        }
        return combinations.map(Variant.init)
    }
}

extension Scenario.Origin: Codable {
    private enum CodingKeys: String, CodingKey { case file, model, counts, shape }

    package init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let path = try container.decodeIfPresent(String.self, forKey: .file) {
            self = .file(path)
        } else {
            let options = GeneratedSuite.Options(
                counts: try container.decodeIfPresent([String: Int].self, forKey: .counts) ?? [:],
                shape: try container.decodeIfPresent(StoreShape.self, forKey: .shape))
            self = .generated(model: try container.decode(String.self, forKey: .model), options: options)
        }
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .file(path): try container.encode(path, forKey: .file)
        case let .generated(model, options):
            try container.encode(model, forKey: .model)
            if !options.counts.isEmpty { try container.encode(options.counts, forKey: .counts) }
            try container.encodeIfPresent(options.shape, forKey: .shape)
        }
    }
}
