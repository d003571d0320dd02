/// An object of the graph: one row of an entity's table, registered in one context.
///
/// A fault until touched: reading an attribute fires it (from the row cache, or one `SELECT ... LIMIT 1`).
/// Identity is the object itself: within a context there is never more than one object for a row.
public final class ManagedObject: Hashable, CustomStringConvertible {
    public let entity: EntityDescription
    /// The context the object is registered in; nil once that context is reset or released.
    unowned(unsafe) var owner: ObjectContext?
    /// Z_PK; 0 until the first save of an inserted object.
    var primaryKey: Int64
    var temporaryNumber: Int64 = 0
    /// The row as last read from or written to the store; nil for inserted objects and for faults not in cache.
    var snapshot: RowSnapshot?
    /// Current column values in the entity's row layout; empty while a fault.
    var values: ContiguousArray<Value> = []
    var relations: ContiguousArray<RelationSlot>
    /// The primary key a save in progress gives an inserted object; 0 otherwise.
    var reservedPrimaryKey: Int64 = 0

    public internal(set) var isFault: Bool
    public internal(set) var isInserted = false
    public internal(set) var isUpdated = false
    public internal(set) var isDeleted = false

    /// A fault for the row `primaryKey`, optionally with its row snapshot already at hand.
    init(faultOf entity: EntityDescription, primaryKey: Int64, snapshot: RowSnapshot?, owner: ObjectContext) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.snapshot = snapshot
        self.owner = owner
        self.isFault = true
        self.relations = entity.unresolvedRelations
    }

    /// A new object with the entity's defaults, to be inserted.
    init(inserting entity: EntityDescription, temporaryNumber: Int64, owner: ObjectContext) {
        self.entity = entity
        self.primaryKey = 0
        self.temporaryNumber = temporaryNumber
        self.owner = owner
        self.isFault = false
        self.isInserted = true
        self.values = entity.defaultRow
        var relations = ContiguousArray<RelationSlot>()
        relations.reserveCapacity(entity.relationships.count)
        for relationship in entity.relationships {
            relations.append(relationship.isToMany ? .toMany(ToManyState(members: [])) : .toOne(nil))
        }
        self.relations = relations
    }

    deinit { owner?.objectWillDeallocate(self) }

    /// The object's ID: permanent once saved, temporary before.
    public var objectID: ObjectID {
        ObjectID(entity: entity, primaryKey: primaryKey, temporaryNumber: temporaryNumber,
                 storeIdentifier: owner?.store.identifier ?? "")
    }

    /// The context the object belongs to, if it is still registered.
    public var context: ObjectContext? { owner }

    /// Whether the object has unsaved changes (inserted, updated or deleted).
    public var hasChanges: Bool { isInserted || isUpdated || isDeleted }

    public var description: String {
        let state = isFault ? "<fault>" : values.enumerated().map { entity.columns[$0.offset].name + "=" + $0.element.description }
            .joined(separator: ", ")
        return "\(entity.name) \(objectID) \(state)"
    }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The context, or an error saying the object was detached from it.
    @inline(__always)
    func requireContext() throws -> ObjectContext {
        if let owner { return owner }
        throw ObjectGraphError.invalidOperation(
            "\(entity.name) \(objectID) is not registered in a context (its context was reset or released, or the object was deleted and saved)")
    }

    /// Fires the fault if the object is one.
    @inline(__always)
    func fire() throws {
        if isFault { try requireContext().fulfilFault(self) }
    }

    /// A column of the committed or current row, without firing the fault when its row is at hand
    /// (its snapshot, or the row cache); nil when only firing could tell.
    func storedValue(slot: Int) -> Value? {
        if !isFault { return values[slot] }
        if let snapshot { return snapshot.values[slot] }
        return owner?.store.rowCache.snapshot(entity: entity.number, primaryKey: primaryKey)?.values[slot]
    }

    /// Turns the object back into a fault, dropping values and loaded relationships (changes included).
    func turnIntoFault(keepSnapshot: Bool) {
        isFault = true
        values = []
        relations = entity.unresolvedRelations
        if !keepSnapshot { snapshot = nil }
    }
}
