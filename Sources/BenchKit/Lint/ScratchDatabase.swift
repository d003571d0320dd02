/// A database the dry run writes in a temporary folder: the migrated copy of a store, each error one `BenchError` line
/// naming the statement's purpose.
final class ScratchDatabase {
    private let database: SQLiteReader
    /// The option that named the store, which messages start with.
    private let option: String

    init(path: String, option: String) throws {
        self.option = option
        do {
            database = try SQLiteReader(path: path, writable: true)
        } catch {
            throw BenchError.io("\(option): SQLite cannot create \(path) for the migrated copy; check that TMPDIR is writable")
        }
    }

    /// Runs `sql` (one or more statements without results); `what` says in a failure what it was for.
    func execute(_ sql: String, _ what: String) throws {
        do {
            try database.execute(sql)
        } catch {
            throw BenchError.invalidInput("\(option): \(what) failed (\(error.message)); is the store complete and of the older model?")
        }
    }

    /// The rows of `sql`, each column as an SQLite value (nil for NULL).
    func rows(_ sql: String) throws -> [[StoredValue?]] {
        do {
            return try database.rows(sql)
        } catch {
            throw BenchError.invalidInput("\(option): the migrated copy cannot be read (\(error.message))")
        }
    }

    /// One integer: the first column of the first row of `sql` (0 when there is none).
    func integer(_ sql: String) throws -> Int {
        (try rows(sql).first?.first ?? nil)?.integer ?? 0
    }
}
