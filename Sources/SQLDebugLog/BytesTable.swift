#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte strings held in one flat store, each with an id counting up from 0, found by a hash of their bytes: the
/// analyzer looks statements and fingerprints up by their bytes, with no String made (profiled: a String made and
/// hashed for every statement, and one for every distinct statement's fingerprint, cost a tenth of reading a log of
/// distinct statements); it makes a String once, for a new fingerprint.
struct BytesTable: Sendable {
    /// Every entry's bytes, one after another: entry `id` ends at `ends[id]`.
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// The newest entry of each hash, and for each entry the one before it with the same hash (-1: none).
    private var newest: [UInt64: Int32] = [:]
    private var previous: [Int32] = []

    var count: Int { ends.count }

    /// The id of `bytes` (with their `ByteView.fastHash`), or nil when they are not held.
    func id(of bytes: ByteView, hash: UInt64) -> Int? {
        guard let head = newest[hash] else { return nil }
        var candidate = Int(head)
        while candidate >= 0 {
            if holds(candidate, bytes) { return candidate }
            candidate = Int(previous[candidate])
        }
        return nil
    }

    /// Adds bytes not held yet (with their `fastHash`); returns their id.
    mutating func add(_ entry: ByteView, hash: UInt64) -> Int {
        let id = ends.count
        bytes.append(contentsOf: entry)
        ends.append(bytes.count)
        previous.append(newest[hash] ?? -1)
        newest[hash] = Int32(id)
        return id
    }

    /// Empties the table, keeping its storage.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        newest.removeAll(keepingCapacity: true)
        previous.removeAll(keepingCapacity: true)
    }

    private func holds(_ id: Int, _ entry: ByteView) -> Bool {
        let start = id == 0 ? 0 : ends[id - 1]
        guard ends[id] - start == entry.count else { return false }
        return bytes.withUnsafeBufferPointer { stored in
            guard let left = stored.baseAddress, let right = entry.baseAddress else { return entry.count == 0 }
            return memcmp(left + start, right, entry.count) == 0
        }
    }
}
