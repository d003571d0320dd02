import Foundation
import OrderedCollections

/// A scratchpad over a store (Core Data's NSManagedObjectContext): registers objects (one per row: uniquing),
/// tracks inserted, updated and deleted objects, and saves them all or nothing.
///
/// A context belongs to one thread or queue (seed 002's law 4; see `ConcurrencyType`): using it or its objects
/// from elsewhere is reported. Unchanged objects are not retained by the context: an object the program no longer
/// holds is released and its row leaves the row cache.
public final class ObjectContext {
    public let store: PersistentStore
    public var model: ObjectModel { store.model }
    /// What this context did since it was made or since `resetCounters()`.
    @exclusivity(unchecked) public internal(set) var counters = Counters()
    /// How a save resolves conflicts with changes other contexts saved (default: fail with an error, as Core Data).
    @exclusivity(unchecked) public var mergePolicy: MergePolicy = .error
    /// Whether saves of other contexts on the same store are merged into this one as they happen (Core Data's
    /// `automaticallyMergesChangesFromParent` for a context whose parent is the store coordinator).
    public var automaticallyMergesChangesFromParent: Bool {
        get { inbox.isOpen.load(ordering: .relaxed) }
        set { inbox.isOpen.store(newValue, ordering: .relaxed) }
    }
    /// A name, for messages and the queue's label.
    @exclusivity(unchecked) public var name: String?

    /// Registered objects with a primary key, per root entity number (a hierarchy shares its keys); not retained.
    /// Each entry keeps whether its object is fired (`RegistryEntry`), in step with `ManagedObject.isFault`.
    let registry: PKTables<RegistryEntry>
    /// Changed objects in the order they changed. Plain arrays: membership is the object's own flag
    /// (isInserted, isUpdated, isDeleted), so no hashing is needed to track a change.
    @exclusivity(unchecked) var inserted: [ManagedObject] = []
    @exclusivity(unchecked) var updated: [ManagedObject] = []
    @exclusivity(unchecked) var deleted: [ManagedObject] = []
    /// Per root entity number: objects inserted since the last save, rollback or reset (what the save reserves
    /// keys for), and how many of them are not deleted.
    @exclusivity(unchecked) var insertedCounts: [Int64]
    @exclusivity(unchecked) var liveInsertedCounts: [Int64]
    /// Per root entity number: objects inserted before the last save, rollback or reset. An inserted object's
    /// ordinal among those inserted since is `temporaryNumber - temporaryBases[root]` (one number per object).
    @exclusivity(unchecked) var temporaryBases: [Int64]
    /// Per root entity number, during a save: the first primary key reserved for its inserted objects; 0 otherwise.
    @exclusivity(unchecked) var reservedBases: [Int64]
    /// Primary-side owners of many-to-many changes, owners of many-to-nil changes, and owners of changed ordered
    /// relationships, since the last save: what a save must write outside their own rows (flagged on the objects).
    @exclusivity(unchecked) var joinRowOwners: [ManagedObject] = []
    @exclusivity(unchecked) var hiddenColumnOwners: [ManagedObject] = []
    @exclusivity(unchecked) var orderOwners: [ManagedObject] = []
    /// Open while a save propagates deletes, so that a failed save can put every touched object back.
    @exclusivity(unchecked) var saveUndo: SaveUndoLog?
    /// Values of transient attributes, per object that set one; kept across saves, dropped when the object is
    /// turned back into a fault without merging or leaves the context. Held here rather than in each object,
    /// which stays smaller for the many entities with no transient attribute.
    @exclusivity(unchecked) var transientValues: [ObjectIdentifier: ContiguousArray<Value>] = [:]

    /// The members' keys and registry slots of the to-many fault being fired, kept between faults so that firing
    /// one allocates no list.
    @exclusivity(unchecked) var faultMembers = ContiguousArray<FaultMember>()

    /// The thread confinement or queue of the context.
    public let concurrencyType: ConcurrencyType
    /// How a use from the wrong thread is reported.
    @exclusivity(unchecked) public var concurrencyChecking: ConcurrencyChecking = .default
    let executor: ContextExecutor
    /// The thread of a confined context (nil for queue contexts), for the fast path of `checkThread()`.
    let confinedThread: pthread_t?
    /// Saves of other contexts waiting to be merged when this context next runs on its own thread.
    let inbox = MergeInbox()
    @exclusivity(unchecked) var saveObservers: [(SaveNotification) -> Void] = []

    init(store: PersistentStore, concurrencyType: ConcurrencyType) {
        self.store = store
        self.concurrencyType = concurrencyType
        executor = ContextExecutor(type: concurrencyType)
        confinedThread = concurrencyType == .confined ? pthread_self() : nil
        registry = PKTables(count: store.model.entities.count + 1)
        insertedCounts = Array(repeating: 0, count: store.model.entities.count + 1)
        liveInsertedCounts = insertedCounts
        reservedBases = insertedCounts
        temporaryBases = insertedCounts
    }

    deinit {
        store.unregister(inbox)
        detachAll()
    }

    // MARK: State

    public var hasChanges: Bool { !inserted.isEmpty || !updated.isEmpty || !deleted.isEmpty }
    public var insertedObjects: [ManagedObject] { inserted }
    public var updatedObjects: [ManagedObject] { updated }
    public var deletedObjects: [ManagedObject] { deleted }

    /// Objects registered now: every live object with a primary key, plus unsaved inserted objects.
    public var registeredObjectCount: Int {
        registry.count + inserted.count
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
        try insert(try model.requireEntity(entityName))
    }

    /// Inserts a new object of `entity`, with the entity's default values and a temporary ID until saved.
    /// An abstract entity has no objects of its own: insert one of its sub-entities.
    public func insert(_ entity: EntityDescription) throws -> ManagedObject {
        try checkThread()
        guard !entity.isAbstract else {
            let concrete = entity.subtree.filter { !$0.isAbstract }.map(\.name).joined(separator: ", ")
            throw ObjectGraphError.invalidOperation(
                "cannot insert an object of abstract entity \(entity.name); insert one of its sub-entities (\(concrete))")
        }
        let table = entity.rootNumber
        insertedCounts[table] += 1
        liveInsertedCounts[table] += 1
        let object = ManagedObject(inserting: entity, temporaryNumber: temporaryBases[table] + insertedCounts[table], owner: self)
        inserted.append(object)
        return object
    }

    /// Marks `object` deleted; delete rules are applied at save, as Core Data does.
    public func delete(_ object: ManagedObject) throws {
        try checkThread()
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
        if object.isInserted { liveInsertedCounts[object.entity.rootNumber] -= 1 }
    }

    // MARK: Lookup

    /// The object for `id`: the registered one, or a new fault (no SQL until touched). IDs come from any context
    /// of a store with the same model; objects never move between contexts, IDs do.
    public func object(with id: ObjectID) throws -> ManagedObject {
        try checkThread()
        guard let entity = model.entity(id.entity.name), entity.number == id.entity.number else {
            throw ObjectGraphError.invalidOperation("\(id) belongs to another model")
        }
        if id.isTemporary {
            if let object = inserted.first(where: { $0.temporaryNumber == id.temporaryNumber && $0.entity === entity }) {
                return object
            }
            throw ObjectGraphError.invalidOperation(
                "\(id) is a temporary ID of another context; save that context first and use the permanent ID")
        }
        return object(entity, primaryKey: id.primaryKey)
    }

    /// The object for `id`, fired: throws if the row does not exist.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        let object = try object(with: id)
        try object.fire()
        return object
    }

    /// The registered object for `id`, if this context has one (no fault is made, no SQL runs).
    public func registeredObject(for id: ObjectID) -> ManagedObject? {
        guard !id.isTemporary, let entity = model.entity(id.entity.name) else { return nil }
        return registered(entity, primaryKey: id.primaryKey)
    }

    /// The ID an `x-coredata://<store>/<Entity>/p<n>` URI names, if it is one of this store's.
    public func objectID(forURIRepresentation uri: String) -> ObjectID? {
        let prefix = "x-coredata://\(store.identifier)/"
        guard uri.hasPrefix(prefix) else { return nil }
        let parts = uri.dropFirst(prefix.count).split(separator: "/")
        guard parts.count == 2, let entity = model.entity(String(parts[0])), parts[1].hasPrefix("p"),
            let key = Int64(parts[1].dropFirst()), key > 0
        else { return nil }
        return ObjectID(entity: entity, primaryKey: key, temporaryNumber: 0, storeIdentifier: store.identifier, model: model)
    }

    /// The registered object for a row, if any.
    @inline(__always)
    func registered(_ entity: EntityDescription, primaryKey: Int64) -> ManagedObject? {
        registry[entity.rootNumber, primaryKey]?.object.takeUnretainedValue()
    }

    /// The registered object for a row, or a new fault registered for it.
    func object(_ entity: EntityDescription, primaryKey: Int64) -> ManagedObject {
        guard primaryKey > 0 else {
            // No row has such a key: an unregistered fault, which firing reports missing.
            counters.objectsMaterialized &+= 1
            store.counters.objectsMaterialized &+= 1
            return ManagedObject(faultOf: entity, primaryKey: primaryKey, snapshot: nil, owner: self)
        }
        // One walk of the registry's pages for the lookup and the registration.
        let registration = registry.slot(entity.rootNumber, primaryKey)
        if let registered = registration.pointee?.object.takeUnretainedValue() { return registered }
        return registerFault(of: entity, primaryKey: primaryKey, in: registration)
    }

    /// A new fault for the row `primaryKey` (positive) of `entity`, registered in `slot`, its empty registry slot.
    func registerFault(of entity: EntityDescription, primaryKey: Int64, in slot: RegistrySlot) -> ManagedObject {
        let object = ManagedObject(faultOf: entity, primaryKey: primaryKey, snapshot: nil, owner: self)
        registry.fill(entity.rootNumber, slot, with: RegistryEntry(Unmanaged.passUnretained(object), fired: false))
        counters.objectsMaterialized &+= 1
        store.counters.objectsMaterialized &+= 1
        return object
    }

    @inline(__always)
    func register(_ object: ManagedObject) {
        registry[object.entity.rootNumber, object.primaryKey] = RegistryEntry(Unmanaged.passUnretained(object), fired: !object.isFault)
    }

    /// Keeps the fired bit of `object`'s registry entry in step with its `isFault`, if it is the registered object
    /// of its row (an object detached by a reset, or made for a key no row has, is not).
    func registryNoteFault(of object: ManagedObject) {
        let table = object.entity.rootNumber
        guard let slot = registry.existingSlot(table, object.primaryKey), let entry = slot.pointee,
            entry.object.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
        else { return }
        slot.pointee = RegistryEntry(entry.object, fired: !object.isFault)
    }

    func objectWillDeallocate(_ object: ManagedObject) {
        if object.entity.hasTransients { transientValues[ObjectIdentifier(object)] = nil }
        let table = object.entity.rootNumber
        guard object.primaryKey > 0, registry[table, object.primaryKey]?.object.takeUnretainedValue() === object else { return }
        registry[table, object.primaryKey] = nil
    }

    /// Every registered object (live objects with a primary key).
    var registeredObjects: [ManagedObject] {
        var live: [ManagedObject] = []
        for table in registry.all { table.forEach { live.append($0.object.takeUnretainedValue()) } }
        return live
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
    /// side that names the table), the hidden owner columns of a many-to-nil relationship, or order keys.
    @inline(__always)
    func noteToManyChange(_ owner: ManagedObject, _ relationship: RelationshipDescription) {
        switch relationship.kind {
        case .manyToMany where relationship.join.isPrimarySide || relationship.isOrdered:
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
        if relationship.isOrdered, !owner.hasPendingOrder {
            owner.hasPendingOrder = true
            orderOwners.append(owner)
        }
    }

    /// Forgets what the next save would have to write besides rows (after a save, a rollback or a reset).
    func clearSaveBookkeeping() {
        for owner in joinRowOwners { owner.hasPendingJoinRows = false }
        for owner in hiddenColumnOwners { owner.hasPendingHiddenOwners = false }
        for owner in orderOwners { owner.hasPendingOrder = false }
        joinRowOwners = []
        hiddenColumnOwners = []
        orderOwners = []
        for index in insertedCounts.indices {
            temporaryBases[index] += insertedCounts[index]
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
        registry.removeAll()
        transientValues = [:]
    }

    /// Turns `object` into a fault again. With `mergeChanges` false (Core Data's default) its unsaved changes
    /// and transient values are dropped and its loaded relationships freed; with true, its values are re-read
    /// from the row cache (or, when the row is not cached, from the store when it is next touched) and its
    /// unsaved changes applied on top.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool = false) {
        guard object.owner === self, !object.isInserted else { return }
        if mergeChanges, object.hasChanges || transientValues[ObjectIdentifier(object)] != nil {
            rebase(object, on: store.rowCache.snapshot(table: object.entity.rootNumber, primaryKey: object.primaryKey))
            return
        }
        if object.isUpdated {
            updated.removeAll { $0 === object }
            object.isUpdated = false
        }
        if object.isDeleted {
            deleted.removeAll { $0 === object }
            object.isDeleted = false
        }
        object.turnIntoFault(keepSnapshot: false, keepTransients: mergeChanges)
    }

    private func detachAll() {
        for object in registeredObjects { detach(object) }
        for object in inserted { detach(object) }
    }

    func detach(_ object: ManagedObject) {
        object.turnIntoFault(keepSnapshot: false)
        object.owner = nil
        object.isInserted = false
        object.isUpdated = false
        object.isDeleted = false
    }
}

/// A registry slot: where the registered object of one row is (or will be), stable while the registry lives.
typealias RegistrySlot = UnsafeMutablePointer<RegistryEntry?>

/// A registered object, unretained, and whether it is fired (not a fault), in one word: the bit is the address's
/// lowest (an instance starts on malloc's 16-byte granule).
///
/// A fetch meeting a registered object that is fired returns it untouched (Core Data does not overwrite its values),
/// and with the bit it knows so from the slot alone. Profiled (perf annotate of `Prefetcher.prefetchToMany`, the
/// prefetching walk at 100,000 students): three quarters of its stalls were the load of each member's flag word,
/// a random object the fetch-all before had fired, whose key the rows, sorted by owner, give in no useful order.
struct RegistryEntry {
    private let bits: UnsafeRawPointer

    @inline(__always)
    init(_ object: Unmanaged<ManagedObject>, fired: Bool) {
        // An instance's address is never 0 and has its low bits clear (unchecked: the check of an optional was 2 of
        // the 3 instructions a row this entry added to fetch-all at 10,000 under callgrind).
        bits = UnsafeRawPointer(bitPattern: UInt(bitPattern: object.toOpaque()) | UInt(fired ? 1 : 0)).unsafelyUnwrapped
    }

    /// The object, unretained.
    var object: Unmanaged<ManagedObject> {
        @inline(__always) get {
            // Clearing the fired bit leaves the instance's address, never 0.
            Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: UInt(bitPattern: bits) & ~1).unsafelyUnwrapped)
        }
    }

    /// Whether the object is fired (`!isFault`), kept in step by every change of `ManagedObject.isFault`.
    var isFired: Bool {
        @inline(__always) get { UInt(bitPattern: bits) & 1 != 0 }
    }
}

/// A member row of a to-many fault being fired: its key, and its registry slot (nil for a key below 1, which no
/// row has and no registry holds).
struct FaultMember {
    let key: Int64
    let slot: RegistrySlot?
}
