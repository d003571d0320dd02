/// What one statement fingerprint did in a segment: how often it ran, the rows it read, and the device's own
/// times for it.
public struct FingerprintStats: Sendable, Equatable, Codable {
    /// The statement with its values normalised (see `Fingerprint.of`).
    public var fingerprint: String
    public var kind: SQLStatementKind
    /// The role it played most often (fetch, objectFault, toManyFault, prefetch, batch, write...).
    public var role: StatementRole
    public var roles: [StatementRole: Int]
    /// Tables it reads or writes, the main one first.
    public var tables: [String]
    /// Times it ran.
    public var count: Int
    public var rowsRead: Int
    /// The most rows one run returned.
    public var maxRows: Int
    /// Distinct sets of bound values seen (counted up to 1,000); 0 when the log shows no binds (SQLDebug 1).
    public var distinctBindings: Int
    /// `sql connection fetch time` of its runs.
    public var connectionTime: TimeStats
    /// `sql execution time` of its runs.
    public var executionTime: TimeStats
    /// `total fetch execution time` of the fetches and faults it was the main statement of (top level only).
    public var fetchExecutionTime: TimeStats
    /// Whether it is a store-opening probe or bookkeeping (pragmas, Z_PRIMARYKEY, Z_METADATA): never a finding.
    public var isBookkeeping: Bool
    /// The line it first appeared on.
    public var firstLine: Int
    /// What SQLite's query plan (SQLDebug 4) said: a full scan of a table the statement filters, a temporary
    /// B-tree for ORDER BY.
    public var planScansFilteredTable: Bool
    public var planSortsWithTemporaryTree: Bool

    /// Milliseconds the log measured for its runs: each run's total fetch time when it had one, else its
    /// connection fetch time, else its execution time.
    public var measuredMilliseconds: Double
}

/// Accumulates one fingerprint's runs within one segment.
struct FingerprintAccumulator: Sendable {
    let id: Int
    var count = 0
    var rows = 0
    var maxRows = 0
    var maxRowsSeconds: Double = 0
    var roles = [Int](repeating: 0, count: StatementRole.allCases.count)
    var connection = TimeHistogram()
    var execution = TimeHistogram()
    var totals = TimeHistogram()
    /// Per run: the best time the log gives (total, else connection, else execution).
    var runTimes = TimeHistogram()
    var bindHashes = Set<Int>()
    var runsWithBinds = 0
    var firstLine: Int
    /// What the annotations named: the relationship of a to-many fault (`Class.students`), the entity of an
    /// object fault, a prefetch key path.
    var labels: [String: Int] = [:]

    init(id: Int, firstLine: Int) {
        self.id = id
        self.firstLine = firstLine
    }

    mutating func add(_ run: StatementRun) {
        count += 1
        rows += run.rows
        if run.rows > maxRows {
            maxRows = run.rows
            maxRowsSeconds = run.bestSeconds ?? 0
        }
        if let index = StatementRole.allCases.firstIndex(of: run.role) { roles[index] += 1 }
        if let seconds = run.connectionSeconds { connection.add(seconds) }
        if let seconds = run.executionSeconds { execution.add(seconds) }
        if let seconds = run.totalSeconds, !run.nested { totals.add(seconds) }
        runTimes.add(run.bestSeconds ?? 0)
        if let label = run.label, labels.count < 64 || labels[label] != nil { labels[label, default: 0] += 1 }
        if run.bindCount > 0 {
            runsWithBinds += 1
            if bindHashes.count < 1_000 { bindHashes.insert(run.bindHash) }
        }
    }

    var role: StatementRole {
        var best = StatementRole.unknown
        var bestCount = -1
        for (index, role) in StatementRole.allCases.enumerated() where roles[index] > bestCount {
            best = role
            bestCount = roles[index]
        }
        return best
    }

    func count(of role: StatementRole) -> Int {
        StatementRole.allCases.firstIndex(of: role).map { roles[$0] } ?? 0
    }

    /// The label named most often.
    var mainLabel: String? { labels.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key }

    func stats(fingerprint: String, shape: StatementShape, plan: PlanFlags) -> FingerprintStats {
        var roleCounts: [StatementRole: Int] = [:]
        for (index, role) in StatementRole.allCases.enumerated() where roles[index] > 0 { roleCounts[role] = roles[index] }
        return FingerprintStats(
            fingerprint: fingerprint, kind: shape.kind, role: role, roles: roleCounts, tables: shape.tables, count: count,
            rowsRead: rows, maxRows: maxRows, distinctBindings: runsWithBinds > 0 ? bindHashes.count : 0,
            connectionTime: connection.stats, executionTime: execution.stats, fetchExecutionTime: totals.stats,
            isBookkeeping: shape.isBookkeeping, firstLine: firstLine,
            planScansFilteredTable: plan.scansFilteredTable, planSortsWithTemporaryTree: plan.sortsWithTemporaryTree,
            measuredMilliseconds: runTimes.total * 1000)
    }
}

/// One finished run of a statement, as the analyzer hands it to the segment.
struct StatementRun {
    var fingerprintID: Int
    let box: ShapeBox
    var role: StatementRole
    var rows: Int
    var rowsKnown: Bool
    var connectionSeconds: Double?
    var executionSeconds: Double?
    var totalSeconds: Double?
    var nested: Bool
    var bindHash: Int
    var bindCount: Int
    var line: Int
    var label: String?

    var shape: StatementShape { box.value }
    var bestSeconds: Double? { totalSeconds ?? connectionSeconds ?? executionSeconds }
}

/// What SQLite's query plan said about a fingerprint.
struct PlanFlags: Sendable {
    var scansFilteredTable = false
    var sortsWithTemporaryTree = false
}
