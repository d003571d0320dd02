import Foundation
import ObjectGraph

/// A scenario a file declares whole: its own model (an Xcode model file or inline JSON), the data to fill it with,
/// and phases of steps, with variants that may change the model. Every name, key path and predicate is checked
/// for every variant when the file is read, before anything runs.
package struct DeclaredScenario: Sendable {
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

        let name: PhaseName
        /// What the phase covers, in words (`the first 100 Orders (fetchLimit 100), ...`), where the file says.
        var description: String?
        let store: Store
        let steps: [Step]
        /// Variables every step of the phase may use, chosen once per phase (once per round when it repeats).
        let variables: [String: Step.Variable]
        /// How many times the steps run in the timed phase, each round with its variables chosen anew (1: once); may
        /// grow with the size (`"size/1000"`: an import of size objects in batches of 1,000).
        let rounds: DataSpec.Count
        /// A deliberate reference of a comparison the scenario makes (the generated suite's walk without prefetching,
        /// its counts through faults and count requests, its batch sizes): measured, never advised, since it is not
        /// what the app does.
        var isReference = false

        /// Whether the phase reports the metrics of `origin`: every phase the common ones, a phase with a count step
        /// what it counted, one with a save that may fail the saves refused, one with `count-links` the links.
        func reports(_ origin: Metric.Origin) -> Bool {
            switch origin {
            case .everyPhase, .instructionRuns, .deviceCosts: return true
            case .countStep: return steps.contains { if case .count = $0 { return true } else { return false } }
            case .mayFailSave: return steps.contains { if case .save(mayFail: true) = $0 { return true } else { return false } }
            case .countLinksStep: return steps.contains { if case .countLinks = $0 { return true } else { return false } }
            }
        }
    }

    /// The model, data, phases and data generator of one variant.
    struct Plan: Sendable {
        let entities: [Entity]
        let model: ObjectModel
        let phases: [Phase]
        let generator: DataGenerator
        /// Relationships the variant replaced by keys kept by hand (`manual-fk`).
        let manualKeys: [ManualKey]
    }

    let model: DeclaredModel
    let changes: [(axis: AxisName, change: ModelChange)]
    /// One plan per variant of the scenario, in the scenario's order of variants.
    let plans: [Variant: Plan]
    /// The first variant's plan (every variant has the same phases, by name).
    let first: Plan

    /// Phase names in order (the same for every variant).
    package var phaseNames: [PhaseName] { first.phases.map(\.name) }

    /// The plan of `variant`, one of the scenario's.
    func plan(for variant: Variant) throws -> Plan {
        guard let plan = plans[variant] else {
            throw BenchError.invalidInput(
                "the scenario has no variant '\(variant)'; its variants are \(plans.keys.map(\.description).sorted().joined(separator: " | "))"
            )
        }
        return plan
    }

    /// Notes from reading the model (what it skipped or adjusted).
    package var modelNotes: [String] { model.notes }
}

/// Reads the declared parts of a scenario file.
enum DeclaredScenarioParser {
    static func parse(
        _ root: [String: JSONValue], file: String, axes: [VariantAxis],
        rawAxes: [AxisName: [String: JSONValue]], variants: [Variant]
    ) throws -> DeclaredScenario {
        func fail(_ field: String, _ reason: String) -> BenchError { .field(field, of: file, reason) }
        guard let modelJSON = root["model"] else { throw fail("model", "missing") }
        let model = try DeclaredModel.load(modelJSON, file: file)
        guard let dataJSON = root["data"] else {
            throw fail("data", "missing: say how many objects of each entity, {\"entities\": {\"Entity\": \"size\"}}")
        }
        let changes = try parseChanges(axes: axes, rawAxes: rawAxes, model: model, fail: fail)

        guard let phaseList = root["phases"]?.array, !phaseList.isEmpty else {
            throw fail("phases", "expected a non-empty array of {\"name\": ..., \"steps\": [...]}")
        }
        var plans: [Variant: DeclaredScenario.Plan] = [:]
        var first: DeclaredScenario.Plan?
        for variant in variants {
            let label = variants.count > 1 ? "with \(variant): " : ""
            var entities = model.entities
            var manualKeys: [ManualKey] = []
            for (axis, change) in changes {
                guard let value = variant[axis] else { continue }
                let changed = change.apply(value.description, to: entities)
                entities = changed.entities
                manualKeys += changed.manualKeys
            }
            let compiled: ObjectModel
            do {
                compiled = try ObjectModel(entities)
            } catch {
                throw fail(variants.count > 1 ? "variants" : "model", label + "\(error)")
            }
            let choices = VariantChoices(variant: variant, axes: axes) { field, reason in fail(field, label + reason) }
            // A data section with no choice by variant is the same for every variant: its mistakes are said once, plainly.
            let resolvedData = try choices.resolve(dataJSON, field: "data")
            let dataLabel = resolvedData == dataJSON && changes.isEmpty ? "" : label
            let data = try DataSpec.parse(resolvedData) { fail("data", dataLabel + $0) }
            if let problem = data.problems(in: compiled, manualKeys: manualKeys).first {
                throw fail("data", dataLabel + problem)
            }
            var parser = StepParser(model: compiled, variant: variant, axes: axes, manualKeys: manualKeys) { field, reason in
                fail(field, label + reason)
            }
            var phases: [DeclaredScenario.Phase] = []
            var names = Set<PhaseName>()
            // The entity of the last fetch of objects, which a same-context phase's reads start from.
            var fetched: EntityDescription?
            for (index, raw) in phaseList.enumerated() {
                let field = "phases[\(index)]"
                guard let object = raw.object, let name = object["name"]?.string, !name.isEmpty, let stepList = object["steps"] else {
                    throw fail(
                        field,
                        "expected {\"name\": \"...\", \"steps\": [...]} (optionally \"store\": \"prepared\", \"fresh\", \"continued\" or \"same-context\")"
                    )
                }
                for key in object.keys.sorted() where !["name", "description", "steps", "store", "variables", "repeat"].contains(key) {
                    throw fail(field, "unknown key '\(key)'; a phase has name, description, store, variables, repeat and steps")
                }
                if let text = object["description"], text.string?.isEmpty != false {
                    throw fail("\(field).description", "expected what the phase covers as text, got \(text)")
                }
                var rounds = DataSpec.Count.fixed(1)
                if let raw = object["repeat"] {
                    let resolved = try choices.resolve(raw, field: "\(field).repeat")
                    guard let count = DataSpec.Count.parse(resolved), count.value(size: 100_000_000) > 0,
                        resolved.number.map({ $0 <= 1_000_000 }) ?? true
                    else {
                        throw fail(
                            "\(field).repeat",
                            "expected the number of rounds, an integer from 1 to 1000000, \"size/N\" (rounds growing with the size) or {\"count\": \"size\", \"max\": 100}, got \(resolved)"
                        )
                    }
                    rounds = count
                }
                var variables: [String: Step.Variable] = [:]
                for (variableName, rawVariable) in object["variables"]?.object ?? [:] {
                    let variableField = "\(field).variables.\(variableName)"
                    let variable = try parser.variable(try choices.resolve(rawVariable, field: variableField), field: variableField)
                    if variable.usesRound && object["repeat"] == nil {
                        throw fail(
                            variableField, "\"index\": \"round\" picks by the round of a repeating phase; give the phase \"repeat\": N")
                    }
                    variables[variableName] = variable
                }
                parser.phaseVariables = variables
                guard names.insert(PhaseName(name)).inserted else { throw fail(field, "a second phase named '\(name)'") }
                let storeName = object["store"]?.string ?? (index == 0 ? "prepared" : "continued")
                guard let store = DeclaredScenario.Phase.Store(rawValue: storeName), !(index == 0 && store.continues) else {
                    throw fail(
                        "\(field).store",
                        "expected prepared or fresh"
                            + (index == 0 ? " (the first phase has no store to continue)" : ", continued or same-context")
                            + ", got \(object["store"] ?? .null)")
                }
                let steps: [Step]
                (steps, fetched) = try parser.steps(stepList, field: "\(field).steps", fetched: store == .sameContext ? fetched : nil)
                phases.append(
                    DeclaredScenario.Phase(
                        name: PhaseName(name), description: object["description"]?.string, store: store, steps: steps, variables: variables,
                        rounds: rounds))
            }
            let plan = DeclaredScenario.Plan(
                entities: entities, model: compiled, phases: phases,
                generator: DataGenerator(spec: data, model: compiled, declared: model.entities, manualKeys: manualKeys),
                manualKeys: manualKeys)
            plans[variant] = plan
            first = first ?? plan
        }
        guard let first else { throw fail("variants", "no variant to run") }
        return DeclaredScenario(model: model, changes: changes, plans: plans, first: first)
    }

    /// The model changes the variant axes declare, checked against the model for every value.
    private static func parseChanges(
        axes: [VariantAxis], rawAxes: [AxisName: [String: JSONValue]],
        model: DeclaredModel, fail: (String, String) -> BenchError
    ) throws -> [(AxisName, ModelChange)] {
        var changes: [(AxisName, ModelChange)] = []
        for axis in axes {
            guard let raw = rawAxes[axis.name], let kindName = raw["change"]?.string else { continue }
            guard let kind = ModelChange.Kind(rawValue: kindName) else {
                throw fail(
                    "variants",
                    "'\(axis.name)': "
                        + (ModelChange.Kind.retired(kindName)
                            ?? "unknown change '\(kindName)'; changes are \(ModelChange.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
                )
            }
            let names = raw["target"].flatMap { $0.string.map { [$0] } ?? $0.array?.compactMap(\.string) } ?? []
            let parts = names.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
            guard !parts.isEmpty, parts.count == (raw["target"]?.array?.count ?? 1),
                parts.allSatisfy({ $0.count == 2 && !$0[0].isEmpty && !$0[1].isEmpty }),
                kind == .modelling || parts.count == 1
            else {
                throw fail(
                    "variants",
                    "'\(axis.name)': a \(kindName) change needs \"target\": \"Entity.property\""
                        + (kind == .modelling ? " (or a list of them)" : ""))
            }
            var change = ModelChange(kind: kind, targets: parts.map { ($0[0], $0[1]) })
            for (key, value) in [
                ("keyAttribute", raw["keyAttribute"]), ("ownerKey", raw["ownerKey"]), ("toManyInverse", raw["toManyInverse"]),
            ] {
                guard let value else { continue }
                guard kind == .modelling else { throw fail("variants", "'\(axis.name)': \"\(key)\" belongs to a modelling change") }
                guard let text = value.string, !text.isEmpty else {
                    throw fail("variants", "'\(axis.name)': \"\(key)\" must be a name, got \(value)")
                }
                switch key {
                case "keyAttribute": change.keyAttribute = text
                case "ownerKey": change.ownerKey = text
                default: change.toManyInverse = text
                }
            }
            for value in axis.values where !kind.values.contains(value.description) {
                throw fail(
                    "variants",
                    "'\(axis.name)': a \(kindName) change takes the values \(kind.values.joined(separator: ", ")), got '\(value)'")
            }
            if let problem = change.problem(in: model.entities, values: axis.values.map(\.description)) {
                throw fail("variants", "'\(axis.name)': \(problem)")
            }
            changes.append((axis.name, change))
        }
        return changes
    }
}
