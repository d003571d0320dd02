import OrderedCollections

/// Columns a save writes on rows other than the changed object's own: the hidden owner column of a many-to-nil
/// relationship's members, the order keys of ordered relationships' members, and join-table rows.
extension ObjectContext {
    typealias ColumnWrites = OrderedDictionary<ObjectIdentifier, (object: ManagedObject, columns: [(Int, Value)])>

    /// What the save must write besides each changed object's own values. An inserted member's columns go
    /// straight into its row buffer, which its INSERT binds (profiled: at 100,000 many-to-nil members, the
    /// dictionary entry per member cost about a quarter of the insert's time); a failed save clears them again
    /// (`takeBackRowWrites`). Other members' columns are listed for an UPDATE of their rows.
    func pendingColumnWrites(deleted: [ManagedObject]) throws -> ColumnWrites {
        var writes = ColumnWrites()
        // One hash lookup per write (profiled: four, through `writes[id]`, made a many-to-nil insert's save
        // spend a sixth of its instructions here).
        func set(_ member: ManagedObject, _ slot: Int, _ value: Value) {
            guard !member.isDeleted else { return }
            if member.isInserted, let row = member.localRow { return row.set(slot, value) }
            writes.updateValue(forKey: ObjectIdentifier(member), default: (member, [])) { entry in
                entry.columns.removeAll { $0.0 == slot }
                entry.columns.append((slot, value))
            }
        }
        if model.hasManyToNil { hiddenOwnerWrites(deleted: deleted, set: set) }
        if model.hasOrdered { try orderKeyWrites(set: set) }
        return writes
    }

    /// The owner each destination row of a many-to-nil relationship will hold. The column holds one owner, so
    /// when an object is in the sets of two owners the last write wins: the data loss of seed 000 §II.B.
    /// Removals are written before additions; deleted owners (nullify) release their members first.
    private func hiddenOwnerWrites(deleted: [ManagedObject], set: (ManagedObject, Int, Value) -> Void) {
        for owner in deleted {
            for relationship in owner.entity.toManyRelationships
            where relationship.kind == .manyToNil && relationship.deleteRule == .nullify {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                for member in state.storedMembers {
                    set(member, relationship.slot, .null)
                    if relationship.isOrdered { set(member, relationship.orderSlot, .null) }
                }
            }
        }
        let owners = hiddenColumnOwners.filter { !$0.isDeleted }
        for owner in owners {
            for relationship in owner.entity.toManyRelationships where relationship.kind == .manyToNil {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                for member in state.removed {
                    set(member, relationship.slot, .null)
                    if relationship.isOrdered { set(member, relationship.orderSlot, .null) }
                }
            }
        }
        for owner in owners {
            for relationship in owner.entity.toManyRelationships where relationship.kind == .manyToNil {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                // Members in their owner's order, not in memory order: each one is a cold object and row, asked
                // for ahead (profiled, perf at 100,000 members: retaining each was a ninth of ObjectGraph's own
                // samples in the insert phase).
                let ownerKey = key(of: owner)
                state.forEachMemberToWrite(ownerIsInserted: owner.isInserted, prefetchingRows: true) { member in
                    set(member, relationship.slot, ownerKey)
                }
            }
        }
    }

    /// Order keys of the members of changed ordered one-to-many and many-to-nil relationships (`Z_FOK_` on the
    /// member's row); members that left a list without joining another lose their key.
    private func orderKeyWrites(set: (ManagedObject, Int, Value) -> Void) throws {
        let owners = orderOwners.filter { !$0.isDeleted }
        for owner in owners {
            for relationship in owner.entity.toManyRelationships where relationship.isOrdered && relationship.kind != .manyToMany {
                guard case let .toMany(state) = owner.relations[relationship.index], state.hasChanges || owner.isInserted else { continue }
                for member in state.removed { set(member, relationship.orderSlot, .null) }
            }
        }
        for owner in owners {
            for relationship in owner.entity.toManyRelationships where relationship.isOrdered && relationship.kind != .manyToMany {
                guard case let .toMany(state) = owner.relations[relationship.index], state.hasChanges || owner.isInserted else { continue }
                let members = try owner.loadedMembers(relationship).elements.filter { !$0.isDeleted }
                let ownerKey = owner.primaryKey
                let old: [Int64?] = members.map { member in
                    guard !member.isInserted, ownerKey > 0, let snapshot = member.snapshot ?? member.storedSnapshot,
                        snapshot[relationship.slot] == .int(ownerKey), case let .int(key) = snapshot[relationship.orderSlot]
                    else { return nil }
                    return key
                }
                for (member, (previous, key)) in zip(members, zip(old, OrderKeys.assign(old))) where previous != key {
                    set(member, relationship.orderSlot, .int(key))
                }
            }
        }
    }

    // MARK: Join tables

    /// A join-table row: the table (by its primary-side relationship) and the two keys; hashed as integers
    /// (profiled: hashing the table's name made a many-to-many insert 13% slower).
    private struct JoinPair: Hashable {
        let table: ObjectIdentifier
        let source: Int64
        let destination: Int64
    }

    /// `INSERT OR REPLACE INTO Z_1SUBJECTS(...) VALUES (?, ?)` for new memberships and
    /// `DELETE FROM Z_1SUBJECTS WHERE ... = ? AND ... = ?` for ended ones, written from the side that names the
    /// table (a reflexive relationship writes a row for each direction: inferred, so that either object's fault
    /// finds the other); ordered sides add their order keys, `UPDATE OR FAIL ... SET Z_FOK_... = ?` for members
    /// that moved. Deleted objects (unless their rule is no action) lose all their join rows.
    func writeJoinRows(deleted: [ManagedObject], into result: inout SaveResult) throws {
        var removedPairs = Set<JoinPair>()
        func pair(
            _ relationship: RelationshipDescription, _ owner: ManagedObject, _ member: ManagedObject
        ) -> (JoinPair, RelationshipDescription) {
            let primarySide = relationship.join.isPrimarySide
            let primary = primarySide ? relationship : relationship.requiredInverse
            let ownerKey = key(of: owner).int ?? 0
            let memberKey = key(of: member).int ?? 0
            let table = ObjectIdentifier(primary)
            return primarySide
                ? (JoinPair(table: table, source: ownerKey, destination: memberKey), primary)
                : (JoinPair(table: table, source: memberKey, destination: ownerKey), primary)
        }
        func remove(_ relationship: RelationshipDescription, _ owner: ManagedObject, _ member: ManagedObject) throws {
            guard owner.primaryKey > 0, member.primaryKey > 0 else { return }
            let (id, primary) = pair(relationship, owner, member)
            let (source, destination) = (id.source, id.destination)
            guard removedPairs.insert(id).inserted else { return }
            let delete = try statement(primary.sql.primaryJoinDelete)
            delete.bind(source, at: 1)
            delete.bind(destination, at: 2)
            try execute(delete, .delete)
        }
        // Order keys of changed ordered many-to-many lists, per (table, source, destination) and side.
        var orderKeys: [JoinPair: (order: Int64?, inverseOrder: Int64?)] = [:]
        var reorders: [(RelationshipDescription, JoinPair, Int64)] = []
        for owner in joinRowOwners where !owner.isDeleted {
            for relationship in owner.entity.toManyRelationships where relationship.kind == .manyToMany && relationship.isOrdered {
                guard case let .toMany(state) = owner.relations[relationship.index], state.hasChanges || owner.isInserted else { continue }
                let members = try owner.loadedMembers(relationship).elements.filter { !$0.isDeleted }
                let old = members.map { state.joinOrderKeys[ObjectIdentifier($0)] }
                var keys: [ObjectIdentifier: Int64] = [:]
                for (member, (previous, newKey)) in zip(members, zip(old, OrderKeys.assign(old))) {
                    keys[ObjectIdentifier(member)] = newKey
                    let (id, _) = pair(relationship, owner, member)
                    if relationship.join.isPrimarySide {
                        orderKeys[id, default: (nil, nil)].order = newKey
                    } else {
                        orderKeys[id, default: (nil, nil)].inverseOrder = newKey
                    }
                    if let previous, previous != newKey { reorders.append((relationship, id, newKey)) }
                }
                result.joinOrderKeys.append((state, keys))
            }
        }
        var inserted = Set<JoinPair>()
        for owner in joinRowOwners where !owner.isDeleted {
            for relationship in owner.entity.toManyRelationships
            where relationship.kind == .manyToMany && relationship.join.isPrimarySide {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                for member in state.removed { try remove(relationship, owner, member) }
                let insert = try statement(relationship.sql.primaryJoinInsert)
                let join = relationship.join
                // Only a reflexive relationship can meet a row twice (from both ends); only ordered ones look
                // rows up again (reorders of rows not just written).
                let tracksRows = relationship.isReflexive || join.orderColumn != nil || join.inverseOrderColumn != nil
                func write(_ id: JoinPair) throws {
                    if tracksRows { guard inserted.insert(id).inserted else { return } }
                    insert.bind(id.source, at: 1)
                    insert.bind(id.destination, at: 2)
                    var index: Int32 = 3
                    if join.orderColumn != nil {
                        insert.bind(orderKeys[id]?.order ?? OrderKeys.step, at: index)
                        index += 1
                    }
                    if join.inverseOrderColumn != nil { insert.bind(orderKeys[id]?.inverseOrder ?? OrderKeys.step, at: index) }
                    try execute(insert, .insert)
                }
                // Members in their owner's order: cold objects, asked for ahead and not retained (profiled, perf at
                // 100,000 many-to-many students: the walk was a third of ObjectGraph's own samples in the phase).
                let writeMember = { (member: ManagedObject) throws in
                    guard !member.isDeleted else { return }
                    let (first, _) = pair(relationship, owner, member)
                    try write(first)
                    if relationship.isReflexive && first.source != first.destination {
                        try write(JoinPair(table: first.table, source: first.destination, destination: first.source))
                    }
                }
                try state.forEachMemberToWrite(ownerIsInserted: owner.isInserted, writeMember)
                if relationship.isReflexive {
                    for member in state.removed where owner.primaryKey > 0 && member.primaryKey > 0 {
                        let (id, primary) = pair(relationship, member, owner)
                        guard removedPairs.insert(id).inserted else { continue }
                        let delete = try statement(primary.sql.primaryJoinDelete)
                        delete.bind(id.source, at: 1)
                        delete.bind(id.destination, at: 2)
                        try execute(delete, .delete)
                    }
                }
            }
        }
        for (relationship, id, key) in reorders where !inserted.contains(id) {
            let update = try statement(relationship.sql.orderedJoinReorder)
            update.bind(key, at: 1)
            update.bind(relationship.join.isPrimarySide ? id.source : id.destination, at: 2)
            update.bind(relationship.join.isPrimarySide ? id.destination : id.source, at: 3)
            try execute(update, .update)
        }
        for owner in deleted {
            for relationship in owner.entity.toManyRelationships
            where relationship.kind == .manyToMany && relationship.deleteRule != .noAction {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                for member in state.storedMembers {
                    try remove(relationship, owner, member)
                    if relationship.isReflexive { try remove(relationship, member, owner) }
                }
            }
        }
    }
}

extension ManagedObject {
    /// The row the row cache holds for this object, if any.
    var storedSnapshot: RowSnapshot? {
        owner?.store.rowCache.snapshot(table: entity.rootNumber, primaryKey: primaryKey)
    }
}
