/// A segment's counts, with RelBench's metric meanings.
///
/// - `sqlStatements` (`sql_statements`): every statement run, BEGIN/COMMIT and pragmas included.
/// - `fetchRequests` (`fetch_requests`): fetch requests executed: each fetch, count and ID fetch once, however many
///   batch and prefetch statements it ran.
/// - `objectFaults` (`object_faults`): objects faulted in from the database (`fault fulfilled from database`).
///   Faults the row cache fulfils are not logged by Core Data, so they cannot be counted here.
/// - `relationshipFaults` (`relationship_faults`): to-many relationship faults fired.
/// - `rowsRead` (`rows_read`): rows the statements returned: from `total fetch execution time ... for N rows`,
///   `Got N rows`, `returned N rows`; 1 for counts, pragmas and `Z_MAX` reads; a batch without a row count gets
///   what is left of its ID fetch. Statements whose rows the log does not say are in `statementsWithUnknownRows`.
public struct LogCounters: Sendable, Equatable, Codable {
    public var sqlStatements = 0
    public var fetchRequests = 0
    public var objectFaults = 0
    public var relationshipFaults = 0
    public var rowsRead = 0
    public var statementsByKind = StatementKindCounts()
    /// Statements by what they did for Core Data (fetch, fault, prefetch, batch, write...).
    public var statementsByRole: [StatementRole: Int] = [:]
    /// Transactions begun (`BEGIN EXCLUSIVE` and the like).
    public var transactions = 0
    /// Transactions that wrote model rows: saves (a save's primary-key reservation transaction is part of it).
    public var saves = 0
    /// Transactions rolled back.
    public var rollbacks = 0
    /// Statements whose row count the log does not give and that could not be inferred (counted as 0 rows).
    public var statementsWithUnknownRows = 0
    /// Annotations that close a fetch no logged statement opened (the log began mid-fetch, or lines were lost).
    public var orphanAnnotations = 0
    /// `error:`, `fault:` and `warning:` messages, each once.
    public var problems = 0
    /// Migration annotations.
    public var migrationMessages = 0
    /// Store-opening annotations (`Connecting to sqlite database file at ...`).
    public var storeOpenings = 0
    /// Sum of `total fetch execution time` over top-level fetches and faults (a fetch's total includes its
    /// prefetches', which are not added again).
    public var fetchExecutionSeconds: Double = 0
    /// Sum of `sql connection fetch time` over all statements.
    public var connectionSeconds: Double = 0
    /// Sum of `sql execution time` over all statements.
    public var executionSeconds: Double = 0

    public init() {}

    /// The five metrics RelBench reports, as `bench explain` prints them.
    public var metricsLine: String {
        "sql_statements=\(sqlStatements) fetch_requests=\(fetchRequests) object_faults=\(objectFaults) "
            + "relationship_faults=\(relationshipFaults) rows_read=\(rowsRead)"
    }

    /// Adds `other`'s counts and times to these (two segments of one name, say).
    public mutating func add(_ other: LogCounters) {
        sqlStatements += other.sqlStatements
        fetchRequests += other.fetchRequests
        objectFaults += other.objectFaults
        relationshipFaults += other.relationshipFaults
        rowsRead += other.rowsRead
        for kind in SQLStatementKind.allCases { statementsByKind[kind] += other.statementsByKind[kind] }
        for (role, count) in other.statementsByRole { statementsByRole[role, default: 0] += count }
        transactions += other.transactions
        saves += other.saves
        rollbacks += other.rollbacks
        statementsWithUnknownRows += other.statementsWithUnknownRows
        orphanAnnotations += other.orphanAnnotations
        problems += other.problems
        migrationMessages += other.migrationMessages
        storeOpenings += other.storeOpenings
        fetchExecutionSeconds += other.fetchExecutionSeconds
        connectionSeconds += other.connectionSeconds
        executionSeconds += other.executionSeconds
    }
}
