/// Everything counted for one segment while the log is read (and, once it closed, for every segment of its name).
struct SegmentAccumulator: Sendable {
    var name: String
    var beginLine: Int?
    var endLine: Int?
    var closed = false
    var signpostID: String?
    var counters = LogCounters()
    var fingerprints: [Int: FingerprintAccumulator] = [:]
    var faultEntities: [String: Int] = [:]
    var saves = SaveSizes()
    /// Fingerprints of the row writes of small saves, with how often.
    var smallSaveWrites: [Int: Int] = [:]
    /// How the entities met were reached from the segment's fetches (with a model).
    var reach = ReachMap()
    /// Prefetches by key path: statements, rows, and a fingerprint of them.
    var prefetches: [String: PrefetchUse] = [:]
    /// DELETE statements per table (a save deleting objects, a batch delete): what tells delete rules' own faulting
    /// from a screen's reads.
    var deletes: [String: Int] = [:]
    /// Segments of this name that were begun, and of those, never ended.
    var occurrences = 1
    var unclosed = 0
    /// The order segments began in (the outside segment is 0): the analysis lists names in the order their first began.
    var sequence = 0
    var findings: [Finding] = []
    private var transaction: Transaction?
    /// A transaction that wrote no model rows (a save's primary-key reservation), carried to the next save.
    private var carried = (statements: 0, seconds: 0.0)

    private struct Transaction {
        var statements = 1
        var seconds = 0.0
        var writes = 0
        var writeFingerprints: [Int: Int] = [:]
    }

    init(name: String, beginLine: Int? = nil, signpostID: String? = nil) {
        self.name = name
        self.beginLine = beginLine
        self.signpostID = signpostID
    }

    var inTransaction: Bool { transaction != nil }

    /// Statements by role, from the fingerprints (counted there, not per statement in a dictionary).
    var statementsByRole: [StatementRole: Int] {
        var roles = RoleCounts()
        for fingerprint in fingerprints.values { roles.add(fingerprint.roles) }
        return roles.dictionary
    }

    /// Tables touched: statements that name each, and rows read by statements whose main table it is.
    func tableUsage(shapes: [StatementShape]) -> [String: (statements: Int, rows: Int)] {
        var usage: [String: (statements: Int, rows: Int)] = [:]
        for (id, fingerprint) in fingerprints {
            for (index, table) in shapes[id].tables.prefix(6).enumerated() {
                var entry = usage[table] ?? (0, 0)
                entry.statements += fingerprint.count
                if index == 0 { entry.rows += fingerprint.rows }
                usage[table] = entry
            }
        }
        return usage
    }

    /// Adds a closed segment of the same name: its counts, fingerprints, saves and findings (a finding seen again
    /// counts one more occurrence, keeping the figures of the visit where it repeated most).
    mutating func merge(_ other: SegmentAccumulator) {
        counters.add(other.counters)
        for (id, fingerprint) in other.fingerprints {
            if var kept = fingerprints[id] {
                kept.merge(fingerprint)
                fingerprints[id] = kept
            } else {
                fingerprints[id] = fingerprint
            }
        }
        for (entity, count) in other.faultEntities { faultEntities[entity, default: 0] += count }
        for (table, count) in other.deletes { deletes[table, default: 0] += count }
        saves.add(other.saves)
        for (id, count) in other.smallSaveWrites { smallSaveWrites[id, default: 0] += count }
        endLine = other.endLine ?? endLine
        closed = closed && other.closed
        occurrences += other.occurrences
        unclosed += other.unclosed
        for finding in other.findings {
            if let index = findings.firstIndex(where: { $0.id == finding.id }) {
                var merged = finding.repeats > findings[index].repeats ? finding : findings[index]
                merged.occurrences = findings[index].occurrences + finding.occurrences
                findings[index] = merged
            } else {
                findings.append(finding)
            }
        }
    }

    var isEmpty: Bool {
        counters.sqlStatements == 0 && counters.objectFaults == 0 && counters.relationshipFaults == 0
            && counters.fetchRequests == 0 && counters.problems == 0 && counters.migrationMessages == 0
    }

    mutating func record(_ run: StatementRun, smallSaveRows: Int) {
        counters.sqlStatements += 1
        counters.statementsByKind[run.shape.kind] += 1
        counters.rowsRead += run.rows
        if run.shape.returnsRows {
            if run.rowsReported {
                counters.statementsWithReportedRows += 1
            } else {
                counters.statementsWithUnreportedRows += 1
            }
        }
        if run.shape.kind == .delete, let table = run.shape.tables.first, deletes.count < 256 || deletes[table] != nil {
            deletes[table, default: 0] += 1
        }
        if run.role == .prefetch, let label = run.label, prefetches.count < 64 || prefetches[label] != nil {
            prefetches[label, default: PrefetchUse()].add(run)
        }
        if let seconds = run.connectionSeconds { counters.connectionSeconds += seconds }
        if let seconds = run.executionSeconds { counters.executionSeconds += seconds }
        if let seconds = run.totalSeconds, !run.nested { counters.fetchExecutionSeconds += seconds }
        // Mutated in place: a copy out of the dictionary would copy its bind set at every run.
        fingerprints[run.fingerprintID, default: FingerprintAccumulator(id: run.fingerprintID, firstLine: run.line)].add(run)
        track(run, smallSaveRows: smallSaveRows)
    }

    /// Transactions and saves: BEGIN ... COMMIT with model row writes is a save.
    private mutating func track(_ run: StatementRun, smallSaveRows: Int) {
        let seconds = run.bestSeconds ?? 0
        switch run.shape.verb {
        case .begin:
            counters.transactions += 1
            transaction = Transaction(statements: 1, seconds: seconds)
        case .commit:
            guard var open = transaction else { return }
            transaction = nil
            open.statements += 1
            open.seconds += seconds
            guard open.writes > 0 else {
                carried.statements += open.statements
                carried.seconds += open.seconds
                return
            }
            counters.saves += 1
            saves.saves += 1
            saves.rowsWritten += open.writes
            if open.writes <= smallSaveRows {
                saves.smallSaves += 1
                saves.smallSaveOverheadStatements += open.statements - open.writes + carried.statements
                saves.smallSaveOverheadMilliseconds += (open.seconds + carried.seconds) * 1000
                for (fingerprint, count) in open.writeFingerprints { smallSaveWrites[fingerprint, default: 0] += count }
            }
            carried = (0, 0)
        case .rollback:
            counters.rollbacks += 1
            transaction = nil
            carried = (0, 0)
        case .none:
            if var open = transaction {
                open.statements += 1
                if run.role == .write {
                    open.writes += 1
                    open.writeFingerprints[run.fingerprintID, default: 0] += 1
                } else {
                    open.seconds += seconds
                }
                transaction = open
            } else if run.shape.kind != .pragma {
                carried = (0, 0)
            }
        }
    }
}

/// The statements and rows of one prefetched key path in a segment.
struct PrefetchUse: Sendable {
    var statements = 0
    var rows = 0
    var statement: Int?

    mutating func add(_ run: StatementRun) {
        statements += 1
        rows += run.rowsReported ? run.rows : run.estimatedRows ?? 0
        if statement == nil { statement = run.fingerprintID }
    }
}
