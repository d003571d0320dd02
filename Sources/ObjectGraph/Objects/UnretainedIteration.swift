extension Array where Element == ManagedObject {
    /// Calls `body` with each object at +0, neither retaining nor releasing it: the array keeps every object alive
    /// for the whole walk (the walk holds the array's storage, even if the array it came from changes).
    ///
    /// Profiled (perf, insert and save of 100,000 objects): retains and releases were half of ObjectGraph's own
    /// samples, most of them in the save's passes over objects no longer in the cache, where each one is an atomic
    /// write to a cold line. The object `prefetchDistance` ahead is asked into the cache (see `Prefetch`).
    @inline(__always)
    func forEachUnretained(_ body: (ManagedObject) throws -> Void) rethrows {
        try withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try UnsafeRawPointer(base).withMemoryRebound(to: Unmanaged<ManagedObject>.self, capacity: buffer.count) { references in
                let count = buffer.count
                for index in 0..<count {
                    if index + Prefetch.distance < count { Prefetch.object(references[index + Prefetch.distance]) }
                    try references[index]._withUnsafeGuaranteedRef(body)
                }
            }
        }
    }
}

extension ContiguousArray where Element == Unmanaged<ManagedObject> {
    /// Calls `body` with each object at +0; the caller keeps the objects alive.
    @inline(__always)
    func forEachGuaranteed(_ body: (ManagedObject) throws -> Void) rethrows {
        for reference in self { try reference._withUnsafeGuaranteedRef(body) }
    }
}
