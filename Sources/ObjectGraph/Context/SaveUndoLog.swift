/// What a save changed in memory before its transaction committed, so that a failed save leaves the context
/// exactly as it was: each touched object's values, relationships and flags, and the context's change sets.
final class SaveUndoLog {
    private struct Backup {
        let object: ManagedObject
        /// The row the object showed: a conflict the rollback policy resolves drops it (turning the object into a
        /// fault) after the object was recorded, and a later failure must give it back with the object fired.
        let snapshot: RowSnapshot?
        let values: ContiguousArray<Value>?
        let relations: RelationSlots
        let isFault: Bool
        let isUpdated: Bool
        let isDeleted: Bool
        let hasPendingJoinRows: Bool
        let hasPendingHiddenOwners: Bool
    }

    @exclusivity(unchecked) private var backups: [ObjectIdentifier: Backup] = [:]
    private let inserted: [ManagedObject]
    private let updated: [ManagedObject]
    private let deleted: [ManagedObject]
    private let joinRowOwners: [ManagedObject]
    private let hiddenColumnOwners: [ManagedObject]
    private let liveInsertedCounts: [Int64]

    init(context: ObjectContext) {
        inserted = context.inserted
        updated = context.updated
        deleted = context.deleted
        joinRowOwners = context.joinRowOwners
        hiddenColumnOwners = context.hiddenColumnOwners
        liveInsertedCounts = context.liveInsertedCounts
    }

    /// Keeps the state `object` has before its first change in this save.
    func record(_ object: ManagedObject) {
        let key = ObjectIdentifier(object)
        guard backups[key] == nil else { return }
        let relations = object.relations.copyingToManyStates(count: object.entity.relationships.count)
        backups[key] = Backup(
            object: object, snapshot: object.snapshot, values: object.localValues, relations: relations, isFault: object.isFault,
            isUpdated: object.isUpdated, isDeleted: object.isDeleted,
            hasPendingJoinRows: object.hasPendingJoinRows, hasPendingHiddenOwners: object.hasPendingHiddenOwners)
    }

    /// Puts every recorded object and the context's change sets back.
    func restore(into context: ObjectContext) {
        for backup in backups.values {
            let object = backup.object
            object.snapshot = backup.snapshot
            object.localValues = backup.values
            object.relations = backup.relations
            object.isFault = backup.isFault
            object.isUpdated = backup.isUpdated
            object.isDeleted = backup.isDeleted
            object.hasPendingJoinRows = backup.hasPendingJoinRows
            object.hasPendingHiddenOwners = backup.hasPendingHiddenOwners
        }
        context.inserted = inserted
        context.updated = updated
        context.deleted = deleted
        context.joinRowOwners = joinRowOwners
        context.hiddenColumnOwners = hiddenColumnOwners
        context.liveInsertedCounts = liveInsertedCounts
        for index in context.reservedBases.indices { context.reservedBases[index] = 0 }
    }
}
