import CSQLite

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
