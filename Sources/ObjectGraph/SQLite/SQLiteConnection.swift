import CSQLite

/// Owns one SQLite connection: opens it, caches its prepared statements by SQL (bounded, least recently used
/// evicted), and closes it in deinit.
final class SQLiteConnection {
    let handle: OpaquePointer
    let path: String
    @exclusivity(unchecked) private var statements: [String: SQLiteStatement] = [:]
    @exclusivity(unchecked) private var clock: UInt64 = 0
    /// How many prepared statements the cache keeps. The statements a workload repeats stay cached; one-off
    /// texts (a predicate's IN list of a new length, say) are evicted instead of piling up.
    let statementCacheCapacity: Int
    @exclusivity(unchecked) private(set) var intArrays: IntArrayModule?
    /// When set, every statement run is logged with its bindings (the harness's SQL replay).
    @exclusivity(unchecked) var statementLog: StatementLog?
    /// The harness's scope of undoable changes (`PersistentStore+Undo`); nil while ObjectGraph's transactions commit.
    @exclusivity(unchecked) var undoScope: UndoScope?

    /// Opens (creating if needed) the database at `path`; `":memory:"` opens a private in-memory database.
    init(path: String, statementCacheCapacity: Int = 256) throws {
        self.statementCacheCapacity = max(1, statementCacheCapacity)
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let db { sqlite3_close_v2(db) }
            throw ObjectGraphError.sqlite(code: code, message: "cannot open \(path): \(message)", sql: nil)
        }
        handle = db
        self.path = path
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        last = nil
        statements.removeAll()
        intArrays = nil
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that returns no rows and needs no bindings (pragmas, DDL, transaction control).
    func execute(_ sql: String) throws {
        statementLog?.append(StatementLog.Entry(sql: sql, bindings: [], intArrays: [], isExec: true))
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if code != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw ObjectGraphError.sqlite(code: code, message: message, sql: sql)
        }
    }

    /// The statement `cachedStatement` returned last, with its text: a statement run again and again (a to-many
    /// fault per owner, an INSERT per row) is found without hashing its text (profiled, callgrind, the faulting walk
    /// at 10,000 students: hashing the fault's SQL to look it up was 1,100 instructions a fault, 22 a member).
    @exclusivity(unchecked) private var last: (sql: String, statement: SQLiteStatement)?

    /// The prepared statement for `sql`, prepared once and reused while it stays among the most recently used.
    func cachedStatement(_ sql: String) throws -> SQLiteStatement {
        clock &+= 1
        if let last, last.sql == sql {
            last.statement.lastUse = clock
            if statementLog != nil || last.statement.loggedBindings != nil { last.statement.startLogging(statementLog != nil) }
            return last.statement
        }
        // Transaction control in an undo scope runs what the scope's state asks for: never cached.
        if let undoScope, let statement = try undoScope.statement(for: sql, on: self) {
            if statementLog != nil { statement.startLogging(true) }
            return statement
        }
        let statement = try lookUpOrPrepare(sql)
        last = (sql, statement)
        return statement
    }

    private func lookUpOrPrepare(_ sql: String) throws -> SQLiteStatement {
        if let statement = statements[sql] {
            statement.lastUse = clock
            if statementLog != nil || statement.loggedBindings != nil { statement.startLogging(statementLog != nil) }
            return statement
        }
        if statements.count >= statementCacheCapacity { evictLeastRecentlyUsed() }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        statement.lastUse = clock
        if statementLog != nil { statement.startLogging(true) }
        statements[sql] = statement
        return statement
    }

    /// Number of prepared statements cached now.
    var cachedStatementCount: Int { statements.count }

    /// Forgets every cached statement (each is finalized once nothing else holds it).
    func dropCachedStatements() {
        last = nil
        statements.removeAll()
    }

    /// Drops the least recently used quarter of the cache at once, so that a burst of one-off texts costs one
    /// scan per many statements, not per statement.
    private func evictLeastRecentlyUsed() {
        let keep = statements.count - max(1, statements.count / 4)
        let threshold = statements.values.map(\.lastUse).sorted(by: >)[max(0, keep - 1)]
        statements = statements.filter { $0.value.lastUse >= threshold }
        if statements.count >= statementCacheCapacity, let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            statements[oldest.key] = nil
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The first integer of the first row of `sql` (for pragmas and small lookups).
    func scalarInt(_ sql: String) throws -> Int64? {
        let statement = try cachedStatement(sql)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Registers the `intarray` virtual-table module and creates `count` temp tables `_Z_intarray0...`.
    func installIntArrays(count: Int) throws {
        do {
            intArrays = try IntArrayModule(handle: handle, tableCount: count)
        } catch {
            throw ObjectGraphError.sqlite(code: error.code, message: error.message, sql: error.sql)
        }
    }

    func error(_ code: Int32, sql: String?) -> ObjectGraphError {
        .sqlite(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

func sqliteErrorName(_ code: Int32) -> UnsafePointer<CChar> {
    sqlite3_errstr(code)
}

extension SQLiteConnection {
    static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    /// SQLite's plan for `sql` (EXPLAIN QUERY PLAN), one line per step, indented by depth.
    func queryPlan(_ sql: String) -> [String] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "EXPLAIN QUERY PLAN " + sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            return ["(no query plan: \(String(cString: sqlite3_errmsg(handle))))"]
        }
        defer { sqlite3_finalize(statement) }
        var depth: [Int32: Int] = [0: 0]
        var lines: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            let id = sqlite3_column_int(statement, 0)
            let parent = sqlite3_column_int(statement, 1)
            let level = (depth[parent] ?? 0) + 1
            depth[id] = level
            lines.append(String(repeating: "  ", count: level - 1) + "plan: " + String(cString: sqlite3_column_text(statement, 3)))
        }
        return lines
    }
}
