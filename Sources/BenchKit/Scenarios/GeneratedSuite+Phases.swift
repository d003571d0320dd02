import Foundation
import ObjectGraph

extension GeneratedSuite {
    /// An attribute the suite filters or sorts on, with the phase that does: what lint's index advice reads.
    package struct Filter: Sendable {
        package let entity: EntityDescription
        package let attribute: AttributeDescription
        package let phase: String
        package let sorts: Bool
    }

    /// The attributes the find and sorted phases of the suite filter and sort on.
    package static func filters(_ model: ObjectModel) -> [Filter] { filters(model, AttributeChoices(model)) }

    static func filters(_ model: ObjectModel, _ choices: AttributeChoices) -> [Filter] {
        model.entities.filter { !$0.isAbstract }.flatMap { entity -> [Filter] in
            var filters: [Filter] = []
            if let lookup = choices.lookupAttribute(entity) {
                filters.append(Filter(entity: entity, attribute: lookup, phase: "find-\(entity.name).\(lookup.name)", sorts: false))
            }
            if let sort = choices.sortAttribute(entity) {
                filters.append(Filter(entity: entity, attribute: sort, phase: "sorted-\(entity.name).\(sort.name)", sorts: true))
            }
            return filters
        }
    }

    /// `size`, `2 × size`, `0.16 × size`, `1,000`: how many objects a count makes, in words.
    static func amount(_ count: DataSpec.Count) -> String {
        switch count {
        case let .fixed(value): return formatCount(value)
        case let .perSize(factor): return factor == 1 ? "size" : factor == 0 ? "0" : String(format: "%.3g × size", factor)
        case let .capped(inner, maximum): return "\(amount(inner)), at most \(formatCount(maximum))"
        }
    }

    /// The first `limit` objects of the entity in words: `the first 100 Orders (fetchLimit 100; all when fewer)`, or
    /// with a fixed count, exactly how many.
    static func first(_ limit: Int, _ entity: String, _ counts: [String: DataSpec.Count], model: ObjectModel) -> String {
        let plural = pluralEntity(entity)
        let total = model.entity(entity).map { $0.subtree.map { counts[$0.name] ?? .fixed(0) } } ?? []
        if total.allSatisfy(\.isFixed) {
            let count = total.reduce(0) { $0 + $1.value(size: 0) }
            return count <= limit ? "all \(formatCount(count)) \(plural)" : "the first \(limit) \(plural) (fetchLimit \(limit))"
        }
        return "the first \(limit) \(plural) (fetchLimit \(limit), all when fewer)"
    }

    static func pluralEntity(_ name: String) -> String {
        let lower = name.lowercased()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return name.dropLast() + "ies" }
        if ["s", "x", "z", "ch", "sh"].contains(where: lower.hasSuffix) { return name + "es" }
        return name + "s"
    }

    /// The phases, each with the objects it covers in its description; the first read phase starts on the prepared
    /// store, later ones continue it (each with a new context), deletes start on it again. A lookup or count phase
    /// over an entity the data has no objects of at any size is left out: there is nothing to look up.
    static func phases(_ model: ObjectModel, counts: [String: DataSpec.Count], steps: SuiteSteps) throws -> [DeclaredScenario.Phase] {
        let concrete = model.entities.filter { !$0.isAbstract }
        let choices = AttributeChoices(model)
        func readable(_ entity: EntityDescription) -> String? { choices.readable(entity) }
        func rows(_ entity: EntityDescription) -> DataSpec.Count {
            let parts = entity.subtree.compactMap { counts[$0.name] }
            if parts.count == 1 { return parts[0] }
            if parts.allSatisfy(\.isFixed) { return .fixed(parts.reduce(0) { $0 + $1.value(size: 0) }) }
            return .perSize(parts.reduce(0) { if case let .perSize(factor) = $1 { return $0 + factor } else { return $0 } })
        }
        /// Rounds of a repeating phase: up to `maximum` of the entity's objects; nil when it has none at any size.
        func rounds(_ entity: EntityDescription, maximum: Int) -> DataSpec.Count? {
            let count = DataSpec.Count.capped(rows(entity), maximum: maximum)
            return count.value(size: 100_000_000) > 0 ? count : nil
        }
        var phases: [SuitePhase] = []
        let inserted = concrete.map { "\($0.name) \(amount(counts[$0.name] ?? .fixed(0)))" }.joined(separator: ", ")
        phases.append(
            SuitePhase(
                "insert", store: .fresh, [.insertData(nil), .save(mayFail: false)],
                "inserts the generated graph (\(inserted)) into an empty store and saves it once"))
        for entity in concrete {
            let attribute = readable(entity)
            phases.append(
                SuitePhase(
                    "fetch-\(entity.name)",
                    [.fetch(try steps.fetch(entity))] + (try attribute.map { [try steps.read([$0], of: entity)] } ?? []),
                    "every \(entity.name) (\(amount(rows(entity))) rows) in one fetch, faults off\(attribute.map { ", reading \($0)" } ?? "")"
                ))
        }
        for filter in filters(model, choices) {
            let entity = filter.entity
            let name = filter.attribute.name
            if filter.sorts {
                phases.append(
                    SuitePhase(
                        filter.phase,
                        [
                            .fetch(try steps.fetch(entity, limit: screen, sort: [(name, false)])),
                            try steps.read([readable(entity) ?? name], of: entity),
                        ],
                        "the first screen: \(first(screen, entity.name, counts, model: model)), latest \(name) first (a sort on \(name)): without an index on it SQLite reads and sorts every row"
                    ))
            } else if let rounds = rounds(entity, maximum: lookups) {
                let variables: [String: Step.Variable] = [
                    "value": .valueOf(entity: entity, attribute: filter.attribute, pick: .round, memberOf: nil)
                ]
                phases.append(
                    SuitePhase(
                        filter.phase,
                        [
                            .fetch(try steps.fetch(entity, limit: 1, predicate: "\(name) == $value", variables: variables)),
                            try steps.read([name], of: entity),
                        ],
                        "\(lookups) lookups of one \(entity.name) by \(name) (a fetch of \(name) == value, fetchLimit 1; fewer when there are fewer \(pluralEntity(entity.name))): without an index on it each reads every row",
                        variables: variables, rounds: rounds))
            }
        }
        for entity in concrete {
            let owners = first(sourcesPerWalk, entity.name, counts, model: model)
            for relationship in entity.relationships {
                let member = readable(relationship.destination)
                let path =
                    relationship.isToMany
                    ? relationship.name + "." + (member ?? "@count") : relationship.name + (member.map { "." + $0 } ?? "")
                for prefetch in [false, true] {
                    phases.append(
                        SuitePhase(
                            "walk-\(entity.name).\(relationship.name)" + (prefetch ? "-prefetch" : ""),
                            [
                                .fetch(try steps.fetch(entity, limit: sourcesPerWalk, prefetch: prefetch ? [relationship.name] : [])),
                                try steps.read([path], of: entity),
                            ],
                            "\(owners), reading \(path) of each"
                                + (prefetch
                                    ? " with \(relationship.name) prefetched (relationshipKeyPathsForPrefetching)" : " through faults"),
                            isReference: !prefetch))
                }
                guard relationship.isToMany else { continue }
                phases.append(
                    SuitePhase(
                        "count-\(entity.name).\(relationship.name)-faults",
                        [
                            .fetch(try steps.fetch(entity, limit: sourcesPerWalk)),
                            try steps.read(["\(relationship.name).@count"], of: entity),
                        ],
                        "\(owners), counting each one's \(relationship.name) by faulting the to-many (\(relationship.name).count)",
                        isReference: true))
                if let inverse = relationship.inverse, let rounds = rounds(entity, maximum: sourcesPerWalk) {
                    let predicate = (inverse.isToMany ? "ANY " : "") + "\(inverse.name) == $owner"
                    let variables: [String: Step.Variable] = ["owner": .object(entity: entity, pick: .round, memberOf: nil)]
                    phases.append(
                        SuitePhase(
                            "count-\(entity.name).\(relationship.name)-fetch",
                            [.count(try steps.fetch(relationship.destination, predicate: predicate, variables: variables, faults: true))],
                            "one count request for each of the same owners as the faults, \(owners): countForFetchRequest of \(relationship.destination.name) where \(predicate)",
                            variables: variables, rounds: rounds, isReference: true))
                }
                if let derived = entity.derivedAttributes.first(where: {
                    if case let .count(reference) = $0.kind { return reference.name == relationship.name } else { return false }
                }) {
                    phases.append(
                        SuitePhase(
                            "count-\(entity.name).\(relationship.name)-derived",
                            [.fetch(try steps.fetch(entity, limit: sourcesPerWalk)), try steps.read([derived.name], of: entity)],
                            "the same owners as the faults, \(owners), reading the derived \(derived.name) = \(derived.derivation) each row carries"
                        ))
                }
            }
        }
        if let largest = concrete.max(by: { ($0.attributes.count, $1.name) < ($1.attributes.count, $0.name) }) {
            for batch in batchSizes {
                let attribute = readable(largest)
                phases.append(
                    SuitePhase(
                        "batch-\(largest.name)-\(batch)",
                        [.fetch(try steps.fetch(largest, batchSize: batch))]
                            + (try attribute.map { [try steps.read([$0], of: largest)] } ?? []),
                        "every \(largest.name) (\(amount(rows(largest))) rows)"
                            + (batch == 0 ? " in one fetch, no batching" : " in batches of \(batch) (fetchBatchSize \(batch))")
                            + (attribute.map { ", reading \($0)" } ?? ""), isReference: true))
            }
        }
        for entity in concrete {
            phases.append(
                SuitePhase(
                    "delete-\(entity.name)", store: .prepared, [.delete(entity: entity, share: 0.1), .save(mayFail: true)],
                    "deletes a tenth of the \(pluralEntity(entity.name)) (chosen by the seed) with their delete rules, and saves: a save a Deny rule or a validation refuses times the refusal"
                ))
        }
        if phases.count > 1 { phases[1].store = .prepared }
        return phases.map { phase in
            DeclaredScenario.Phase(
                name: PhaseName(phase.name), description: phase.description, store: phase.store ?? .continued, steps: phase.steps,
                variables: phase.variables, rounds: phase.rounds, isReference: phase.isReference)
        }
    }

    /// A phase of the suite as it is made: its store set where it is not the one before's.
    struct SuitePhase {
        let name: String
        var store: DeclaredScenario.Phase.Store?
        let steps: [Step]
        let description: String
        var variables: [String: Step.Variable] = [:]
        var rounds = DataSpec.Count.fixed(1)
        /// A reference phase of a comparison (see `DeclaredScenario.Phase.isReference`).
        var isReference = false

        init(
            _ name: String, store: DeclaredScenario.Phase.Store? = nil, _ steps: [Step], _ description: String,
            variables: [String: Step.Variable] = [:], rounds: DataSpec.Count = .fixed(1), isReference: Bool = false
        ) {
            self.name = name
            self.store = store
            self.steps = steps
            self.description = description
            self.variables = variables
            self.rounds = rounds
            self.isReference = isReference
        }
    }

    /// The suite's steps, made against the compiled model through the scenario files' own resolution of key paths and
    /// predicates (a name the suite got wrong is an error, as in a file).
    struct SuiteSteps {
        let parser: StepParser

        init(model: ObjectModel, file: String) {
            parser = StepParser(model: model, variant: Variant([]), axes: [], manualKeys: []) { field, reason in
                .field(field, of: file, reason)
            }
        }

        /// A fetch of objects (faults off unless `faults`): its sort keys (`ascending`), prefetches and predicate.
        func fetch(
            _ entity: EntityDescription, limit: Int = 0, batchSize: Int = 0, sort: [(String, Bool)] = [], prefetch: [String] = [],
            predicate: String? = nil, variables: [String: Step.Variable] = [:], faults: Bool = false
        ) throws -> Step.Fetch {
            let field = "fetch \(entity.name)"
            return Step.Fetch(
                entity: entity,
                predicate: try predicate.map { try parser.predicate(.string($0), entity: entity, variables: variables, field: field) },
                variables: [:], sort: try sort.map { (try parser.keyPath($0.0, from: entity, field: field), $0.1) }, limit: limit,
                offset: 0,
                batchSize: batchSize, prefetch: try prefetch.map { try parser.relationshipPath($0, from: entity, field: field) },
                faults: faults,
                propertyValues: true, result: .objects, subentities: true)
        }

        /// A read of key paths on the objects of the fetch before it.
        func read(_ paths: [String], of entity: EntityDescription) throws -> Step {
            .read(keyPaths: try paths.map { try parser.keyPath($0, from: entity, field: "read") }, first: nil, until: nil)
        }
    }
}
