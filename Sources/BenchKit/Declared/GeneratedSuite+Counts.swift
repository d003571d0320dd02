import ObjectGraph

extension GeneratedSuite {
    /// The most objects of an entity per `size` the suite makes to meet required relationships.
    static let maximumCountFactor = 16

    /// How many objects of each concrete entity the suite inserts, per `size`: one each, more where a required
    /// relationship whose destinations each serve one source (the to-many side of a one-to-many, a one-to-one)
    /// needs more destinations than that. Its sources are a whole hierarchy (CareKit's OCKCDTaskBase and its
    /// sub-entities all need outcomes), or each needs `minCount` of them. Raised in rounds, so that a chain of such
    /// relationships is met end to end; what a cycle or the cap leaves short, the save names.
    static func countFactors(_ model: ObjectModel) -> [String: Int] {
        var factor: [String: Int] = [:]
        for entity in model.entities where !entity.isAbstract { factor[entity.name] = 1 }
        func total(_ entity: EntityDescription) -> Int { entity.subtree.reduce(0) { $0 + (factor[$1.name] ?? 0) } }
        let needs: [(relationship: RelationshipDescription, minimum: Int)] = model.entities.flatMap { entity in
            entity.relationships.compactMap { relationship in
                guard relationship.entity === entity, let inverse = relationship.inverse, inverse !== relationship, !inverse.isToMany
                else { return nil }
                // One hierarchy on both sides grows with itself: a ring of objects meets it, or nothing does.
                let sources = Set(relationship.entity.subtree.map(ObjectIdentifier.init))
                guard !relationship.destination.subtree.contains(where: { sources.contains(ObjectIdentifier($0)) }) else { return nil }
                let minimum = relationship.isOptional ? (relationship.isToMany ? relationship.minCount : 0)
                    : (relationship.isToMany ? max(relationship.minCount, 1) : 1)
                return minimum > 0 ? (relationship, minimum) : nil
            }
        }
        for _ in 0..<8 {
            var raised = false
            for need in needs {
                let wanted = need.minimum * total(need.relationship.entity)
                let have = total(need.relationship.destination)
                guard have > 0, have < wanted else { continue }
                let scale = (wanted + have - 1) / have
                for member in need.relationship.destination.subtree {
                    guard let current = factor[member.name], current < maximumCountFactor else { continue }
                    factor[member.name] = min(current * scale, maximumCountFactor)
                    raised = true
                }
            }
            if !raised { break }
        }
        return factor
    }
}
