/// One row as read from (or written to) the store: primary key, version (Z_OPT) and column values, the values
/// stored inline after the header as its entity's `RowShape` lays them out (one allocation per row).
///
/// Snapshots are shared by every object of every context that shows this row, and by the store's row cache
/// for as long as some object holds them; the last holder's release removes the row from the cache.
final class RowSnapshot: ManagedBuffer<RowSnapshot.Header, UInt64> {
    /// 24 bytes, so that the tags and the first values (often the ones read most) share the header's cache line.
    struct Header {
        var primaryKey: Int64
        var version: Int32
        /// The number of the root entity whose table holds the row (the row cache's key with the primary key).
        let tableNumber: Int16
        let count: Int16
        var link: Link
    }

    /// What a row points to besides its values, in one word: a snapshot may be in a row cache, and an object's own
    /// row keeps that object's snapshot (so that an object needs one reference for both, `ManagedObject.row`).
    /// An object's own row is never in a cache.
    enum Link {
        case none
        /// The row cache holding this snapshot, unretained: the row's release removes it from there.
        case cache(Unmanaged<RowCache>)
        /// For an object's own row: the snapshot the object read (nil for an inserted object).
        case base(RowSnapshot)
    }

    /// The instance's size in bytes for a row of `shape`: the object header, `Header`, then tags and payloads.
    static func instanceBytes(_ shape: RowShape) -> Int {
        2 * MemoryLayout<Int>.size + MemoryLayout<Header>.stride + shape.wordCount * MemoryLayout<UInt64>.stride
    }

    /// A row buffer of `words` words for a row of `count` columns, its words not yet initialized. The table number
    /// and count fit 16 bits (`RowShape.Owner` checks them once; callgrind, fetch-all at 10,000: checking them for
    /// each row made was 8 instructions a row).
    private static func allocate(words: Int, tableNumber: Int, count: Int, primaryKey: Int64, version: Int64) -> RowSnapshot {
        let buffer = create(minimumCapacity: words) { _ in
            Header(
                primaryKey: primaryKey, version: Int32(truncatingIfNeeded: version), tableNumber: Int16(truncatingIfNeeded: tableNumber),
                count: Int16(truncatingIfNeeded: count), link: .none)
        }
        return unsafeDowncast(buffer, to: RowSnapshot.self)
    }

    /// A snapshot of `shape` with the tags and trivial defaults of `RowShape.initialWords` (all null unless the
    /// shape `startsComplete`).
    @inline(__always)
    static func make(_ shape: RowShape, primaryKey: Int64, version: Int64) -> RowSnapshot {
        let row = allocate(
            words: shape.wordCount, tableNumber: shape.tableNumber, count: shape.count,
            primaryKey: primaryKey, version: version)
        row.withUnsafeMutablePointerToElements { $0.initialize(from: shape.initialWords, count: shape.wordCount) }
        return row
    }

    /// A snapshot of `shape` whose values `fill` sets (`set(_:_:)`, or the initializers of `slots`: no slot of a new
    /// row holds a reference to release); a slot it leaves holds what a new row does.
    @inline(__always)
    static func make(_ shape: RowShape, primaryKey: Int64, version: Int64, fill: (RowSnapshot) -> Void) -> RowSnapshot {
        let row = make(shape, primaryKey: primaryKey, version: version)
        fill(row)
        return row
    }

    /// A snapshot of `shape` for a row read from the store, whose columns `fill` reads into every slot: only the tag
    /// words (their width bits) are copied from `initialWords`, not the defaults' payloads, which `fill` overwrites or
    /// leaves unread behind a null tag (callgrind, query fetch-all at 10,000: copying every word was a call to memcpy
    /// a row).
    @inline(__always)
    static func makeRead(_ shape: RowShape, primaryKey: Int64, version: Int64, fill: (RowSnapshot) -> Void) -> RowSnapshot {
        let row = allocate(
            words: shape.wordCount, tableNumber: shape.tableNumber, count: shape.count,
            primaryKey: primaryKey, version: version)
        let tagWords = RowShape.tagWords(count: shape.count)
        if tagWords > 0 {
            row.withUnsafeMutablePointerToElements { elements in
                elements.initialize(to: shape.initialWords.pointee)
                if tagWords > 1 { (elements + 1).initialize(from: shape.initialWords + 1, count: tagWords - 1) }
            }
        }
        fill(row)
        return row
    }

    /// A new object's row of `entity`: its defaults, copied as bytes unless one holds a reference.
    @inline(__always)
    static func makeNew(of entity: EntityDescription) -> RowSnapshot {
        let shape = entity.rowShape
        guard shape.startsComplete else { return make(shape, primaryKey: 0, version: 0, values: entity.defaultRow) }
        return make(shape, primaryKey: 0, version: 0)
    }

    /// A snapshot of `shape` holding `values`, one for each of its columns.
    @inline(never)
    static func make(_ shape: RowShape, primaryKey: Int64, version: Int64, values: ContiguousArray<Value>) -> RowSnapshot {
        precondition(values.count == shape.count, "a row of \(shape.count) columns given \(values.count) values")
        return make(shape, primaryKey: primaryKey, version: version) { row in
            for (slot, value) in values.enumerated() { row.set(slot, value) }
        }
    }

    deinit {
        withUnsafeMutablePointers { header, elements in
            if case let .cache(cache) = header.pointee.link { cache.takeUnretainedValue().remove(self) }
            let slots = RowSlots(elements, count: Int(header.pointee.count))
            for slot in 0..<slots.count { slots.deinitialize(slot) }
        }
    }

    // Through the header's pointer: `ManagedBuffer.header` is a class property, dynamically checked for exclusive
    // access on every read (profiled: `swift_beginAccess` in every row cache insert).
    var tableNumber: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.tableNumber) } }
    var primaryKey: Int64 { withUnsafeMutablePointerToHeader { $0.pointee.primaryKey } }
    var version: Int64 { withUnsafeMutablePointerToHeader { Int64($0.pointee.version) } }
    var count: Int { withUnsafeMutablePointerToHeader { Int($0.pointee.count) } }
    var cache: RowCache? {
        get {
            withUnsafeMutablePointerToHeader {
                if case let .cache(cache) = $0.pointee.link { return cache.takeUnretainedValue() }
                return nil
            }
        }
        set { withUnsafeMutablePointerToHeader { $0.pointee.link = newValue.map { .cache(.passUnretained($0)) } ?? .none } }
    }

    /// Links a snapshot just made, whose link is `.none`, to the cache that holds it: a store that neither destroys
    /// the old link nor checks it (profiled, fetch-all at 10,000: the `cache` setter's destroy of the link it replaced
    /// was 20 instructions a row).
    @inline(__always)
    func linkMade(to cache: RowCache) {
        withUnsafeMutablePointerToHeader { header in
            withUnsafeMutablePointer(to: &header.pointee.link) { $0.initialize(to: .cache(.passUnretained(cache))) }
        }
    }

    /// For an object's own row: the object's snapshot. Setting it takes the row out of a cache that holds it.
    var base: RowSnapshot? {
        @inline(__always) get {
            withUnsafeMutablePointerToHeader {
                if case let .base(snapshot) = $0.pointee.link { return snapshot }
                return nil
            }
        }
        set {
            withUnsafeMutablePointerToHeader {
                if case let .cache(cache) = $0.pointee.link { cache.takeUnretainedValue().remove(self) }
                $0.pointee.link = newValue.map { .base($0) } ?? .none
            }
        }
    }

    /// Lets go of the snapshot an object's own row kept, leaving a cache link alone.
    func dropBase() {
        withUnsafeMutablePointerToHeader {
            if case .base = $0.pointee.link { $0.pointee.link = .none }
        }
    }

    /// The row's slots, valid while the row lives.
    @inline(__always)
    var slots: RowSlots {
        withUnsafeMutablePointers { RowSlots($1, count: Int($0.pointee.count)) }
    }

    @inline(__always)
    subscript(slot: Int) -> Value { slots.value(slot) }

    @inline(__always)
    func isNull(_ slot: Int) -> Bool { slots.isNull(slot) }

    /// A copy with its own storage, for an object about to change values of this row.
    func copy() -> RowSnapshot {
        let source = slots
        let words = source.wordCount
        let copy = RowSnapshot.allocate(
            words: words, tableNumber: tableNumber, count: source.count,
            primaryKey: primaryKey, version: version)
        copy.withUnsafeMutablePointerToElements { elements in
            UnsafeMutableRawPointer(elements).copyMemory(from: source.words, byteCount: words * MemoryLayout<UInt64>.size)
            // The bytes copied share the references of the source's payloads: each gets its own count.
            let target = RowSlots(elements, count: source.count)
            for slot in 0..<source.count where source.tag(slot).holdsReference { target.initializeReference(slot, from: source) }
        }
        return copy
    }

    // Mutators, only for a row buffer one object holds alone (`ManagedObject.localRow`), or for a snapshot being
    // made; never for a snapshot that is shared or in the cache.

    @inline(__always)
    func set(_ slot: Int, _ value: Value) { slots.set(slot, value) }

    /// Gives a row buffer the key and version it is written with, making it the row's snapshot.
    func stamp(primaryKey: Int64, version: Int64) {
        withUnsafeMutablePointerToHeader {
            $0.pointee.primaryKey = primaryKey
            $0.pointee.version = Int32(truncatingIfNeeded: version)
        }
    }

    /// The values as an array, for an object about to change some of them.
    var values: ContiguousArray<Value> {
        let slots = slots
        return ContiguousArray((0..<slots.count).lazy.map { slots.value($0) })
    }
}
