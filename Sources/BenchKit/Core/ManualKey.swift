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

/// A relationship a variant replaced by a key kept by hand, resolved against the variant's model: from an owner
/// (`toMany`: its members, those whose `memberKey` holds its `ownerKey`) or from a member (its owner).
struct ManualRelationship: Sendable {
    let key: ManualKey
    let toMany: Bool
    let owner: EntityDescription
    let member: EntityDescription
    let ownerKey: AttributeDescription
    let memberKey: AttributeDescription
}

extension ManualRelationship {
    /// The relationship kept by hand that `name` stands for on `entity` (or a parent), with its owner, member and
    /// key attributes; nil when `name` is none, or its key attributes are not in `model`.
    static func named(_ name: String, on entity: EntityDescription, keys: [ManualKey], model: ObjectModel) -> ManualRelationship? {
        guard let (key, toMany) = ManualKey.named(name, from: entity, in: keys), let owner = model.entity(key.owner),
            let member = model.entity(key.member), let ownerKey = owner.attribute(key.ownerKey),
            let memberKey = member.attribute(key.memberKey)
        else { return nil }
        return ManualRelationship(key: key, toMany: toMany, owner: owner, member: member, ownerKey: ownerKey, memberKey: memberKey)
    }
}
