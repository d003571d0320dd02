/// One row as read from (or written to) the store: primary key, version (Z_OPT) and column values, the values
/// stored inline after the header (one allocation per row).
///
/// Snapshots are shared by every object of every context that shows this row, and by the store's row cache
/// for as long as some object holds them; the last holder's release removes the row from the cache.
final class RowSnapshot: ManagedBuffer<RowSnapshot.Header, Value> {
    /// 24 bytes, so that the first value (often the one read most) starts within the first cache line.
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

    /// The instance's size in bytes for a row of `count` values: the object header, `Header`, then the values.
    static func instanceBytes(count: Int) -> Int {
        2 * MemoryLayout<Int>.size + MemoryLayout<Header>.stride + count * MemoryLayout<Value>.stride
    }

    /// A snapshot whose `count` values `fill` initializes, in row order.
    static func make(tableNumber: Int, primaryKey: Int64, version: Int64, count: Int,
                     fill: (UnsafeMutablePointer<Value>) -> Void) -> RowSnapshot {
        let buffer = create(minimumCapacity: count) { _ in
            Header(primaryKey: primaryKey, version: Int32(truncatingIfNeeded: version), tableNumber: Int16(tableNumber),
                   count: Int16(count), link: .none)
        }
        buffer.withUnsafeMutablePointerToElements(fill)
        return unsafeDowncast(buffer, to: RowSnapshot.self)
    }

    /// A snapshot holding `values`.
    static func make(tableNumber: Int, primaryKey: Int64, version: Int64, values: ContiguousArray<Value>) -> RowSnapshot {
        make(tableNumber: tableNumber, primaryKey: primaryKey, version: version, count: values.count) { elements in
            values.withUnsafeBufferPointer { source in
                _ = UnsafeMutableBufferPointer(start: elements, count: source.count).initialize(from: source)
            }
        }
    }

    deinit {
        withUnsafeMutablePointers { header, elements in
            if case let .cache(cache) = header.pointee.link { cache.takeUnretainedValue().remove(self) }
            _ = elements.deinitialize(count: Int(header.pointee.count))
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

    @inline(__always)
    subscript(slot: Int) -> Value { withUnsafeMutablePointerToElements { $0[slot] } }

    /// A copy with its own storage, for an object about to change values of this row.
    func copy() -> RowSnapshot {
        RowSnapshot.make(tableNumber: tableNumber, primaryKey: primaryKey, version: version, count: count) { elements in
            withUnsafeMutablePointerToElements { elements.initialize(from: $0, count: count) }
        }
    }

    // Mutators, only for a row buffer one object holds alone (`ManagedObject.localRow`), never for a snapshot
    // that is shared or in the cache.

    @inline(__always)
    func set(_ slot: Int, _ value: Value) { withUnsafeMutablePointerToElements { $0[slot] = value } }

    /// Gives a row buffer the key and version it is written with, making it the row's snapshot.
    func stamp(primaryKey: Int64, version: Int64) {
        withUnsafeMutablePointerToHeader {
            $0.pointee.primaryKey = primaryKey
            $0.pointee.version = Int32(truncatingIfNeeded: version)
        }
    }

    /// The values as an array, for an object about to change some of them.
    var values: ContiguousArray<Value> {
        withUnsafeMutablePointerToElements { ContiguousArray(UnsafeBufferPointer(start: $0, count: count)) }
    }
}

/// The store's row cache, shared by its contexts: firing a fault whose row is here runs no SQL.
///
/// The cache does not own its rows: objects do, through their snapshots (as Core Data's row cache holds a
/// snapshot while a managed object refers to it). Memory therefore follows the objects a program keeps.
final class RowCache {
    private let tables: PKTables<Unmanaged<RowSnapshot>>

    init(entityCount: Int) {
        tables = PKTables(count: entityCount + 1)
    }

    deinit {
        for table in tables.all {
            table.forEach { $0.takeUnretainedValue().cache = nil }
        }
    }

    @inline(__always)
    func snapshot(table: Int, primaryKey: Int64) -> RowSnapshot? {
        tables[table, primaryKey]?.takeUnretainedValue()
    }

    /// Caches `snapshot`, replacing any older version of its row. A snapshot another store's cache holds (a save
    /// merged from a context of another store on the same file) is left there: a row has one cache link, and
    /// taking it over would leave the other cache pointing at the row after its release. Each store caches what
    /// it read or wrote itself, as each Core Data coordinator keeps its own row cache.
    func insert(_ snapshot: RowSnapshot) {
        if let holder = snapshot.cache, holder !== self { return }
        if let old = tables[snapshot.tableNumber, snapshot.primaryKey]?.takeUnretainedValue() {
            if old === snapshot { return }
            old.cache = nil
        }
        snapshot.cache = self
        tables[snapshot.tableNumber, snapshot.primaryKey] = Unmanaged.passUnretained(snapshot)
    }

    /// Forgets a row (deleted from the store).
    func evict(table: Int, primaryKey: Int64) {
        if let old = tables[table, primaryKey]?.takeUnretainedValue() {
            old.cache = nil
            tables[table, primaryKey] = nil
        }
    }

    fileprivate func remove(_ snapshot: RowSnapshot) {
        tables[snapshot.tableNumber, snapshot.primaryKey] = nil
    }

    var count: Int { tables.count }
}
