import OrderedCollections

/// A scratchpad over a store (Core Data's NSManagedObjectContext): registers objects (one per row: uniquing),
/// tracks inserted, updated and deleted objects, and saves them in one transaction.
///
/// Not thread-safe: use a context and its objects from one thread. Unchanged objects are not retained by the
/// context: an object the program no longer holds is released and its row leaves the row cache.
public final class ObjectContext {
    public let store: PersistentStore
    public var model: ObjectModel { store.model }
    /// What this context did since it was made or since `resetCounters()`.
    public internal(set) var counters = Counters()

    /// Registered objects with a primary key, per entity number; not retained.
    let registry: [PKTable<Unmanaged<ManagedObject>>]
    /// Changed objects in the order they changed. Plain arrays: membership is the object's own flag
    /// (isInserted, isUpdated, isDeleted), so no hashing is needed to track a change.
    var inserted: [ManagedObject] = []
    var updated: [ManagedObject] = []
    var deleted: [ManagedObject] = []
    var nextTemporaryNumber: Int64 = 1
    /// Per entity number: objects inserted since the last save (their insert ordinals run up to this), and how
    /// many of them are not deleted.
    var insertedCounts: [Int64]
    var liveInsertedCounts: [Int64]
    /// Per entity number, during a save: the first primary key reserved for its inserted objects; 0 otherwise.
    var reservedBases: [Int64]
    /// Primary-side owners of many-to-many changes, and owners of many-to-nil changes, since the last save:
    /// what a save must turn into join-table rows and hidden owner columns (flagged on the objects).
    var joinRowOwners: [ManagedObject] = []
    var hiddenColumnOwners: [ManagedObject] = []
    /// Open while a save propagates deletes, so that a failed save can put every touched object back.
    var saveUndo: SaveUndoLog?

    init(store: PersistentStore) {
        self.store = store
        registry = (0...store.model.entities.count).map { _ in PKTable() }
        insertedCounts = Array(repeating: 0, count: store.model.entities.count + 1)
        liveInsertedCounts = insertedCounts
        reservedBases = insertedCounts
    }

    deinit { detachAll() }

    // MARK: State

    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }
    public var insertedObjects: [ManagedObject] { inserted }
    public var updatedObjects: [ManagedObject] { updated }
    public var deletedObjects: [ManagedObject] { deleted }

    /// Objects registered now: every live object with a primary key, plus unsaved inserted objects.
    public var registeredObjectCount: Int {
        registry.reduce(0) { $0 + $1.count } + inserted.count
    }

    /// Zeroes this context's counters.
    public func resetCounters() { counters = Counters() }

    /// The context's counters with `objectsRegistered` filled in, for reports.
    public var countersWithRegistration: (counters: Counters, objectsRegistered: Int) {
        (counters, registeredObjectCount)
    }

    // MARK: Inserting and deleting

    /// Inserts a new object of the entity called `entityName`, with a temporary ID until saved.
    public func insert(_ entityName: String) throws -> ManagedObject {
        insert(try model.requireEntity(entityName))
    }

    /// Inserts a new object of `entity`, with the entity's default values and a temporary ID until saved.
    public func insert(_ entity: EntityDescription) -> ManagedObject {
        insertedCounts[entity.number] += 1
        liveInsertedCounts[entity.number] += 1
        let object = ManagedObject(inserting: entity, temporaryNumber: nextTemporaryNumber,
                                   insertOrdinal: insertedCounts[entity.number], owner: self)
        nextTemporaryNumber += 1
        inserted.append(object)
        return object
    }

    /// Marks `object` deleted; delete rules are applied at save, as Core Data does.
    public func delete(_ object: ManagedObject) throws {
        guard object.owner === self else {
            throw ObjectGraphError.invalidOperation("cannot delete \(object.objectID): it is not registered in this context")
        }
        guard !object.isDeleted else { return }
        markDeleted(object)
    }

    /// Marks `object` deleted (by the caller or by a cascade), keeping the count of live inserted objects.
    func markDeleted(_ object: ManagedObject) {
        willChange(object)
        object.isDeleted = true
        deleted.append(object)
        if object.isInserted { liveInsertedCounts[object.entity.number] -= 1 }
    }

    // MARK: Lookup

    /// The object for `id`: the registered one, or a new fault (no SQL until touched).
    public func object(with id: ObjectID) throws -> ManagedObject {
        guard id.entity === model.entity(id.entity.name) else {
            throw ObjectGraphError.invalidOperation("\(id) belongs to another model")
        }
        if id.isTemporary {
            if let object = inserted.first(where: { $0.temporaryNumber == id.temporaryNumber && $0.entity === id.entity }) {
                return object
            }
            throw ObjectGraphError.invalidOperation("\(id) is a temporary ID of another context")
        }
        return object(id.entity, primaryKey: id.primaryKey)
    }

    /// The object for `id`, fired: throws if the row does not exist.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        let object = try object(with: id)
        try object.fire()
        return object
    }

    /// The registered object for a row, if any.
    @inline(__always)
    func registered(_ entity: EntityDescription, primaryKey: Int64) -> ManagedObject? {
        registry[entity.number][primaryKey]?.takeUnretainedValue()
    }

    /// The registered object for a row, or a new fault registered for it.
    func object(_ entity: EntityDescription, primaryKey: Int64) -> ManagedObject {
        if let object = registered(entity, primaryKey: primaryKey) { return object }
        let object = ManagedObject(faultOf: entity, primaryKey: primaryKey, snapshot: nil, owner: self)
        register(object)
        counters.objectsMaterialized &+= 1
        store.counters.objectsMaterialized &+= 1
        return object
    }

    @inline(__always)
    func register(_ object: ManagedObject) {
        registry[object.entity.number][object.primaryKey] = Unmanaged.passUnretained(object)
    }

    func objectWillDeallocate(_ object: ManagedObject) {
        guard object.primaryKey > 0,
              registry[object.entity.number][object.primaryKey]?.takeUnretainedValue() === object else { return }
        registry[object.entity.number][object.primaryKey] = nil
    }

    // MARK: Change tracking

    /// Records that `object` is about to change: marks it updated and lets an open save undo it.
    @inline(__always)
    func willChange(_ object: ManagedObject) {
        if let saveUndo { saveUndo.record(object) }
        if !object.isInserted && !object.isUpdated {
            object.isUpdated = true
            updated.append(object)
        }
    }

    /// Lists an owner whose to-many change a save must write outside its own row: join-table rows (from the
    /// side that names the table) or the hidden owner columns of a many-to-nil relationship.
    @inline(__always)
    func noteToManyChange(_ owner: ManagedObject, _ relationship: RelationshipDescription) {
        switch relationship.kind {
        case .manyToMany where relationship.joinTable!.isPrimarySide:
            if !owner.hasPendingJoinRows {
                owner.hasPendingJoinRows = true
                joinRowOwners.append(owner)
            }
        case .manyToNil:
            if !owner.hasPendingHiddenOwners {
                owner.hasPendingHiddenOwners = true
                hiddenColumnOwners.append(owner)
            }
        default:
            break
        }
    }

    /// Forgets what the next save would have to write besides rows (after a save, a rollback or a reset).
    func clearSaveBookkeeping() {
        for owner in joinRowOwners { owner.hasPendingJoinRows = false }
        for owner in hiddenColumnOwners { owner.hasPendingHiddenOwners = false }
        joinRowOwners = []
        hiddenColumnOwners = []
        for index in insertedCounts.indices {
            insertedCounts[index] = 0
            liveInsertedCounts[index] = 0
        }
    }

    // MARK: Rollback and reset

    /// Discards every unsaved change: inserted objects leave the context, changed objects return to their
    /// last saved state (as faults, fired again from the row cache when touched).
    public func rollback() {
        for object in inserted { detach(object) }
        for object in updated + deleted {
            object.isUpdated = false
            object.isDeleted = false
            object.turnIntoFault(keepSnapshot: true)
        }
        inserted = []
        updated = []
        deleted = []
        clearSaveBookkeeping()
    }

    /// Forgets every object: all registered objects are detached and become unusable; changes are discarded.
    public func reset() {
        detachAll()
        inserted = []
        updated = []
        deleted = []
        clearSaveBookkeeping()
        for index in registry.indices { registry[index].removeAll() }
    }

    /// Turns `object` into a fault again, dropping its loaded relationships (which frees the objects they
    /// held, as Core Data's `refresh(_:mergeChanges: false)`). Unsaved changes of the object are discarded.
    public func refresh(_ object: ManagedObject) {
        guard object.owner === self, !object.isInserted else { return }
        if object.isUpdated { updated.removeAll { $0 === object }; object.isUpdated = false }
        if object.isDeleted { deleted.removeAll { $0 === object }; object.isDeleted = false }
        object.turnIntoFault(keepSnapshot: false)
    }

    private func detachAll() {
        var live: [ManagedObject] = []
        for table in registry { table.forEach { live.append($0.takeUnretainedValue()) } }
        for object in live { detach(object) }
        for object in inserted { detach(object) }
    }

    private func detach(_ object: ManagedObject) {
        object.owner = nil
        object.isInserted = false
        object.isUpdated = false
        object.isDeleted = false
        object.turnIntoFault(keepSnapshot: false)
    }
}
