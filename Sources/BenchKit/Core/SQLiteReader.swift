import CSQLite

/// A database the harness reads through SQLite's C API (a copy of a user's store, a dry run's scratch copy): owns its
/// handle, checks every result code, and reports a failure as one `Failure` carrying SQLite's code, message and SQL.
/// Its owner says the failure in its own words.
final class SQLiteReader {
    /// What SQLite refused: its result code, its message, and the SQL (nil when opening failed).
    struct Failure: Error {
        let code: Int32
        let message: String
        let sql: String?
    }

    private let handle: OpaquePointer

    /// Opens the database at `path`: read-only, or read-write and created when `writable`.
    init(path: String, writable: Bool) throws(Failure) {
        var db: OpaquePointer?
        let flags = (writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw Failure(code: code, message: message, sql: nil)
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql`: one or more statements whose rows, if any, are not wanted.
    func execute(_ sql: String) throws(Failure) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw Failure(code: code, message: text, sql: sql)
        }
    }

    /// The rows of `sql`, each column as SQLite stored it (nil for NULL).
    func rows(_ sql: String) throws(Failure) -> [[StoredValue?]] {
        try rows(sql) { statement, column in StoredValue(statement, column) }
    }

    /// The rows of `sql`, each column as SQLite spells it in text (nil for NULL).
    func textRows(_ sql: String) throws(Failure) -> [[String?]] {
        try rows(sql) { statement, column in sqlite3_column_text(statement, column).map { String(cString: $0) } }
    }

    /// The rows of one statement, each column read by `read`.
    private func rows<Column>(_ sql: String, _ read: (OpaquePointer, Int32) -> Column) throws(Failure) -> [[Column]] {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        // No statement for SQLITE_OK: the text held none (blank, or only a comment).
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        defer { sqlite3_finalize(statement) }
        var rows: [[Column]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw failure(status, sql) }
            rows.append((0..<sqlite3_column_count(statement)).map { read(statement, $0) })
        }
        return rows
    }

    private func failure(_ code: Int32, _ sql: String) -> Failure {
        Failure(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}
