/// The identity of an object: its entity and primary key, or a temporary number until its first save.
public struct ObjectID: Hashable, @unchecked Sendable, CustomStringConvertible {
    public let entity: EntityDescription
    /// The row's Z_PK; 0 while the ID is temporary.
    public let primaryKey: Int64
    let temporaryNumber: Int64
    let storeIdentifier: String

    public var isTemporary: Bool { primaryKey == 0 }

    /// Core Data's URI form: `x-coredata://<store UUID>/Student/p3`, or `x-coredata:///Student/t1` while temporary.
    public var uriRepresentation: String {
        if isTemporary { return "x-coredata:///\(entity.name)/t\(temporaryNumber)" }
        return "x-coredata://\(storeIdentifier)/\(entity.name)/p\(primaryKey)"
    }

    public var description: String { "<\(uriRepresentation)>" }

    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.entity === rhs.entity && lhs.primaryKey == rhs.primaryKey && lhs.temporaryNumber == rhs.temporaryNumber
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entity))
        hasher.combine(primaryKey)
        hasher.combine(temporaryNumber)
    }
}
