/// The members of a to-many relationship, in a stable order (store order, then insertion order).
///
/// A value: it does not change when the relationship changes later. Each member may still be a fault.
public struct RelationshipSet: RandomAccessCollection, CustomStringConvertible {
    let members: MemberList

    public var startIndex: Int { 0 }
    public var endIndex: Int { members.count }
    public subscript(position: Int) -> ManagedObject { members[position] }

    /// Whether `object` is a member.
    public func contains(_ object: ManagedObject) -> Bool { members.containsScanning(object) }

    public var description: String { "[" + members.map { $0.objectID.description }.joined(separator: ", ") + "]" }
}
