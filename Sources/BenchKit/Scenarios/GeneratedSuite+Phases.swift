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
    /// store, later ones continue it (each with a new context), deletes start on it again.
    static func phases(_ model: ObjectModel, counts: [String: DataSpec.Count]) -> [[String: Any]] {
        let concrete = model.entities.filter { !$0.isAbstract }
        let choices = AttributeChoices(model)
        func readable(_ entity: EntityDescription) -> String? { choices.readable(entity) }
        func rows(_ entity: EntityDescription) -> DataSpec.Count {
            let parts = entity.subtree.compactMap { counts[$0.name] }
            if parts.count == 1 { return parts[0] }
            if parts.allSatisfy(\.isFixed) { return .fixed(parts.reduce(0) { $0 + $1.value(size: 0) }) }
            return .perSize(parts.reduce(0) { if case let .perSize(factor) = $1 { return $0 + factor } else { return $0 } })
        }
        let inserted = concrete.map { "\($0.name) \(amount(counts[$0.name] ?? .fixed(0)))" }.joined(separator: ", ")
        var phases: [[String: Any]] = [
            [
                "name": "insert", "store": "fresh", "steps": [["insert-data": true], ["save": true]],
                "description": "inserts the generated graph (\(inserted)) into an empty store and saves it once",
            ]
        ]
        for entity in concrete {
            var steps: [[String: Any]] = [["fetch": entity.name, "faults": false]]
            let attribute = readable(entity)
            if let attribute { steps.append(["read": [attribute]]) }
            phases.append([
                "name": "fetch-\(entity.name)", "steps": steps,
                "description":
                    "every \(entity.name) (\(amount(rows(entity))) rows) in one fetch, faults off\(attribute.map { ", reading \($0)" } ?? "")",
            ])
        }
        for filter in filters(model, choices) {
            let entity = filter.entity.name
            let name = filter.attribute.name
            if filter.sorts {
                phases.append([
                    "name": filter.phase,
                    "steps": [
                        ["fetch": entity, "sort": ["-\(name)"], "limit": screen, "faults": false],
                        ["read": [readable(filter.entity) ?? name]],
                    ],
                    "description":
                        "the first screen: \(first(screen, entity, counts, model: model)), latest \(name) first (a sort on \(name)): without an index on it SQLite reads and sorts every row",
                ])
            } else {
                phases.append([
                    "name": filter.phase, "repeat": countJSON(.capped(rows(filter.entity), maximum: lookups)),
                    "variables": ["value": ["valueOf": "\(entity).\(name)", "index": "round"]],
                    "steps": [["fetch": entity, "predicate": "\(name) == $value", "limit": 1, "faults": false], ["read": [name]]],
                    "description":
                        "\(lookups) lookups of one \(entity) by \(name) (a fetch of \(name) == value, fetchLimit 1; fewer when there are fewer \(pluralEntity(entity))): without an index on it each reads every row",
                ])
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
                    var fetch: [String: Any] = ["fetch": entity.name, "faults": false, "limit": sourcesPerWalk]
                    if prefetch { fetch["prefetch"] = [relationship.name] }
                    phases.append([
                        "name": "walk-\(entity.name).\(relationship.name)" + (prefetch ? "-prefetch" : ""),
                        "steps": [fetch, ["read": [path]]],
                        "description":
                            "\(owners), reading \(path) of each"
                            + (prefetch ? " with \(relationship.name) prefetched (relationshipKeyPathsForPrefetching)" : " through faults"),
                    ])
                }
                guard relationship.isToMany else { continue }
                phases.append([
                    "name": "count-\(entity.name).\(relationship.name)-faults",
                    "steps": [
                        ["fetch": entity.name, "faults": false, "limit": sourcesPerWalk], ["read": ["\(relationship.name).@count"]],
                    ],
                    "description":
                        "\(owners), counting each one's \(relationship.name) by faulting the to-many (\(relationship.name).count)",
                ])
                if let inverse = relationship.inverse {
                    let predicate = (inverse.isToMany ? "ANY " : "") + "\(inverse.name) == $owner"
                    phases.append([
                        "name": "count-\(entity.name).\(relationship.name)-fetch",
                        "repeat": countJSON(.capped(rows(entity), maximum: sourcesPerWalk)),
                        "variables": ["owner": ["object": entity.name, "index": "round"]],
                        "steps": [["count": relationship.destination.name, "predicate": predicate]],
                        "description":
                            "one count request for each of the same owners as the faults, \(owners): countForFetchRequest of \(relationship.destination.name) where \(predicate)",
                    ])
                }
                if let derived = entity.derivedAttributes.first(where: {
                    if case let .count(reference) = $0.kind { return reference.name == relationship.name } else { return false }
                }) {
                    phases.append([
                        "name": "count-\(entity.name).\(relationship.name)-derived",
                        "steps": [["fetch": entity.name, "faults": false, "limit": sourcesPerWalk], ["read": [derived.name]]],
                        "description":
                            "the same owners as the faults, \(owners), reading the derived \(derived.name) = \(derived.derivation) each row carries",
                    ])
                }
            }
        }
        if let largest = concrete.max(by: { ($0.attributes.count, $1.name) < ($1.attributes.count, $0.name) }) {
            for batch in batchSizes {
                var steps: [[String: Any]] = [["fetch": largest.name, "faults": false, "batchSize": batch]]
                if let attribute = readable(largest) { steps.append(["read": [attribute]]) }
                phases.append([
                    "name": "batch-\(largest.name)-\(batch)", "steps": steps,
                    "description":
                        "every \(largest.name) (\(amount(rows(largest))) rows)"
                        + (batch == 0 ? " in one fetch, no batching" : " in batches of \(batch) (fetchBatchSize \(batch))")
                        + (readable(largest).map { ", reading \($0)" } ?? ""),
                ])
            }
        }
        for entity in concrete {
            phases.append([
                "name": "delete-\(entity.name)", "store": "prepared",
                "steps": [["delete": entity.name, "share": 0.1], ["save": "may-fail"]],
                "description":
                    "deletes a tenth of the \(pluralEntity(entity.name)) (chosen by the seed) with their delete rules, and saves: a save a Deny rule or a validation refuses times the refusal",
            ])
        }
        if phases.count > 1 { phases[1]["store"] = "prepared" }
        for index in phases.indices where phases[index]["store"] == nil { phases[index]["store"] = "continued" }
        return phases
    }
}
