/// A segment's counts, with RelBench's metric meanings.
///
/// - `sqlStatements` (`sql_statements`): every statement run, BEGIN/COMMIT and pragmas included.
/// - `fetchRequests` (`fetch_requests`): fetch requests executed: each fetch, count and ID fetch once, however many
///   batch and prefetch statements it ran.
/// - `objectFaults` (`object_faults`): objects faulted in from the database (`fault fulfilled from database`).
///   Faults the row cache fulfils are not logged by Core Data, so they cannot be counted here.
/// - `relationshipFaults` (`relationship_faults`): to-many relationship faults fired.
/// - `rowsRead` (`rows_read`): rows the log reports the statements returned: `total fetch execution time ... for N
///   rows`, `Got N rows`, `returned N rows`, one per `fault fulfilled from database` and per count request. Rows the
///   log does not report (a pragma's, a `Z_MAX` or metadata read's, a batch's) are not guessed: such statements
///   are counted in `statementsWithUnreportedRows`, and a segment whose row-returning statements report no rows at
///   all has no `rows_read` (`reportedRowsRead` is nil: "not reported", which a gate treats as missing, not 0).
/// - Faults recognised from the SQL's shape where the log has no fault annotations (SQLDebug 1 without them) are
///   counted in `objectFaults` and `relationshipFaults` and again in `inferredObjectFaults` and
///   `inferredRelationshipFaults`, so that what is inferred is never shown as read.
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
    /// Statements that return rows and whose rows the log reports, and those whose rows it does not (not counted).
    public var statementsWithReportedRows = 0
    public var statementsWithUnreportedRows = 0
    /// Faults counted from the SQL's shape, not from an annotation (a log without fault annotations).
    public var inferredObjectFaults = 0
    public var inferredRelationshipFaults = 0
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

    /// `rows_read` as a gate may use it: the reported rows, or nil when the segment's statements return rows and the
    /// log reports none of them.
    public var reportedRowsRead: Int? { statementsWithReportedRows > 0 || statementsWithUnreportedRows == 0 ? rowsRead : nil }

    /// The five metrics RelBench reports, as `bench explain` prints them (`rows_read=not reported` when the log
    /// reports none).
    public var metricsLine: String {
        "sql_statements=\(sqlStatements) fetch_requests=\(fetchRequests) object_faults=\(objectFaults) "
            + "relationship_faults=\(relationshipFaults) rows_read=\(reportedRowsRead.map(String.init) ?? "not reported")"
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
        statementsWithReportedRows += other.statementsWithReportedRows
        statementsWithUnreportedRows += other.statementsWithUnreportedRows
        inferredObjectFaults += other.inferredObjectFaults
        inferredRelationshipFaults += other.inferredRelationshipFaults
        orphanAnnotations += other.orphanAnnotations
        problems += other.problems
        migrationMessages += other.migrationMessages
        storeOpenings += other.storeOpenings
        fetchExecutionSeconds += other.fetchExecutionSeconds
        connectionSeconds += other.connectionSeconds
        executionSeconds += other.executionSeconds
    }
}
