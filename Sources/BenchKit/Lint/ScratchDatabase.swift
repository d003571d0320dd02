import CSQLite
import Foundation

/// A database the dry run writes in a temporary folder: the migrated copy of a store. One handle, every statement's
/// result checked, each error one `BenchError` line naming the statement's purpose.
final class ScratchDatabase {
    private let handle: OpaquePointer
    /// The option that named the store, which messages start with.
    private let option: String

    init(path: String, option: String) throws {
        self.option = option
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db
        else {
            if let db { sqlite3_close_v2(db) }
            throw BenchError.io("\(option): SQLite cannot create \(path) for the migrated copy; check that TMPDIR is writable")
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` (one or more statements without results); `what` says in a failure what it was for.
    func execute(_ sql: String, _ what: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw BenchError.invalidInput("\(option): \(what) failed (\(text)); is the store complete and of the older model?")
        }
    }

    /// The rows of `sql`, each column as an SQLite value (nil for NULL).
    func rows(_ sql: String) throws -> [[StoredValue?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError.invalidInput("\(option): the migrated copy cannot be read (\(String(cString: sqlite3_errmsg(handle))))")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[StoredValue?]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else {
                throw BenchError.invalidInput("\(option): the migrated copy cannot be read (\(String(cString: sqlite3_errmsg(handle))))")
            }
            rows.append((0..<sqlite3_column_count(statement)).map { StoredValue(statement, $0) })
        }
        return rows
    }

    /// One integer: the first column of the first row of `sql` (0 when there is none).
    func integer(_ sql: String) throws -> Int {
        (try rows(sql).first?.first ?? nil)?.integer ?? 0
    }
}

/// A value as SQLite stored it in a column.
enum StoredValue: Equatable {
    case integer(Int)
    case real(Double)
    case text(String)
    case blob(Int)

    init?(_ statement: OpaquePointer, _ column: Int32) {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: self = .integer(Int(sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: self = .real(sqlite3_column_double(statement, column))
        case SQLITE_TEXT: self = .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
        case SQLITE_BLOB: self = .blob(Int(sqlite3_column_bytes(statement, column)))
        default: return nil
        }
    }

    var integer: Int? {
        switch self {
        case let .integer(value): return value
        case let .real(value): return Int(exactly: value)
        default: return nil
        }
    }

    var number: Double? {
        switch self {
        case let .integer(value): return Double(value)
        case let .real(value): return value
        case let .text(text): return Double(text)
        case .blob: return nil
        }
    }

    /// As a person reads it in a finding: text quoted and cut at 40 characters.
    var shown: String {
        switch self {
        case let .integer(value): return String(value)
        case let .real(value): return String(value)
        case let .text(text): return "'" + (text.count > 40 ? text.prefix(40) + "…" : text) + "'"
        case let .blob(bytes): return "<\(bytes) bytes>"
        }
    }
}
