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

    public init(pageCacheKiB: Int? = nil, synchronous: String = "NORMAL", journalMode: String = "WAL") {
        self.pageCacheKiB = pageCacheKiB
        self.synchronous = synchronous
        self.journalMode = journalMode
    }
}

/// A Core Data-shaped SQLite store: one connection, the model's schema, a row cache shared by its contexts,
/// and store-wide counters.
public final class PersistentStore {
    public let model: ObjectModel
    public let location: StoreLocation
    public let options: StoreOptions
    /// The store's UUID, kept in Z_METADATA and used in object URIs.
    public internal(set) var identifier = ""
    /// Counts of everything every context of this store did since the store opened or `resetCounters()`.
    public internal(set) var counters = Counters()
    /// When set, every statement is reported in the shape of Core Data's SQLDebug log.
    public var sqlTrace: SQLTrace?

    let connection: SQLiteConnection
    let rowCache: RowCache
    let derivedValues = DerivedValueCollector()
    /// `_Z_intarray0`, the table that batch and prefetch statements read their IDs from.
    let idList: IntArray

    /// Opens the store at `location`, creating its schema if the database is new. An existing store must have
    /// been created with the same model, or this throws `ObjectGraphError.modelMismatch`.
    public init(model: ObjectModel, location: StoreLocation, options: StoreOptions = StoreOptions()) throws {
        self.model = model
        self.location = location
        self.options = options
        connection = try SQLiteConnection(path: location.sqlitePath)
        rowCache = RowCache(entityCount: model.entities.count)
        try connection.installIntArrays(count: 1)
        idList = connection.intArrays!.arrays[0]
        try configure()
        try SQLFunctions.registerStringSearch(on: connection)
        try SQLFunctions.registerDerivedValueCallback(on: connection, collector: derivedValues)
        try openOrCreateSchema()
    }

    /// A new context on this store.
    public func makeContext() -> ObjectContext { ObjectContext(store: self) }

    /// Zeroes the store-wide counters.
    public func resetCounters() { counters = Counters() }

    /// Rows the row cache holds now (rows some object of some context still refers to).
    public var cachedRowCount: Int { rowCache.count }

    /// The SQLite library's version.
    public static var sqliteVersion: String { SQLiteConnection.libraryVersion }

    private func configure() throws {
        if case .file = location {
            try connection.execute("PRAGMA journal_mode = \(options.journalMode)")
        }
        try connection.execute("PRAGMA synchronous = \(options.synchronous)")
        if let kib = options.pageCacheKiB {
            try connection.execute("PRAGMA cache_size = -\(kib)")
        }
    }
}
