import CSQLite

/// Undoable changes, for a harness that runs many phases from one state of a store on one connection.
///
/// A harness that starts each phase on the store as it was opened can close the connection and open the file again,
/// but a new connection parses the whole schema: for a model of n entities, n phases that each delete from one entity
/// parse n tables n times (profiled, callgrind, `bench explain --model` of 250 entities: opening stores was 40% of its
/// instructions, SQLite reading each new connection's schema 25%). With undoable changes the store keeps its
/// connection and nothing the store's contexts save is committed (`UndoScope`): `undoChanges()` rolls it all back, so
/// that the file's rows are as they were.
///
/// Every statement is still counted, traced and logged with the text Core Data's log shows; only what SQLite runs for
/// `COMMIT` (and the transactions after the first) differs. Nothing reaches the database file, so this is for untimed
/// passes: what a commit costs is not measured.
extension PersistentStore {
    /// Whether the store's changes are undoable (`beginUndoableChanges()` was called).
    package var changesAreUndoable: Bool { connection.undoScope != nil }

    /// From now on, nothing the store's contexts save is committed, and `undoChanges()` undoes it. Call it before any
    /// context of the store has changed anything.
    package func beginUndoableChanges() {
        guard connection.undoScope == nil else { return }
        connection.dropCachedStatements()
        connection.undoScope = UndoScope()
    }

    /// Puts every row back as it was at `beginUndoableChanges()`, and forgets what the connection kept since (its
    /// prepared statements and page cache), as a new connection would have none. The store's contexts must have let go
    /// of every object first (the row cache empty): false otherwise, and nothing is undone.
    package func undoChanges() throws -> Bool {
        guard let scope = connection.undoScope, rowCache.count == 0 else { return false }
        if sqlite3_get_autocommit(connection.handle) == 0 {
            let code = sqlite3_exec(connection.handle, "ROLLBACK", nil, nil, nil)
            guard code == SQLITE_OK else { throw connection.error(code, sql: "ROLLBACK") }
        }
        scope.savepoints = 0
        connection.dropCachedStatements()
        sqlite3_db_release_memory(connection.handle)
        return true
    }
}

/// What SQLite runs for ObjectGraph's transaction control while changes are undoable.
///
/// The scope's first transaction is a real `BEGIN EXCLUSIVE` whose `COMMIT` runs nothing: it stays open, so that a
/// phase that saves once runs as it would on a new connection, save for the commit (a savepoint around every change
/// would copy each page it changes into a journal: about 100 KB more allocated by each delete phase of the generated
/// suite). The transactions after it, inside the open one, are savepoints, so that a failed save's ROLLBACK undoes
/// that save only. ObjectGraph writes only inside its transactions, so nothing outside them needs undoing.
final class UndoScope {
    static let savepoint = "objectgraph_transaction"
    /// ObjectGraph's transactions open as savepoints inside the first.
    var savepoints = 0

    /// The statement to run for `sql` when it is transaction control (prepared afresh: what it runs depends on the
    /// state), nil for any other statement.
    func statement(for sql: String, on connection: SQLiteConnection) throws -> SQLiteStatement? {
        let running: String
        switch sql {
        case "BEGIN EXCLUSIVE":
            if sqlite3_get_autocommit(connection.handle) != 0 {
                running = sql
            } else {
                savepoints += 1
                running = "SAVEPOINT \(Self.savepoint)"
            }
        case "COMMIT":
            if savepoints > 0 {
                savepoints -= 1
                running = "RELEASE \(Self.savepoint)"
            } else {
                // The first transaction stays open until the undo: a statement that does nothing.
                running = "SELECT 0 WHERE 0"
            }
        case "ROLLBACK":
            if savepoints > 0 {
                // The savepoint stays open, empty, until the undo rolls the first transaction back.
                savepoints -= 1
                running = "ROLLBACK TO \(Self.savepoint)"
            } else {
                // The first transaction: nothing was saved before it.
                running = sql
            }
        default: return nil
        }
        return try SQLiteStatement(connection: connection, sql: sql, running: running)
    }
}
