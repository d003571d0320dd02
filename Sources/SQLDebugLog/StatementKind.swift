/// What kind of statement a log line ran, by its first keyword.
public enum SQLStatementKind: String, CaseIterable, Sendable, Codable, CustomStringConvertible {
    case select
    case insert
    case update
    case delete
    /// BEGIN, COMMIT, ROLLBACK, END, SAVEPOINT, RELEASE.
    case transaction
    case pragma
    /// CREATE, DROP, ALTER, ANALYZE, VACUUM and anything unrecognised.
    case other

    public var description: String { rawValue }
}

/// Counts of statements by kind.
public struct StatementKindCounts: Sendable, Equatable, Codable {
    public var select = 0
    public var insert = 0
    public var update = 0
    public var delete = 0
    public var transaction = 0
    public var pragma = 0
    public var other = 0

    public init() {}

    public subscript(kind: SQLStatementKind) -> Int {
        get {
            switch kind {
            case .select: return select
            case .insert: return insert
            case .update: return update
            case .delete: return delete
            case .transaction: return transaction
            case .pragma: return pragma
            case .other: return other
            }
        }
        set {
            switch kind {
            case .select: select = newValue
            case .insert: insert = newValue
            case .update: update = newValue
            case .delete: delete = newValue
            case .transaction: transaction = newValue
            case .pragma: pragma = newValue
            case .other: other = newValue
            }
        }
    }

    /// Every statement counted.
    public var total: Int { select + insert + update + delete + transaction + pragma + other }
}

/// What a statement did for Core Data, as the annotations around it show (or its shape, when they are missing).
public enum StatementRole: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
    /// The main query of a fetch request (objects, IDs, dictionaries or a count).
    case fetch
    /// An object fault fulfilled from the database.
    case objectFault
    /// A to-many relationship fault.
    case toManyFault
    /// A relationshipKeyPathsForPrefetching query.
    case prefetch
    /// One batch of a batched fetch (fetchBatchSize).
    case batch
    /// A save's row write (INSERT, UPDATE, DELETE inside a transaction).
    case write
    /// A batch request's statement (NSBatchUpdateRequest, NSBatchDeleteRequest) or a write outside a transaction.
    case batchRequest
    /// BEGIN, COMMIT, ROLLBACK.
    case transaction
    /// Primary-key reservation, post-save pragmas, store-opening probes, schema statements: never a finding.
    case bookkeeping
    /// A row-returning statement whose purpose the log does not say (no closing annotation).
    case unknown
}

extension SQLStatementKind {
    /// The kind of `sql` by its first keyword (a fingerprint gives the same kind as its statements).
    public static func of(_ sql: String) -> SQLStatementKind {
        var copy = sql
        return copy.withUTF8 { StatementShape(sql: $0).kind }
    }
}
