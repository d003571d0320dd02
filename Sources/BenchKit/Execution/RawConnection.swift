import CSQLite
import Foundation
import ObjectGraph

/// A bare SQLite connection for the raw-sqlite peer: prepared statements kept by SQL, every bind checked,
/// statements counted through SQLite's own trace (`sqlite3_trace_v2`), and ObjectGraph's int-array tables for
/// ID lists; nothing else between the caller and the C API.
final class RawConnection {
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    private let counter = StatementCounter()
    /// `_Z_intarray0`, `_Z_intarray1`: the tables ID lists are bound through, as ObjectGraph binds them.
    let intArrays: IntArrayModule

    final class StatementCounter {
        var statements = 0
        var sink: ((String) -> Void)?
    }

    init(path: String, pageCacheKiB: Int?) throws {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
            throw BenchError.io("raw-sqlite cannot open \(path)")
        }
        handle = db
        do {
            intArrays = try IntArrayModule(handle: db, tableCount: 2)
        } catch {
            sqlite3_close_v2(db)
            throw BenchError.io("SQLite (C API): \(error.message) in \(error.sql ?? "sqlite3_create_module_v2")")
        }
        // Core Data's stores use incremental auto-vacuum; SQLite takes it only before the first table and before
        // WAL mode is set, so a new database gets it first (as ObjectGraph's store does).
        try execute("PRAGMA auto_vacuum = 2")
        if path != ":memory:" { try execute("PRAGMA journal_mode = WAL") }
        try execute("PRAGMA synchronous = NORMAL")
        if let pageCacheKiB { try execute("PRAGMA cache_size = -\(pageCacheKiB)") }
        sqlite3_trace_v2(
            db, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, text in
                // Trigger subprograms are reported too, with text starting "--": count statements only.
                if let text, text.assumingMemoryBound(to: CChar.self).pointee == 0x2D { return 0 }
                // C interop: the trace hook gets the context it was registered with; a UTF-8 buffer has a base address.
                // swift-format-ignore: NeverForceUnwrap
                let counter = Unmanaged<StatementCounter>.fromOpaque(context!).takeUnretainedValue()
                counter.statements += 1
                if let sink = counter.sink, let text {
                    sink("sqlite: " + String(cString: text.assumingMemoryBound(to: CChar.self)))
                }
                return 0
            }, Unmanaged.passUnretained(counter).toOpaque())
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    var statementCount: Int { counter.statements }

    /// Rows changed through this connection since it opened (SQLite's total_changes).
    var rowsChanged: Int { Int(sqlite3_total_changes64(handle)) }

    /// Sends the text of every statement run (SQLite's trace) to `sink`, for `bench explain`.
    func trace(_ sink: @escaping (String) -> Void) { counter.sink = sink }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw BenchError.io("SQLite (C API): \(text) in \(sql)")
        }
    }

    /// The prepared statement for `sql`, reset and ready to bind.
    @inline(__always)
    func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] {
            sqlite3_reset(statement)
            return statement
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError.io("SQLite (C API): \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        statements[sql] = statement
        return statement
    }

    func hasTable(_ name: String) throws -> Bool {
        let statement = try prepared("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?")
        try bind(statement, 1, name)
        return sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_int64(statement, 0) > 0
    }

    /// Steps a statement that returns no rows.
    func run(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw BenchError.io("SQLite (C API): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    // MARK: Binding (every result code checked)

    @inline(__always)
    private func check(_ code: Int32, _ statement: OpaquePointer, _ index: Int32) throws {
        guard code == SQLITE_OK else {
            throw BenchError.io(
                "SQLite (C API): binding parameter \(index) failed (\(String(cString: sqlite3_errmsg(handle)))) in \(String(cString: sqlite3_sql(statement)))"
            )
        }
    }

    @inline(__always)
    func bind(_ statement: OpaquePointer, _ index: Int32, _ value: Int64) throws {
        try check(sqlite3_bind_int64(statement, index, value), statement, index)
    }

    @inline(__always)
    func bind(_ statement: OpaquePointer, _ index: Int32, _ text: String) throws {
        var text = text
        let code = text.withUTF8 { utf8 in
            // C interop: the trace hook gets the context it was registered with; a UTF-8 buffer has a base address.
            // swift-format-ignore: NeverForceUnwrap
            sqlite3_bind_text(
                statement, index, UnsafeRawPointer(utf8.baseAddress!).assumingMemoryBound(to: CChar.self),
                Int32(utf8.count), csqlite_transient())
        }
        try check(code, statement, index)
    }

    /// A UUID as Core Data stores one: 16 bytes.
    @inline(__always)
    func bind(_ statement: OpaquePointer, _ index: Int32, _ uuid: UUID) throws {
        let code = withUnsafeBytes(of: uuid.uuid) { sqlite3_bind_blob(statement, index, $0.baseAddress, 16, csqlite_transient()) }
        try check(code, statement, index)
    }

    @inline(__always)
    func bindDouble(_ statement: OpaquePointer, _ index: Int32, _ value: Double) throws {
        try check(sqlite3_bind_double(statement, index, value), statement, index)
    }

    func bindBlob(_ statement: OpaquePointer, _ index: Int32, _ bytes: [UInt8]) throws {
        let code = bytes.withUnsafeBytes {
            sqlite3_bind_blob(statement, index, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), csqlite_transient())
        }
        try check(code, statement, index)
    }

    func bindNull(_ statement: OpaquePointer, _ index: Int32) throws {
        try check(sqlite3_bind_null(statement, index), statement, index)
    }

    /// Fills int-array table `table` with `ids` for the next statement that reads it.
    @inline(__always)
    func bindIDs(_ ids: ContiguousArray<Int64>, table: Int = 0) {
        intArrays.arrays[table].values = ids
    }
}

@inline(__always)
func columnText(_ statement: OpaquePointer, _ column: Int32) -> String {
    guard let text = sqlite3_column_text(statement, column) else { return "" }
    return textString(text, count: Int(sqlite3_column_bytes(statement, column)))
}

/// `count` bytes of text as a String, made as ObjectGraph makes a text column's (copied into the string's own
/// storage and validated there, invalid UTF-8 repaired), so that the floors read text no dearer than ObjectGraph
/// (callgrind, fetch-all at 10,000: `String(decoding:as:)` was about 200 instructions a 13-byte name, this about 75).
@inline(__always)
func textString(_ bytes: UnsafePointer<UInt8>, count: Int) -> String {
    String(unsafeUninitializedCapacity: count) { buffer in
        if count > 0 { buffer.baseAddress.unsafelyUnwrapped.initialize(from: bytes, count: count) }
        return count
    }
}
