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

    /// The counts so far; nil where they are not counted. `heap`: also the heap in use (0 without), which costs a walk
    /// of the heap's free chunks.
    static func read(heap measured: Bool = true) -> Reading? {
        guard isAvailable else { return nil }
        let heap = measured ? relbench_heap_bytes_in_use() : 0
        let counts = relbench_allocation_counts_now()
        return Reading(allocations: counts.allocations, bytes: counts.bytes, heapInUse: heap)
    }

    /// The calling thread's counts so far (no heap figure); nil where allocations are not counted.
    static func readThisThread() -> Reading? {
        guard isAvailable else { return nil }
        let counts = relbench_allocation_counts_this_thread()
        return Reading(allocations: counts.allocations, bytes: counts.bytes, heapInUse: 0)
    }
}
