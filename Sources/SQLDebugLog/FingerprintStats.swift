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
    /// Distinct sets of bound values seen (counted up to 64); 0 when the log shows no binds (SQLDebug 1).
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
    /// Distinct sets of bound values told apart per fingerprint: enough to tell one value from many.
    static let bindingsCounted = 64

    let id: Int
    var count = 0
    /// Rows the log reported for its runs.
    var rows = 0
    /// Rows with what the log does not report but the statement's form gives (a batch: what is left of its ID fetch).
    var estimatedRows = 0
    var maxRows = 0
    var maxRowsSeconds: Double = 0
    /// Rows of its first run (reported or estimated), nil before one.
    var firstRows: Int?
    var roles = RoleCounts()
    var connection = TimeHistogram()
    var execution = TimeHistogram()
    var totals = TimeHistogram()
    /// Per run: the best time the log gives (total, else connection, else execution).
    var runTimes = TimeTotal()
    var bindHashes = SmallList<Int>()
    var runsWithBinds = 0
    var firstLine: Int
    /// What the annotations named, per role: the relationship of a to-many fault (`Class.students`), the entity of
    /// an object fault, a prefetch's key path (at most 64; a fingerprint mostly names one or two, searched in order:
    /// profiled, hashing the label of every fault cost 2%).
    var labels = SmallList<(label: Label, count: Int, hash: UInt64)>()

    struct Label: Hashable, Sendable {
        var role: StatementRole
        var text: String
    }

    init(id: Int, firstLine: Int) {
        self.id = id
        self.firstLine = firstLine
    }

    mutating func add(_ run: StatementRun) {
        count += 1
        rows += run.rows
        let estimated = run.rowsReported ? run.rows : run.estimatedRows ?? 0
        estimatedRows += estimated
        if firstRows == nil { firstRows = estimated }
        if run.rows > maxRows {
            maxRows = run.rows
            maxRowsSeconds = run.bestSeconds ?? 0
        }
        roles[run.role] += 1
        if let seconds = run.connectionSeconds { connection.add(seconds) }
        if let seconds = run.executionSeconds { execution.add(seconds) }
        if let seconds = run.totalSeconds, !run.nested { totals.add(seconds) }
        runTimes.add(run.bestSeconds ?? 0)
        if let label = run.label { count(Label(role: run.role, text: label), 1) }
        if run.bindCount > 0 {
            runsWithBinds += 1
            if bindHashes.count < Self.bindingsCounted, !bindHashes.contains(where: { $0 == run.bindHash }) {
                bindHashes.append(run.bindHash)
            }
        }
    }

    /// Adds another segment's runs of the same fingerprint (two visits of one screen).
    mutating func merge(_ other: FingerprintAccumulator) {
        count += other.count
        rows += other.rows
        estimatedRows += other.estimatedRows
        if other.maxRows > maxRows {
            maxRows = other.maxRows
            maxRowsSeconds = other.maxRowsSeconds
        }
        if firstRows == nil { firstRows = other.firstRows }
        roles.add(other.roles)
        connection.merge(other.connection)
        execution.merge(other.execution)
        totals.merge(other.totals)
        runTimes.merge(other.runTimes)
        other.bindHashes.forEach { hash in
            if bindHashes.count < Self.bindingsCounted && !bindHashes.contains(where: { $0 == hash }) { bindHashes.append(hash) }
        }
        runsWithBinds += other.runsWithBinds
        firstLine = min(firstLine, other.firstLine)
        other.labels.forEach { count($0.label, $0.count) }
    }

    private mutating func count(_ label: Label, _ number: Int) {
        // Compared by a hash of the text first (profiled: the statements past `maximumFingerprints` share one
        // fingerprint whose 64 labels were compared as strings at every run, 5% of reading a log of distinct ones).
        var text = label.text
        let hash = text.withUTF8 { $0.fastHash } ^ UInt64(label.role.index)
        if labels.update(where: { $0.hash == hash && $0.label == label }, { $0.count += number }) { return }
        if labels.count < 64 { labels.append((label, number, hash)) }
    }

    var distinctBindings: Int { bindHashes.count }

    var role: StatementRole { roles.main }

    func count(of role: StatementRole) -> Int { roles[role] }

    /// The label named most often for runs of `role` (ties: the first by name).
    func mainLabel(of role: StatementRole) -> String? {
        var best: (label: Label, count: Int, hash: UInt64)?
        labels.forEach { entry in
            guard entry.label.role == role else { return }
            if let current = best, (entry.count, current.label.text) <= (current.count, entry.label.text) { return }
            best = entry
        }
        return best?.label.text
    }

    func stats(fingerprint: String, shape: StatementShape, plan: PlanFlags) -> FingerprintStats {
        FingerprintStats(
            fingerprint: fingerprint, kind: shape.kind, role: role, roles: roles.dictionary, tables: shape.tables, count: count,
            rowsRead: rows, maxRows: maxRows, distinctBindings: runsWithBinds > 0 ? distinctBindings : 0,
            connectionTime: connection.stats, executionTime: execution.stats, fetchExecutionTime: totals.stats,
            isBookkeeping: shape.isBookkeeping, firstLine: firstLine,
            planScansFilteredTable: plan.scansFilteredTable, planSortsWithTemporaryTree: plan.sortsWithTemporaryTree,
            measuredMilliseconds: runTimes.total * 1000)
    }
}

/// Statements by role, held inline (profiled: an array of them, allocated for every fingerprint of every segment, and the
/// other per-fingerprint arrays cost a tenth of reading a log of distinct statements, with their teardown).
struct RoleCounts: Sendable, Equatable {
    private var counts: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    subscript(role: StatementRole) -> Int {
        get { withUnsafeBytes(of: counts) { $0.load(fromByteOffset: role.index * MemoryLayout<Int>.stride, as: Int.self) } }
        set {
            withUnsafeMutableBytes(of: &counts) {
                $0.storeBytes(of: newValue, toByteOffset: role.index * MemoryLayout<Int>.stride, as: Int.self)
            }
        }
    }

    mutating func add(_ other: RoleCounts) {
        for role in StatementRole.allCases { self[role] += other[role] }
    }

    static func == (left: RoleCounts, right: RoleCounts) -> Bool {
        StatementRole.allCases.allSatisfy { left[$0] == right[$0] }
    }

    /// The role counted most often (ties: the first declared).
    var main: StatementRole {
        var best = StatementRole.unknown
        var bestCount = -1
        for role in StatementRole.allCases where self[role] > bestCount {
            best = role
            bestCount = self[role]
        }
        return best
    }

    var dictionary: [StatementRole: Int] {
        var result: [StatementRole: Int] = [:]
        for role in StatementRole.allCases where self[role] > 0 { result[role] = self[role] }
        return result
    }
}

extension StatementRole {
    /// The position in `allCases`.
    var index: Int {
        switch self {
        case .fetch: return 0
        case .objectFault: return 1
        case .toManyFault: return 2
        case .prefetch: return 3
        case .batch: return 4
        case .write: return 5
        case .batchRequest: return 6
        case .transaction: return 7
        case .bookkeeping: return 8
        case .unknown: return 9
        }
    }
}

/// One finished run of a statement, as the analyzer hands it to the segment.
struct StatementRun {
    var fingerprintID: Int
    let box: ShapeBox
    var role: StatementRole
    /// Rows the log reported (0 when it did not: then `rowsReported` is false for a statement that returns rows).
    var rows: Int
    var rowsReported: Bool
    /// Rows the statement's form gives when the log reports none (a batch, a count, a pragma), or nil.
    var estimatedRows: Int?
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

/// A list whose first element is held inline: most fingerprints bind one set of values and name one label, and a
/// list of one no longer allocates (see `RoleCounts`). In order of insertion.
struct SmallList<Element> {
    private var first: Element?
    private var rest: [Element] = []

    var count: Int { first == nil ? 0 : 1 + rest.count }

    mutating func append(_ element: Element) {
        if first == nil { first = element } else { rest.append(element) }
    }

    func forEach(_ body: (Element) -> Void) {
        guard let first else { return }
        body(first)
        for element in rest { body(element) }
    }

    func contains(where predicate: (Element) -> Bool) -> Bool {
        guard let first else { return false }
        return predicate(first) || rest.contains(where: predicate)
    }

    /// Changes the first element that `predicate` holds for; false when there is none.
    mutating func update(where predicate: (Element) -> Bool, _ change: (inout Element) -> Void) -> Bool {
        guard var element = first else { return false }
        if predicate(element) {
            change(&element)
            first = element
            return true
        }
        for index in rest.indices where predicate(rest[index]) {
            change(&rest[index])
            return true
        }
        return false
    }
}

extension SmallList: Sendable where Element: Sendable {}
