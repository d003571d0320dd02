import OrderedCollections

/// What a committed save changed, applied to the objects once the transaction has committed.
struct SaveResult {
    struct WrittenRow {
        let object: ManagedObject
        /// The row as written, made while the object is at hand; it becomes the object's snapshot on commit.
        let snapshot: RowSnapshot
        let wasInserted: Bool
    }
    var written: [WrittenRow] = []
    var derivedValues: [DerivedValueCollector.Update] = []
}

/// The SQL of a save: primary keys reserved through Z_PRIMARYKEY, one INSERT per new row, one UPDATE per
/// changed row (optimistic locking on Z_OPT), join-table rows, one DELETE per deleted row, in one transaction.
extension ObjectContext {
    func writeChanges() throws -> SaveResult {
        let persistedDeleted = deleted.filter { !$0.isInserted }
        try execute("BEGIN EXCLUSIVE", .other)
        store.derivedValues.updates = []
        do {
            var result = SaveResult()
            try reservePrimaryKeys()
            let hidden = model.hasManyToNil ? hiddenOwnerWrites(deleted: persistedDeleted) : [:]
            for (entity, objects) in liveInsertedByEntity() {
                let insert = try statement(entity.sql.insert)
                for object in objects { try insertRow(object, with: insert, hidden: hidden, into: &result) }
            }
            var toUpdate = updated.filter { !$0.isDeleted && !$0.isInserted }
            for (_, write) in hidden where !write.object.isInserted && !write.object.isDeleted && !write.object.isUpdated {
                toUpdate.append(write.object)
            }
            for object in toUpdate { try updateRow(object, hidden: hidden, into: &result) }
            if !model.joinTables.isEmpty { try writeJoinRows(deleted: persistedDeleted) }
            for object in persistedDeleted { try deleteRow(object) }
            try execute("COMMIT", .other)
            result.derivedValues = store.derivedValues.updates
            store.derivedValues.updates = []
            return result
        } catch {
            try? execute("ROLLBACK", .other)
            store.derivedValues.updates = []
            for index in reservedBases.indices { reservedBases[index] = 0 }
            throw error
        }
    }

    /// The inserted objects not deleted since, entity by entity in save order, in one pass over them.
    private func liveInsertedByEntity() -> [(EntityDescription, [ManagedObject])] {
        var buckets = liveInsertedCounts.map { count -> [ManagedObject] in
            var bucket: [ManagedObject] = []
            bucket.reserveCapacity(Int(count))
            return bucket
        }
        for object in inserted where !object.isDeleted { buckets[object.entity.number].append(object) }
        return model.saveOrder.compactMap { entity in buckets[entity.number].isEmpty ? nil : (entity, buckets[entity.number]) }
    }

    // MARK: Primary keys

    /// Reserves the primary keys of each entity's inserted objects, entity by entity:
    /// `SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?` then `UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? ...`.
    /// An object's key is then the entity's first reserved key plus its insert ordinal, with no pass over objects.
    private func reservePrimaryKeys() throws {
        for entity in model.entities where liveInsertedCounts[entity.number] > 0 {
            let count = insertedCounts[entity.number]
            let select = try statement(entity.sql.maxPrimaryKey)
            select.bind(Int64(entity.number), at: 1)
            var max: Int64 = 0
            try query(select, .other) { max = $0.int64(0) }
            let update = try statement(entity.sql.reservePrimaryKeys)
            update.bind(max + count, at: 1)
            update.bind(Int64(entity.number), at: 2)
            update.bind(max, at: 3)
            guard try execute(update, .other) == 1 else {
                throw ObjectGraphError.sqlite(code: 19, message: "Z_PRIMARYKEY changed under the save", sql: update.sql)
            }
            reservedBases[entity.number] = max + 1
        }
    }

    /// The primary key a save in progress writes for an inserted object.
    @inline(__always)
    func reservedKey(of object: ManagedObject) -> Int64 {
        reservedBases[object.entity.number] + object.insertOrdinal - 1
    }

    // MARK: Rows

    /// The key a foreign-key column stores for `destination`: its primary key, reserved or saved.
    @inline(__always)
    private func key(of destination: ManagedObject?) -> Value {
        guard let destination else { return .null }
        if destination.primaryKey > 0 { return .int(destination.primaryKey) }
        if destination.isInserted, !destination.isDeleted, reservedBases[destination.entity.number] > 0 {
            return .int(reservedKey(of: destination))
        }
        return .null
    }

    /// The row to write for `object`: its values with foreign keys taken from resolved to-one relationships
    /// and hidden owner columns from many-to-nil writes.
    private func rowToWrite(_ object: ManagedObject, hidden: HiddenWrites) -> ContiguousArray<Value> {
        var row = object.currentRow
        writeToOneKeys(of: object, into: &row)
        writeHiddenOwners(of: object, hidden, into: &row)
        return row
    }

    /// Puts the keys of the object's resolved to-one relationships into their columns of `row`.
    @inline(__always)
    private func writeToOneKeys(of object: ManagedObject, into row: inout ContiguousArray<Value>) {
        for relationship in object.entity.toOneRelationships {
            if case let .toOne(destination) = object.relations[relationship.index] {
                let key = key(of: destination)
                if row[relationship.slot] != key { row[relationship.slot] = key }
            }
        }
    }

    /// Puts the owners many-to-nil relationships give the object into its hidden columns of `row`.
    @inline(__always)
    private func writeHiddenOwners(of object: ManagedObject, _ hidden: HiddenWrites, into row: inout ContiguousArray<Value>) {
        guard !hidden.isEmpty, let write = hidden[ObjectIdentifier(object)] else { return }
        for (slot, value) in write.columns { row[slot] = value }
    }

    /// INSERT of a new row. Its foreign keys go straight into the object's own (unshared) values: for an
    /// inserted object the to-one relationships say what they hold, so a failed save loses nothing.
    private func insertRow(_ object: ManagedObject, with insert: SQLiteStatement, hidden: HiddenWrites,
                           into result: inout SaveResult) throws {
        let entity = object.entity
        writeToOneKeys(of: object, into: &object.localValues!)
        var row = object.localValues!
        writeHiddenOwners(of: object, hidden, into: &row)
        let key = reservedKey(of: object)
        insert.bind(key, at: 1)
        insert.bind(Int64(entity.number), at: 2)
        insert.bind(Int64(1), at: 3)
        var index: Int32 = 4
        for slot in entity.insertOrder {
            insert.bind(row[slot], at: index)
            index += 1
        }
        try execute(insert, .insert)
        let snapshot = RowSnapshot.make(entityNumber: entity.number, primaryKey: key, version: 1, values: row)
        result.written.append(.init(object: object, snapshot: snapshot, wasInserted: true))
    }

    private func updateRow(_ object: ManagedObject, hidden: HiddenWrites, into result: inout SaveResult) throws {
        if object.isFault { try fulfilFault(object) }
        guard let snapshot = object.snapshot else { return }
        let entity = object.entity
        let row = rowToWrite(object, hidden: hidden)
        var changed: [Int] = []
        for slot in row.indices where row[slot] != snapshot[slot] { changed.append(slot) }
        let toManyChanged = object.relations.contains { slot in
            if case let .toMany(state) = slot { return state.hasChanges }
            return false
        }
        guard !changed.isEmpty || toManyChanged else { return }
        let update = try statement(EntitySQL.update(entity, columns: changed))
        var index: Int32 = 1
        for slot in changed {
            update.bind(row[slot], at: index)
            index += 1
        }
        update.bind(snapshot.version + 1, at: index)
        update.bind(object.primaryKey, at: index + 1)
        update.bind(snapshot.version, at: index + 2)
        guard try execute(update, .update) == 1 else {
            throw ObjectGraphError.optimisticLockingFailure(object: "\(entity.name) \(object.objectID)")
        }
        let written = RowSnapshot.make(entityNumber: entity.number, primaryKey: object.primaryKey, version: snapshot.version + 1, values: row)
        result.written.append(.init(object: object, snapshot: written, wasInserted: false))
    }

    private func deleteRow(_ object: ManagedObject) throws {
        if object.isFault { try fulfilFault(object) }
        guard let snapshot = object.snapshot else { return }
        let delete = try statement(object.entity.sql.delete)
        delete.bind(object.primaryKey, at: 1)
        delete.bind(snapshot.version, at: 2)
        guard try execute(delete, .delete) == 1 else {
            throw ObjectGraphError.optimisticLockingFailure(object: "\(object.entity.name) \(object.objectID)")
        }
    }

    // MARK: Many-to-nil

    typealias HiddenWrites = OrderedDictionary<ObjectIdentifier, (object: ManagedObject, columns: [(Int, Value)])>

    /// The owner each destination row of a many-to-nil relationship will hold. The column holds one owner, so
    /// when an object is in the sets of two owners the last write wins: the data loss of seed 000 §II.B.
    /// Removals are written before additions; deleted owners (nullify) release their members first.
    private func hiddenOwnerWrites(deleted: [ManagedObject]) -> HiddenWrites {
        var writes = HiddenWrites()
        func set(_ member: ManagedObject, _ slot: Int, _ value: Value) {
            guard !member.isDeleted else { return }
            let id = ObjectIdentifier(member)
            if writes[id] == nil { writes[id] = (member, []) }
            writes[id]!.columns.removeAll { $0.0 == slot }
            writes[id]!.columns.append((slot, value))
        }
        for owner in deleted {
            for relationship in owner.entity.toManyRelationships where relationship.kind == .manyToNil && relationship.deleteRule == .nullify {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                for member in state.storedMembers { set(member, relationship.slot, .null) }
            }
        }
        let owners = hiddenColumnOwners.filter { !$0.isDeleted }
        for owner in owners {
            for relationship in owner.entity.toManyRelationships where relationship.kind == .manyToNil {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                for member in state.removed { set(member, relationship.slot, .null) }
            }
        }
        for owner in owners {
            for relationship in owner.entity.toManyRelationships where relationship.kind == .manyToNil {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                let added = owner.isInserted ? Array(state.members?.elements ?? []) : state.added.elements
                for member in added { set(member, relationship.slot, key(of: owner)) }
            }
        }
        return writes
    }

    // MARK: Join tables

    private struct JoinPair: Hashable {
        let table: String
        let source: Int64
        let destination: Int64
    }

    /// `INSERT OR REPLACE INTO Z_1SUBJECTS(...) VALUES (?, ?)` for new memberships and
    /// `DELETE FROM Z_1SUBJECTS WHERE ... = ? AND ... = ?` for ended ones, written from the side that names the
    /// table; deleted objects (unless their rule is no action) lose all their join rows.
    private func writeJoinRows(deleted: [ManagedObject]) throws {
        var removedPairs = Set<JoinPair>()
        func remove(_ relationship: RelationshipDescription, _ owner: ManagedObject, _ member: ManagedObject) throws {
            guard owner.primaryKey > 0, member.primaryKey > 0 else { return }
            let join = relationship.joinTable!
            let (source, destination) = join.isPrimarySide ? (owner.primaryKey, member.primaryKey) : (member.primaryKey, owner.primaryKey)
            guard removedPairs.insert(JoinPair(table: join.tableName, source: source, destination: destination)).inserted else { return }
            let delete = try statement((join.isPrimarySide ? relationship : relationship.inverse!).sql.joinDelete!)
            delete.bind(source, at: 1)
            delete.bind(destination, at: 2)
            try execute(delete, .delete)
        }
        for owner in joinRowOwners where !owner.isDeleted {
            for relationship in owner.entity.toManyRelationships where relationship.kind == .manyToMany && relationship.joinTable!.isPrimarySide {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                for member in state.removed { try remove(relationship, owner, member) }
                let insert = try statement(relationship.sql.joinInsert!)
                let ownerKey = key(of: owner)
                let added = owner.isInserted ? Array(state.members?.elements ?? []) : state.added.elements
                for member in added where !member.isDeleted {
                    insert.bind(ownerKey, at: 1)
                    insert.bind(key(of: member), at: 2)
                    try execute(insert, .insert)
                }
            }
        }
        for owner in deleted {
            for relationship in owner.entity.toManyRelationships where relationship.kind == .manyToMany && relationship.deleteRule != .noAction {
                guard case let .toMany(state) = owner.relations[relationship.index] else { continue }
                for member in state.storedMembers { try remove(relationship, owner, member) }
            }
        }
    }

    // MARK: After the commit

    /// Gives inserted objects their permanent IDs, new snapshots to every written row, applies derived values
    /// reported by triggers, and forgets deleted objects.
    func applySaved(_ result: SaveResult) {
        for written in result.written {
            let object = written.object
            if written.wasInserted {
                object.primaryKey = written.snapshot.primaryKey
                object.insertOrdinal = 0
                object.temporaryNumber = 0
                object.isInserted = false
                register(object)
                clearChanges(object)
            }
            store.rowCache.insert(written.snapshot)
            object.snapshot = written.snapshot
            object.localValues = nil
        }
        for object in updated { clearChanges(object) }
        for object in deleted {
            if object.primaryKey > 0 {
                store.rowCache.evict(entity: object.entity.number, primaryKey: object.primaryKey)
                objectWillDeallocate(object)
            }
            object.owner = nil
            object.isInserted = false
            object.isUpdated = false
            object.isDeleted = false
            object.turnIntoFault(keepSnapshot: false)
        }
        inserted = []
        updated = []
        deleted = []
        clearSaveBookkeeping()
        for index in reservedBases.indices { reservedBases[index] = 0 }
        for update in result.derivedValues { applyDerivedValue(update) }
    }

    private func clearChanges(_ object: ManagedObject) {
        object.isUpdated = false
        for slot in object.relations {
            if case let .toMany(state) = slot { state.clearChanges() }
        }
    }

    /// Puts a derived value computed by a trigger into the registered object and the row cache.
    private func applyDerivedValue(_ update: DerivedValueCollector.Update) {
        guard update.entityNumber >= 1, update.entityNumber <= model.entities.count else { return }
        let entity = model.entities[update.entityNumber - 1]
        guard let derived = entity.derivedAttribute(update.attribute) else { return }
        let object = registered(entity, primaryKey: update.primaryKey)
        guard let old = object?.snapshot ?? store.rowCache.snapshot(entity: entity.number, primaryKey: update.primaryKey) else { return }
        var values = old.values
        values[derived.slot] = .int(update.value)
        let snapshot = RowSnapshot.make(entityNumber: entity.number, primaryKey: update.primaryKey, version: old.version, values: values)
        store.rowCache.insert(snapshot)
        if let object {
            object.snapshot = snapshot
            if object.localValues != nil { object.localValues![derived.slot] = .int(update.value) }
        }
    }
}
