extension UnsafeBufferPointer where Element == ManagedObject {
    /// Calls `body` with each object at +0, neither retaining nor releasing it; the caller keeps every object alive
    /// for the whole walk. The object `Prefetch.distance` ahead is asked into the cache and, with `rows`, the row
    /// buffer of the object half as far ahead (read from that object, asked for earlier).
    ///
    /// Profiled (perf, insert and save of 100,000 objects): retains and releases were half of ObjectGraph's own
    /// samples, most of them in the save's passes over objects no longer in the cache, where each one is an atomic
    /// write to a cold line.
    @inline(__always)
    func forEachUnretained(prefetchingRows rows: Bool, _ body: (ManagedObject) throws -> Void) rethrows {
        try withUnretainedReferences { references in
            let count = references.count
            for index in 0..<count {
                if index + Prefetch.distance < count { Prefetch.object(references[index + Prefetch.distance]) }
                if rows, index + Prefetch.distance / 2 < count { Prefetch.row(of: references[index + Prefetch.distance / 2]) }
                try references[index]._withUnsafeGuaranteedRef(body)
            }
        }
    }

    /// The same objects as references that neither retain nor touch them; the caller keeps the objects alive.
    @inline(__always)
    func withUnretainedReferences<R>(_ body: (UnsafeBufferPointer<Unmanaged<ManagedObject>>) throws -> R) rethrows -> R {
        guard let base = baseAddress else { return try body(UnsafeBufferPointer<Unmanaged<ManagedObject>>(start: nil, count: 0)) }
        return try UnsafeRawPointer(base).withMemoryRebound(to: Unmanaged<ManagedObject>.self, capacity: count) {
            try body(UnsafeBufferPointer<Unmanaged<ManagedObject>>(start: $0, count: count))
        }
    }
}

extension Array where Element == ManagedObject {
    /// Calls `body` with each object at +0 (see `UnsafeBufferPointer.forEachUnretained`); the walk holds the
    /// array's storage, even if the array it came from changes.
    @inline(__always)
    public func forEachUnretained(prefetchingRows rows: Bool = false, _ body: (ManagedObject) throws -> Void) rethrows {
        try withUnsafeBufferPointer { try $0.forEachUnretained(prefetchingRows: rows, body) }
    }
}

extension ContiguousArray where Element == ManagedObject {
    /// Calls `body` with each object at +0 (see `UnsafeBufferPointer.forEachUnretained`); the walk holds the
    /// array's storage, even if the array it came from changes.
    @inline(__always)
    func forEachUnretained(prefetchingRows rows: Bool = false, _ body: (ManagedObject) throws -> Void) rethrows {
        try withUnsafeBufferPointer { try $0.forEachUnretained(prefetchingRows: rows, body) }
    }
}

extension ContiguousArray where Element == Unmanaged<ManagedObject> {
    /// Calls `body` with each object at +0; the caller keeps the objects alive.
    @inline(__always)
    func forEachGuaranteed(_ body: (ManagedObject) throws -> Void) rethrows {
        for reference in self { try reference._withUnsafeGuaranteedRef(body) }
    }
}
