/// One thing the SQLDebug log says, in the order it says it.
///
/// The parser turns lines into events; `LogAnalyzer` turns events into per-segment counters. Annotations are
/// reported even when the tag before them is `error:` (Core Data's "catastrophic" logging mode prints them so).
public enum LogEvent: Sendable, Equatable {
    /// A statement Core Data ran (`CoreData: sql: ...`), possibly joined from wrapped lines.
    case statement(LoggedStatement)
    /// `SQLite bind[i] = value` (SQLDebug 2 and above).
    case bind(index: Int, value: BindValue)
    /// `Bound intarray _Z_intarray0` (name) or `Bound intarray values.` (nil): the next statement reads an id list.
    case intarrayBound(name: String?)
    /// `sql connection fetch time: 0.0001s`: SQLite's own time for the last statement.
    case connectionFetchTime(seconds: Double)
    /// `sql execution time: 0.0001s`: the time of the last statement that returned no objects (pragmas).
    case executionTime(seconds: Double)
    /// `total fetch execution time: 0.0002s for 3 rows.`: closes a fetch, fault, batch or prefetch (rows nil: the
    /// line was cut before them).
    case fetchTotal(seconds: Double, rows: Int?)
    /// `total count request execution time: 0.0002s for count of 190.`
    case countTotal(seconds: Double, count: Int?)
    /// `fetch using NSSQLiteStatement <0x...> on entity 'X' with sql text '...' returned N rows` (SQLDebug 2+),
    /// or `count request <NSFetchRequest ...> returned N`.
    case statementRows(rows: Int, entity: String?)
    /// `logically false fetch request <NSFetchRequest ...> short circuits.`: a fetch request that ran no SQL.
    case shortCircuitedFetch(String)
    /// `fault fulfilled from database for : 0x... <x-coredata://UUID/Entity/p12>`
    case objectFault(ObjectReference)
    /// `to-many relationship fault "students" for objectID ... fulfilled from database.  Got 50 rows`
    case toManyFault(relationship: String, owner: ObjectReference, rows: Int?)
    /// `Prefetching with key 'students'.  Got 50 rows.`
    case prefetch(keyPath: String, rows: Int?)
    /// A line of SQLite's query plan (SQLDebug 4): `SQLite: 0 0 0 SCAN TABLE ZX AS t0`, `plan: SCAN t0`, ...
    case queryPlan(String)
    /// `(migration) ...` and other migration annotations.
    case migration(String)
    /// `Connecting to sqlite database file at "..."`, `creating schema.` and other store-opening annotations.
    case storeEvent(String)
    /// An `error:`, `fault:` or `warning:` message, counted once however many times the console repeats it.
    case problem(severity: ProblemSeverity, message: String)
    /// A Core Data annotation or detail this parser recognises as Core Data's but does not interpret.
    case annotation(String)
    /// A segment boundary: `RelBench: begin NAME` / `RelBench: end NAME`, or an os_signpost interval.
    case marker(SegmentMarker)
    /// A line that could not be read: invalid UTF-8, control bytes, or a Core Data line cut short.
    case garbled(line: Int, reason: GarbledReason)
}

/// A statement as the log shows it, with where it came from.
public struct LoggedStatement: Sendable, Equatable {
    /// The SQL text, wrapped lines joined with one space, trailing spaces kept as logged.
    public var sql: String
    /// The 1-based number of the line it started on.
    public var line: Int
    /// How the log showed it.
    public var origin: Origin

    public enum Origin: Sendable, Equatable {
        /// A `sql:` line.
        case sqlLine
        /// Only inside an error message's `with sql text '...'`: it ran (and failed) without its own `sql:` line.
        case errorText
        /// Only inside `fetch using NSSQLiteStatement <...> ... with sql text '...' returned N rows` (an excerpt
        /// that lost the `sql:` line before it).
        case annotationText
    }

    public init(sql: String, line: Int, origin: Origin = .sqlLine) {
        self.sql = sql
        self.line = line
        self.origin = origin
    }
}

/// A bound value as `SQLite bind[i] = ...` prints it.
public enum BindValue: Sendable, Equatable, Hashable {
    /// `(int64)3` or a bare integer.
    case integer(Int64)
    /// A bare decimal number.
    case real(Double)
    /// `(timestamp)694224000.000000`: seconds since 2001-01-01.
    case timestamp(Double)
    /// `"text"` (quotes removed).
    case text(String)
    /// `nil` or `NULL`.
    case null
    /// `<NSData len=16>` or another blob description; the length when the log gives it.
    case blob(length: Int?)
    /// Anything else (a UUID, an object description), verbatim.
    case other(String)
}

extension BindValue {
    /// A fast, well-mixed hash (FNV-1a over text, a multiplicative mix over numbers), stable within a process:
    /// the analyzer compares sets of bound values with it, a statement at a time.
    var cheapHash: UInt64 {
        func mix(_ tag: UInt64, _ value: UInt64) -> UInt64 {
            var z = value &+ tag &* 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func fnv(_ text: String) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
        switch self {
        case let .integer(value): return mix(1, UInt64(bitPattern: value))
        case let .real(value): return mix(2, value.bitPattern)
        case let .timestamp(value): return mix(3, value.bitPattern)
        case let .text(value): return mix(4, fnv(value))
        case .null: return mix(5, 0)
        case let .blob(length): return mix(6, UInt64(bitPattern: Int64(length ?? -1)))
        case let .other(value): return mix(7, fnv(value))
        }
    }
}

/// An object named by an annotation: its entity and primary key from the `x-coredata://` URI.
public struct ObjectReference: Sendable, Equatable, Hashable {
    /// The entity name from the URI (`Student`), or nil when the log gives no URI.
    public var entity: String?
    /// The primary key (`p12` gives 12); nil for temporary IDs or when absent.
    public var primaryKey: Int64?
    /// The store identifier of a permanent ID's URI (`x-coredata://STORE/Entity/pN`), kept apart so that the URI is
    /// made only when asked for; nil when `rawURI` holds the URI as logged.
    private var store: String?
    private var rawURI: String?

    public init(entity: String?, primaryKey: Int64?, uri: String?) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.rawURI = uri
    }

    init(entity: String, primaryKey: Int64, store: String) {
        self.entity = entity
        self.primaryKey = primaryKey
        self.store = store
    }

    /// Whether the annotation gave a whole URI.
    var hasURI: Bool { store != nil || rawURI != nil }

    /// The URI as logged (`x-coredata://UUID/Student/p12`), or nil.
    public var uri: String? {
        if let store, let entity, let primaryKey { return "x-coredata://\(store)/\(entity)/p\(primaryKey)" }
        return rawURI
    }

    public static func == (lhs: ObjectReference, rhs: ObjectReference) -> Bool {
        lhs.entity == rhs.entity && lhs.primaryKey == rhs.primaryKey && lhs.uri == rhs.uri
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entity)
        hasher.combine(primaryKey)
        hasher.combine(uri)
    }
}

/// How bad a problem message is, from its tag.
public enum ProblemSeverity: String, Sendable, Equatable {
    case error
    case fault
    case warning
}

/// A segment boundary in the log.
public struct SegmentMarker: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case begin
        case end
    }

    public var kind: Kind
    /// The segment's name (the text after `RelBench: begin `, or the signpost's name).
    public var name: String
    /// The signpost ID of an os_signpost marker (pairs begin and end), nil for RelBench markers.
    public var signpostID: String?
    public var line: Int

    public init(kind: Kind, name: String, signpostID: String? = nil, line: Int) {
        self.kind = kind
        self.name = name
        self.signpostID = signpostID
        self.line = line
    }
}

/// Why a line was reported as garbled.
public enum GarbledReason: String, Sendable, Equatable {
    /// The bytes are not valid UTF-8.
    case invalidUTF8
    /// Control bytes other than tab and terminal colour escapes.
    case controlBytes
    /// A Core Data line that ends before its message does (`total fetch execution time: 0.0`).
    case truncated
    /// A line longer than the reader keeps (cut at its limit).
    case overlong
    /// A block (`with values: (`) that never closed.
    case unterminatedBlock
}
