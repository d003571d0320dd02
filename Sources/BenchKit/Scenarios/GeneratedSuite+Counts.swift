import ObjectGraph

extension GeneratedSuite {
    /// The most objects of an entity per `size` the suite makes to meet required relationships.
    static let maximumCountFactor = 16

    /// How many objects of each concrete entity the data section makes: `size` times its count factor; with
    /// `--counts`, the counts given and the others following them (`resolvedCounts`); with a store's shape, its rows
    /// in proportion, the entity with most rows getting `size` (or scaled to the counts given).
    static func entityCounts(_ model: ObjectModel, options: Options) throws -> [String: DataSpec.Count] {
        let concrete = model.entities.filter { !$0.isAbstract }
        for (name, count) in options.counts.sorted(by: { $0.key < $1.key }) {
            guard let entity = model.entity(name) else {
                throw BenchError.invalidInput(
                    "--counts: the model has no entity '\(name)'" + DataSpec.suggestion(name, model.entities.map(\.name))
                        + "; its entities are \(concrete.map(\.name).joined(separator: ", "))")
            }
            guard !entity.isAbstract else {
                throw BenchError.invalidInput(
                    "--counts: '\(name)' is abstract; give counts of its sub-entities (\(entity.subtree.filter { !$0.isAbstract }.map(\.name).joined(separator: ", ")))"
                )
            }
            guard (1...100_000_000).contains(count) else {
                throw BenchError.invalidInput("--counts: \(name)=\(count); give a count from 1 to 100000000")
            }
        }
        if let shape = options.shape, let largest = shape.largest {
            // The named entity the store has most rows of sets the scale of the others.
            guard let anchor = options.counts.max(by: { (shape.rows[$0.key] ?? 0, $1.key) < (shape.rows[$1.key] ?? 0, $0.key) }) else {
                return Dictionary(
                    uniqueKeysWithValues: concrete.map { entity in
                        let rows = shape.rows[entity.name] ?? 0
                        return (entity.name, rows == largest.rows ? .perSize(1) : .perSize(Double(rows) / Double(largest.rows)))
                    })
            }
            let scale = Double(anchor.value) / Double(max(1, shape.rows[anchor.key] ?? 0))
            return Dictionary(
                uniqueKeysWithValues: concrete.map { entity in
                    (entity.name, .fixed(options.counts[entity.name] ?? Int((Double(shape.rows[entity.name] ?? 0) * scale).rounded())))
                })
        }
        if !options.counts.isEmpty {
            return resolvedCounts(model, given: options.counts).mapValues { .fixed($0.count) }
        }
        return countFactors(model).mapValues { .perSize(Double($0)) }
    }

    /// The counts `--counts` gives, and for every other concrete entity the count of the nearest entity with one
    /// through the model's relationships (either direction; the larger count where two are as near), with where it
    /// came from (`as Order, through Order.lines`); an entity no relationship reaches gets the largest count given.
    /// Required relationships then raise their destinations as `countFactors` does.
    static func resolvedCounts(_ model: ObjectModel, given: [String: Int]) -> [String: (count: Int, origin: String)] {
        var resolved: [String: (count: Int, origin: String)] = given.mapValues { ($0, "given") }
        var frontier = given.keys.sorted { (given[$0, default: 0], $1) > (given[$1, default: 0], $0) }
        while !frontier.isEmpty {
            var next: [String] = []
            for name in frontier {
                guard let entity = model.entity(name), let count = resolved[name]?.count else { continue }
                let outgoing = entity.relationships.map { ($0, $0.destination) }
                let incoming = model.entities.flatMap { other in
                    other.relationships.filter { $0.entity === other && entity.isKind(of: $0.destination) }.map { ($0, other) }
                }
                for (relationship, neighbour) in outgoing + incoming {
                    for reached in neighbour.subtree where !reached.isAbstract && resolved[reached.name] == nil {
                        resolved[reached.name] = (count, "as \(name), through \(relationship.qualifiedName)")
                        next.append(reached.name)
                    }
                }
            }
            frontier = next.sorted { (resolved[$0]?.count ?? 0, $1) > (resolved[$1]?.count ?? 0, $0) }
        }
        let largest = given.values.max() ?? 1
        for entity in model.entities where !entity.isAbstract && resolved[entity.name] == nil {
            resolved[entity.name] = (largest, "no relationship reaches it: the largest count given")
        }
        let raised = raise(model, base: resolved.mapValues(\.count))
        for (name, count) in raised where count != resolved[name]?.count {
            resolved[name] = (count, (resolved[name]?.origin ?? "") + ", raised for a required relationship")
        }
        return resolved
    }

    /// How many objects of each concrete entity the suite inserts, per `size`: one each, more where a required
    /// relationship whose destinations each serve one source (the to-many side of a one-to-many, a one-to-one)
    /// needs more destinations than that.
    static func countFactors(_ model: ObjectModel) -> [String: Int] {
        raise(model, base: Dictionary(uniqueKeysWithValues: model.entities.filter { !$0.isAbstract }.map { ($0.name, 1) }))
    }

    /// `base` raised where a required relationship whose destinations each serve one source needs more of them. Its
    /// sources are a whole hierarchy (CareKit's OCKCDTaskBase and its sub-entities all need outcomes), or each needs
    /// `minCount` of them. Raised in rounds, so that a chain of such relationships is met end to end. When the rounds
    /// cannot meet them all (a cycle that asks each entity for more than the last, a need beyond 16 times the base),
    /// `base` is returned and the save names what is short, rather than inserting up to 16 times the objects for a
    /// save that fails anyway.
    static func raise(_ model: ObjectModel, base: [String: Int]) -> [String: Int] {
        var counts = base
        func total(_ entity: EntityDescription) -> Int { entity.subtree.reduce(0) { $0 + (counts[$1.name] ?? 0) } }
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
        // A chain of n needs, met from its far end, takes n rounds; one more finds nothing left to raise.
        for _ in 0...needs.count {
            var short = false
            for need in needs {
                let wanted = need.minimum * total(need.relationship.entity)
                let have = total(need.relationship.destination)
                guard have > 0, have < wanted else { continue }
                short = true
                let scale = (wanted + have - 1) / have
                for member in need.relationship.destination.subtree {
                    guard let count = counts[member.name], let start = base[member.name] else { continue }
                    counts[member.name] = min(count * scale, start * maximumCountFactor)
                }
            }
            if !short { return counts }
        }
        return base
    }
}
