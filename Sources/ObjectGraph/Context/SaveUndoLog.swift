import OrderedCollections

/// What a save changed in memory before its transaction committed, so that a failed save leaves the context
/// exactly as it was: each touched object's values, relationships and flags, and the context's change sets.
final class SaveUndoLog {
    private struct Backup {
        let object: ManagedObject
        let values: ContiguousArray<Value>
        let relations: ContiguousArray<RelationSlot>
        let isFault: Bool
        let isUpdated: Bool
        let isDeleted: Bool
    }

    private var backups: [ObjectIdentifier: Backup] = [:]
    private let inserted: OrderedSet<ManagedObject>
    private let updated: OrderedSet<ManagedObject>
    private let deleted: OrderedSet<ManagedObject>

    init(context: ObjectContext) {
        inserted = context.inserted
        updated = context.updated
        deleted = context.deleted
    }

    /// Keeps the state `object` has before its first change in this save.
    func record(_ object: ManagedObject) {
        let key = ObjectIdentifier(object)
        guard backups[key] == nil else { return }
        let relations = ContiguousArray(object.relations.map { slot -> RelationSlot in
            if case let .toMany(state) = slot { return .toMany(state.copy()) }
            return slot
        })
        backups[key] = Backup(object: object, values: object.values, relations: relations, isFault: object.isFault,
                              isUpdated: object.isUpdated, isDeleted: object.isDeleted)
    }

    /// Puts every recorded object and the context's change sets back.
    func restore(into context: ObjectContext) {
        for backup in backups.values {
            let object = backup.object
            object.values = backup.values
            object.relations = backup.relations
            object.isFault = backup.isFault
            object.isUpdated = backup.isUpdated
            object.isDeleted = backup.isDeleted
        }
        for object in context.inserted { object.reservedPrimaryKey = 0 }
        context.inserted = inserted
        context.updated = updated
        context.deleted = deleted
    }
}
