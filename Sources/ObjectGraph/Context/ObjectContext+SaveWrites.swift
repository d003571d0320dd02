import OrderedCollections

/// What a committed save changed, applied to the objects once the transaction has committed.
///
/// The rows of inserted objects are not listed: every inserted object not deleted has its row written, held as its
/// snapshot (profiled at 1,000,000 inserted objects: a list of them was 24 MB of the save's peak memory).
struct SaveResult {
    struct UpdatedRow {
        let object: ManagedObject
        /// The row as written, made while the object is at hand; it becomes the object's snapshot on commit.
        let snapshot: RowSnapshot
    }
    var updated: [UpdatedRow] = []
    var derivedValues: [DerivedValueCollector.Update] = []
    /// Objects whose rows another context or a batch request deleted; the save leaves them out.
    var goneFromStore: [ManagedObject] = []
    /// Order keys written to ordered many-to-many join rows, per owner state.
    var joinOrderKeys: [(ToManyState, [ObjectIdentifier: Int64])] = []
}

/// The SQL of a save, as Core Data's SQLDebug logs show it: a first transaction reserving primary keys through
/// Z_PRIMARYKEY, then a second with one INSERT per new row, one UPDATE per changed row (optimistic locking on
/// Z_OPT), join-table rows, one DELETE per deleted row; then `pragma page_count` and `pragma freelist_count`.
extension ObjectContext {
    /// A save that inserts nothing runs only the second transaction (inferred: the first exists to give new objects
    /// their keys). Keys reserved by a first transaction whose second one fails stay used (Z_MAX is not wound
    /// back), so a failed save leaves gaps in Z_PK, as Core Data's do. The first save of a new store also checks
    /// auto-vacuum inside the first transaction (`pragma auto_vacuum`, `pragma auto_vacuum=2`), as a real log shows.
    func writeChanges(deletingFirst: [ManagedObject]) throws -> SaveResult {
        let persistedDeleted = deleted.filter { !$0.isInserted }
        if liveInsertedCounts.contains(where: { $0 > 0 }) {
            try execute("BEGIN EXCLUSIVE", .other)
            do {
                try reservePrimaryKeys()
                if store.isFirstSaveOfNewStore {
                    try query(statement("pragma auto_vacuum"), .other) { _ in }
                    try execute("pragma auto_vacuum=2", .other)
                    store.isFirstSaveOfNewStore = false
                }
                try execute("COMMIT", .other)
            } catch {
                try? execute("ROLLBACK", .other)
                for index in reservedBases.indices { reservedBases[index] = 0 }
                throw error
            }
        }
        try execute("BEGIN EXCLUSIVE", .other)
        store.derivedValues.updates = []
        var result = SaveResult()
        result.updated.reserveCapacity(updated.count)
        do {
            let firstDeleted = Set(deletingFirst.map(ObjectIdentifier.init))
            for object in deletingFirst where object.primaryKey > 0 { try deleteRow(object, into: &result) }
            let columns = try pendingColumnWrites(deleted: persistedDeleted)
            for (entity, objects) in liveInsertedByEntity() { try insertRows(objects, of: entity, columns: columns) }
            var toUpdate = updated.filter { !$0.isDeleted && !$0.isInserted }
            for (_, write) in columns where !write.object.isInserted && !write.object.isDeleted && !write.object.isUpdated {
                toUpdate.append(write.object)
            }
            for object in toUpdate { try updateRow(object, columns: columns, into: &result) }
            if !model.joinTables.isEmpty { try writeJoinRows(deleted: persistedDeleted, into: &result) }
            for object in persistedDeleted where !firstDeleted.contains(ObjectIdentifier(object)) { try deleteRow(object, into: &result) }
            try execute("COMMIT", .other)
            result.derivedValues = store.derivedValues.updates
            store.derivedValues.updates = []
            try query(statement("pragma page_count"), .other) { _ in }
            try query(statement("pragma freelist_count"), .other) { _ in }
            return result
        } catch {
            try? execute("ROLLBACK", .other)
            takeBackRowWrites()
            store.derivedValues.updates = []
            for index in reservedBases.indices { reservedBases[index] = 0 }
            if case let ObjectGraphError.sqlite(code, message, sql) = error, code & 0xFF == 19, message.contains("UNIQUE") {
                throw ObjectGraphError.constraintConflict(["\(message) (while executing `\(sql ?? "")`)"])
            }
            throw error
        }
    }

    /// The inserted objects not deleted since, entity by entity in save order, in one pass over them; unretained,
    /// as `inserted` holds them.
    private func liveInsertedByEntity() -> [(EntityDescription, ContiguousArray<Unmanaged<ManagedObject>>)] {
        var buckets = [ContiguousArray<Unmanaged<ManagedObject>>](repeating: [], count: model.entities.count + 1)
        // An entity alone in its hierarchy knows its count: its bucket is allocated once, not grown by doubling,
        // which copied it over again at each step (perf, page faults at 100,000 students: those in memmove fell
        // by a third; the total stays, the bucket's own pages being touched once either way).
        for entity in model.entities where entity.parent == nil && entity.subentities.isEmpty {
            buckets[entity.number].reserveCapacity(Int(liveInsertedCounts[entity.number]))
        }
        inserted.forEachUnretained { object in
            if !object.isDeleted { buckets[object.entity.number].append(Unmanaged.passUnretained(object)) }
        }
        return model.saveOrder.compactMap { entity in buckets[entity.number].isEmpty ? nil : (entity, buckets[entity.number]) }
    }

    // MARK: Primary keys

    /// Reserves the primary keys of each hierarchy's inserted objects on its root entity's row:
    /// `SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?` then `UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? ...`.
    /// An object's key is then the first reserved key plus its ordinal less one (`ManagedObject.temporaryNumber`),
    /// with no pass over objects.
    private func reservePrimaryKeys() throws {
        for entity in model.entities where entity.parent == nil && liveInsertedCounts[entity.number] > 0 {
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
        reservedKeyBase(table: object.entity.rootNumber) + object.temporaryNumber
    }

    /// What a temporary number of root table `table` adds to for its reserved key: the first reserved key, less
    /// the numbers used before the last save, rollback or reset, less one.
    @inline(__always)
    func reservedKeyBase(table: Int) -> Int64 {
        reservedBases[table] - temporaryBases[table] - 1
    }

    // MARK: Rows

    /// The key a foreign-key column stores for `destination`: its primary key, reserved or saved.
    @inline(__always)
    func key(of destination: ManagedObject?) -> Value {
        guard let destination else { return .null }
        if destination.primaryKey > 0 { return .int(destination.primaryKey) }
        if destination.isInserted, !destination.isDeleted, reservedBases[destination.entity.rootNumber] > 0 {
            return .int(reservedKey(of: destination))
        }
        return .null
    }

    /// Puts the keys (and foreign entity keys) of the object's resolved to-one relationships into `row`.
    @inline(__always)
    private func writeToOneKeys(of object: ManagedObject, _ toOnes: [ToOneColumn], into row: RowSnapshot) {
        for column in toOnes {
            let key: Value
            let entityKey: Value
            switch object.relations.toOne(at: column.index) {
            case .unresolved:
                continue
            case .noDestination:
                key = .null
                entityKey = .null
            case let .object(destination):
                (key, entityKey) = destination._withUnsafeGuaranteedRef { destination in
                    let key = self.key(of: destination)
                    return (key, column.entitySlot < 0 || key.isNull ? .null : .int(Int64(destination.entity.number)))
                }
            }
            row.set(column.slot, key)
            if column.entitySlot >= 0 { row.set(column.entitySlot, entityKey) }
        }
    }

    /// Puts the columns the save computes for the object (hidden owners, order keys) into `row`.
    @inline(__always)
    private func writeComputedColumns(of object: ManagedObject, _ columns: ColumnWrites, into row: RowSnapshot) {
        guard !columns.isEmpty, let write = columns[ObjectIdentifier(object)] else { return }
        for (slot, value) in write.columns { row.set(slot, value) }
    }

    /// One INSERT per new row of `entity`, each from its object's own row buffer, which becomes its snapshot: the
    /// to-one keys and the computed columns are written into it and every value is bound from it. (Profiled:
    /// copying the row into an array first, then into a new snapshot, was a sixth of the save's own instructions;
    /// what the entity says of its rows is read once, not per row.) A failed save gives each buffer back as its
    /// object's changed row, so it loses nothing.
    private func insertRows(
        _ objects: ContiguousArray<Unmanaged<ManagedObject>>, of entity: EntityDescription,
        columns: ColumnWrites
    ) throws {
        let insert = try statement(entity.sql.insert)
        let keyBase = reservedKeyBase(table: entity.rootNumber)
        let entityNumber = Int64(entity.number)
        let insertOrder = entity.insertOrder
        let toOnes = entity.toOneColumns
        let rowBytes = RowSnapshot.instanceBytes(entity.rowShape)
        let count = objects.count
        for index in 0..<count {
            // Two rows ahead the object, one row ahead what it points to (read from the object now in cache).
            if index + 2 < count { Prefetch.object(objects[index + 2]) }
            if index + 1 < count { Prefetch.insertedObject(objects[index + 1], rowBytes: rowBytes, toOnes: toOnes) }
            try objects[index]._withUnsafeGuaranteedRef { object in
                let key = keyBase + object.temporaryNumber
                // An inserted object has its local row, a saved one its snapshot, here (the save's hot path).
                // swift-format-ignore: NeverForceUnwrap
                let row = object.localRow!
                row.stamp(primaryKey: key, version: 1)
                writeToOneKeys(of: object, toOnes, into: row)
                writeComputedColumns(of: object, columns, into: row)
                insert.bind(key, at: 1)
                insert.bind(entityNumber, at: 2)
                insert.bind(Int64(1), at: 3)
                var parameter: Int32 = 4
                for slot in insertOrder {
                    insert.bind(row, slot: slot, at: parameter)
                    parameter += 1
                }
                try execute(insert, .insert)
                object.adoptLocalRowAsSnapshot()
            }
        }
    }

    /// Undoes what a failed save wrote into objects' own row buffers. Inserted objects whose rows were written get
    /// their buffers back as changed rows (see insertRows). The hidden owner and order columns go back to what
    /// they were: null in inserted objects' rows, the stored values in changed objects' rows (the next save
    /// computes them again; a key left from the failed save would be stored if the object had meanwhile left the
    /// set).
    private func takeBackRowWrites() {
        let computed = model.hasManyToNil || model.hasOrdered
        for object in inserted {
            if object.localRow == nil, let written = object.snapshot {
                object.localRow = written
                object.snapshot = nil
            }
            guard computed, let row = object.localRow else { continue }
            for slot in object.entity.saveComputedSlots { row.set(slot, .null) }
        }
        guard computed else { return }
        for object in updated {
            guard let row = object.localRow, let snapshot = object.snapshot else { continue }
            for slot in object.entity.saveComputedSlots { row.set(slot, snapshot[slot]) }
        }
    }

    private func updateRow(_ object: ManagedObject, columns: ColumnWrites, into result: inout SaveResult) throws {
        if object.isFault { try fulfilFault(object) }
        guard object.snapshot != nil else { return }
        let entity = object.entity
        for attempt in 0..<2 {
            // An inserted object has its local row, a saved one its snapshot, here (the save's hot path).
            // swift-format-ignore: NeverForceUnwrap
            let snapshot = object.snapshot!
            // The object's own row buffer becomes the written snapshot (one held only by the save if the object
            // changed no attribute): no array of the row, no second copy.
            let row = object.localRow ?? snapshot.copy()
            writeToOneKeys(of: object, entity.toOneColumns, into: row)
            writeComputedColumns(of: object, columns, into: row)
            var changed: [Int] = []
            for slot in 0..<row.count where row[slot] != snapshot[slot] { changed.append(slot) }
            let toManyChanged = entity.toManyIndices.contains { index in
                if case let .toMany(state) = object.relations[index] { return state.hasChanges }
                return false
            }
            guard !changed.isEmpty || toManyChanged else { return }
            // Core Data's column order: foreign keys, entity keys, order keys, then attributes, then Z_OPT; a row
            // whose version is still 0 (written outside a context) is matched with `(Z_OPT = ? OR Z_OPT IS NULL)`.
            changed.sort { (entity.columns[$0].writeRank, $0) < (entity.columns[$1].writeRank, $1) }
            let update = try statement(EntitySQL.update(entity, columns: changed, versionMayBeNull: snapshot.version == 0))
            var index: Int32 = 1
            for slot in changed {
                update.bind(row[slot], at: index)
                index += 1
            }
            update.bind(snapshot.version + 1, at: index)
            update.bind(object.primaryKey, at: index + 1)
            update.bind(snapshot.version, at: index + 2)
            if try execute(update, .update) == 1 {
                row.stamp(primaryKey: object.primaryKey, version: snapshot.version + 1)
                result.updated.append(.init(object: object, snapshot: row))
                return
            }
            // The row changed outside this store's cache (another process, a batch request): read it and let the
            // merge policy decide, then try once more.
            let newer = try currentRow(of: object)
            guard attempt == 0, try resolve([(object, newer)]).isEmpty, newer != nil, !object.isFault else {
                if newer == nil { result.goneFromStore.append(object) }
                return
            }
        }
    }

    private func deleteRow(_ object: ManagedObject, into result: inout SaveResult) throws {
        if object.isFault { try fulfilFault(object) }
        guard let snapshot = object.snapshot else { return }
        let delete = try statement(object.entity.sql.delete)
        delete.bind(object.primaryKey, at: 1)
        delete.bind(snapshot.version, at: 2)
        guard try execute(delete, .delete) == 1 else {
            let newer = try currentRow(of: object)
            guard let newer else { return result.goneFromStore.append(object) }
            if try resolve([(object, newer)]).isEmpty, object.isDeleted {
                delete.bind(object.primaryKey, at: 1)
                delete.bind(newer.version, at: 2)
                try execute(delete, .delete)
            }
            return
        }
    }

    /// The row of `object` as the store holds it now (nil if it is gone), put in the row cache.
    private func currentRow(of object: ManagedObject) throws -> RowSnapshot? {
        let statement = try self.statement(object.entity.sql.fault)
        statement.bind(object.primaryKey, at: 1)
        var found: RowSnapshot?
        try query(statement, .objectFault, subject: object.entity.name) { row in found = snapshot(object.entity, from: row) }
        return found
    }
}
