import CPrefetch

/// Cache-line prefetch hints for the save's passes over objects created long before. Each row's INSERT takes
/// about two microseconds in SQLite, so lines asked for one row ahead are in the cache when that row's turn comes;
/// a pass without SQL asks `distance` objects ahead.
enum Prefetch {
    /// How many objects ahead a pass that does little per object asks for: enough to cover a memory access.
    static let distance = 6

    /// The first `length` bytes of the instance at `base`, one hint per cache line (the last byte's line too: an
    /// instance starts on malloc's 16-byte granule, not on a line).
    @inline(__always)
    static func lines(at base: UnsafeMutableRawPointer, length: Int) {
        var line = 0
        while line < length {
            relbench_prefetch_for_write(base + line)
            line += 64
        }
        relbench_prefetch_for_write(base + length - 1)
    }

    /// The object itself, an instance of `ManagedObject.instanceBytes`: its first and last bytes' lines, which are
    /// all its lines, as an instance takes at most two (callgrind, the faulting walk at 10,000: the loop of
    /// `lines(at:length:)` asked three times and cost 5 instructions more, twice a member).
    @inline(__always)
    static func object(_ reference: Unmanaged<ManagedObject>) {
        let base = reference.toOpaque()
        relbench_prefetch_for_write(base)
        relbench_prefetch_for_write(base + (ManagedObject.instanceBytes - 1))
    }

    /// The first `length` bytes (by default two cache lines) of the object's own row buffer, if it has one (an
    /// inserted or changed object). The address first, the hints after: a hint between reading the reference and
    /// letting it go kept a retain and a release of the row, an atomic on the very line being asked for.
    @inline(__always)
    static func row(of reference: Unmanaged<ManagedObject>, length: Int = 128) {
        let row = reference._withUnsafeGuaranteedRef { $0.localRow.map { Unmanaged.passUnretained($0).toOpaque() } }
        if let row { lines(at: row, length: length) }
    }

    /// The tags and first values of the row the object shows (its own row, or its snapshot: bytes 40 to 63, after
    /// the instance and row headers), for a read of it soon; nothing if the object has no row.
    @inline(__always)
    static func shownRow(of reference: Unmanaged<ManagedObject>) {
        guard let row = reference._withUnsafeGuaranteedRef({ $0.rowAddress }) else { return }
        relbench_prefetch_for_read(row + 40)
        relbench_prefetch_for_read(row + 63)
    }

    /// The row and the to-one destinations (through `toOnes`) that a save's INSERT of `reference` reads and writes.
    @inline(__always)
    static func insertedObject(_ reference: Unmanaged<ManagedObject>, rowBytes: Int, toOnes: [ToOneColumn]) {
        row(of: reference, length: rowBytes)
        reference._withUnsafeGuaranteedRef { object in
            for column in toOnes {
                if case let .object(destination) = object.relations.toOne(at: column.index) {
                    lines(at: destination.toOpaque(), length: ManagedObject.instanceBytes)
                }
            }
        }
    }
}
