/// The kinds of SQL statement ObjectGraph issues, counted separately.
public enum StatementKind: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// The main query of a fetch request (rows, IDs or a count).
    case fetch
    /// One object fault: `... WHERE t0.Z_PK = ? LIMIT 1`.
    case objectFault
    /// One to-many relationship fault: the member IDs of one owner.
    case toManyFault
    /// One relationshipKeyPathsForPrefetching query.
    case prefetch
    /// One batch of a batched fetch (fetchBatchSize).
    case batch
    case insert
    case update
    case delete
    /// A uniqueness-constraint check before a save writes.
    case constraintCheck
    /// Transaction control, primary-key reservation and pragmas.
    case other

    public var description: String {
        switch self {
        case .fetch: return "fetch"
        case .objectFault: return "object-fault"
        case .toManyFault: return "to-many-fault"
        case .prefetch: return "prefetch"
        case .batch: return "batch"
        case .insert: return "insert"
        case .update: return "update"
        case .delete: return "delete"
        case .constraintCheck: return "constraint-check"
        case .other: return "other"
        }
    }

    /// Whether the statement reads rows (a SELECT on behalf of the object graph).
    public var isRead: Bool {
        switch self {
        case .fetch, .objectFault, .toManyFault, .prefetch, .batch: return true
        case .insert, .update, .delete, .constraintCheck, .other: return false
        }
    }
}

/// Exact counts of what a context (or a whole store) did: statements by kind, rows, objects, faults, cache use.
///
/// Deterministic for a given program and data: tests assert them exactly, benchmarks report them as metrics.
public struct Counters: Equatable, Sendable, CustomStringConvertible {
    /// Fetch requests executed (each runs one `.fetch` statement, plus batches and prefetches).
    public var fetchRequests = 0
    /// Statements executed, by kind.
    public private(set) var statementsByKind = [Int](repeating: 0, count: StatementKind.allCases.count)
    /// Rows SQLite returned to ObjectGraph.
    public var rowsRead = 0
    /// Managed objects created from store data (fetched objects and fault placeholders).
    public var objectsMaterialized = 0
    /// Object faults fired (from the row cache or the database).
    public var objectFaults = 0
    /// To-many relationship faults fired.
    public var relationshipFaults = 0
    /// Faults fulfilled from the row cache, without SQL.
    public var cacheHits = 0
    /// Faults that had to run SQL because the row cache did not hold the row.
    public var cacheMisses = 0

    public init() {}

    public subscript(kind: StatementKind) -> Int {
        get { statementsByKind[kind.rawValue] }
        set { statementsByKind[kind.rawValue] = newValue }
    }

    /// Every statement executed.
    public var statements: Int { statementsByKind.reduce(0, +) }
    /// Statements that read rows: fetches, faults, prefetches and batches.
    public var selects: Int { StatementKind.allCases.filter(\.isRead).reduce(0) { $0 + self[$1] } }

    @inline(__always)
    mutating func count(_ kind: StatementKind) { statementsByKind[kind.rawValue] &+= 1 }

    /// The difference `self - earlier`, for the counts of one phase.
    public func since(_ earlier: Counters) -> Counters {
        var delta = Counters()
        delta.fetchRequests = fetchRequests - earlier.fetchRequests
        for kind in StatementKind.allCases { delta[kind] = self[kind] - earlier[kind] }
        delta.rowsRead = rowsRead - earlier.rowsRead
        delta.objectsMaterialized = objectsMaterialized - earlier.objectsMaterialized
        delta.objectFaults = objectFaults - earlier.objectFaults
        delta.relationshipFaults = relationshipFaults - earlier.relationshipFaults
        delta.cacheHits = cacheHits - earlier.cacheHits
        delta.cacheMisses = cacheMisses - earlier.cacheMisses
        return delta
    }

    public var description: String {
        let kinds = StatementKind.allCases.filter { self[$0] > 0 }.map { "\($0)=\(self[$0])" }.joined(separator: " ")
        return "statements=\(statements) [\(kinds)] fetchRequests=\(fetchRequests) rows=\(rowsRead) "
            + "materialized=\(objectsMaterialized) objectFaults=\(objectFaults) relationshipFaults=\(relationshipFaults) "
            + "cacheHits=\(cacheHits) cacheMisses=\(cacheMisses)"
    }
}
