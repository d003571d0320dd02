import ObjectGraph

extension ModelLint {
    /// Who filters or sorts on an attribute: the model's own fetch requests and fetched properties, the generated
    /// suite's find and sorted phases.
    struct AttributeUse {
        let attribute: AttributeDescription
        /// The entity fetched (the attribute's table is its hierarchy's).
        let entity: EntityDescription
        /// `the model's fetch request ByEmail (email == $EMAIL)`, or a phase of the generated suite.
        let by: String
        let sorts: Bool
        let isPhase: Bool
    }

    /// An index finding per attribute that the model's own fetch requests filter on and no index covers (Indexed, a
    /// fetch index or a uniqueness constraint leading with it, on any entity of its table); one finding for those
    /// only the generated suite's find and sorted phases use, which are guesses at what a screen does.
    static func indexFindings(_ model: ObjectModel, fetchRequests: [FetchRequestTemplate]) -> [Finding] {
        var uses: [AttributeUse] = []
        for template in fetchRequests {
            guard let entity = model.entity(template.entity), let predicate = try? FetchPredicate(format: template.predicate) else {
                continue
            }
            let owner = template.fetchedProperty.map { "fetched property \($0)" } ?? "fetch request \(template.name)"
            for path in keyPaths(predicate) {
                guard let (attribute, fetched) = attribute(along: path, from: entity) else { continue }
                uses.append(
                    AttributeUse(
                        attribute: attribute, entity: fetched, by: "the model's \(owner) (\(template.predicate))", sorts: false,
                        isPhase: false))
            }
        }
        for filter in GeneratedSuite.filters(model) {
            uses.append(
                AttributeUse(attribute: filter.attribute, entity: filter.entity, by: filter.phase, sorts: filter.sorts, isPhase: true))
        }
        var findings: [Finding] = []
        var guessed: [(attribute: String, phases: [String])] = []
        var seen = Set<String>()
        let covered = Coverage(model)
        let usesOf = Dictionary(grouping: uses) { ObjectIdentifier($0.attribute) }
        for use in uses where !covered.covers(use.attribute, in: use.entity) && !seen.contains(use.attribute.qualifiedName) {
            seen.insert(use.attribute.qualifiedName)
            let all = usesOf[ObjectIdentifier(use.attribute)] ?? [use]
            let phases = all.filter(\.isPhase).map(\.by)
            guard all.contains(where: { !$0.isPhase }) else {
                guessed.append((use.attribute.qualifiedName, phases))
                continue
            }
            let table = use.entity.tableName
            let entity = use.attribute.entity.name
            let sources =
                Array(Set(all.filter { !$0.isPhase }.map(\.by))).sorted()
                + (phases.isEmpty ? [] : ["bench run --model's " + series(phases, "and")])
            let one = sources.count == 1 && phases.count <= 1
            let what = [
                all.contains { !$0.sorts } ? (one ? "filters" : "filter") : nil,
                all.contains(where: \.sorts) ? (one ? "sorts" : "sort") : nil,
            ]
            .compactMap { $0 }
            findings.append(
                Finding(
                    rule: .unindexedFilter, subject: use.attribute.qualifiedName,
                    message:
                        "\(series(sources, "and")) \(what.joined(separator: " and ")) \(plural(entity)) on \(use.attribute.name), and no index covers it: each such fetch reads every row of \(table) (SQLite's plan: SCAN \(table))\(all.contains(where: \.sorts) ? " and sorts them" : "").",
                    fix:
                        "add a fetch index on \(use.attribute.name) to \(entity) (or check Indexed): the fetch then searches the index; bench run --model measures it before and after."
                ))
        }
        if !guessed.isEmpty {
            let listed = guessed.sorted { $0.attribute < $1.attribute }.map { "\($0.attribute) (\($0.phases.joined(separator: ", ")))" }
            findings.append(
                Finding(
                    rule: .unindexedLookupGuess, subject: "model",
                    message:
                        "bench run --model looks objects up by identifiers and lists them sorted by dates, and no index covers \(guessed.count == 1 ? "the attribute" : "these \(guessed.count) attributes"): \(listed.joined(separator: ", ")); each such fetch reads every row of its table (SQLite's plan: SCAN).",
                    fix:
                        "index those your screens find or sort by (a fetch index, or Indexed); the find- and sorted- phases measure each fetch without the index, and again once you add it."
                ))
        }
        return findings
    }

    /// Whether an index of `entity`'s table leads with `attribute`: its Indexed box, or a fetch index or uniqueness
    /// constraint of any entity of the hierarchy.
    static func isCovered(_ attribute: AttributeDescription, in entity: EntityDescription) -> Bool {
        Coverage(entity.rootEntity.subtree).covers(attribute, in: entity)
    }

    /// The names a fetch index or uniqueness constraint of some entity of a hierarchy leads with, by the hierarchy's
    /// root: found once, so that asking for every attribute does not walk its whole hierarchy again (O(depth²)).
    struct Coverage {
        private var leading: Set<Pair> = []

        private struct Pair: Hashable {
            let root: ObjectIdentifier
            let name: String
        }

        init<Entities: Sequence>(_ entities: Entities) where Entities.Element == EntityDescription {
            for member in entities {
                let root = ObjectIdentifier(member.rootEntity)
                for index in member.fetchIndexes {
                    if let name = index.elements.first?.property { leading.insert(Pair(root: root, name: name)) }
                }
                for constraint in member.uniquenessConstraints {
                    if let name = constraint.first { leading.insert(Pair(root: root, name: name)) }
                }
            }
        }

        init(_ model: ObjectModel) { self.init(model.entities) }

        /// Whether an index covers `attribute` where `entity` keeps it: indexed itself, or led by an index of its table.
        func covers(_ attribute: AttributeDescription, in entity: EntityDescription) -> Bool {
            attribute.isIndexed || leading.contains(Pair(root: ObjectIdentifier(entity.rootEntity), name: attribute.name))
        }
    }

    /// The key paths a predicate compares (aggregates such as `@count` left out).
    static func keyPaths(_ predicate: FetchPredicate) -> [String] {
        func paths(_ expression: FetchExpression) -> [String] {
            switch expression {
            case let .keyPath(path): return path.contains("@") ? [] : [path]
            case let .aggregate(items): return items.flatMap(paths)
            default: return []
            }
        }
        switch predicate {
        case let .comparison(comparison): return paths(comparison.lhs) + paths(comparison.rhs)
        case let .and(parts), let .or(parts): return parts.flatMap(keyPaths)
        case let .not(inner): return keyPaths(inner)
        case .constant: return []
        }
    }

    /// The stored attribute a key path ends on through to-one relationships, and the entity whose table holds it.
    static func attribute(along path: String, from entity: EntityDescription) -> (AttributeDescription, EntityDescription)? {
        var current = entity
        let components = path.split(separator: ".").map(String.init)
        for (index, component) in components.enumerated() {
            if index == components.count - 1 {
                guard let attribute = current.attribute(component), !attribute.isTransient else { return nil }
                return (attribute, current)
            }
            guard let relationship = current.relationship(component), !relationship.isToMany else { return nil }
            current = relationship.destination
        }
        return nil
    }
}
