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

    /// Adds a text by its UTF-8 bytes, eight at a time: about as much work per value as the floor's reading of a
    /// column into a String and its count (callgrind, query fetch-all at 10,000: hashing byte by byte through
    /// `String.utf8` was 522 instructions a name, 13% of ObjectGraph's phase, work the `sql-replay` floor never did).
    ///
    /// The bytes are borrowed through `utf8.withContiguousStorageIfAvailable`, not `withUTF8`, which is mutating: the
    /// copy it needs retained and released the text's storage for every value (callgrind, query fetch-all at 10,000:
    /// 29 instructions a name). A text with no contiguous UTF-8 (a bridged one) takes the copy.
    /// Inlined into the readers' loops (callgrind, query fetch-all at 10,000: the call was about 15 instructions a name).
    @inline(__always)
    package mutating func add(_ text: String) {
        count += 1
        if let value = text.utf8.withContiguousStorageIfAvailable({ Checksum.hash(UnsafeRawBufferPointer($0)) }) {
            hash = hash &+ value
            return
        }
        hash = hash &+ Checksum.hashCopying(text)
    }

    @inline(never)
    private static func hashCopying(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { Checksum.hash(UnsafeRawBufferPointer($0)) }
    }

    /// FNV-1a over 64-bit words (the last one zero-padded), seeded with the length, so that texts of different
    /// lengths or any byte apart hash apart.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var value: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        let count = bytes.count
        if count >= 8 {
            var offset = 0
            while offset + 8 <= count {
                value = (value ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
                offset += 8
            }
            // The last eight bytes, overlapping the word before when the count is not a multiple of eight.
            if offset < count { value = (value ^ bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)) &* prime }
        } else {
            var tail: UInt64 = 0
            for offset in 0..<count { tail |= UInt64(bytes[offset]) &<< UInt64(offset * 8) }
            value = (value ^ tail) &* prime
        }
        return value ^ (value &>> 32)
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
