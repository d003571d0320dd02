/// The identity of an object: its entity and primary key, or a temporary number until its first save.
///
/// IDs are the one thing that moves between contexts and threads (objects do not). An ID keeps its model alive,
/// so that it stays valid after its store and contexts are gone.
public struct ObjectID: Hashable, @unchecked Sendable, CustomStringConvertible {
    public let entity: EntityDescription
    /// The row's Z_PK; 0 while the ID is temporary.
    public let primaryKey: Int64
    let temporaryNumber: Int64
    let storeIdentifier: String
    /// Keeps the descriptions `entity` refers to alive.
    private let model: ObjectModel?

    init(entity: EntityDescription, primaryKey: Int64, temporaryNumber: Int64, storeIdentifier: String, model: ObjectModel?) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.temporaryNumber = temporaryNumber
        self.storeIdentifier = storeIdentifier
        self.model = model
    }

    public var isTemporary: Bool { primaryKey == 0 }

    /// Core Data's URI form: `x-coredata://<store UUID>/Student/p3`, or `x-coredata:///Student/t1` while temporary.
    public var uriRepresentation: String {
        if isTemporary { return "x-coredata:///\(entity.name)/t\(temporaryNumber)" }
        return "x-coredata://\(storeIdentifier)/\(entity.name)/p\(primaryKey)"
    }

    public var description: String { "<\(uriRepresentation)>" }

    /// As SQLDebug prints an object ID: `0x... <x-coredata://.../Student/p3>` (the address part is derived from
    /// the entity and key, stable across runs, standing in for Core Data's pointer).
    var debugDescription: String {
        let tag = (UInt64(truncatingIfNeeded: entity.number) << 48) ^ UInt64(bitPattern: primaryKey != 0 ? primaryKey : -temporaryNumber)
        return "0x\(String(0xa000_0000_0000_0000 | (tag & 0x0fff_ffff_ffff_ffff), radix: 16)) \(description)"
    }

    public static func == (lhs: ObjectID, rhs: ObjectID) -> Bool {
        lhs.entity === rhs.entity && lhs.primaryKey == rhs.primaryKey && lhs.temporaryNumber == rhs.temporaryNumber
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(entity))
        hasher.combine(primaryKey)
        hasher.combine(temporaryNumber)
    }
}
