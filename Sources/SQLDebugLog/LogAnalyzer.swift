/// Turns the parser's events into per-segment counters, fingerprint statistics and findings.
///
/// Each row-returning statement opens a unit that Core Data's annotations close: `total fetch execution time`
/// ends it, and the annotation right after says what it was (`fault fulfilled from database`: an object fault;
/// `to-many relationship fault`: a to-many fault; `Prefetching with key`: a prefetch); nothing after it: a fetch
/// request. A statement that reads an id list while another unit is open is that unit's prefetch. Logs that
/// leave the total out (ObjectGraph's, older Core Data) close a unit with the fault or prefetch annotation
/// itself, or when the next statement begins.
public struct LogAnalyzer: Sendable {
    public let options: AnalysisOptions
    var names: NameResolver
    let model: ModelGraph
    /// What each segment (by name) is declared to read, for the rules that need it.
    let access: [String: SegmentAccess]
    /// The SQL texts seen lately (up to 20,000), with their fingerprints and shapes.
    var recentSQL = BytesTable()
    var recentShapes: [(fingerprintID: Int, shape: ShapeBox)] = []
    /// Fingerprints by their bytes; their texts (made once, when new) and shapes by id.
    var fingerprints = BytesTable()
    var tokenBuffer: [SQLToken] = []
    var fingerprintBuffer: [UInt8] = []
    var fingerprintTexts: [String] = []
    var fingerprintShapes: [StatementShape] = []
    var planFlags: [Int: PlanFlags] = [:]
    var stack: [LiveStatement] = []
    var pending: LiveStatement?
    var simple: LiveStatement?
    var latestIsSimple = false
    var latestFingerprint: Int?
    var intarrayPending = false
    var batchRemaining: [String: Int] = [:]
    /// Segments open now, the innermost last; the first is what runs outside every marked segment.
    var openSegments: [SegmentAccumulator] = [SegmentAccumulator(name: LogAnalysis.outsideSegmentName)]
    /// Closed segments, one per name (later ones of a name added to the first), in the order they began.
    var kept: [SegmentAccumulator] = []
    var keptIndex: [String: Int] = [:]
    var segmentsBegun = 0
    var sawMarker = false
    /// Whether a fault annotation (`fault fulfilled`, `to-many relationship fault`) has been seen: until one is,
    /// faults are recognised from the SQL's shape (a log of SQLDebug 1 without them).
    var sawFaultAnnotation = false
    /// Tables a fetch read so far (an object fault of a table nothing fetched is not inferred).
    var fetchedTables = Set<String>()
    var markerProblems = MarkerProblems()
    /// Whether finished statements are kept in `finished` for the caller to take (`takeFinishedStatements()`).
    public var keepsFinishedStatements = false
    var finished: [FinishedStatement] = []

    struct LiveStatement: Sendable {
        var fingerprintID: Int
        let box: ShapeBox
        var line: Int
        var connection: Double?
        var execution: Double?
        var total: Double?
        /// Rows the log reported, and rows the statement's form gives when it reports none.
        var rows: Int?
        var estimated: Int?
        var rowsExact = false
        var nested = false
        var bindHash: UInt64 = 0xcbf2_9ce4_8422_2325
        var bindCount = 0
        var label: String?

        var shape: StatementShape { box.value }

        mutating func update(_ body: (inout LiveStatement) -> Void) { body(&self) }
    }

    public init(mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions(), access: [String: SegmentAccess] = [:]) {
        self.options = options
        self.names = NameResolver(mapping: mapping)
        self.model = ModelGraph(mapping: mapping)
        self.access = access
    }

    var segmentIndex: Int { openSegments.count - 1 }

    public mutating func consume(_ event: LogEvent) {
        switch event {
        case let .statement(statement):
            var sql = statement.sql
            sql.withUTF8 { begin(sql: $0, line: statement.line) }
        case let .bind(index, value):
            updateLatest { live in
                live.bindHash =
                    (live.bindHash ^ value.cheapHash ^ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15) &* 0x100_0000_01b3
                live.bindCount += 1
            }
        case .intarrayBound:
            intarrayPending = true
        case let .connectionFetchTime(seconds):
            updateLatest { if $0.connection == nil { $0.connection = seconds } }
        case let .executionTime(seconds):
            updateLatest { if $0.execution == nil { $0.execution = seconds } }
        case let .fetchTotal(seconds, rows):
            closeUnit(seconds: seconds, rows: rows)
        case let .countTotal(seconds, _):
            resolvePending()
            if var top = stack.popLast() {
                top.total = seconds
                if !top.rowsExact { top.rows = 1 }
                openSegments[segmentIndex].counters.fetchRequests += 1
                finish(top, role: .fetch)
            } else {
                orphan(seconds)
            }
        case let .statementRows(rows, entity):
            if let entity { names.learn(entity: entity) }
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].rows = rows
            stack[stack.count - 1].rowsExact = true
        case .shortCircuitedFetch:
            resolvePending()
            openSegments[segmentIndex].counters.fetchRequests += 1
        case let .objectFault(reference):
            sawFaultAnnotation = true
            if let entity = reference.entity { names.learn(entity: entity) }
            openSegments[segmentIndex].counters.objectFaults += 1
            if let entity = reference.entity { openSegments[segmentIndex].faultEntities[entity, default: 0] += 1 }
            qualify(.objectFault, rows: nil, label: reference.entity) { names, shape in
                if let entity = reference.entity, let table = shape.tables.first { names.learn(table: table, entity: entity) }
            }
        case let .toManyFault(relationship, owner, rows):
            sawFaultAnnotation = true
            if let entity = owner.entity { names.learn(entity: entity) }
            openSegments[segmentIndex].counters.relationshipFaults += 1
            let label = owner.entity.map { "\($0).\(relationship)" } ?? relationship
            qualify(.toManyFault, rows: rows, label: label) { names, shape in
                names.learn(toMany: relationship, ownerEntity: owner.entity, shape: shape)
            }
        case let .prefetch(keyPath, rows):
            // The fetch it belongs to is still open: its entity is where the key path starts.
            if let outer = stack.first, !model.isEmpty, let entity = names.knownFetchedEntity(outer.shape) {
                openSegments[segmentIndex].reach.fetched(entity)
                if let walked = model.relationships(along: keyPath, from: entity) {
                    for relationship in walked { openSegments[segmentIndex].reach.followed(relationship, model: model) }
                }
            }
            qualify(.prefetch, rows: rows, label: keyPath) { _, _ in }
        case let .queryPlan(text):
            notePlan(text)
        case .migration:
            openSegments[segmentIndex].counters.migrationMessages += 1
        case .storeEvent(let text):
            if text.hasPrefix("Connecting to") { openSegments[segmentIndex].counters.storeOpenings += 1 }
        case .problem:
            openSegments[segmentIndex].counters.problems += 1
        case .annotation, .garbled:
            break
        case let .marker(marker):
            mark(marker)
        }
    }

    // MARK: Statements

    /// A statement begins (its SQL as the log holds it, read where it lies: no String is made for it).
    mutating func begin(sql: ByteView, line: Int) {
        resolvePending()
        finishSimple()
        let (fingerprintID, box) = lookup(sql)
        let shape = box.value
        var live = LiveStatement(fingerprintID: fingerprintID, box: box, line: line)
        let readsIDList = intarrayPending || shape.usesIntarray || shape.hasValueList
        intarrayPending = false
        latestFingerprint = fingerprintID
        if shape.returnsRows {
            let nests = !stack.isEmpty && !shape.isBatch && readsIDList && stack.count < 8
            if !nests { abandonUnits() }
            live.nested = nests
            stack.append(live)
            latestIsSimple = false
        } else {
            abandonUnits()
            simple = live
            latestIsSimple = true
        }
    }

    private mutating func updateLatest(_ body: (inout LiveStatement) -> Void) {
        if latestIsSimple {
            simple?.update(body) // in place, not copied out and back
        } else if !stack.isEmpty {
            body(&stack[stack.count - 1])
        }
    }

    /// `total fetch execution time`: the innermost open unit ends, waiting for what the next line says it was.
    private mutating func closeUnit(seconds: Double, rows: Int?) {
        resolvePending()
        guard var top = stack.popLast() else {
            orphan(seconds)
            return
        }
        top.total = seconds
        if !top.rowsExact, let rows { top.rows = rows }
        pending = top
    }

    /// A fault or prefetch annotation: the unit just closed (or, when no total came, the open one) was that.
    private mutating func qualify(
        _ role: StatementRole, rows: Int?, label: String?,
        learn: (inout NameResolver, StatementShape) -> Void
    ) {
        var target: LiveStatement?
        if let closed = pending.take() {
            target = closed
        } else if let open = stack.popLast() {
            target = open
        }
        guard var live = target else { return }
        if !live.rowsExact, live.rows == nil { live.rows = rows ?? (role == .objectFault ? 1 : nil) }
        live.label = label
        learn(&names, live.shape)
        finish(live, role: role)
    }

    /// The unit closed by a total with no fault or prefetch annotation after it: a fetch request (or a batch).
    mutating func resolvePending() {
        guard let closed = pending.take() else { return }
        let role = unterminatedRole(closed)
        if role == .fetch {
            openSegments[segmentIndex].counters.fetchRequests += 1
            if closed.shape.isIDOnly, let rows = closed.rows, let table = closed.shape.tables.first { batchRemaining[table] = rows }
        }
        finish(closed, role: role)
    }

    /// Units still open when something else begins: no annotation closed them.
    mutating func abandonUnits() {
        while var unit = stack.popLast() {
            if unit.rows == nil { unit.estimated = estimatedRows(unit) }
            let role = unterminatedRole(unit)
            if role == .fetch { openSegments[segmentIndex].counters.fetchRequests += 1 }
            finish(unit, role: role)
        }
    }

    private mutating func unterminatedRole(_ live: LiveStatement) -> StatementRole {
        if live.shape.isBookkeeping { return .bookkeeping }
        if live.nested { return .prefetch }
        if live.shape.isBatch { return .batch }
        if let inferred = inferredFault(live) { return inferred }
        if live.total == nil, live.shape.isSingleRowByKey { return .unknown } // a refetch of one row, no fetch request
        return .fetch
    }

    /// In a log that has shown no fault annotation: a single-row select by Z_PK of a table a fetch read before is an
    /// object fault; a select of object IDs by one owner key or through a join table is a to-many fault. Counted,
    /// and marked inferred.
    private mutating func inferredFault(_ live: LiveStatement) -> StatementRole? {
        guard !sawFaultAnnotation, let table = live.shape.tables.first else { return nil }
        if live.shape.isSingleRowByKey, fetchedTables.contains(table) {
            openSegments[segmentIndex].counters.objectFaults += 1
            openSegments[segmentIndex].counters.inferredObjectFaults += 1
            let entity = names.entity(forTable: table).name
            openSegments[segmentIndex].faultEntities[entity, default: 0] += 1
            return .objectFault
        }
        if live.shape.isIDOnly, live.shape.joinTable != nil || live.shape.ownerColumn != nil, !fetchedTables.isEmpty {
            openSegments[segmentIndex].counters.relationshipFaults += 1
            openSegments[segmentIndex].counters.inferredRelationshipFaults += 1
            return .toManyFault
        }
        return nil
    }

    /// Rows of a statement no annotation counted: what its form says, or what is left of a batched fetch.
    private mutating func estimatedRows(_ live: LiveStatement) -> Int? {
        if let known = live.shape.knownRows { return known }
        if live.shape.isSingleRowByKey { return 1 }
        if live.shape.isBatch, let limit = live.shape.limit {
            let table = live.shape.tables.first ?? ""
            let remaining = batchRemaining[table] ?? limit
            let rows = max(0, min(limit, remaining))
            batchRemaining[table] = remaining - rows
            return rows
        }
        return nil
    }

    mutating func finishSimple() {
        guard let live = simple.take() else { return }
        let shape = live.shape
        let role: StatementRole
        if shape.kind == .transaction {
            role = .transaction
        } else if shape.writesModel {
            role = openSegments[segmentIndex].inTransaction && !shape.isBatchRequestForm ? .write : .batchRequest
        } else {
            role = .bookkeeping
        }
        var finished = live
        if finished.rows == nil { finished.rows = 0 } // an INSERT, UPDATE, DELETE or transaction returns no row
        finish(finished, role: role)
    }

    private mutating func finish(_ live: LiveStatement, role: StatementRole) {
        var label = live.label
        if label == nil, role == .objectFault || role == .toManyFault, let table = live.shape.tables.first {
            // An inferred fault: named from the model or the Z names.
            label = role == .objectFault ? names.entity(forTable: table).name : names.toManyRelationship(of: live.shape)?.name
        }
        let run = StatementRun(
            fingerprintID: live.fingerprintID, box: live.box, role: role, rows: max(0, live.rows ?? 0),
            rowsReported: live.rows != nil, estimatedRows: live.estimated ?? live.shape.knownRows, connectionSeconds: live.connection,
            executionSeconds: live.execution, totalSeconds: live.total, nested: live.nested,
            bindHash: Int(truncatingIfNeeded: live.bindHash), bindCount: live.bindCount, line: live.line, label: label)
        openSegments[segmentIndex].record(run, smallSaveRows: options.smallSaveRows)
        if role == .fetch || role == .batch, let table = live.shape.tables.first, !live.shape.isCount {
            if !sawFaultAnnotation, fetchedTables.count < 10_000 { fetchedTables.insert(table) }
            if !model.isEmpty, let entity = names.knownFetchedEntity(live.shape) { openSegments[segmentIndex].reach.fetched(entity) }
        } else if !model.isEmpty, let label {
            if role == .toManyFault, let relationship = model.relationship(qualified: label) {
                openSegments[segmentIndex].reach.followed(relationship, model: model)
            } else if role == .objectFault {
                openSegments[segmentIndex].reach.faulted(label, model: model)
            }
        }
        if keepsFinishedStatements { finished.append(FinishedStatement(run, fingerprint: fingerprintTexts[run.fingerprintID])) }
    }

    private mutating func orphan(_ seconds: Double) {
        openSegments[segmentIndex].counters.fetchRequests += 1
        openSegments[segmentIndex].counters.orphanAnnotations += 1
        openSegments[segmentIndex].counters.fetchExecutionSeconds += seconds
    }

}

extension LogAnalyzer: LogEventSink {
    mutating func statement(sql: ByteView, line: Int, origin: LoggedStatement.Origin) {
        if sql.isASCII() {
            begin(sql: sql, line: line)
        } else {
            // As a LoggedStatement holds it: invalid UTF-8 repaired.
            var text = sql.string
            text.withUTF8 { begin(sql: $0, line: line) }
        }
    }

    mutating func event(_ event: LogEvent) { consume(event) }
}
