import CSQLite
import Foundation

/// Where a store keeps its data.
public enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// An SQLite file (created if missing), in WAL mode with synchronous NORMAL.
    case file(String)
    /// A private in-memory database, gone when the store is released.
    case inMemory

    var sqlitePath: String {
        switch self {
        case let .file(path): return path
        case .inMemory: return ":memory:"
        }
    }

    public var description: String { sqlitePath }
}

/// SQLite settings of a store.
public struct StoreOptions: Sendable, Equatable {
    /// SQLite's page cache in KiB (`PRAGMA cache_size = -N`); nil keeps SQLite's default (2 MB).
    public var pageCacheKiB: Int?
    /// `PRAGMA synchronous`; Core Data uses NORMAL with WAL.
    public var synchronous: String
    /// `PRAGMA journal_mode` for file stores; Core Data uses WAL.
    public var journalMode: String

    /// Closing does not checkpoint the write-ahead log into the database file (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE): a
    /// harness that removes the log afterwards has the file as it was before the store wrote, without copying it.
    public var keepsWriteAheadLogOnClose = false

    public init(pageCacheKiB: Int? = nil, synchronous: String = "NORMAL", journalMode: String = "WAL") {
        self.pageCacheKiB = pageCacheKiB
        self.synchronous = synchronous
        self.journalMode = journalMode
    }
}

/// A Core Data-shaped SQLite store (the store and its coordinator): one connection, the model's schema, a row
/// cache shared by its contexts, store-wide counters, and the save notifications contexts merge.
///
/// Queue contexts' `perform` blocks hold the store while they run, so that contexts on several threads take
/// turns on its connection and row cache, as Core Data's coordinator serializes them.
public final class PersistentStore {
    public let model: ObjectModel
    public let location: StoreLocation
    public let options: StoreOptions
    /// The store's UUID, kept in Z_METADATA and used in object URIs.
    @exclusivity(unchecked) public internal(set) var identifier = ""
    /// Counts of everything every context of this store did since the store opened or `resetCounters()`.
    @exclusivity(unchecked) public internal(set) var counters = Counters()
    /// When set, every statement is reported in the shape of Core Data's SQLDebug log.
    @exclusivity(unchecked) public var sqlTrace: SQLTrace?
    /// Taken by queue contexts' blocks (re-entrant).
    let serializer = NSRecursiveLock()
    /// The inboxes of the contexts made on this store, for save notifications.
    @exclusivity(unchecked) private var inboxes: [MergeInbox] = []
    /// True until the first save of a store this process created: Core Data checks auto-vacuum in that save.
    @exclusivity(unchecked) var isFirstSaveOfNewStore = false

    let connection: SQLiteConnection
    let rowCache: RowCache

    /// SQLite's plan for `sql` on this store (EXPLAIN QUERY PLAN), one line per step; for the harness, which
    /// compares the work two arms give SQLite.
    package func queryPlan(_ sql: String) -> [String] { connection.queryPlan(sql) }
    /// The work `sql` gives SQLite: its plan, and for a write the indexes and triggers it keeps current.
    package func work(_ sql: String) -> [String] { connection.queryPlan(sql) + connection.maintenance(sql) }
    let derivedValues = DerivedValueCollector()
    /// `_Z_intarray0`, the table that batch and prefetch statements read their IDs from.
    let idList: IntArray

    /// Opens the store at `location`, creating its schema if the database is new. An existing store must have
    /// been created with the same model, or this throws `ObjectGraphError.modelMismatch`.
    public init(model: ObjectModel, location: StoreLocation, options: StoreOptions = StoreOptions()) throws {
        self.model = model
        self.location = location
        self.options = options
        model.prepareStatements()
        connection = try SQLiteConnection(path: location.sqlitePath)
        rowCache = RowCache(entityCount: model.entities.count)
        try connection.installIntArrays(count: 4)
        // The int-array tables were installed just above.
        // swift-format-ignore: NeverForceUnwrap
        idList = connection.intArrays!.arrays[0]
        try configure()
        try SQLFunctions.register(on: connection, collector: derivedValues)
        let isNew = try connection.scalarInt("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%intarray%'") == 0
        try openOrCreateSchema()
        isFirstSaveOfNewStore = isNew
    }

    /// Rows INSERT, UPDATE and DELETE statements (triggers' included) changed through the store's connection since
    /// it opened, rolled-back ones too (SQLite's total_changes): 0 means the file's rows are as they were.
    public var rowsChanged: Int { Int(sqlite3_total_changes64(connection.handle)) }

    /// A new context on this store: confined to the calling thread (the default), or on a private or main queue.
    public func makeContext(concurrencyType: ConcurrencyType = .confined) -> ObjectContext {
        let context = ObjectContext(store: self, concurrencyType: concurrencyType)
        serializer.lock()
        inboxes.append(context.inbox)
        serializer.unlock()
        return context
    }

    /// Whether a context other than the one owning `inbox` merges saves automatically.
    func hasListeners(besides inbox: MergeInbox) -> Bool {
        serializer.lock()
        defer { serializer.unlock() }
        return inboxes.contains { $0 !== inbox && $0.isOpen.load(ordering: .relaxed) }
    }

    func unregister(_ inbox: MergeInbox) {
        serializer.lock()
        inboxes.removeAll { $0 === inbox }
        serializer.unlock()
    }

    /// Hands a save to every other context of the store (each merges it if it merges automatically).
    func contextDidSave(_ notification: SaveNotification, from saver: ObjectContext) {
        serializer.lock()
        let others = inboxes.filter { $0 !== saver.inbox }
        serializer.unlock()
        for inbox in others { inbox.post(notification) }
    }

    /// Zeroes the store-wide counters.
    public func resetCounters() { counters = Counters() }

    /// Rows the row cache holds now (rows some object of some context still refers to).
    public var cachedRowCount: Int { rowCache.count }

    /// The SQLite library's version.
    public static var sqliteVersion: String { SQLiteConnection.libraryVersion }

    private func configure() throws {
        // Every real store examined has incremental auto-vacuum; SQLite honours the setting only before the
        // first table exists, so it is set on new databases (and must precede WAL mode).
        if try connection.scalarInt("SELECT COUNT(*) FROM sqlite_master") == 0 {
            try connection.execute("PRAGMA auto_vacuum = 2")
        }
        if case .file = location {
            try connection.execute("PRAGMA journal_mode = \(options.journalMode)")
        }
        if options.keepsWriteAheadLogOnClose { _ = csqlite_no_checkpoint_on_close(connection.handle) }
        try connection.execute("PRAGMA synchronous = \(options.synchronous)")
        if let kib = options.pageCacheKiB {
            try connection.execute("PRAGMA cache_size = -\(kib)")
        }
    }
}
