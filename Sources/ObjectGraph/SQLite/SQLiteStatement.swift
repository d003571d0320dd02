import CSQLite
import Foundation

/// Owns one prepared statement; finalizes it in deinit.
///
/// Binding and column access are thin, unchecked wrappers: callers know the SQL they prepared.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private let db: OpaquePointer
    /// When non-nil, every bound value is also recorded here, in Core Data's `SQLite bind[i] = value` form.
    var recordedBindings: [String]?

    init(connection: SQLiteConnection, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw connection.error(code, sql: sql) }
        handle = statement
        db = connection.handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Advances to the next row: true while rows remain. Resets the statement on error.
    @inline(__always)
    func step() throws -> Bool {
        let code = sqlite3_step(handle)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        let error = ObjectGraphError.sqlite(code: code, message: String(cString: sqlite3_errmsg(db)), sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    /// Makes the statement ready to run again; bindings stay until rebound.
    @inline(__always)
    func reset() {
        sqlite3_reset(handle)
        if recordedBindings != nil { recordedBindings = [] }
    }

    // MARK: Binding (1-based indexes, as SQLite)

    @inline(__always)
    func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
        if recordedBindings != nil { record(index, String(value)) }
    }

    @inline(__always)
    func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
        if recordedBindings != nil { record(index, "NULL") }
    }

    func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
        if recordedBindings != nil { record(index, String(value)) }
    }

    func bind(_ value: String, at index: Int32) {
        var text = value
        text.withUTF8 { utf8 in
            _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(utf8.baseAddress!).assumingMemoryBound(to: CChar.self),
                                  Int32(utf8.count), csqlite_transient())
        }
        if recordedBindings != nil { record(index, "\"\(value)\"") }
    }

    func bind(bytes: UnsafeRawBufferPointer, at index: Int32) {
        sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count), csqlite_transient())
        if recordedBindings != nil { record(index, "<\(bytes.count) bytes>") }
    }

    /// Binds a model value with Core Data's storage conventions (dates as seconds since 2001, UUIDs as 16-byte blobs).
    func bind(_ value: Value, at index: Int32) {
        switch value {
        case .null: bindNull(at: index)
        case let .int(v): bind(v, at: index)
        case let .bool(v): bind(Int64(v ? 1 : 0), at: index)
        case let .double(v): bind(v, at: index)
        case let .date(v): bind(v.timeIntervalSinceReferenceDate, at: index)
        case let .string(v): bind(v, at: index)
        case let .uuid(v):
            withUnsafeBytes(of: v.uuid) { bind(bytes: $0, at: index) }
        case let .binary(v):
            v.withUnsafeBytes { bind(bytes: $0, at: index) }
        }
    }

    private func record(_ index: Int32, _ text: String) {
        recordedBindings?.append("SQLite bind[\(index - 1)] = \(text)")
    }

    // MARK: Columns (0-based indexes, as SQLite)

    @inline(__always)
    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    @inline(__always)
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    @inline(__always)
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    @inline(__always)
    func string(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    func bytes(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let blob = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: blob, count: count)
    }

    func uuid(_ column: Int32) -> UUID? {
        guard sqlite3_column_bytes(handle, column) == 16, let blob = sqlite3_column_blob(handle, column) else { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { $0.copyMemory(from: UnsafeRawBufferPointer(start: blob, count: 16)) }
        return UUID(uuid: raw)
    }

    /// Reads a column as a value of the given attribute type; SQL NULL becomes `.null`.
    @inline(__always)
    func value(_ column: Int32, as type: AttributeType) -> Value {
        if sqlite3_column_type(handle, column) == SQLITE_NULL { return .null }
        switch type {
        case .string: return .string(string(column))
        case .int64: return .int(int64(column))
        case .double: return .double(double(column))
        case .bool: return .bool(int64(column) != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: double(column)))
        case .uuid: return uuid(column).map(Value.uuid) ?? .null
        case .binary: return .binary(bytes(column))
        }
    }

    /// Reads an integer column that may be NULL (foreign keys): 0 stands for NULL, as primary keys start at 1.
    @inline(__always)
    func foreignKey(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }
}
