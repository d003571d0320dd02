import CAllocationCounter

/// The process's heap allocations and the heap it holds, read around a phase (see CAllocationCounter).
enum AllocationCounter {
    struct Reading {
        let allocations: UInt64
        let bytes: UInt64
        let heapInUse: UInt64
    }

    /// Whether allocations are counted in this process (glibc on Linux).
    static let isAvailable = relbench_allocation_counting_available() != 0

    /// The counts so far; nil where they are not counted.
    static func read() -> Reading? {
        guard isAvailable else { return nil }
        let heap = relbench_heap_bytes_in_use()
        let counts = relbench_allocation_counts_now()
        return Reading(allocations: counts.allocations, bytes: counts.bytes, heapInUse: heap)
    }
}
