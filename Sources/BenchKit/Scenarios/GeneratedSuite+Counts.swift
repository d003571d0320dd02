import ObjectGraph

extension GeneratedSuite {
    /// The most objects of an entity per `size` the suite makes to meet required relationships.
    static let maximumCountFactor = 16

    /// How many objects of each concrete entity the suite inserts, per `size`: one each, more where a required
    /// relationship whose destinations each serve one source (the to-many side of a one-to-many, a one-to-one)
    /// needs more destinations than that. Its sources are a whole hierarchy (CareKit's OCKCDTaskBase and its
    /// sub-entities all need outcomes), or each needs `minCount` of them. Raised in rounds, so that a chain of such
    /// relationships is met end to end. When the rounds cannot meet them all (a cycle that asks each entity for more
    /// than the last, a need beyond the cap), every count stays at `size` and the save names what is short, rather
    /// than inserting up to 16 times the objects for a save that fails anyway.
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
                let minimum = DataGenerator.minimumMembers(relationship)
                return minimum > 0 ? (relationship, minimum) : nil
            }
        }
        let initial = factor
        // A chain of n needs, met from its far end, takes n rounds; one more finds nothing left to raise.
        for _ in 0...needs.count {
            var short = false
            for need in needs {
                let wanted = need.minimum * total(need.relationship.entity)
                let have = total(need.relationship.destination)
                guard have > 0, have < wanted else { continue }
                short = true
                let scale = (wanted + have - 1) / have
                for member in need.relationship.destination.subtree where factor[member.name] != nil {
                    factor[member.name] = min(factor[member.name]! * scale, maximumCountFactor)
                }
            }
            if !short { return factor }
        }
        return initial
    }
}
