import Foundation

/// After a save commits: objects get their permanent IDs and new snapshots, derived values computed by the
/// store's triggers reach the objects, deleted objects leave, and the save is described for other contexts.
extension ObjectContext {
    /// Returns what the save changed when `describing` (someone listens); nil otherwise, so that a save nobody
    /// hears of builds no object IDs (profiled: 1% of an insert's instructions).
    func applySaved(_ result: SaveResult, describing: Bool) -> SaveNotification? {
        var insertedIDs: [ObjectID] = []
        var updatedIDs: [ObjectID] = []
        var deletedIDs: [ObjectID] = []
        // Every inserted object not deleted was written: its row is its snapshot (see insertRows). The list lets go
        // of each object as it is applied, while its line is in the cache (perf, 100,000 one-to-one students:
        // releasing the whole list afterwards walked cold objects, about 5% of ObjectGraph's own samples in the
        // phase). Taken from the end, so the IDs are reversed once at the end.
        let rowCache = store.rowCache
        var written = inserted
        inserted = []
        while let object = written.popLast() {
            if written.count >= 2 { Prefetch.object(Unmanaged.passUnretained(written[written.count - 2])) }
            let nextRow = written.last?.snapshot.map { Unmanaged.passUnretained($0).toOpaque() }
            if let nextRow { Prefetch.lines(at: nextRow, length: 64) }
            guard !object.isDeleted else { continue }
            // A written object has the snapshot the save made (the save's hot path).
            // swift-format-ignore: NeverForceUnwrap
            let row = object.snapshot!
            object.primaryKey = row.primaryKey
            object.isInserted = false
            register(object)
            clearChanges(object)
            rowCache.insert(row)
            if describing { insertedIDs.append(object.objectID) }
        }
        insertedIDs.reverse()
        for written in result.updated {
            store.rowCache.insert(written.snapshot)
            written.object.snapshot = written.snapshot
            written.object.localRow = nil
        }
        for (state, keys) in result.joinOrderKeys { state.joinOrderKeys = keys }
        for object in updated { clearChanges(object) }
        let gone = Set(result.goneFromStore.map(ObjectIdentifier.init))
        for object in deleted + result.goneFromStore {
            if object.primaryKey > 0 {
                if describing { deletedIDs.append(object.objectID) }
                store.rowCache.evict(table: object.entity.rootNumber, primaryKey: object.primaryKey)
                objectWillDeallocate(object)
            }
            object.turnIntoFault(keepSnapshot: false)
            object.owner = nil
            object.isInserted = false
            object.isUpdated = false
            object.isDeleted = false
        }
        var updatedRows: [RowSnapshot] = []
        for written in result.updated where describing && !gone.contains(ObjectIdentifier(written.object)) {
            updatedIDs.append(written.object.objectID)
            updatedRows.append(written.snapshot)
        }
        updated = []
        deleted = []
        clearSaveBookkeeping()
        for index in reservedBases.indices { reservedBases[index] = 0 }
        for update in result.derivedValues { applyDerivedValue(update) }
        guard describing else { return nil }
        return SaveNotification(
            inserted: insertedIDs, updated: updatedIDs, deleted: deletedIDs, source: ObjectIdentifier(self),
            updatedRows: SavedRows(snapshots: updatedRows))
    }

    /// Reads only the to-many slots (profiled: copying every slot retained and released each to-one destination).
    private func clearChanges(_ object: ManagedObject) {
        object.isUpdated = false
        for index in object.entity.toManyIndices {
            if case let .toMany(state) = object.relations[index] { state.clearChanges() }
        }
    }

    /// Puts a derived value computed by a trigger into the registered object and the row cache.
    func applyDerivedValue(_ update: DerivedValueCollector.Update) {
        guard let entity = model.entity(number: update.entityNumber),
            let derived = entity.derivedAttribute(update.attribute)
        else { return }
        let value = update.value.converted(to: derived.type)
        let object = registered(entity, primaryKey: update.primaryKey)
        guard let old = object?.snapshot ?? store.rowCache.snapshot(table: entity.rootNumber, primaryKey: update.primaryKey) else { return }
        var values = old.values
        guard values[derived.slot] != value else { return }
        values[derived.slot] = value
        let snapshot = RowSnapshot.make(entity.rowShape, primaryKey: update.primaryKey, version: old.version, values: values)
        store.rowCache.insert(snapshot)
        if let object {
            object.snapshot = snapshot
            object.localRow?.set(derived.slot, value)
        }
    }
}

extension Value {
    /// A value read back from SQLite (an integer, double, text or blob) as a value of `type`.
    func converted(to type: AttributeType) -> Value {
        switch (self, type) {
        case (.null, _): return .null
        case let (.int(v), .date): return .date(Date(timeIntervalSinceReferenceDate: Double(v)))
        case let (.double(v), .date): return .date(Date(timeIntervalSinceReferenceDate: v))
        case let (.int(v), .bool): return .bool(v != 0)
        case let (.int(v), .double), let (.int(v), .float): return .double(Double(v))
        case let (.double(v), .int16), let (.double(v), .int32), let (.double(v), .int64): return .int(Int64(v))
        case let (.int(v), .decimal): return .decimal(Decimal(v))
        case let (.double(v), .decimal): return .decimal(Decimal(v))
        case let (.string(v), .decimal): return Decimal(string: v).map(Value.decimal) ?? .null
        case let (.string(v), .uri): return URL(string: v).map(Value.url) ?? .null
        case let (.binary(v), .uuid):
            guard v.count == 16 else { return .null }
            return .uuid(v.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        default: return self
        }
    }
}
