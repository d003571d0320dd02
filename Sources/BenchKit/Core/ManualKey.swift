import ObjectGraph

/// A to-many a variant replaced by a key kept by hand (seed 003, `manual-fk`): each member keeps the owner's
/// `ownerKey` in its `memberKey`, and an app finds an owner's members with a fetch on it. Key paths through the
/// removed relationship (`students.name`, or `class.name` from a member) are read that way.
struct ManualKey: Sendable, Equatable {
    /// `Class`, `students`: the owner and the removed to-many.
    let owner: String
    let relationship: String
    /// `Student`, `classID`: the members and the attribute that holds their owner's key.
    let member: String
    let memberKey: String
    /// `id`: the owner's attribute the members hold.
    let ownerKey: String
    /// `class`: the removed to-one from the member side, if the model declared one.
    let inverse: String?
}

extension ManualKey {
    /// The key kept by hand that `name` stands for on `entity` or one of its parents: an owner's removed to-many
    /// (`toMany`), or a member's removed to-one.
    static func named(_ name: String, from entity: EntityDescription?, in keys: [ManualKey]) -> (key: ManualKey, toMany: Bool)? {
        var current = entity
        while let here = current {
            if let key = keys.first(where: { $0.owner == here.name && $0.relationship == name }) { return (key, true) }
            if let key = keys.first(where: { $0.member == here.name && $0.inverse == name }) { return (key, false) }
            current = here.superentity
        }
        return nil
    }
}
