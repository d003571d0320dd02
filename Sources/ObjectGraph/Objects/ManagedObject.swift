/// An object of the graph: one row of an entity's table, registered in one context.
///
/// A fault until touched: reading an attribute fires it (from the row cache, or one `SELECT ... LIMIT 1`).
/// Identity is the object itself: within a context there is never more than one object for a row. An object
/// belongs to its context's thread or queue: touching it elsewhere is reported (`ObjectGraphError.wrongThread`).
///
/// Profiled: dynamic exclusivity checks on these properties cost a sixth of an insert-and-save's instructions
/// (swift_beginAccess); the hot ones are `@exclusivity(unchecked)`, the context confining access to one thread.
public final class ManagedObject: Hashable, CustomStringConvertible {
    // Stored properties are laid out in declaration order: what every attribute read and every fetch that meets
    // the object touches comes first, so that it shares the first cache line with the reference count.
    /// The context, unretained (nil once that context is reset or released), and the flags below.
    @exclusivity(unchecked) private var word: ObjectWord
    /// The object's own row when it has one (`localRow`; its snapshot then hangs off that row), else its snapshot.
    @exclusivity(unchecked) private var row: RowSnapshot?
    /// The entity of the object (a concrete entity: an abstract entity has no objects).
    public let entity: EntityDescription
    /// Z_PK when positive; for an inserted object not yet saved, its temporary number negated. One word for both,
    /// since an object never has both (profiled at 1,000,000 students: the second word made each object a
    /// 112-byte malloc chunk instead of 96).
    @exclusivity(unchecked) private var key: Int64
    // Last, and inline: no allocation for up to three relationships. Transient values live in the context
    // (`ObjectContext.transientValues`), so that the object stays at 72 bytes, an 80-byte malloc chunk.
    @exclusivity(unchecked) var relations: RelationSlots

    /// Setting it keeps the fired bit of the object's registry entry in step (`RegistryEntry`); the fetch path, which
    /// holds the entry's slot, sets `faultFlag` and the entry itself.
    public internal(set) var isFault: Bool {
        @inline(__always) get { word[.fault] }
        set {
            word[.fault] = newValue
            if key > 0, let owner = word.owner { owner._withUnsafeGuaranteedRef { $0.registryNoteFault(of: self) } }
        }
    }
    /// The fault flag alone, for a caller that writes the object's registry entry itself.
    var faultFlag: Bool {
        @inline(__always) get { word[.fault] }
        @inline(__always) set { word[.fault] = newValue }
    }
    public internal(set) var isInserted: Bool {
        @inline(__always) get { word[.inserted] }
        @inline(__always) set { word[.inserted] = newValue }
    }
    public internal(set) var isUpdated: Bool {
        @inline(__always) get { word[.updated] }
        @inline(__always) set { word[.updated] = newValue }
    }
    public internal(set) var isDeleted: Bool {
        @inline(__always) get { word[.deleted] }
        @inline(__always) set { word[.deleted] = newValue }
    }
    /// Set while the object is listed in its context's owners of unsaved join-table, hidden-column or order changes.
    var hasPendingJoinRows: Bool {
        @inline(__always) get { word[.pendingJoinRows] }
        @inline(__always) set { word[.pendingJoinRows] = newValue }
    }
    var hasPendingHiddenOwners: Bool {
        @inline(__always) get { word[.pendingHiddenOwners] }
        @inline(__always) set { word[.pendingHiddenOwners] = newValue }
    }
    var hasPendingOrder: Bool {
        @inline(__always) get { word[.pendingOrder] }
        @inline(__always) set { word[.pendingOrder] = newValue }
    }
    /// The context the object is registered in, unretained; nil once that context is reset or released.
    var ownerReference: Unmanaged<ObjectContext>? {
        @inline(__always) get { word.owner }
        set { word.owner = newValue }
    }

    /// The row as last read from or written to the store; nil for inserted objects and for faults not in cache.
    var snapshot: RowSnapshot? {
        @inline(__always) get { word[.localRow] ? row.unsafelyUnwrapped.base : row }
        set {
            guard word[.localRow] else {
                row = newValue
                return
            }
            let local = row.unsafelyUnwrapped
            if newValue === local { adoptLocalRowAsSnapshot() } else { local.base = newValue }
        }
    }

    /// The current row when it differs from the snapshot (or every value of an inserted object), held by this
    /// object alone; nil while the object shows its snapshot unchanged, or is a fault. An inserted object's
    /// buffer becomes its snapshot when saved, so that the save neither allocates nor copies a row (profiled:
    /// the copy-on-write array and the snapshot made from it were two of an insert's five allocations).
    var localRow: RowSnapshot? {
        @inline(__always) get { word[.localRow] ? row : nil }
        set {
            let base = snapshot
            if word[.localRow], let old = row, old !== newValue { old.dropBase() }
            guard let newValue else {
                if word[.localRow] {
                    row = base
                    word[.localRow] = false
                }
                return
            }
            // A row is never its own snapshot: a snapshot taken back as the object's own row leaves none.
            newValue.base = base === newValue ? nil : base
            row = newValue
            word[.localRow] = true
        }
    }

    /// The slots of the row the object shows (`localRow` or `snapshot`), borrowed: valid until the object's row
    /// changes; nil if it has none. No retain of the row (profiled: binding the row itself cost an attribute read a
    /// retain and a release).
    var shownSlots: RowSlots? {
        @inline(__always) get { row?.slots }
    }

    /// The address of the row the object shows (`localRow` or `snapshot`), for cache hints; nil if it has none.
    var rowAddress: UnsafeMutableRawPointer? {
        @inline(__always) get { row.map { Unmanaged.passUnretained($0).toOpaque() } }
    }

    /// A fault for the row `primaryKey`, optionally with its row snapshot already at hand, or with `fired` the object
    /// of that row already fired (a fetch's, which registers it with its entry's bit).
    init(faultOf entity: EntityDescription, primaryKey: Int64, snapshot: RowSnapshot?, owner: ObjectContext, fired: Bool = false) {
        self.entity = entity
        self.key = primaryKey
        self.row = snapshot
        self.word = ObjectWord(owner: Unmanaged.passUnretained(owner), flags: fired ? [] : .fault)
        self.relations = RelationSlots.unresolved(for: entity)
    }

    /// A new object with the entity's defaults, to be inserted.
    @inline(__always)
    init(inserting entity: EntityDescription, temporaryNumber: Int64, owner: ObjectContext) {
        self.entity = entity
        self.key = -temporaryNumber
        self.word = ObjectWord(owner: Unmanaged.passUnretained(owner), flags: [.inserted, .localRow])
        // Defaults holding no reference copy as bytes, with the tags (profiled: copying value by value was 15% of
        // `ObjectContext.insert(_:)`'s instructions).
        self.row = RowSnapshot.makeNew(of: entity)
        // Every relationship starts unresolved: to-one keys read null, to-many sets are created empty on first use.
        self.relations = RelationSlots.unresolved(for: entity)
    }

    /// Makes the object's own row, just written by a save, its snapshot: what `snapshot = localRow.take()` does,
    /// without reading and setting the snapshot the row kept (callgrind, insert at 10,000: about 110 instructions
    /// fewer an inserted object, many-to-one 205.2M -> 204.1M).
    @inline(__always)
    func adoptLocalRowAsSnapshot() {
        guard word[.localRow] else { return }
        row.unsafelyUnwrapped.dropBase()
        word[.localRow] = false
    }

    /// The instance's size in bytes, header included (what prefetching a whole object asks for; a test checks it).
    static let instanceBytes = 72

    deinit { owner?.objectWillDeallocate(self) }

    /// Z_PK; 0 until the first save of an inserted object. Setting it (at that save) ends the temporary number.
    var primaryKey: Int64 {
        @inline(__always) get { key > 0 ? key : 0 }
        @inline(__always) set { key = newValue }
    }

    /// For an inserted object: its number among the objects of its entity hierarchy inserted in its context (from
    /// 1, never reused), which its temporary ID shows; 0 once saved. The save gives it primary key `first reserved
    /// key + ordinal - 1`, its ordinal being its place among the objects inserted since the last save, rollback
    /// or reset (`ObjectContext.temporaryBases`).
    var temporaryNumber: Int64 {
        @inline(__always) get { key < 0 ? -key : 0 }
    }

    /// The context the object is registered in; nil once that context is reset or released.
    var owner: ObjectContext? {
        @inline(__always) get { ownerReference?.takeUnretainedValue() }
        @inline(__always) set { ownerReference = newValue.map { Unmanaged.passUnretained($0) } }
    }

    /// Checks the calling thread may use the object's context, without retaining the context (profiled: a
    /// retain and release of the context on every attribute read).
    @inline(__always)
    func checkOwnerThread() throws {
        try ownerReference?._withUnsafeGuaranteedRef { try $0.checkThread() }
    }

    /// The object's ID: permanent once saved, temporary before. Safe to read from any thread.
    public var objectID: ObjectID {
        ObjectID(
            entity: entity, primaryKey: primaryKey, temporaryNumber: temporaryNumber,
            storeIdentifier: owner?.store.identifier ?? "", model: owner?.model)
    }

    /// The context the object belongs to, if it is still registered.
    public var context: ObjectContext? { owner }

    /// Whether the object has unsaved changes (inserted, updated or deleted).
    public var hasChanges: Bool { isInserted || isUpdated || isDeleted }

    public var description: String {
        let state =
            isFault
            ? "<fault>"
            : currentRow.enumerated().map { entity.columns[$0.offset].name + "=" + $0.element.description }
                .joined(separator: ", ")
        return "\(entity.name) \(objectID) \(state)"
    }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The context, checked for the calling thread, or an error saying the object was detached from it.
    @inline(__always)
    func requireContext() throws -> ObjectContext {
        if let ownerReference {
            try ownerReference._withUnsafeGuaranteedRef { try $0.checkThread() }
            return ownerReference.takeUnretainedValue()
        }
        throw ObjectGraphError.invalidOperation(
            "\(entity.name) \(objectID) is not registered in a context (its context was reset or released, or the object was deleted and saved)"
        )
    }

    /// Runs `body` with the context, checked for the calling thread, borrowed rather than retained (profiled:
    /// retains and releases were a quarter of an insert's own time, the context's among them on every change).
    @inline(__always)
    func withContext<Result>(_ body: (ObjectContext) throws -> Result) throws -> Result {
        guard let ownerReference else { return try body(requireContext()) }
        return try ownerReference._withUnsafeGuaranteedRef { context in
            try context.checkThread()
            return try body(context)
        }
    }

    /// Fires the fault if the object is one.
    @inline(__always)
    func fire() throws {
        if isFault { try requireContext().fulfilFault(self) }
    }

    /// A column of the committed or current row, without firing the fault when its row is at hand
    /// (its snapshot, or the row cache); nil when only firing could tell.
    func storedValue(slot: Int) -> Value? {
        if !isFault { return current(slot) }
        if let snapshot { return snapshot[slot] }
        return owner?.store.rowCache.snapshot(table: entity.rootNumber, primaryKey: primaryKey)?[slot]
    }

    /// The current value of a column; the object must not be a fault.
    @inline(__always)
    func current(_ slot: Int) -> Value {
        // Only called on an object that is not a fault, whose row is loaded: the hot path of every read.
        // swift-format-ignore: NeverForceUnwrap
        row![slot]
    }

    /// Whether a column is null; the object must not be a fault.
    @inline(__always)
    func currentIsNull(_ slot: Int) -> Bool {
        // Only called on an object that is not a fault, whose row is loaded: the hot path of every read.
        // swift-format-ignore: NeverForceUnwrap
        row!.isNull(slot)
    }

    /// Changes a column, copying the snapshot's values on the first change.
    @inline(__always)
    func setCurrent(_ slot: Int, _ value: Value) {
        // Only called on an object that is not a fault, whose row is loaded: the hot path of every read.
        // swift-format-ignore: NeverForceUnwrap
        if !word[.localRow] { localRow = row!.copy() }
        row.unsafelyUnwrapped.set(slot, value)
    }

    /// The current row; the object must not be a fault.
    // Only called on an object that is not a fault, whose row is loaded: the hot path of every read.
    // swift-format-ignore: NeverForceUnwrap
    var currentRow: ContiguousArray<Value> { row!.values }

    /// The changed row as an array (a copy: changing it changes nothing), or nil; setting it gives the object
    /// a buffer of its own with these values. For the paths that treat the row as a value (merges, undo).
    var localValues: ContiguousArray<Value>? {
        get { localRow?.values }
        set {
            localRow = newValue.map {
                RowSnapshot.make(entity.rowShape, primaryKey: primaryKey, version: 0, values: $0)
            }
        }
    }

    /// Turns the object back into a fault, dropping values and loaded relationships (changes included), and
    /// transient values unless `keepTransients`.
    func turnIntoFault(keepSnapshot: Bool, keepTransients: Bool = false) {
        isFault = true
        localRow = nil
        relations = RelationSlots.unresolved(for: entity)
        if !keepSnapshot { snapshot = nil }
        if !keepTransients, entity.hasTransients { owner?.transientValues[ObjectIdentifier(self)] = nil }
    }
}
