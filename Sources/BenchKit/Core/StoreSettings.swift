import ObjectGraph

/// The SQLite settings a run gives every strategy, as the command line sets them: the page cache for bulk work
/// (inserts, filling the databases the read phases start from) and for reading. Every database is a real file.
package struct StoreSettings: Sendable, Equatable, Codable {
    /// The page cache per connection for bulk work, in MiB.
    package var bulkPageCacheMiB = 64
    /// The page cache per connection for reading a prepared database, in MiB; nil keeps SQLite's own (2000 KiB).
    package var readPageCacheMiB: Int?

    package init() {}

    /// ObjectGraph's options for the bulk connections.
    var storeOptions: StoreOptions { StoreOptions(pageCacheKiB: bulkPageCacheMiB * 1024) }

    var readPageCacheKiB: Int? { readPageCacheMiB.map { $0 * 1024 } }
}
