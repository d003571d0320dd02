import OrderedCollections

/// One object's side of a to-many relationship: its members once fetched, and what changed since the last save.
///
/// `members` is nil while the relationship is still a fault; changes made through inverse maintenance are
/// kept in `added` and `removed` and applied when the fault fires, so maintaining an inverse never runs SQL.
final class ToManyState {
    var members: OrderedSet<ManagedObject>?
    /// Members added since the last save (not tracked for inserted owners, whose members are all new).
    var added: OrderedSet<ManagedObject> = []
    /// Members removed since the last save.
    var removed: OrderedSet<ManagedObject> = []

    init(members: OrderedSet<ManagedObject>?) { self.members = members }

    var hasChanges: Bool { !added.isEmpty || !removed.isEmpty }

    func copy() -> ToManyState {
        let copy = ToManyState(members: members)
        copy.added = added
        copy.removed = removed
        return copy
    }

    func insert(_ member: ManagedObject, tracking: Bool) {
        if members != nil { members!.append(member) }
        guard tracking else { return }
        if removed.remove(member) == nil { added.append(member) }
    }

    func remove(_ member: ManagedObject, tracking: Bool) {
        if members != nil { members!.remove(member) }
        guard tracking else { return }
        if added.remove(member) == nil { removed.append(member) }
    }

    /// Fills a fault with the members the store holds, then replays the changes made since the last save.
    func fulfil(with stored: OrderedSet<ManagedObject>) {
        var result = stored
        if !removed.isEmpty { result.subtract(removed) }
        for member in added { result.append(member) }
        members = result
    }

    func clearChanges() {
        added = []
        removed = []
    }
}

/// What an object knows of one relationship.
enum RelationSlot {
    /// To-one: read the key in the object's row. To-many: a fault, unchanged since the last save.
    case unresolved
    case toOne(ManagedObject?)
    case toMany(ToManyState)
}
