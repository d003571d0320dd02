import ObjectGraph

/// The SQLite settings a run gives every strategy, as the command line sets them: file or in-memory databases, and
/// the page cache for bulk work (inserts, filling the databases the read scenarios use) and for reading.
public struct StoreSettings: Sendable, Equatable {
    /// `:memory:` databases instead of files in a temporary folder.
    public var inMemory = false
    /// The page cache per connection for bulk work, in MiB.
    public var bulkPageCacheMiB = 64
    /// The page cache per connection for reading a prepared database, in MiB; nil keeps SQLite's own (2000 KiB).
    public var readPageCacheMiB: Int?

    public init() {}

    /// In-memory databases with the default page caches.
    public static var inMemory: StoreSettings {
        var settings = StoreSettings()
        settings.inMemory = true
        return settings
    }

    /// ObjectGraph's options for the bulk connections.
    var storeOptions: StoreOptions { StoreOptions(pageCacheKiB: bulkPageCacheMiB * 1024) }

    var readPageCacheKiB: Int? { readPageCacheMiB.map { $0 * 1024 } }
}
