import Foundation
import ObjectGraph

/// A scenario a file declares whole: its own model (an Xcode model file or inline JSON), the data to fill it with,
/// and phases of steps, with variants that may change the model. Every name, key path and predicate is checked
/// for every variant when the file is read, before anything runs.
public struct DeclaredScenario: Sendable {
    /// A timed phase: its steps, and the store it starts on.
    struct Phase: Sendable {
        enum Store: String, Sendable {
            /// The store as the data section fills it, fresh for each repetition.
            case prepared
            /// An empty store with the model's schema.
            case fresh
            /// The store the previous phase left (what it saved), with a new context.
            case continued
            /// The store and the context the previous phase left: its objects stay registered, and its last fetch's
            /// results are what a read reads (a screen that fetched, then walks).
            case sameContext = "same-context"

            /// Whether the phase goes on where the previous one stopped, on its store.
            var continues: Bool { self == .continued || self == .sameContext }
        }

        let name: String
        let store: Store
        let steps: [Step]
        /// Variables every step of the phase may use, chosen once per phase.
        let variables: [String: Step.Variable]
    }

    /// The model, phases and data generator of one variant.
    struct Plan: Sendable {
        let entities: [Entity]
        let model: ObjectModel
        let phases: [Phase]
        let generator: DataGenerator
    }

    let model: DeclaredModel
    let data: DataSpec
    let changes: [(axis: String, change: ModelChange)]
    /// By the variant's description (`inverse=off;count=derived`).
    let plans: [String: Plan]

    /// Phase names in order (the same for every variant).
    public var phaseNames: [String] { plans.values.first?.phases.map(\.name) ?? [] }

    func plan(for variant: Variant) -> Plan { plans[variant.description]! }

    /// Notes from reading the model (what it skipped or adjusted).
    public var modelNotes: [String] { model.notes }
}

/// Reads the declared parts of a scenario file.
enum DeclaredScenarioParser {
    static let fields = ["name", "description", "model", "strategies", "data", "variants", "phases", "sizes", "repetitions", "warmup"]

    static func parse(_ root: [String: JSONValue], file: String, axes: [(name: String, values: [VariantValue])],
                      rawAxes: [String: [String: JSONValue]], variants: [Variant]) throws -> DeclaredScenario {
        func fail(_ field: String, _ reason: String) -> BenchError { .invalidInput("\(file): field '\(field)': \(reason)") }
        let model = try DeclaredModel.load(root["model"]!, file: file)
        let data = try DataSpec.parse(root["data"]) { fail("data", $0) }

        var changes: [(String, ModelChange)] = []
        for axis in axes {
            guard let raw = rawAxes[axis.name], let kindName = raw["change"]?.string else { continue }
            guard let kind = ModelChange.Kind(rawValue: kindName) else {
                throw fail("variants", "'\(axis.name)': unknown change '\(kindName)'; changes are \(ModelChange.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard let target = raw["target"]?.string, target.split(separator: ".").count == 2 else {
                throw fail("variants", "'\(axis.name)': a \(kindName) change needs \"target\": \"Entity.property\"")
            }
            let parts = target.split(separator: ".").map(String.init)
            var keyDestination: String?
            if kind == .key, let declared = model.entities.first(where: { $0.name == parts[0] })?.properties.first(where: { $0.name == parts[1] }),
               case let .relationship(destination, _, _, _, _, _) = declared.summary {
                keyDestination = destination
            }
            var inverseWasToOne = false
            if kind == .inverse, let declared = model.entities.first(where: { $0.name == parts[0] })?.properties.first(where: { $0.name == parts[1] }),
               case let .relationship(destination, _, inverse?, _, _, _) = declared.summary,
               let inverseProperty = model.entities.first(where: { $0.name == destination })?.properties.first(where: { $0.name == inverse }),
               case let .relationship(_, inverseIsToMany, _, _, _, _) = inverseProperty.summary {
                inverseWasToOne = !inverseIsToMany
            }
            var change = ModelChange(kind: kind, entity: parts[0], property: parts[1], keyAttribute: raw["attribute"]?.string,
                                     destinationKey: raw["destinationKey"]?.string, keyDestination: keyDestination)
            change.inverseWasToOne = inverseWasToOne
            if let problem = change.problem(in: model.entities) { throw fail("variants", "'\(axis.name)': \(problem)") }
            for value in axis.values where !kind.values.contains(value.description) {
                throw fail("variants", "'\(axis.name)': a \(kindName) change takes the values \(kind.values.joined(separator: ", ")), got '\(value)'")
            }
            changes.append((axis.name, change))
        }

        guard let phaseList = root["phases"]?.array, !phaseList.isEmpty else {
            throw fail("phases", "expected a non-empty array of {\"name\": ..., \"steps\": [...]}")
        }
        var plans: [String: DeclaredScenario.Plan] = [:]
        for variant in variants {
            var entities = model.entities
            for (axis, change) in changes { entities = change.apply(variant[axis]!.description, to: entities) }
            let compiled: ObjectModel
            do {
                compiled = try ObjectModel(entities)
            } catch {
                throw fail(variants.count > 1 ? "variants" : "model", (variants.count > 1 ? "with \(variant): " : "") + "\(error)")
            }
            let variantChanges = changes.map(\.1)
            if let problem = data.problems(in: compiled, changes: variantChanges).first {
                throw fail("data", (variants.count > 1 ? "with \(variant): " : "") + problem)
            }
            var parser = StepParser(model: compiled, variant: variant) { field, reason in
                fail(field, (variants.count > 1 ? "with \(variant): " : "") + reason)
            }
            var phases: [DeclaredScenario.Phase] = []
            var names = Set<String>()
            // The entity of the last fetch of objects, which a same-context phase's reads start from.
            var fetched: String?
            for (index, raw) in phaseList.enumerated() {
                let field = "phases[\(index)]"
                guard let object = raw.object, let name = object["name"]?.string, !name.isEmpty, let stepList = object["steps"] else {
                    throw fail(field, "expected {\"name\": \"...\", \"steps\": [...]} (optionally \"store\": \"prepared\", \"fresh\", \"continued\" or \"same-context\")")
                }
                for key in object.keys.sorted() where !["name", "steps", "store", "variables"].contains(key) {
                    throw fail(field, "unknown key '\(key)'; a phase has name, store, variables and steps")
                }
                var variables: [String: Step.Variable] = [:]
                for (variableName, rawVariable) in object["variables"]?.object ?? [:] {
                    variables[variableName] = try parser.variable(rawVariable, field: "\(field).variables.\(variableName)")
                }
                parser.phaseVariables = variables
                guard names.insert(name).inserted else { throw fail(field, "a second phase named '\(name)'") }
                let storeName = object["store"]?.string ?? (index == 0 ? "prepared" : "continued")
                guard let store = DeclaredScenario.Phase.Store(rawValue: storeName), !(index == 0 && store.continues) else {
                    throw fail("\(field).store", "expected prepared or fresh" + (index == 0 ? " (the first phase has no store to continue)" : ", continued or same-context") + ", got \(object["store"]!)")
                }
                let steps = try parser.steps(stepList, field: "\(field).steps")
                fetched = try checkReads(steps, parser: parser, field: "\(field).steps", fetched: store == .sameContext ? fetched : nil)
                phases.append(DeclaredScenario.Phase(name: name, store: store, steps: steps, variables: variables))
            }
            plans[variant.description] = DeclaredScenario.Plan(
                entities: entities, model: compiled, phases: phases,
                generator: DataGenerator(spec: data, model: compiled, changes: variantChanges))
        }
        return DeclaredScenario(model: model, data: data, changes: changes, plans: plans)
    }

    /// Every `read` follows a fetch in its phase and names key paths of that fetch's entity.
    /// Checks that every read and delete-fetched has a fetch of objects before it; returns the entity of the last one.
    @discardableResult
    private static func checkReads(_ steps: [Step], parser: StepParser, field: String, fetched: String? = nil) throws -> String? {
        var current = fetched
        for (index, step) in steps.enumerated() {
            switch step {
            case let .fetch(fetch): current = fetch.result == .objects ? fetch.entity : nil
            case .deleteFetched:
                guard current != nil else { throw parser.fail("\(field)[\(index)]", "'delete-fetched' needs a fetch of objects before it in its phase") }
            case let .read(paths, _):
                guard let entity = current else {
                    throw parser.fail("\(field)[\(index)]", "'read' needs a fetch of objects before it in its phase")
                }
                for path in paths { try parser.checkKeyPath(path, from: entity, field: "\(field)[\(index)].read") }
            case let .merge(inner):
                try checkReads(inner, parser: parser, field: "\(field)[\(index)].merge")
            case .reset, .newContext:
                current = nil
            default:
                break
            }
        }
        return current
    }
}
