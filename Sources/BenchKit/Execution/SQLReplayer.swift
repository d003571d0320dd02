import CSQLite
import Foundation
import ObjectGraph

/// The `sql-replay` peer: the statements ObjectGraph ran for a phase (logged in an untimed pass, with their bound
/// values and ID lists), run again through the SQLite C API with prepared statements reused, every column of every
/// row read into a plain value. What it costs is what the same SQL costs without an object graph, for any model; its
/// statements and rows equal ObjectGraph's by construction.
final class SQLReplayer: CounterSource {
    private let connection: RawConnection
    private var statements = 0
    private var rows = 0
    /// A checksum of every value read, so that no read can be optimized away.
    private(set) var checksum: UInt64 = 0

    init(path: String, pageCacheKiB: Int?) throws {
        connection = try RawConnection(path: path, pageCacheKiB: pageCacheKiB)
        do {
            try SQLFunctions.register(handle: connection.handle)
        } catch {
            throw BenchError.io("sql-replay: cannot register ObjectGraph's SQL functions (\(error))")
        }
    }

    /// Rows the replayed statements changed since the replayer opened its database.
    var rowsChanged: Int { connection.rowsChanged }

    /// Sends the text of every statement run to `sink`, for `bench explain`.
    func trace(_ sink: @escaping (String) -> Void) { connection.trace(sink) }

    func readings() -> CounterReadings {
        var readings = CounterReadings()
        readings.statements = statements
        readings.rowsRead = rows
        return readings
    }

    /// Runs `entries` in order.
    func replay(_ entries: [StatementLog.Entry]) throws {
        for entry in entries {
            if entry.isExec {
                try connection.execute(entry.sql)
                statements += 1
                continue
            }
            let statement = try connection.prepared(entry.sql)
            for (position, bound) in entry.bindings.enumerated() {
                let index = Int32(position + 1)
                switch bound {
                case .null: try connection.bindNull(statement, index)
                case let .int(value): try connection.bind(statement, index, value)
                case let .double(value): try connection.bindDouble(statement, index, value)
                case let .text(value): try connection.bind(statement, index, value)
                case let .blob(bytes): try connection.bindBlob(statement, index, bytes)
                }
            }
            for (table, values) in entry.intArrays { connection.bindIDs(values, table: table) }
            statements += 1
            let columns = sqlite3_column_count(statement)
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else {
                    throw BenchError.io("sql-replay: \(String(cString: sqlite3_errmsg(connection.handle))) in \(entry.sql)")
                }
                rows += 1
                for column in 0..<columns { read(statement, column) }
            }
            sqlite3_reset(statement)
        }
    }

    /// Reads a column into a plain value, as an app reading a row would, and as ObjectGraph reads it: the column's
    /// value taken once (`sqlite3_column_value`), its type and contents read from it, so that the floor is no dearer
    /// per column than ObjectGraph (callgrind, fetch-all at 10,000: each `sqlite3_column_*` call was 28-32
    /// instructions, looking the column up again and checking the statement's error).
    @inline(__always)
    private func read(_ statement: OpaquePointer, _ column: Int32) {
        let value = sqlite3_column_value(statement, column)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: checksum &+= UInt64(bitPattern: sqlite3_value_int64(value))
        case SQLITE_FLOAT: checksum &+= sqlite3_value_double(value).bitPattern
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { break }
            checksum &+= UInt64(textString(text, count: Int(sqlite3_value_bytes(value))).utf8.count)
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            if let bytes = sqlite3_value_blob(value) {
                checksum &+= UInt64(Array(UnsafeRawBufferPointer(start: bytes, count: count)).count)
            }
        default: break
        }
    }
}
