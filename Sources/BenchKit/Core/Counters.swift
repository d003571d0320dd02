/// Counters a strategy can give; nil where it cannot (faults of a peer without an object graph).
package struct CounterReadings: Sendable, Equatable {
    package var statements: Int?
    package var fetchRequests: Int?
    package var objectFaults: Int?
    package var relationshipFaults: Int?
    package var rowsRead: Int?
    package var cacheHits: Int?
    package var cacheMisses: Int?
    /// A level, not a count: objects registered right now.
    package var objectsRegistered: Int?

    package init() {}
}

/// What an operation read, equal across strategies for equal data: a count and an order-independent hash.
package struct Checksum: Equatable, Sendable, CustomStringConvertible {
    package private(set) var count = 0
    package private(set) var hash: UInt64 = 0

    package init() {}

    package mutating func add(_ text: String) {
        count += 1
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        hash = hash &+ value
    }

    /// Adds a number (its FNV-1a over the eight bytes), without formatting it.
    package mutating func add(_ number: UInt64) {
        count += 1
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        var bits = number
        for _ in 0..<8 {
            value = (value ^ (bits & 0xff)) &* 0x0000_0100_0000_01b3
            bits >>= 8
        }
        hash = hash &+ value
    }

    package mutating func add(_ other: Checksum) {
        count += other.count
        hash = hash &+ other.hash
    }

    package var description: String { "\(count) names, hash \(String(hash, radix: 16))" }
}

/// What a phase's counters are read from: a school's strategy, a declared scenario's executor or its replay.
package protocol CounterSource: AnyObject {
    /// Counters that only grow; nil where the strategy cannot honestly count.
    func readings() -> CounterReadings
}
