import CPrefetch
import OrderedCollections

/// relationshipKeyPathsForPrefetching: one query per key path for the whole result, Core Data's
/// `... WHERE t0.ZCLASS IN (SELECT * FROM _Z_intarray0) ORDER BY t0.ZCLASS`. A nested key path
/// (`class.teacher`) prefetches each level once, over the objects the level before brought.
struct Prefetcher {
    let context: ObjectContext

    private final class Node {
        var children: OrderedDictionary<String, Node> = [:]
    }

    func prefetch(_ keyPaths: [String], for objects: [ManagedObject], entity: EntityDescription) throws {
        let root = Node()
        for keyPath in keyPaths {
            var node = root
            for component in keyPath.split(separator: ".").map(String.init) {
                let child = node.children[component] ?? Node()
                node.children[component] = child
                node = child
            }
        }
        try prefetch(root, objects: objects, entity: entity, path: "")
    }

    private func prefetch(_ node: Node, objects: [ManagedObject], entity: EntityDescription, path: String) throws {
        for (name, child) in node.children {
            let keyPath = path.isEmpty ? name : path + "." + name
            guard let relationship = entity.relationship(name) else {
                throw ObjectGraphError.invalidOperation(
                    "prefetch key path '\(keyPath)': \(entity.name) has no relationship '\(name)'")
            }
            let nested = !child.children.isEmpty
            let destinations =
                relationship.isToMany
                ? try prefetchToMany(relationship, owners: objects, keyPath: keyPath, collect: nested)
                : try prefetchToOne(relationship, sources: objects, keyPath: keyPath)
            if nested {
                try prefetch(child, objects: destinations, entity: relationship.destination, path: keyPath)
            }
        }
    }

    /// Destination rows of a to-one relationship by primary key; returns the distinct destinations.
    private func prefetchToOne(_ relationship: RelationshipDescription, sources: [ManagedObject], keyPath: String) throws -> [ManagedObject]
    {
        let destination = relationship.destination
        var needed = ContiguousArray<Int64>()
        var seen = Set<Int64>()
        for source in sources {
            let key: Int64
            switch source.relations[relationship.index] {
            case let .toOneObject(object):
                key = object.primaryKey
                guard object.isFault else { continue }
            case .unresolved:
                guard case let .int(stored)? = source.storedValue(slot: relationship.slot) else { continue }
                key = stored
                if let object = context.registered(destination, primaryKey: key), !object.isFault { continue }
            default:
                continue
            }
            if key > 0, seen.insert(key).inserted { needed.append(key) }
        }
        // The fetched objects must be held until the sources point at them, or they would be released at once.
        var fetched: [ManagedObject] = []
        if !needed.isEmpty {
            context.bindIDList(needed)
            let statement = try context.statement(relationship.sql.prefetch)
            let rows = try context.query(statement, .prefetch, subject: relationship.qualifiedName) { row in
                fetched.append(context.materialize(destination, from: row, asFault: false))
            }
            traceRows(keyPath, rows)
        }
        var distinct = OrderedSet<ManagedObject>()
        for source in sources {
            guard let object = source.resolvedToOne(relationship, context: context) else { continue }
            source.relations[relationship.index] = .toOne(object)
            distinct.append(object)
        }
        withExtendedLifetime(fetched) {}
        return distinct.elements
    }

    /// Members of a to-many relationship for every owner at once, grouped by owner; returns every member when
    /// `collect` asks for them (a nested key path continues from them).
    private func prefetchToMany(
        _ relationship: RelationshipDescription, owners: [ManagedObject], keyPath: String,
        collect: Bool
    ) throws -> [ManagedObject] {
        let destination = relationship.destination
        var pending: [ManagedObject] = []
        var ids = ContiguousArray<Int64>()
        var seen = Set<ObjectIdentifier>()
        for owner in owners where owner.primaryKey > 0 && seen.insert(ObjectIdentifier(owner)).inserted {
            if case let .toMany(state) = owner.relations[relationship.index], state.members != nil { continue }
            pending.append(owner)
            ids.append(owner.primaryKey)
        }
        if !pending.isEmpty {
            context.bindIDList(ids)
            // Rows come sorted by owner: members are grouped run by run, one dictionary entry per owner. A member
            // the fetch-all before registered and fired is known so from its registry entry (`RegistryEntry`), not
            // from its object, and kept unretained until its owner's run ends; then the run's list is made at its
            // size, asking for the objects `lookahead` members ahead of each retain. Profiled (perf annotate, the
            // prefetching walk at 100,000 students): the materialization stalled on the slot's load (18.5% of its
            // samples) and on the member's flag word (75.9%), and the list's retain, an atomic, on the same line;
            // the walk was 1.25-1.33 times its floor at 100,000 and 1.33 at 1,000,000 (0.95-1.06 at 1,000). With the
            // bit, each object asked for as its row came: 1.06-1.14 and 1.22-1.27, the stalls at 1,000,000 on the
            // slot (57%) and on that hint (37%, a miss of the TLB too). Asked for as the list is made: 1.03-1.05 and
            // 1.16 (interleaved runs of 6 and 3 repetitions).
            var grouped: [Int64: MemberList] = [:]
            grouped.reserveCapacity(pending.count)
            var currentOwner: Int64 = 0
            // The run's members: each address with its lowest bit set when the reference is owned (+1).
            var run = ContiguousArray<UInt>()
            run.reserveCapacity(64)
            let ownerColumn = relationship.sql.ownerColumn
            let ordersJoinRows = relationship.kind == .manyToMany && relationship.join.orderColumn != nil
            var orderKeys: [Int64: [ObjectIdentifier: Int64]] = [:]
            let lookahead = 8
            func endRun() {
                guard !run.isEmpty else { return }
                let list = run.withUnsafeBufferPointer { members in
                    let count = members.count
                    for index in 0..<Swift.min(lookahead, count) {
                        relbench_prefetch_for_write(UnsafeRawPointer(bitPattern: members[index]))
                    }
                    return MemberList(count: count) { index in
                        if index + lookahead < count {
                            relbench_prefetch_for_write(UnsafeRawPointer(bitPattern: members[index + lookahead]))
                        }
                        let bits = members[index]
                        // A member's address, never 0.
                        let reference = Unmanaged<ManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~1).unsafelyUnwrapped)
                        return bits & 1 != 0 ? reference.takeRetainedValue() : reference.takeUnretainedValue()
                    }
                }
                run.removeAll(keepingCapacity: true)
                if var earlier = grouped[currentOwner] {
                    for member in list { earlier.append(member) }
                    grouped[currentOwner] = earlier
                } else {
                    grouped[currentOwner] = list
                }
            }
            let statement = try context.statement(relationship.sql.prefetch)
            let rows: Int
            do {
                rows = try context.query(statement, .prefetch, subject: relationship.qualifiedName) { row in
                    let (member, owned) = context.materializeMember(destination, from: row)
                    let owner = row.int64(ownerColumn)
                    if ordersJoinRows {
                        orderKeys[owner, default: [:]][member._withUnsafeGuaranteedRef(ObjectIdentifier.init)] = row.int64(ownerColumn + 1)
                    }
                    if owner != currentOwner {
                        endRun()
                        currentOwner = owner
                    }
                    run.append(UInt(bitPattern: member.toOpaque()) | (owned ? 1 : 0))
                }
            } catch {
                for bits in run where bits & 1 != 0 {
                    // A member's address, never 0.
                    // swift-format-ignore: NeverForceUnwrap
                    Unmanaged<ManagedObject>.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~1)!).release()
                }
                throw error
            }
            endRun()
            traceRows(keyPath, rows)
            for owner in pending {
                let state: ToManyState
                if case let .toMany(existing) = owner.relations[relationship.index] {
                    state = existing
                } else {
                    state = ToManyState(members: nil)
                }
                state.fulfil(with: grouped[owner.primaryKey] ?? MemberList())
                if ordersJoinRows { state.joinOrderKeys = orderKeys[owner.primaryKey] ?? [:] }
                owner.relations[relationship.index] = .toMany(state)
            }
        }
        guard collect else { return [] }
        var members = OrderedSet<ManagedObject>()
        for owner in owners {
            if case let .toMany(state) = owner.relations[relationship.index], let loaded = state.members {
                members.append(contentsOf: loaded)
            }
        }
        return members.elements
    }

    private func traceRows(_ keyPath: String, _ rows: Int) {
        context.store.sqlTrace?.annotation("Prefetching with key '\(keyPath)'.  Got \(rows) rows.")
    }
}
