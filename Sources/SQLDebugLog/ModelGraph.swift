/// The model's entity tree and relationships, as a mapping gives them, for the findings' key paths: which entity
/// declares a relationship, what it reaches, and which sub-entities share a table.
struct ModelGraph: Sendable {
    private let parents: [String: String]
    private let children: [String: [String]]
    private let declared: [String: [ModelRelationship]]

    init(mapping: NameMapping?) {
        parents = mapping?.parents ?? [:]
        var children: [String: [String]] = [:]
        for (child, parent) in parents { children[parent, default: []].append(child) }
        self.children = children.mapValues { $0.sorted() }
        var declared: [String: [ModelRelationship]] = [:]
        for relationship in (mapping?.relationships ?? [:]).values { declared[relationship.entity, default: []].append(relationship) }
        self.declared = declared.mapValues { $0.sorted { $0.name < $1.name } }
    }

    var isEmpty: Bool { declared.isEmpty }

    /// `entity` and its descendants, each followed by its own (sub-entities by name): Core Data's entity order.
    func subtree(_ entity: String) -> [String] {
        var result = [entity]
        for child in children[entity] ?? [] { result += subtree(child) }
        return result
    }

    /// Whether `entity` is `other` or one of its descendants.
    func isKind(_ entity: String, of other: String) -> Bool {
        var current: String? = entity
        var steps = 0
        while let name = current, steps < 64 {
            if name == other { return true }
            current = parents[name]
            steps += 1
        }
        return false
    }

    /// The relationship called `name` on `entity` or on one of its ancestors.
    func relationship(_ name: String, on entity: String) -> ModelRelationship? {
        var current: String? = entity
        var steps = 0
        while let owner = current, steps < 64 {
            if let found = declared[owner]?.first(where: { $0.name == name }) { return found }
            current = parents[owner]
            steps += 1
        }
        return nil
    }

    /// `Owner.relationship` (the owner may be a sub-entity of the declaring one).
    func relationship(qualified: String) -> ModelRelationship? {
        let parts = qualified.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        return relationship(parts[1], on: parts[0])
    }

    /// Every relationship of `entity`, its own and inherited.
    func relationships(of entity: String) -> [ModelRelationship] {
        var result: [ModelRelationship] = []
        var current: String? = entity
        var steps = 0
        while let owner = current, steps < 64 {
            result += declared[owner] ?? []
            current = parents[owner]
            steps += 1
        }
        return result
    }

    /// The relationships a key path walks from `entity` (`students.address` from Class: Class.students,
    /// Student.address), or nil when a component is not a relationship.
    func relationships(along keyPath: String, from entity: String) -> [ModelRelationship]? {
        var current = entity
        var walked: [ModelRelationship] = []
        for component in keyPath.split(separator: ".") {
            guard let next = relationship(String(component), on: current) else { return nil }
            walked.append(next)
            current = next.destination
        }
        return walked
    }
}

/// Where an entity's objects came from in a segment: the entity a fetch returned, and the key path from it.
struct Reach: Sendable, Equatable {
    let root: String
    let path: String

    func appending(_ name: String) -> Reach { Reach(root: root, path: path.isEmpty ? name : path + "." + name) }

    var depth: Int { path.isEmpty ? 0 : path.split(separator: ".").count }
}

/// How each entity met in a segment was reached from a fetch, in statement order: through which to-many faults,
/// prefetches and to-one faults (the key path a prefetch would name). Needs the model's relationships.
struct ReachMap: Sendable {
    private(set) var reached: [String: Reach] = [:]

    subscript(entity: String) -> Reach? { reached[entity] }

    /// A fetch (or batch) of `entity`: its objects are a root.
    mutating func fetched(_ entity: String) {
        if reached[entity] == nil, reached.count < 4096 { reached[entity] = Reach(root: entity, path: "") }
    }

    /// A to-many fault or a prefetch of `relationship`: its destination's entities are reached through it.
    mutating func followed(_ relationship: ModelRelationship, model: ModelGraph) {
        let known = reached
        guard let source = known[relationship.entity] ?? model.subtree(relationship.entity).lazy.compactMap({ known[$0] }).first
        else { return }
        for member in model.subtree(relationship.destination) where reached[member] == nil {
            reached[member] = source.appending(relationship.name)
        }
    }

    /// An object fault of `entity`: reached through a to-one from an entity already reached, if any.
    mutating func faulted(_ entity: String, model: ModelGraph) {
        guard reached[entity] == nil, let link = Self.toOne(to: entity, from: reached, model: model) else { return }
        reached[entity] = link.reach
    }

    /// A to-one into `entity` from an entity already reached, and the reach it gives: from the entity closest to the
    /// fetch first (the fetched objects' own to-ones before their members'), then by name. The destination may be a
    /// parent of `entity`, abstract or not (`Order.account` reaches a Customer): prefetching the key path fetches
    /// the sub-entities' rows as well.
    static func toOne(
        to entity: String, from reached: [String: Reach], model: ModelGraph
    ) -> (relationship: ModelRelationship, reach: Reach)? {
        let sources = reached.keys.sorted { (reached[$0]?.depth ?? 0, $0) < (reached[$1]?.depth ?? 0, $1) }
        for source in sources where source != entity {
            guard let reach = reached[source] else { continue }
            let candidates = model.relationships(of: source).filter { !$0.isToMany && model.isKind(entity, of: $0.destination) }
            guard
                let relationship = candidates.min(by: {
                    ($0.destination == entity ? 0 : 1, $0.name) < ($1.destination == entity ? 0 : 1, $1.name)
                })
            else { continue }
            return (relationship, reach.appending(relationship.name))
        }
        return nil
    }
}
