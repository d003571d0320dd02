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

    /// The cached snapshot of a row when it is at `version`, else the one `make` builds, cached in its place: a
    /// fetched row's lookup and insertion in one walk of the table's pages.
    @inline(__always)
    func snapshot(table: Int, primaryKey: Int64, version: Int64, make: () -> RowSnapshot) -> RowSnapshot {
        // No row of a Core Data store has a key below 1; such a row is not cached, as `insert` does not cache it.
        guard primaryKey > 0 else { return make() }
        let slot = tables.slot(table, primaryKey)
        if let cached = slot.pointee?.takeUnretainedValue() {
            if cached.version == version { return cached }
            let made = make()
            cached.cache = nil
            made.linkMade(to: self)
            slot.pointee = Unmanaged.passUnretained(made)
            return made
        }
        let made = make()
        made.linkMade(to: self)
        tables.fill(table, slot, with: Unmanaged.passUnretained(made))
        return made
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

    /// Forgets `snapshot`, on its release.
    func remove(_ snapshot: RowSnapshot) {
        tables[snapshot.tableNumber, snapshot.primaryKey] = nil
    }

    var count: Int { tables.count }
}
