/// Finds the patterns worth changing in one segment: to-many faults per owner, to-one faults per object, fetched
/// objects faulted one by one, a walk through a to-many to find one member, a fetch or count per object, small
/// batches, large unbatched fetches, saves in a loop, filters and sorts on unindexed columns, and (where a
/// declared access says what the screen reads) counts through faults, unused prefetches and oversized batches.
/// Bookkeeping statements (store-opening probes, pragmas, primary-key reservation) are never findings.
///
/// The same rules run on a device's log (`bench log`) and on ObjectGraph's exact trace of a scenario's phase
/// (`bench advise`, `bench explain`): both are SQLDebug text, read by the same parser and analyzer.
///
/// Savings are in statements (what transfers to a device) and in the log's own milliseconds: the repeated
/// statements' measured times minus an estimate of the replacement, the slowest of them (one query reading every
/// owner's rows costs about what the largest single one did, plus per-row work the log cannot separate).
struct FindingDetector {
    let options: AnalysisOptions
    let segment: SegmentAccumulator
    let analyzer: LogAnalyzer
    let access: SegmentAccess?

    var threshold: Int { options.repeatThreshold }
    var model: ModelGraph { analyzer.model }
    var statements: Int { segment.counters.sqlStatements }

    /// State one pass over a segment's fingerprints carries from finding to finding.
    struct Pass {
        /// Entities whose faults a to-many finding already explains (its members').
        var explained = Set<String>()
        /// Key paths a to-one finding already advised prefetching (`Order account`).
        var prefetchAdvised = Set<String>()
        /// Properties an unindexed finding already named.
        var unindexed = Set<String>()
        var findings: [Finding] = []
        /// The segment's to-many faults, by fingerprint: what they fault, their members' entity and table, the rows
        /// they listed (resolved once: a segment of thousands of fingerprints compares them all).
        var toManys: [ToManyUse] = []
    }

    struct ToManyUse {
        let id: Int
        let toMany: ToMany
        let member: String?
        let memberTable: String?
        let faults: Int
        let listed: Int
        let firstLine: Int
    }

    func findings(names: inout NameResolver) -> [Finding] {
        var pass = Pass()
        for fingerprint in segment.fingerprints.values {
            let shape = analyzer.fingerprintShapes[fingerprint.id]
            let toManyFaults = fingerprint.count(of: .toManyFault)
            if toManyFaults > 0, let toMany = toMany(fingerprint, shape: shape, names: &names) {
                pass.toManys.append(
                    ToManyUse(
                        id: fingerprint.id, toMany: toMany, member: memberEntity(toMany, shape: shape, names: &names),
                        memberTable: shape.joinTable?.memberTable ?? shape.tables.first, faults: toManyFaults, listed: fingerprint.rows,
                        firstLine: fingerprint.firstLine))
            }
        }
        // To-many faults first: the object faults of their members are part of the same pattern.
        let ordered = segment.fingerprints.values.filter { $0.id < LogAnalyzer.maximumFingerprints }
            .sorted { (Self.rank($0.role), $0.firstLine, $0.id) < (Self.rank($1.role), $1.firstLine, $1.id) }
        for fingerprint in ordered {
            let shape = analyzer.fingerprintShapes[fingerprint.id]
            guard !shape.isBookkeeping else { continue }
            let text = analyzer.fingerprintTexts[fingerprint.id]
            toManyFaults(fingerprint, shape: shape, text: text, names: &names, pass: &pass)
            objectFaults(fingerprint, shape: shape, text: text, names: &names, pass: &pass)
            repeatedFetches(fingerprint, shape: shape, text: text, names: &names, pass: &pass)
            smallBatches(fingerprint, shape: shape, text: text, names: &names, pass: &pass)
            largeFetch(fingerprint, shape: shape, text: text, names: &names, pass: &pass)
            unindexed(fingerprint, shape: shape, text: text, names: &names, pass: &pass)
        }
        saveInLoop(names: &names, pass: &pass)
        if let access { declared(access, names: &names, pass: &pass) }
        return pass.findings
    }

    /// To-many faults before the rest, object faults last.
    static func rank(_ role: StatementRole) -> Int {
        switch role {
        case .toManyFault: return 0
        case .objectFault: return 2
        default: return 1
        }
    }

    func finding(
        _ rule: FindingRule, _ subject: FindingSubject, inferred: Bool, statement: String, repeats: Int, after: Int?,
        summary: String, fix: String, milliseconds: MillisecondSaving?, severity: FindingSeverity? = nil
    ) -> Finding {
        Finding(
            rule: rule, subject: subject, namesInferred: inferred, segment: segment.name, statement: statement, repeats: repeats,
            statements: statements, statementsAfter: after.map { max(1, $0) }, summary: summary, fix: fix,
            milliseconds: milliseconds, severity: severity)
    }

    /// The repeated statements' time against the slowest of them: what one statement replacing them would take.
    func replacedByOne(_ fingerprint: FingerprintAccumulator) -> MillisecondSaving {
        MillisecondSaving(measured: fingerprint.runTimes.total * 1000, replacement: fingerprint.runTimes.maximum * 1000)
    }

    // MARK: Fetches

    /// A fetch repeated more than the threshold: per object with different values, the same values every time, or
    /// a count per object.
    func repeatedFetches(
        _ fingerprint: FingerprintAccumulator, shape: StatementShape, text: String, names: inout NameResolver, pass: inout Pass
    ) {
        let fetches = fingerprint.count(of: .fetch) + fingerprint.count(of: .unknown)
        guard fetches > threshold, shape.kind == .select, let entity = names.fetchedEntity(shape) else { return }
        let subject = FindingSubject.entity(entity.name, members: [])
        let after = statements - fetches + 1
        if shape.isCount {
            pass.findings.append(
                finding(
                    .countPerObject, subject, inferred: entity.inferred, statement: text, repeats: fetches, after: after,
                    summary: "a count request of \(entity.name) per object",
                    fix: "a derived @count attribute on the owner, or one fetch grouped in memory",
                    milliseconds: replacedByOne(fingerprint)))
            return
        }
        let column = shape.ownerColumn ?? shape.filterColumns.first { !$0.column.hasPrefix("Z_") } ?? shape.filterColumns.first
        let property = column.map { names.property($0) }
        if fingerprint.runsWithBinds > 1 && fingerprint.distinctBindings <= 1 {
            pass.findings.append(
                finding(
                    .repeatedFetch, subject, inferred: entity.inferred, statement: text, repeats: fetches, after: after,
                    summary: "the same fetch of \(entity.name) with the same values, again and again",
                    fix: "keep its result (or an NSFetchedResultsController) instead of fetching again",
                    milliseconds: replacedByOne(fingerprint)))
            return
        }
        let key = property.map { String($0.name.split(separator: ".").last ?? "") }
        let values =
            fingerprint.runsWithBinds > 0
            ? "\(fingerprint.distinctBindings)\(fingerprint.distinctBindings >= FingerprintAccumulator.bindingsCounted ? "+" : "") different values"
            : "values not logged (SQLDebug 1)"
        pass.findings.append(
            finding(
                .fetchPerObject, subject, inferred: entity.inferred || property?.inferred == true, statement: text, repeats: fetches,
                after: after, summary: "a fetch request of \(entity.name) per object (\(values))",
                fix: "one fetch with "
                    + (key.map { "predicate \($0) IN %@ over all the values" } ?? "an IN predicate over all their keys")
                    + ", grouped in memory (what prefetching does for a relationship)",
                milliseconds: replacedByOne(fingerprint)))
    }

    /// More batches of one batched fetch than the threshold.
    func smallBatches(
        _ fingerprint: FingerprintAccumulator, shape: StatementShape, text: String, names: inout NameResolver, pass: inout Pass
    ) {
        let batches = fingerprint.count(of: .batch)
        guard batches > threshold, let table = shape.tables.first else { return }
        let entity = names.entity(forTable: table)
        let size = shape.limit ?? fingerprint.firstRows ?? 0
        let rows = fingerprint.estimatedRows
        pass.findings.append(
            finding(
                .smallBatches, .entity(entity.name, members: []), inferred: entity.inferred, statement: text, repeats: batches,
                after: statements - batches + 1, summary: "\(entity.name) fetched in small batches",
                fix:
                    "fetchBatchSize \(Finding.count(size)) loaded \(Finding.count(rows)) rows in \(Finding.count(batches)) batches: to read "
                    + "every row, no batching (fetchBatchSize 0); batching pays for the first screen of a long list",
                milliseconds: replacedByOne(fingerprint)))
    }

    /// A fetch that read at least `largeFetchRows` rows in one statement without fetchBatchSize; not where a
    /// declared access reads every row (then batching only adds statements).
    func largeFetch(
        _ fingerprint: FingerprintAccumulator, shape: StatementShape, text: String, names: inout NameResolver, pass: inout Pass
    ) {
        guard shape.kind == .select, fingerprint.count(of: .fetch) > 0, fingerprint.maxRows >= options.largeFetchRows,
            !shape.isIDOnly, !shape.isBatch, shape.limit == nil, !shape.isCount, let entity = names.fetchedEntity(shape)
        else { return }
        if access?.readsEveryRow(of: entity.name) == true { return }
        let batch = options.suggestedBatchSize
        let measured = fingerprint.maxRowsSeconds * 1000
        pass.findings.append(
            finding(
                .largeUnbatchedFetch, .entity(entity.name, members: []), inferred: entity.inferred, statement: text,
                repeats: fingerprint.count(of: .fetch), after: nil,
                summary: "one fetch read \(Finding.count(fingerprint.maxRows)) rows of \(entity.name) at once",
                fix: "if the screen shows only the first rows, set fetchBatchSize = \(batch) on this fetch: Core Data then fetches "
                    + "the \(Finding.count(fingerprint.maxRows)) object IDs first and their rows \(batch) at a time as they are used "
                    + "(each batch read adds one statement)",
                milliseconds: MillisecondSaving(
                    measured: measured, replacement: measured * Double(batch) / Double(max(1, fingerprint.maxRows)))))
    }

    /// Filters and sorts on unindexed columns where what ran shows the cost: SQLite's plan (SQLDebug 4) scans the
    /// filtered table or sorts in a temporary B-tree, or the model says the column has no index and the fetch repeats
    /// more than the threshold (a scan or a sort per owner). A fetch that runs once is no finding without the plan:
    /// an index costs every save, and `bench lint` names the model's missing ones. One finding per property and kind
    /// in a segment.
    func unindexed(
        _ fingerprint: FingerprintAccumulator, shape: StatementShape, text: String, names: inout NameResolver, pass: inout Pass
    ) {
        let runs = fingerprint.count(of: .fetch) + fingerprint.count(of: .unknown)
        guard shape.kind == .select, runs > 0 else { return }
        let plan = analyzer.planFlags[fingerprint.id] ?? PlanFlags()
        let interesting: (TableColumn) -> Bool = { !$0.column.hasPrefix("Z_") && !$0.column.isEmpty }
        let costly = runs > threshold
        for (rule, columns, planSays) in [
            (FindingRule.unindexedFilter, shape.comparedColumns, plan.scansFilteredTable),
            (.unindexedSort, shape.sortColumns, plan.sortsWithTemporaryTree),
        ] {
            var planUsed = false
            for column in columns where interesting(column) {
                let indexed = names.isIndexed(column)
                let byPlan = planSays && indexed != true && !planUsed
                guard byPlan || (indexed == false && costly) else { continue }
                planUsed = planUsed || byPlan
                let property = names.property(column)
                guard pass.unindexed.insert("\(rule.rawValue) \(property.name)").inserted else { continue }
                let parts = property.name.split(separator: ".", maxSplits: 1).map(String.init)
                let subject = FindingSubject.property(entity: parts.first ?? "?", name: parts.count > 1 ? parts[1] : "?")
                let evidence =
                    byPlan
                    ? "SQLite's query plan " + (rule == .unindexedFilter ? "scans the table" : "sorts in a temporary B-tree")
                    : "no index in the model; \(Finding.count(runs)) fetches"
                pass.findings.append(
                    finding(
                        rule, subject, inferred: property.inferred, statement: text, repeats: runs, after: nil,
                        summary: "\(rule == .unindexedFilter ? "filter" : "sort") on unindexed \(property.name) (\(evidence))",
                        fix: rule == .unindexedFilter
                            ? "add a fetch index on \(property.name) (the entity's Indexes in the Xcode model)"
                            : "add a fetch index on \(property.name) so that SQLite reads the rows in order instead of sorting them",
                        milliseconds: nil))
            }
        }
    }

    // MARK: Saves

    /// More small saves than the threshold in one segment.
    func saveInLoop(names: inout NameResolver, pass: inout Pass) {
        let saves = segment.saves
        guard saves.smallSaves > threshold else { return }
        let main = segment.smallSaveWrites.max { ($0.value, $1.key) < ($1.value, $0.key) }
        let entity = main.flatMap { analyzer.fingerprintShapes[$0.key].tables.first }.map { names.entity(forTable: $0) }
        let share = Double(saves.smallSaves - 1) / Double(saves.smallSaves)
        let overhead = Int((Double(saves.smallSaveOverheadStatements) * share).rounded())
        let saved = saves.smallSaveOverheadMilliseconds * share
        pass.findings.append(
            finding(
                .saveInLoop, entity.map { .entity($0.name, members: []) } ?? .none, inferred: entity?.inferred ?? false,
                statement: "", repeats: saves.smallSaves, after: statements - overhead,
                summary: "\(Finding.count(saves.smallSaves)) small saves (transactions of at most \(options.smallSaveRows) row writes)",
                fix: "save once after the loop (or every few hundred objects) instead of \(Finding.count(saves.smallSaves)) saves; "
                    + "for an import, NSBatchInsertRequest writes without a context",
                milliseconds: MillisecondSaving(
                    measured: saves.smallSaveOverheadMilliseconds, replacement: saves.smallSaveOverheadMilliseconds - saved)))
    }

    // MARK: Declared access

    /// What a declared access allows: prefetches no read uses, batches far above the rows read.
    func declared(_ access: SegmentAccess, names: inout NameResolver, pass: inout Pass) {
        for fetch in access.fetches {
            for keyPath in fetch.prefetch where !fetch.reads.contains(where: { $0 == keyPath || $0.hasPrefix(keyPath + ".") }) {
                let prefetched = segment.prefetches[keyPath] ?? PrefetchUse()
                pass.findings.append(
                    finding(
                        .unusedPrefetch, .keyPath(entity: fetch.entity, path: keyPath), inferred: false,
                        statement: prefetched.statement.map { analyzer.fingerprintTexts[$0] } ?? "", repeats: prefetched.statements,
                        after: statements - prefetched.statements, summary: "prefetch of \(fetch.entity).\(keyPath) never read",
                        fix: "drop \"\(keyPath)\" from relationshipKeyPathsForPrefetching: no read of this screen uses its "
                            + "\(Finding.count(prefetched.rows)) rows",
                        milliseconds: nil))
            }
            if fetch.batchSize > 0, let first = fetch.first, fetch.batchSize > 4 * max(first, 1) {
                pass.findings.append(
                    finding(
                        .oversizedBatch, .entity(fetch.entity, members: []), inferred: false, statement: "", repeats: 0, after: nil,
                        summary: "batches of \(fetch.entity) far larger than the rows read",
                        fix: "fetchBatchSize \(fetch.batchSize) loads \(fetch.batchSize) rows for the \(first) read: about twice the "
                            + "rows on screen (\(2 * first)) is enough (objc.io)",
                        milliseconds: nil))
            }
        }
    }
}
