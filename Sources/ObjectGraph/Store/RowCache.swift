/// One row as read from (or written to) the store: primary key, version (Z_OPT) and column values.
///
/// Snapshots are shared by every object of every context that shows this row, and by the store's row cache
/// for as long as some object holds them; the last holder's release removes the row from the cache.
final class RowSnapshot {
    let entityNumber: Int
    let primaryKey: Int64
    let version: Int64
    let values: ContiguousArray<Value>
    unowned(unsafe) var cache: RowCache?

    init(entityNumber: Int, primaryKey: Int64, version: Int64, values: ContiguousArray<Value>) {
        self.entityNumber = entityNumber
        self.primaryKey = primaryKey
        self.version = version
        self.values = values
    }

    deinit { cache?.remove(self) }
}

/// The store's row cache, shared by its contexts: firing a fault whose row is here runs no SQL.
///
/// The cache does not own its rows: objects do, through their snapshots (as Core Data's row cache holds a
/// snapshot while a managed object refers to it). Memory therefore follows the objects a program keeps.
final class RowCache {
    private var tables: [PKTable<Unmanaged<RowSnapshot>>]

    init(entityCount: Int) {
        tables = Array(repeating: PKTable(), count: entityCount + 1)
    }

    deinit {
        for table in tables {
            table.forEach { $0.takeUnretainedValue().cache = nil }
        }
    }

    @inline(__always)
    func snapshot(entity: Int, primaryKey: Int64) -> RowSnapshot? {
        tables[entity][primaryKey]?.takeUnretainedValue()
    }

    /// Caches `snapshot`, replacing any older version of its row.
    func insert(_ snapshot: RowSnapshot) {
        if let old = tables[snapshot.entityNumber][snapshot.primaryKey]?.takeUnretainedValue() {
            if old === snapshot { return }
            old.cache = nil
        }
        snapshot.cache = self
        tables[snapshot.entityNumber][snapshot.primaryKey] = Unmanaged.passUnretained(snapshot)
    }

    /// Forgets a row (deleted from the store).
    func evict(entity: Int, primaryKey: Int64) {
        if let old = tables[entity][primaryKey]?.takeUnretainedValue() {
            old.cache = nil
            tables[entity][primaryKey] = nil
        }
    }

    fileprivate func remove(_ snapshot: RowSnapshot) {
        tables[snapshot.entityNumber][snapshot.primaryKey] = nil
    }

    var count: Int { tables.reduce(0) { $0 + $1.count } }
}
