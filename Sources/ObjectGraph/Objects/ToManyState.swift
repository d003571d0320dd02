import OrderedCollections

/// One object's side of a to-many relationship: its members once fetched, and what changed since the last save.
///
/// `members` is nil while the relationship is still a fault; changes made through inverse maintenance are
/// kept in `added` and `removed` and applied when the fault fires, so maintaining an inverse never runs SQL.
final class ToManyState {
    @exclusivity(unchecked) var members: MemberList?
    /// Members added since the last save (not tracked for inserted owners, whose members are all new).
    @exclusivity(unchecked) var added: OrderedSet<ManagedObject> = []
    /// Members removed since the last save.
    @exclusivity(unchecked) var removed: OrderedSet<ManagedObject> = []
    /// An ordered relationship whose members' order changed since the last save (or gained or lost members).
    @exclusivity(unchecked) var reordered = false
    /// For an ordered many-to-many: each stored member's order key in the join table, as last read or written.
    @exclusivity(unchecked) var joinOrderKeys: [ObjectIdentifier: Int64] = [:]

    init(members: MemberList?) { self.members = members }

    var hasChanges: Bool { !added.isEmpty || !removed.isEmpty || reordered }

    func copy() -> ToManyState {
        let copy = ToManyState(members: members)
        copy.added = added
        copy.removed = removed
        copy.reordered = reordered
        copy.joinOrderKeys = joinOrderKeys
        return copy
    }

    /// Adds `member`, which the caller knows is not a member (inverse maintenance keeps both sides in step).
    func insert(_ member: ManagedObject, tracking: Bool) {
        members?.append(member)
        if tracking, removed.remove(member) == nil { added.append(member) }
    }

    func remove(_ member: ManagedObject, tracking: Bool) {
        members?.remove(member)
        guard tracking else { return }
        if added.remove(member) == nil { removed.append(member) }
    }

    /// Fills a fault with the members the store holds, then replays the changes made since the last save
    /// (additions are new to the store, so they cannot be among `stored`).
    func fulfil(with stored: MemberList) {
        var result = stored
        for member in removed { result.remove(member) }
        for member in added { result.append(member) }
        members = result
    }

    /// The members the store holds now: loaded members, less those added since the save, plus those removed.
    var storedMembers: [ManagedObject] {
        guard let members else { return removed.elements }
        return members.elements.filter { !added.contains($0) } + removed.elements
    }

    /// Calls `body`, unretained and in order, with the members a save writes rows or keys for: every member of an
    /// inserted owner (all of them are new to the store), else those added since the last save.
    func forEachMemberToWrite(
        ownerIsInserted: Bool, prefetchingRows rows: Bool = false,
        _ body: (ManagedObject) throws -> Void
    ) rethrows {
        if ownerIsInserted {
            try members?.elements.forEachUnretained(prefetchingRows: rows, body)
        } else {
            try added.elements.forEachUnretained(prefetchingRows: rows, body)
        }
    }

    func clearChanges() {
        added = []
        removed = []
        reordered = false
    }
}
