import Foundation

/// One statement as the analyzer finished it: what it was, the rows it read and the device's times for it.
///
/// A statement finishes when the annotation that closes it arrives (or the next statement begins), so a fetch's
/// prefetch finishes before the fetch itself; `nested` marks the prefetch, whose total the fetch's includes.
public struct FinishedStatement: Sendable, Equatable {
    public var fingerprint: String
    public var kind: SQLStatementKind
    public var role: StatementRole
    /// Rows it returned: as the log reports them, else as its form gives them (a batch: what is left of its ID fetch;
    /// a pragma or count: 1), else 0. `rowsReported` says whether the log reported them.
    public var rows: Int
    public var rowsReported: Bool
    /// `sql connection fetch time`, `sql execution time` and `total fetch execution time`, when the log gave them.
    public var connectionSeconds: Double?
    public var executionSeconds: Double?
    public var totalSeconds: Double?
    /// A prefetch (or other id-list read) run while another statement's fetch was open.
    public var nested: Bool
    /// The line it began on.
    public var line: Int

    init(_ run: StatementRun, fingerprint: String) {
        self.fingerprint = fingerprint
        kind = run.shape.kind
        role = run.role
        rows = run.rowsReported ? run.rows : run.estimatedRows ?? 0
        rowsReported = run.rowsReported
        connectionSeconds = run.connectionSeconds
        executionSeconds = run.executionSeconds
        totalSeconds = run.totalSeconds
        nested = run.nested
        line = run.line
    }

    /// The device's time for it: the fetch's total when logged, else SQLite's connection time, else its execution time.
    public var seconds: Double? { totalSeconds ?? connectionSeconds ?? executionSeconds }
}

extension LogAnalyzer {
    /// The statements finished since the last call (kept only while `keepsFinishedStatements` is set).
    public mutating func takeFinishedStatements() -> [FinishedStatement] {
        var taken: [FinishedStatement] = []
        swap(&taken, &finished)
        return taken
    }
}
