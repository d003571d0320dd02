/// What a save changed, by object ID (Core Data's NSManagedObjectContextDidSaveObjectIDs notification), or what a
/// batch request changed outside any context.
public struct SaveNotification: Sendable {
    public let insertedObjectIDs: [ObjectID]
    public let updatedObjectIDs: [ObjectID]
    public let deletedObjectIDs: [ObjectID]
    /// The saving context; nil for changes made outside contexts (batch requests).
    let source: ObjectIdentifier?
    /// The rows the save wrote for updated objects, as Core Data's notification carries the saved objects: a
    /// context merging later refreshes from them without SQL, even once the saver's objects are gone.
    let updatedRows: SavedRows

    public init(inserted: [ObjectID] = [], updated: [ObjectID] = [], deleted: [ObjectID] = []) {
        insertedObjectIDs = inserted
        updatedObjectIDs = updated
        deletedObjectIDs = deleted
        source = nil
        updatedRows = SavedRows(snapshots: [])
    }

    init(inserted: [ObjectID], updated: [ObjectID], deleted: [ObjectID], source: ObjectIdentifier, updatedRows: SavedRows) {
        insertedObjectIDs = inserted
        updatedObjectIDs = updated
        deletedObjectIDs = deleted
        self.source = source
        self.updatedRows = updatedRows
    }

    /// Changes made outside contexts: the row cache may hold stale rows for them.
    var isRemote: Bool { source == nil }
    public var isEmpty: Bool { insertedObjectIDs.isEmpty && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty }
}

/// How a save resolves a conflict with changes saved since its objects were read (Core Data's merge policies).
public enum MergePolicy: String, Sendable, CaseIterable {
    /// The save fails, listing the conflicting objects (NSErrorMergePolicy, the default).
    case error
    /// Per property: where both changed, the store's value wins (NSMergeByPropertyStoreTrumpMergePolicy).
    case mergeByPropertyStoreTrump
    /// Per property: where both changed, the object's value wins (NSMergeByPropertyObjectTrumpMergePolicy).
    case mergeByPropertyObjectTrump
    /// The object's values replace the stored row whole (NSOverwriteMergePolicy).
    case overwrite
    /// The conflicting objects' unsaved changes are discarded (NSRollbackMergePolicy).
    case rollback
}

extension ObjectContext {
    /// Calls `observer` after each successful save of this context with what it changed.
    public func addSaveObserver(_ observer: @escaping (SaveNotification) -> Void) {
        saveObservers.append(observer)
    }

    /// Merges another context's save (or a batch request's result) into this context, as Core Data's
    /// `mergeChanges(fromContextDidSave:)`: registered objects the save updated are refreshed, keeping their own
    /// unsaved changes on top (no SQL: the saver's rows are in the shared row cache); objects it deleted leave the
    /// context and the to-many relationships that held them; inserted objects are found when next fetched or
    /// faulted. For changes made outside contexts the row cache's copies are dropped, so refreshed objects read
    /// the store again.
    public func mergeChanges(from notification: SaveNotification) throws {
        try checkThread()
        merge(notification)
    }

    /// Merges changes made outside contexts (a batch request's object IDs) into `contexts`, as Core Data's
    /// `NSManagedObjectContext.mergeChanges(fromRemoteContextSave:into:)`.
    public static func mergeChanges(fromRemoteContextSave notification: SaveNotification, into contexts: [ObjectContext]) throws {
        for context in contexts { try context.mergeChanges(from: notification) }
    }

    /// Merges the saves other contexts left in the inbox (Core Data merges them on the context's queue; here,
    /// before the next use of the context on its own thread).
    func processPendingMerges() {
        for notification in inbox.takeAll() { merge(notification) }
    }

    private func merge(_ notification: SaveNotification) {
        // Rows the cache dropped since the save (the saver's objects were released) come back from the notification.
        for row in notification.updatedRows.snapshots {
            let cached = store.rowCache.snapshot(table: row.tableNumber, primaryKey: row.primaryKey)
            if cached.map({ $0.version < row.version }) ?? true { store.rowCache.insert(row) }
        }
        if notification.isRemote {
            for id in notification.updatedObjectIDs + notification.deletedObjectIDs {
                store.rowCache.evict(table: id.entity.rootNumber, primaryKey: id.primaryKey)
            }
        }
        var gone = Set<ObjectIdentifier>()
        for id in notification.deletedObjectIDs {
            guard let object = registeredObject(for: id) else { continue }
            gone.insert(ObjectIdentifier(object))
        }
        if !gone.isEmpty { forget(gone) }
        for id in notification.updatedObjectIDs {
            guard let object = registeredObject(for: id) else { continue }
            let cached = store.rowCache.snapshot(table: id.entity.rootNumber, primaryKey: id.primaryKey)
            if object.isFault {
                // A fault may hold loaded to-many relationships (firing one does not fire the owner): they are
                // read again too.
                if object.snapshot !== cached { object.snapshot = nil }
                for index in object.entity.relationships.indices {
                    if case let .toMany(state) = object.relations[index] {
                        if state.hasChanges { state.members = nil } else { object.relations[index] = .unresolved }
                    }
                }
                continue
            }
            rebase(object, on: cached)
        }
    }

    /// Removes objects deleted elsewhere: from the to-many and to-one relationships of every registered object
    /// (members and destinations drop out), from this context's changes, and from the context.
    private func forget(_ gone: Set<ObjectIdentifier>) {
        var affected = registeredObjects
        affected += inserted
        for object in affected where !gone.contains(ObjectIdentifier(object)) {
            for index in object.entity.relationships.indices {
                switch object.relations[index] {
                case let .toOneObject(destination) where gone.contains(ObjectIdentifier(destination)):
                    object.relations[index] = .unresolved
                case let .toMany(state):
                    if var members = state.members {
                        for member in members.elements where gone.contains(ObjectIdentifier(member)) { members.remove(member) }
                        state.members = members
                    }
                    for member in state.added.elements where gone.contains(ObjectIdentifier(member)) { state.added.remove(member) }
                    for member in state.removed.elements where gone.contains(ObjectIdentifier(member)) { state.removed.remove(member) }
                default:
                    break
                }
            }
        }
        updated.removeAll { gone.contains(ObjectIdentifier($0)) }
        deleted.removeAll { gone.contains(ObjectIdentifier($0)) }
        for object in affected where gone.contains(ObjectIdentifier(object)) {
            objectWillDeallocate(object)
            detach(object)
        }
    }

    /// Refreshes a fired object on a newer row (nil: not cached, read when next touched), re-applying its unsaved
    /// attribute changes on top and turning its unchanged to-many relationships back into faults.
    func rebase(_ object: ManagedObject, on newer: RowSnapshot?) {
        let old = object.snapshot
        var changedSlots: [(Int, Value)] = []
        if let local = object.localValues, let old {
            for slot in local.indices where local[slot] != old[slot] { changedSlots.append((slot, local[slot])) }
        }
        for (index, relationship) in object.entity.relationships.enumerated() {
            switch object.relations[index] {
            case let .toMany(state):
                if state.hasChanges { state.members = nil } else { object.relations[index] = .unresolved }
            case .toOneNil, .toOneObject:
                // A destination only resolved from the old row (not set here) is read again from the new row.
                object.unresolveToOne(relationship, storedIn: old)
            case .unresolved:
                break
            }
        }
        guard let newer else {
            if changedSlots.isEmpty && !object.isUpdated && !object.isDeleted {
                object.turnIntoFault(keepSnapshot: false, keepTransients: true)
            } else if let old {
                // Keep the changes over the old row; the save's version check will tell whether it is stale.
                object.snapshot = old
            }
            return
        }
        object.snapshot = newer
        if changedSlots.isEmpty {
            object.localValues = nil
        } else {
            var values = newer.values
            for (slot, value) in changedSlots { values[slot] = value }
            object.localValues = values
        }
    }
}

/// Row snapshots handed between contexts inside a save notification; only the merging context reads them, on its
/// own thread, after the saver is done with them.
struct SavedRows: @unchecked Sendable {
    let snapshots: [RowSnapshot]
}
