import Foundation

/// What a hand-written peer does with the school: the School scenarios' phases (`SchoolPhase`) call these inside
/// their timed regions.
///
/// Operations leave what they read or made alive (in the store object) until `releaseObjects()`, which the
/// runner calls outside the timed region, so that tearing down objects is never timed for any strategy.
protocol SchoolStore: CounterSource {
    /// Drops every object and context the last operations kept (untimed).
    func releaseObjects()
    /// Rows the school's statements changed since it opened its database.
    var rowsChanged: Int { get }

    /// Classes and students, each student linked to its class; one save.
    func insertMembership(_ data: SchoolData) throws
    /// Students and their addresses, linked; one save.
    func insertAddresses(_ data: SchoolData) throws

    /// Fetches every student and reads each name.
    func fetchAllStudents() throws -> Checksum
    /// Fetches the classes by name and, for each, walks its students reading each name.
    func walkClasses(prefetch: Bool) throws -> Checksum
    /// Finds a student by name in a class: by walking the class's students, or by one fetch with a limit of 1.
    func findStudent(className: String, studentName: String, byFetch: Bool) throws -> Bool
    /// Fetches every student (as the seed does), takes the first and reads `path`; or reads it for every student.
    func readPath(_ path: FaultPath, everyStudent: Bool) throws -> Checksum
    /// Fetches the root of `keyPath` and reads the destination names along it, prefetching or not.
    func walk(_ keyPath: PrefetchPath, prefetch: Bool) throws -> Checksum
    /// Fetches students by name with a batch size (0: all at once) and reads the first `limit` names (nil: all).
    func iterateStudents(batchSize: Int, limit: Int?) throws -> Checksum
}


/// The seed's fault examples: `student.address.name` and `student.subjects.first.name`.
public enum FaultPath: String, Sendable {
    case address = "address.name"
    case firstSubject = "subjects.first.name"
}

/// The prefetch scenario's key paths, one per relationship kind.
public enum PrefetchPath: String, Sendable, CaseIterable {
    /// Student.class.
    case toOne = "to-one"
    /// Class.students.
    case toMany = "to-many"
    /// Student.subjects.
    case manyToMany = "many-to-many"
    /// Class.students.address.
    case nested = "nested"
}

/// Counters a strategy can give; nil where it cannot (faults of a peer without an object graph).
public struct CounterReadings: Sendable, Equatable {
    public var statements: Int?
    public var fetchRequests: Int?
    public var objectFaults: Int?
    public var relationshipFaults: Int?
    public var rowsRead: Int?
    public var cacheHits: Int?
    public var cacheMisses: Int?
    /// A level, not a count: objects registered right now.
    public var objectsRegistered: Int?

    public init() {}
}

/// What an operation read, equal across strategies for equal data: a count and an order-independent hash.
public struct Checksum: Equatable, Sendable, CustomStringConvertible {
    public private(set) var count = 0
    public private(set) var hash: UInt64 = 0

    public init() {}

    public mutating func add(_ text: String) {
        count += 1
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        hash = hash &+ value
    }

    /// Adds a number (its FNV-1a over the eight bytes), without formatting it.
    public mutating func add(_ number: UInt64) {
        count += 1
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        var bits = number
        for _ in 0..<8 {
            value = (value ^ (bits & 0xff)) &* 0x0000_0100_0000_01b3
            bits >>= 8
        }
        hash = hash &+ value
    }

        public mutating func add(_ other: Checksum) {
        count += other.count
        hash = hash &+ other.hash
    }

    public var description: String { "\(count) names, hash \(String(hash, radix: 16))" }
}
