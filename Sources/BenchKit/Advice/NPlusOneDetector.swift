// Dictionary lookups of keys collected just before; issue 35 item 1 (one analysis of SQL) rewrites this file.
// swift-format-ignore-file: NeverForceUnwrap
import Foundation
import ObjectGraph

/// Finds N+1 access patterns in one phase's statements, as Rails' Bullet and Prosopite do for Active Record: it
/// groups the statements by fingerprint (the SQL without its values), flags a fingerprint repeated more than
/// `threshold` times, names the relationship from why ObjectGraph ran it (a to-many fault of `Class.students`, an
/// object fault of `Student`), and says which line of the fetch to change, with the statements that saves.
/// Declared phases are also checked against their own steps: a prefetch no read uses, a batch far larger than the
/// rows read.
package struct NPlusOneDetector: Sendable {
    /// Repeats of one fingerprint in a phase above which it is flagged.
    package var threshold: Int

    package init(threshold: Int = 10) { self.threshold = threshold }

    /// What a declared phase fetches and reads, for the checks the statements alone cannot make.
    struct PhaseShape {
        struct Fetch {
            let entity: String
            let prefetch: [String]
            let batchSize: Int
            /// Key paths read on this fetch's results, and on how many of them (nil: all).
            var reads: [String] = []
            var first: Int?
        }

        var fetches: [Fetch] = []

        init(steps: [Step]) {
            for step in steps {
                switch step {
                case let .fetch(fetch) where fetch.result == .objects:
                    fetches.append(Fetch(entity: fetch.entity.name, prefetch: fetch.prefetch.map(\.text), batchSize: fetch.batchSize))
                case let .read(paths, first, _):
                    guard !fetches.isEmpty else { continue }
                    fetches[fetches.count - 1].reads += paths.map(\.text)
                    let current = fetches[fetches.count - 1].first
                    fetches[fetches.count - 1].first = first.map { max($0, current ?? 0) }
                default:
                    break
                }
            }
        }
    }

    /// Where an entity's objects came from in a phase: the entity a fetch returned, and the key path from it.
    struct Reach {
        let root: String
        let path: String

        func appending(_ name: String) -> Reach { Reach(root: root, path: path.isEmpty ? name : path + "." + name) }
    }

    /// For each entity met in the phase, how its objects were reached from a fetch: through which to-many faults,
    /// prefetches and to-one faults, in statement order (the key path a prefetch would name).
    static func reaches(_ entries: [StatementLog.Entry], model: ObjectModel?) -> [String: Reach] {
        var reached: [String: Reach] = [:]
        for entry in entries {
            let cause = entry.cause
            switch cause.kind {
            case .fetch, .batch:
                if !cause.subject.hasPrefix("count "), reached[cause.subject] == nil {
                    reached[cause.subject] = Reach(root: cause.subject, path: "")
                }
            case .toManyFault, .prefetch:
                guard let relationship = relationship(cause.subject, in: model) else { continue }
                let source = reached[relationship.entity.name] ?? relationship.entity.subtree.lazy.compactMap { reached[$0.name] }.first
                // The members may be any sub-entity of the destination: each is reached through the relationship.
                for member in relationship.destination.subtree where reached[member.name] == nil {
                    if let source { reached[member.name] = source.appending(relationship.name) }
                }
            case .objectFault:
                guard reached[cause.subject] == nil, let link = toOne(to: cause.subject, from: reached, model: model) else { continue }
                reached[cause.subject] = link.reach
            default:
                continue
            }
        }
        return reached
    }

    /// A to-one relationship into `entity` from an entity already reached, and the reach it gives: from the entity
    /// closest to the fetch first (the fetched objects' own to-ones before their members'), then by name. The
    /// destination may be a parent of `entity`, abstract or not (`Order.account` reaches a Customer): prefetching the
    /// key path fetches the sub-entities' rows as well.
    static func toOne(
        to entity: String, from reached: [String: Reach], model: ObjectModel?
    ) -> (relationship: RelationshipDescription, reach: Reach)? {
        let sources = reached.keys.sorted {
            (reached[$0]!.path.split(separator: ".").count, $0) < (reached[$1]!.path.split(separator: ".").count, $1)
        }
        let target = model?.entity(entity)
        for source in sources where source != entity {
            guard let sourceEntity = model?.entity(source), let target,
                let relationship = sourceEntity.relationships.filter({ !$0.isToMany && target.isKind(of: $0.destination) }).min(by: {
                    ($0.destination === target ? 0 : 1, $0.name) < ($1.destination === target ? 0 : 1, $1.name)
                })
            else { continue }
            return (relationship, reached[source]!.appending(relationship.name))
        }
        return nil
    }

    /// The findings of one phase: `entries` are its statements in order, `model` the store's model, `shape` what a
    /// declared phase fetches and reads.
    func findings(phase: PhaseName, entries: [StatementLog.Entry], model: ObjectModel?, shape: PhaseShape? = nil) -> [QueryFinding] {
        let statements = entries.count
        var groups: [String: [StatementLog.Entry]] = [:]
        var order: [String] = []
        for entry in entries where !entry.isExec {
            let print = Self.fingerprint(entry.sql)
            if groups[print] == nil { order.append(print) }
            groups[print, default: []].append(entry)
        }
        func count(_ kind: StatementKind, _ subject: String) -> Int {
            entries.reduce(0) { $0 + ($1.cause.kind == kind && $1.cause.subject == subject ? 1 : 0) }
        }
        let reached = Self.reaches(entries, model: model)
        // Key paths a declared phase reads only through @count.
        let countedOnly: Set<String> = Set(
            (shape?.fetches ?? []).flatMap { fetch -> [String] in
                let counted = fetch.reads.filter { $0.hasSuffix(".@count") }.map { String($0.dropLast(".@count".count)) }
                return counted.filter { path in !fetch.reads.contains { $0.hasPrefix(path + ".") && !$0.hasSuffix(".@count") } }
                    .map { "\(fetch.entity).\($0)" }
            })
        var findings: [QueryFinding] = []
        var explained = Set<String>()
        var prefetchAdvised = Set<String>()
        // To-many faults first: the object faults of their members are part of the same pattern.
        let sorted = order.sorted { rank(groups[$0]![0].cause.kind) < rank(groups[$1]![0].cause.kind) }
        for print in sorted {
            let group = groups[print]!
            let cause = group[0].cause
            let repeats = group.count
            func finding(_ pattern: QueryFinding.Pattern, _ subject: String, after: Int, _ change: String) -> QueryFinding {
                QueryFinding(
                    phase: phase, pattern: pattern, subject: subject, fingerprint: print, repeats: repeats,
                    statements: statements, statementsAfter: max(1, after), change: change)
            }
            switch cause.kind {
            case .toManyFault:
                guard repeats > threshold else { continue }
                let relationship = Self.relationship(cause.subject, in: model)
                let destination = relationship?.destination.name ?? ""
                let memberFaults = destination.isEmpty ? 0 : count(.objectFault, destination)
                let name = relationship?.name ?? cause.subject
                let owner = relationship.flatMap { relationship in
                    reached[relationship.entity.name] ?? relationship.entity.subtree.lazy.compactMap { reached[$0.name] }.first
                }
                let keyPath = owner?.appending(name).path ?? name
                let fetchOf = owner?.root ?? relationship?.entity.name ?? "its owners"
                if countedOnly.contains("\(fetchOf).\(keyPath)") {
                    findings.append(
                        finding(
                            .countThroughFaults, cause.subject, after: statements - repeats,
                            "add a derived attribute \(name)Count = \(name).@count (Integer 64) and read it instead: it comes with each row, no fault (seed 000 III.B)"
                        ))
                } else {
                    explained.formUnion(relationship?.destination.subtree.map(\.name) ?? [destination])
                    let rowsRead = memberFaults > 0 || reached[destination].map { $0.path.isEmpty } == true
                    findings.append(
                        finding(
                            .toManyFaultPerOwner, cause.subject, after: statements - repeats - memberFaults + 1,
                            "add relationshipKeyPathsForPrefetching [\"\(keyPath)\"] to the fetch of \(fetchOf): one statement for every owner's members"
                                + (rowsRead
                                    ? ", with their rows"
                                    : "; if the screen shows only how many, a derived \(name).@count attribute needs none")))
                }
            case .objectFault:
                let entity = cause.subject
                guard !explained.contains(entity) else { continue }
                let walked = entries.filter {
                    $0.cause.kind == .toManyFault && Self.relationship($0.cause.subject, in: model)?.destination.name == entity
                }
                // Members faulted one by one from few owners: a search through the relationship.
                if !walked.isEmpty && walked.count <= threshold && repeats > threshold * walked.count {
                    let owner = Self.relationship(walked[0].cause.subject, in: model)
                    findings.append(
                        finding(
                            .walkToFind, walked[0].cause.subject, after: statements - repeats - walked.count + walked.count,
                            "fetch \(entity) with a predicate on \(owner?.inverse.map { "\($0.name) == owner" } ?? "its owner") and the value looked for, fetchLimit = 1: one statement per lookup instead of \(formatCount(repeats / walked.count)) faults (seed 000 III.C, option 2)"
                        ))
                    continue
                }
                // Faults of several sub-entities through one to-one (Order.account to Customers and Staff) are one
                // pattern, which one prefetch of the key path removes.
                let link = Self.toOne(to: entity, from: reached.filter { $0.key != entity || $0.value.path.isEmpty == false }, model: model)
                    .flatMap { $0.relationship.entity.name == entity ? nil : $0 }
                var linked = repeats
                if let link {
                    let key = "\(link.reach.root) \(link.reach.path)"
                    guard !prefetchAdvised.contains(key) else { continue }
                    let siblings = groups.values.filter { group in
                        group[0].cause.kind == .objectFault && group[0].cause.subject != entity
                            && Self.toOne(to: group[0].cause.subject, from: reached, model: model).map {
                                "\($0.reach.root) \($0.reach.path)" == key
                            } == true
                    }
                    linked += siblings.reduce(0) { $0 + $1.count }
                    guard linked > threshold else { continue }
                    prefetchAdvised.insert(key)
                }
                guard linked > threshold else { continue }
                if let link {
                    let destination = siblings(of: entity, through: link.relationship, in: groups)
                    findings.append(
                        QueryFinding(
                            phase: phase, pattern: .toOneFaultPerObject, subject: destination, fingerprint: print, repeats: linked,
                            statements: statements, statementsAfter: max(1, statements - linked + 1),
                            change:
                                "add relationshipKeyPathsForPrefetching [\"\(link.reach.path)\"] to the fetch of \(link.reach.root): one statement for every \(destination)"
                        ))
                } else if reached[entity]?.path.isEmpty == true {
                    findings.append(
                        finding(
                            .faultedResults, entity, after: statements - repeats,
                            "set returnsObjectsAsFaults = false on the fetch of \(entity): the rows come with the fetch"))
                } else {
                    findings.append(
                        finding(
                            .repeatedStatement, entity, after: statements - repeats + 1,
                            "fetch the \(entity) objects the phase needs in one request (SELF IN their IDs) instead of faulting them one by one"
                        ))
                }
            case .batch:
                guard repeats > threshold else { continue }
                let size = group[0].rows
                findings.append(
                    finding(
                        .smallBatches, cause.subject, after: statements - repeats + 1,
                        "fetchBatchSize \(size) loaded \(formatCount(group.reduce(0) { $0 + $1.rows })) rows in \(formatCount(repeats)) batches: to read every row, no batching (fetchBatchSize 0); batching pays for the first screen of a long list"
                    ))
            case .fetch, .prefetch:
                guard repeats > threshold else { continue }
                let subject = cause.subject.hasPrefix("count ") ? String(cause.subject.dropFirst(6)) : cause.subject
                findings.append(
                    finding(
                        .repeatedStatement, subject, after: statements - repeats + 1,
                        cause.subject.hasPrefix("count ")
                            ? "a count request of \(subject) per object: a derived @count attribute, or one fetch grouped in memory"
                            : "a fetch request of \(subject) per object: one fetch with an IN predicate over all their keys, grouped in memory (what prefetching does for a relationship)"
                    ))
            default:
                // Inserts, updates and deletes: a save writes a statement per changed row, as Core Data's does.
                continue
            }
        }
        if let shape { findings += declaredFindings(phase: phase, shape: shape, entries: entries, model: model) }
        return findings
    }

    /// The checks a declared phase's own steps allow: prefetches no read uses, batches far above the rows read.
    private func declaredFindings(phase: PhaseName, shape: PhaseShape, entries: [StatementLog.Entry], model: ObjectModel?) -> [QueryFinding]
    {
        var findings: [QueryFinding] = []
        for fetch in shape.fetches {
            for keyPath in fetch.prefetch {
                let used = fetch.reads.contains { read in
                    read == keyPath || read.hasPrefix(keyPath + ".")
                }
                guard !used else { continue }
                let relationship = Self.relationship(along: keyPath, from: fetch.entity, in: model)
                let subject = relationship?.qualifiedName ?? "\(fetch.entity).\(keyPath)"
                let prefetches = entries.filter { $0.cause.kind == .prefetch && $0.cause.subject == subject }
                findings.append(
                    QueryFinding(
                        phase: phase, pattern: .unusedPrefetch, subject: "\(fetch.entity).\(keyPath)",
                        fingerprint: prefetches.first.map { Self.fingerprint($0.sql) } ?? "", repeats: prefetches.count,
                        statements: entries.count, statementsAfter: max(1, entries.count - prefetches.count),
                        change:
                            "drop \"\(keyPath)\" from relationshipKeyPathsForPrefetching: no read of this phase uses its \(formatCount(prefetches.reduce(0) { $0 + $1.rows })) rows"
                    ))
            }
            if fetch.batchSize > 0, let first = fetch.first, fetch.batchSize > 4 * max(first, 1) {
                findings.append(
                    QueryFinding(
                        phase: phase, pattern: .oversizedBatch, subject: fetch.entity, fingerprint: "", repeats: 0,
                        statements: entries.count, statementsAfter: entries.count,
                        change:
                            "fetchBatchSize \(fetch.batchSize) loads \(fetch.batchSize) rows for the \(first) read: about twice the rows on screen (\(2 * first)) is enough (objc.io)"
                    ))
            }
        }
        return findings
    }

    /// The entity a to-one's faults fetched: `Account (Customer, Staff)` when they were of several of its
    /// sub-entities, else the one faulted.
    private func siblings(
        of entity: String, through relationship: RelationshipDescription, in groups: [String: [StatementLog.Entry]]
    ) -> String {
        let faulted = relationship.destination.subtree.map(\.name).filter { name in
            groups.values.contains { $0[0].cause.kind == .objectFault && $0[0].cause.subject == name }
        }
        return faulted.count > 1 ? "\(relationship.destination.name) (\(faulted.joined(separator: ", ")))" : entity
    }

    /// To-many faults before object faults, so that members' faults are explained by their owners' pattern.
    private func rank(_ kind: StatementKind) -> Int {
        switch kind {
        case .toManyFault: return 0
        case .objectFault: return 2
        default: return 1
        }
    }

    /// The SQL without values: whitespace collapsed (the values are already `?` or int-array tables).
    static func fingerprint(_ sql: String) -> String {
        sql.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    /// The relationship `Entity.name` names.
    static func relationship(_ qualified: String, in model: ObjectModel?) -> RelationshipDescription? {
        let parts = qualified.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        return model?.entity(parts[0])?.relationship(parts[1])
    }

    /// The last relationship of a key path from `entity` (`author.profile` from Post: User.profile).
    static func relationship(along keyPath: String, from entity: String, in model: ObjectModel?) -> RelationshipDescription? {
        var current = model?.entity(entity)
        var last: RelationshipDescription?
        for component in keyPath.split(separator: ".") {
            guard let relationship = current?.relationship(String(component)) else { return nil }
            last = relationship
            current = relationship.destination
        }
        return last
    }
}
