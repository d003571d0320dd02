import CSQLite
import Foundation

/// Owns one prepared statement; finalizes it in deinit.
///
/// Every bind's result code is checked: the first failure since the last reset is kept and thrown by the next
/// `step()`, so that binding stays cheap in hot loops and no failed bind goes unnoticed. Column access is thin
/// and unchecked: callers know the SQL they prepared.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private let db: OpaquePointer
    /// When non-nil, every bound value is also recorded here for the trace (`SQLite bind[i] = value`).
    @exclusivity(unchecked) var recordedBindings: [RecordedBinding]?
    /// The first bind that failed since the last reset: its result code and 1-based index.
    @exclusivity(unchecked) private var bindFailure: (code: Int32, index: Int32)?
    /// The statement-cache clock reading of the last use (least recently used statements are evicted first).
    @exclusivity(unchecked) var lastUse: UInt64 = 0
    /// While the connection logs statements: the values bound so far (by parameter index), and whether this run
    /// of the statement is logged yet.
    @exclusivity(unchecked) var loggedBindings: [StatementLog.Bound]?
    @exclusivity(unchecked) private var loggedThisRun = false
    private unowned(unsafe) let connection: SQLiteConnection

    /// Prepares `sql`, or `running` in its place: `sql` is still the text traced, logged and cached (a transaction
    /// control statement run as a savepoint, `PersistentStore+Undo`).
    init(connection: SQLiteConnection, sql: String, running: String? = nil) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, running ?? sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw connection.error(code, sql: sql) }
        handle = statement
        db = connection.handle
        self.sql = sql
        self.connection = connection
    }

    /// Starts (or stops) logging this statement's runs for the connection's statement log.
    func startLogging(_ on: Bool) {
        loggedBindings = on ? (loggedBindings ?? []) : nil
        loggedThisRun = false
    }

    private func log(_ index: Int32, _ value: StatementLog.Bound) {
        let position = Int(index) - 1
        guard position >= 0, loggedBindings != nil else { return }
        while loggedBindings?.count ?? 0 <= position { loggedBindings?.append(.null) }
        loggedBindings?[position] = value
    }

    /// Logs this run (once per run: the first step), with the int-array tables the SQL reads.
    @inline(never)
    private func logRun() {
        loggedThisRun = true
        guard let log = connection.statementLog else { return }
        var arrays: [(table: Int, values: ContiguousArray<Int64>)] = []
        if let module = connection.intArrays, sql.contains("_Z_intarray") {
            for (table, array) in module.arrays.enumerated() where sql.contains(array.name) {
                arrays.append((table, array.values))
            }
        }
        log.append(StatementLog.Entry(sql: sql, bindings: loggedBindings ?? [], intArrays: arrays, cause: log.cause))
    }

    deinit { sqlite3_finalize(handle) }

    /// Advances to the next row: true while rows remain. Resets the statement on error.
    @inline(__always)
    func step() throws -> Bool {
        if let bindFailure { throw bindError(bindFailure) }
        if loggedBindings != nil && !loggedThisRun { logRun() }
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
        bindFailure = nil
        if recordedBindings != nil { recordedBindings = [] }
        loggedThisRun = false
    }

    @inline(__always)
    private func check(_ code: Int32, _ index: Int32) {
        if code != SQLITE_OK, bindFailure == nil { bindFailure = (code, index) }
    }

    private func bindError(_ failure: (code: Int32, index: Int32)) -> ObjectGraphError {
        sqlite3_reset(handle)
        bindFailure = nil
        let message =
            failure.code == SQLITE_RANGE
            ? "bind index \(failure.index) is out of range: the statement has \(sqlite3_bind_parameter_count(handle)) parameters"
            : "binding parameter \(failure.index) failed: \(String(cString: sqlite3_errstr(failure.code)))"
        return .sqlite(code: failure.code, message: message, sql: sql)
    }

    // MARK: Binding (1-based indexes, as SQLite)

    /// Binds a raw integer (a key, a version, an entity number): Core Data logs these as `(int64)5`, and 0 as nil.
    @inline(__always)
    func bind(_ value: Int64, at index: Int32) {
        check(sqlite3_bind_int64(handle, index, value), index)
        if recordedBindings != nil { record(index, String(value), value == 0 ? "nil" : "(int64)\(value)") }
        if loggedBindings != nil { log(index, .int(value)) }
    }

    @inline(__always)
    func bindNull(at index: Int32) {
        check(sqlite3_bind_null(handle, index), index)
        if recordedBindings != nil { record(index, "NULL", "nil") }
        if loggedBindings != nil { log(index, .null) }
    }

    func bind(_ value: Double, at index: Int32) {
        check(sqlite3_bind_double(handle, index, value), index)
        if recordedBindings != nil { record(index, String(value), String(value)) }
        if loggedBindings != nil { log(index, .double(value)) }
    }

    func bind(_ value: String, at index: Int32) {
        var text = value
        let code = text.withUTF8 { utf8 in
            // A contiguous UTF-8 buffer has a base address (C interop).
            // swift-format-ignore: NeverForceUnwrap
            sqlite3_bind_text(
                handle, index, UnsafeRawPointer(utf8.baseAddress!).assumingMemoryBound(to: CChar.self),
                Int32(utf8.count), csqlite_transient())
        }
        check(code, index)
        if recordedBindings != nil { record(index, "\"\(value)\"", "\"\(value)\"") }
        if loggedBindings != nil { log(index, .text(value)) }
    }

    func bind(bytes: UnsafeRawBufferPointer, at index: Int32) {
        check(
            sqlite3_bind_blob(
                handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count),
                csqlite_transient()), index)
        if recordedBindings != nil { record(index, "<\(bytes.count) bytes>", "<NSData len=\(bytes.count)>") }
        if loggedBindings != nil { log(index, .blob(Array(bytes))) }
    }

    /// Binds a model value with Core Data's storage conventions (dates as seconds since 2001, UUIDs as 16-byte
    /// blobs, decimals as their exact text, URIs as their absolute string).
    func bind(_ value: Value, at index: Int32) {
        if recordedBindings != nil { return bindRecording(value, at: index) }
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
        case let .decimal(v): bind(v.description, at: index)
        case let .url(v): bind(v.absoluteString, at: index)
        }
    }

    /// Binds the value in `slot` of `row` as `bind(_: Value, at:)` does, read where the row keeps it (profiled:
    /// making a `Value` of each column and switching on it again was a tenth of `insertRows`' own instructions).
    @inline(__always)
    func bind(_ row: RowSnapshot, slot: Int, at index: Int32) {
        if recordedBindings != nil { return bindRecording(row[slot], at: index) }
        let slots = row.slots
        let payload = slots.payload(slot)
        switch slots.tag(slot) {
        case .null: bindNull(at: index)
        case .int: bind(payload.load(as: Int64.self), at: index)
        case .bool: bind(Int64(payload.load(as: Bool.self) ? 1 : 0), at: index)
        case .double, .date: bind(payload.load(as: Double.self), at: index)
        case .string: bind(payload.assumingMemoryBound(to: String.self).pointee, at: index)
        case .uuid, .binary, .url, .decimal, .boxed: bind(row[slot], at: index)
        }
    }

    /// The same, recording each value as Core Data's SQLDebug prints it (`= "text"`, `= 5`, `= (timestamp)%f`).
    private func bindRecording(_ value: Value, at index: Int32) {
        let saved = recordedBindings
        recordedBindings = nil
        bind(value, at: index)
        recordedBindings = saved
        let exact: String
        switch value {
        case .null: exact = "nil"
        case let .date(v): exact = String(format: "(timestamp)%f", v.timeIntervalSinceReferenceDate)
        case let .string(v): exact = "\"\(v)\""
        case let .binary(v): exact = "<NSData len=\(v.count)>"
        case let .bool(v): exact = v ? "1" : "0"
        case let .uuid(v): exact = v.uuidString
        default: exact = value.description
        }
        record(index, value.isNull ? "NULL" : value.description, exact)
    }

    private func record(_ index: Int32, _ compact: String, _ exact: String) {
        recordedBindings?.append(RecordedBinding(index: index - 1, compact: compact, exact: exact))
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
        return Self.text(text, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// A text column's `count` bytes at `bytes` as a String, copied into the string's own storage (a short one's
    /// inline bytes) and validated there, invalid UTF-8 repaired as `String(decoding:as:)` repairs it. callgrind,
    /// fetch-all at 10,000: `String(decoding:as:)` was about 200 instructions a 13-byte name (`_fromUTF8Repairing`,
    /// `_allASCII`, `_uncheckedFromUTF8`), this about 75.
    @inline(__always)
    static func text(_ bytes: UnsafePointer<UInt8>, count: Int) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            if count > 0 { buffer.baseAddress.unsafelyUnwrapped.initialize(from: bytes, count: count) }
            return count
        }
    }

    /// A column's value (from `sqlite3_column_value`) as text, as `string(_:)` reads the column.
    @inline(__always)
    static func string(_ value: OpaquePointer?) -> String {
        guard let start = sqlite3_value_text(value) else { return "" }
        return text(start, count: Int(sqlite3_value_bytes(value)))
    }

    func bytes(_ column: Int32) -> Data {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let blob = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: blob, count: count)
    }

    func decimal(_ column: Int32) -> Decimal? {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return Decimal(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT:
            // DECIMAL has NUMERIC affinity: SQLite stores a decimal's text as REAL when that keeps 15 digits; read
            // it back through its shortest decimal spelling, not the binary fraction.
            let value = sqlite3_column_double(handle, column)
            return Decimal(string: "\(value)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(value)
        default: return Decimal(string: string(column), locale: Locale(identifier: "en_US_POSIX"))
        }
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
        case .int64, .int32, .int16: return .int(int64(column))
        case .double, .float: return .double(double(column))
        case .bool: return .bool(int64(column) != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: double(column)))
        case .uuid: return uuid(column).map(Value.uuid) ?? .null
        case .binary, .transformable: return .binary(bytes(column))
        case .decimal: return decimal(column).map(Value.decimal) ?? .null
        case .uri: return URL(string: string(column)).map(Value.url) ?? .null
        case .undefined: return .null
        }
    }

    /// Reads `column` as `value(_:as:)` reads a column of `layout`'s type into `slot` of a row being made,
    /// straight into the slot's payload (profiled: making a `Value` of each column and switching on it again made
    /// fetch-all 7% more instructions).
    ///
    /// The column's value is taken once (`sqlite3_column_value`) and its type and contents read from it: each
    /// `sqlite3_column_*` call looks the column up again and ends with the statement's error check (callgrind,
    /// fetch-all at 10,000: `column_type`, `column_text` and `column_bytes` were about 90 instructions a name, 28-32
    /// each; reading each column once this way took fetch-all m2o from 27.70M to 26.38M, about 130 a row). The value
    /// is the statement's own, unprotected: read here, on the connection's one thread, before the next step, as the
    /// `column_*` wrappers read it.
    @inline(__always)
    func read(_ column: Int32, as layout: RowShape.Column, into slots: RowSlots, slot: Int) {
        let cell = sqlite3_column_value(handle, column)
        if sqlite3_value_type(cell) == SQLITE_NULL { return slots.initializeNull(slot) }
        let payload = slots.payload(atWord: layout.word)
        switch layout.type {
        case .string: slots.initialize(slot, string: Self.string(cell), at: payload)
        case .int64, .int32, .int16: slots.initialize(slot, sqlite3_value_int64(cell), as: .int, at: payload)
        case .double, .float: slots.initialize(slot, sqlite3_value_double(cell), as: .double, at: payload)
        case .bool: slots.initialize(slot, sqlite3_value_int64(cell) != 0, as: .bool, at: payload)
        case .date: slots.initialize(slot, sqlite3_value_double(cell), as: .date, at: payload)
        case .uuid, .binary, .transformable, .decimal, .uri, .undefined: readRarely(column, as: layout, into: slots, slot: slot)
        }
    }

    /// `read(_:as:into:slot:)` for the types rows seldom hold, out of line: a UUID is copied through a local, whose
    /// address, inlined into a fetch's loop, gave the loop a stack protector (callgrind, fetch-all at 10,000: 6
    /// instructions a row).
    @inline(never)
    private func readRarely(_ column: Int32, as layout: RowShape.Column, into slots: RowSlots, slot: Int) {
        switch layout.type {
        // A UUID column's slot is two words (`AttributeType.slotWords`).
        case .uuid:
            if let uuid = uuid(column) {
                slots.initialize(slot, uuid.uuid, as: .uuid, at: slots.payload(atWord: layout.word))
            } else {
                slots.initializeNull(slot)
            }
        default: slots.initialize(slot, value(column, as: layout.type))
        }
    }

    /// Reads an integer column that may be NULL (foreign keys): 0 stands for NULL, as primary keys start at 1.
    @inline(__always)
    func foreignKey(_ column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }
}

/// A value bound to a statement, as the trace shows it: compact (`5`) and as Core Data's SQLDebug prints it
/// (`(int64)5` for keys and versions, `(timestamp)...` for dates, `<NSData len=16>` for blobs).
struct RecordedBinding {
    let index: Int32
    let compact: String
    let exact: String
}
