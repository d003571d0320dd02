/// Finds the patterns worth changing in one segment: N+1 fetches, fault chains, to-many faults per object,
/// large unbatched fetches, saves in a loop, and filters or sorts on unindexed columns. Bookkeeping statements
/// (store-opening probes, pragmas, primary-key reservation) are never findings.
///
/// Savings are in the log's own milliseconds: the repeated statements' measured times minus an estimate of the
/// replacement. A statement replacing N repeats is estimated at the slowest of them (one query reading every
/// owner's rows costs about what the largest single one did, plus per-row work the log cannot separate).
struct FindingDetector {
    let options: AnalysisOptions
    let accumulator: SegmentAccumulator
    let analyzer: LogAnalyzer

    func findings(names: inout NameResolver) -> [LogFinding] {
        var result: [LogFinding] = []
        let ordered = accumulator.fingerprints.values.sorted { ($0.count, $1.firstLine) > ($1.count, $0.firstLine) }
        for fingerprint in ordered {
            let shape = analyzer.fingerprintShapes[fingerprint.id]
            guard !shape.isBookkeeping else { continue }
            let text = analyzer.fingerprintTexts[fingerprint.id]
            result += repeats(fingerprint, shape: shape, text: text, names: &names)
            if let large = largeFetch(fingerprint, shape: shape, text: text, names: &names) { result.append(large) }
            result += unindexed(fingerprint, shape: shape, text: text, names: &names)
        }
        if let saves = saveInLoop(names: &names) { result.append(saves) }
        return result
    }

    private func finding(
        _ pattern: LogFinding.Pattern, _ fingerprint: FingerprintAccumulator, text: String, repeats: Int,
        entity: ResolvedName?, relationship: ResolvedName?, fix: String, summary: String,
        replaceWithOne: Bool = true
    ) -> LogFinding {
        let measured = fingerprint.runTimes.total * 1000
        let replacement = replaceWithOne ? fingerprint.runTimes.maximum * 1000 : nil
        return LogFinding(
            pattern: pattern, segment: accumulator.name, fingerprint: text, repeats: repeats, entity: entity,
            relationship: relationship, fix: fix, statementsSaved: replaceWithOne ? max(0, fingerprint.count - 1) : nil,
            measuredMilliseconds: measured, replacementMilliseconds: replacement,
            millisecondsSaved: replacement.map { max(0, measured - $0) }, summary: summary)
    }

    /// To-many faults, object faults and fetches repeated more than the threshold.
    private func repeats(
        _ fingerprint: FingerprintAccumulator, shape: StatementShape, text: String,
        names: inout NameResolver
    ) -> [LogFinding] {
        let threshold = options.repeatThreshold
        var found: [LogFinding] = []
        let toMany = fingerprint.count(of: .toManyFault)
        if toMany > threshold {
            let relationship = fingerprint.mainLabel.map { ResolvedName(name: $0, inferred: false) } ?? names.toManyRelationship(of: shape)
            let parts = (relationship?.name ?? "").split(separator: ".", maxSplits: 1).map(String.init)
            let owner = parts.count == 2 ? parts[0] : "the owners"
            let fix: String
            if parts.count == 2, relationship?.inferred == false {
                let key = parts[1]
                fix =
                    "add relationshipKeyPathsForPrefetching [\"\(key)\"] to the fetch of \(owner): one query reads every owner's "
                    + "members (\(toMany) statements → 1); if only the number of members is shown, a derived attribute "
                    + "\(key)Count = \(key).@count reads none"
            } else {
                fix =
                    "prefetch this to-many relationship (\(relationship?.name ?? "?"), name inferred from the Z names) with "
                    + "relationshipKeyPathsForPrefetching on the fetch of its owners: one query for every owner's members "
                    + "(\(toMany) statements → 1); if only their number is shown, a derived @count attribute reads none"
            }
            found.append(
                finding(
                    .toManyFaultPerObject, fingerprint, text: text, repeats: toMany,
                    entity: ResolvedName(name: owner, inferred: relationship?.inferred ?? true), relationship: relationship,
                    fix: fix, summary: "\(toMany) × to-many fault \(relationship?.name ?? "") per owner"))
        }
        let faults = fingerprint.count(of: .objectFault)
        if faults > threshold {
            let entity =
                fingerprint.mainLabel.map { ResolvedName(name: $0, inferred: false) }
                ?? shape.tables.first.map { names.entity(forTable: $0) }
            let entityName = entity?.name ?? "the objects"
            var fix = "fetch the \(entityName) objects together, one fetch with predicate SELF IN %@ (\(faults) faults → 1 statement)"
            var relationship: ResolvedName?
            if let toMany = toManyLeadingTo(table: shape.tables.first) {
                // The faulted objects are members a to-many fault listed: prefetching it also fetches their rows.
                relationship = ResolvedName(name: toMany, inferred: false)
                let parts = toMany.split(separator: ".", maxSplits: 1).map(String.init)
                if parts.count == 2 {
                    fix =
                        "add relationshipKeyPathsForPrefetching [\"\(parts[1])\"] to the fetch of \(parts[0]): the members the to-many "
                        + "fault \(toMany) listed come with their rows (none of the \(faults) faults runs a statement); or " + fix
                }
            } else if let owner = ownerLeadingTo(table: shape.tables.first, names: &names) {
                relationship = owner.relationship
                fix =
                    "add relationshipKeyPathsForPrefetching [\"\(owner.keyPath)\"] to the fetch of \(owner.entity.name): one query "
                    + "fulfils every \(entityName) (\(faults) faults → 1 statement); or " + fix
            }
            found.append(
                finding(
                    .faultChain, fingerprint, text: text, repeats: faults, entity: entity, relationship: relationship,
                    fix: fix, summary: "\(faults) × object fault of \(entityName), one by one"))
        }
        let fetches = fingerprint.count(of: .fetch) + fingerprint.count(of: .unknown)
        if fetches > threshold, shape.kind == .select {
            let entity = shape.tables.first.map { names.entity(forTable: $0) }
            let column = shape.ownerColumn ?? shape.filterColumns.first
            let property = column.map { names.property($0) }
            let sameValues = fingerprint.runsWithBinds > 1 && fingerprint.bindHashes.count <= 1
            if sameValues {
                let fix =
                    "the same fetch ran \(fetches) times with the same values: keep its result (or an "
                    + "NSFetchedResultsController) instead of fetching again"
                found.append(
                    finding(
                        .repeatedQuery, fingerprint, text: text, repeats: fetches, entity: entity, relationship: property,
                        fix: fix, summary: "\(fetches) × the same fetch of \(entity?.name ?? "?") with the same values"))
            } else {
                let key = property.map { String($0.name.split(separator: ".").last ?? "") } ?? "key"
                let fix =
                    "fetch once for every value: predicate \(key) IN %@ with all the values, or prefetch the "
                    + "relationship (relationshipKeyPathsForPrefetching) on the fetch of the owners (\(fetches) statements → 1)"
                let values =
                    fingerprint.runsWithBinds > 0 ? "\(fingerprint.bindHashes.count) different values" : "values not logged (SQLDebug 1)"
                found.append(
                    finding(
                        .nPlusOne, fingerprint, text: text, repeats: fetches, entity: entity, relationship: property,
                        fix: fix, summary: "\(fetches) × one fetch of \(entity?.name ?? "?") per owner (\(values))"))
            }
        }
        return found
    }

    /// A fetch that read at least `largeFetchRows` rows in one statement without fetchBatchSize.
    private func largeFetch(
        _ fingerprint: FingerprintAccumulator, shape: StatementShape, text: String,
        names: inout NameResolver
    ) -> LogFinding? {
        guard shape.kind == .select, fingerprint.count(of: .fetch) > 0, fingerprint.maxRows >= options.largeFetchRows,
            !shape.isIDOnly, !shape.isBatch, shape.limit == nil, !shape.isCount
        else { return nil }
        let entity = shape.tables.first.map { names.entity(forTable: $0) }
        let batch = options.suggestedBatchSize
        let measured = fingerprint.maxRowsSeconds * 1000
        let replacement = measured * Double(batch) / Double(max(1, fingerprint.maxRows))
        let fix =
            "set fetchBatchSize = \(batch) on this fetch of \(entity?.name ?? "?"): Core Data then fetches the "
            + "\(fingerprint.maxRows) object IDs first and their rows \(batch) at a time as they are used"
        return LogFinding(
            pattern: .largeUnbatchedFetch, segment: accumulator.name, fingerprint: text, repeats: fingerprint.count(of: .fetch),
            entity: entity, relationship: nil, fix: fix, statementsSaved: 0, measuredMilliseconds: measured,
            replacementMilliseconds: replacement, millisecondsSaved: max(0, measured - replacement),
            summary:
                "one fetch read \(fingerprint.maxRows) rows of \(entity?.name ?? "?") at once (saving if only the first batch is read; "
                + "each batch read later adds one statement)")
    }

    /// Filters and sorts on columns the caller's mapping says have no index, or that SQLite's plan scans or sorts.
    private func unindexed(
        _ fingerprint: FingerprintAccumulator, shape: StatementShape, text: String,
        names: inout NameResolver
    ) -> [LogFinding] {
        let runs = fingerprint.count(of: .fetch) + fingerprint.count(of: .unknown)
        guard shape.kind == .select, runs > 0 else { return [] }
        let plan = analyzer.planFlags[fingerprint.id] ?? PlanFlags()
        var found: [LogFinding] = []
        let interesting: (TableColumn) -> Bool = { !$0.column.hasPrefix("Z_") && !$0.column.isEmpty }
        var planUsed = false
        for column in shape.filterColumns where interesting(column) {
            let indexed = names.isIndexed(column)
            guard indexed == false || (indexed == nil && plan.scansFilteredTable && !planUsed) else { continue }
            planUsed = planUsed || indexed == nil
            let property = names.property(column)
            found.append(
                finding(
                    .unindexedFilter, fingerprint, text: text, repeats: runs, entity: names.entity(forTable: column.table),
                    relationship: property,
                    fix: "add a fetch index on \(property.name) (the entity's Indexes in the Xcode model): \(runs) fetches filter on it",
                    summary: "\(runs) × filter on unindexed \(property.name)", replaceWithOne: false))
        }
        planUsed = false
        for column in shape.sortColumns where interesting(column) {
            let indexed = names.isIndexed(column)
            guard indexed == false || (indexed == nil && plan.sortsWithTemporaryTree && !planUsed) else { continue }
            planUsed = planUsed || indexed == nil
            let property = names.property(column)
            found.append(
                finding(
                    .unindexedSort, fingerprint, text: text, repeats: runs, entity: names.entity(forTable: column.table),
                    relationship: property,
                    fix: "add a fetch index on \(property.name) so that SQLite reads the rows in order instead of sorting them",
                    summary: "\(runs) × sort on unindexed \(property.name)", replaceWithOne: false))
        }
        return found
    }

    /// More small saves than the threshold in one segment.
    private func saveInLoop(names: inout NameResolver) -> LogFinding? {
        let saves = accumulator.saves
        guard saves.smallSaves > options.repeatThreshold else { return nil }
        let main = accumulator.smallSaveWrites.max { ($0.value, $1.key) < ($1.value, $0.key) }
        let text = main.map { analyzer.fingerprintTexts[$0.key] } ?? ""
        let entity = main.flatMap { analyzer.fingerprintShapes[$0.key].tables.first }.map { names.entity(forTable: $0) }
        let share = Double(saves.smallSaves - 1) / Double(saves.smallSaves)
        let statements = Int((Double(saves.smallSaveOverheadStatements) * share).rounded())
        let saved = saves.smallSaveOverheadMilliseconds * share
        return LogFinding(
            pattern: .saveInLoop, segment: accumulator.name, fingerprint: text, repeats: saves.smallSaves, entity: entity,
            relationship: nil,
            fix: "save once after the loop (or every few hundred objects) instead of \(saves.smallSaves) saves of at most "
                + "\(options.smallSaveRows) rows; for an import, NSBatchInsertRequest writes without a context",
            statementsSaved: statements, measuredMilliseconds: saves.smallSaveOverheadMilliseconds,
            replacementMilliseconds: saves.smallSaveOverheadMilliseconds - saved, millisecondsSaved: saved,
            summary: "\(saves.smallSaves) small saves (transactions of at most \(options.smallSaveRows) row writes)")
    }

    /// The to-many relationship (named by its fault annotations) whose members live in `table`.
    private func toManyLeadingTo(table: String?) -> String? {
        guard let table else { return nil }
        var best: (String, Int)?
        for (id, other) in accumulator.fingerprints where other.count(of: .toManyFault) > 0 {
            let shape = analyzer.fingerprintShapes[id]
            let member = shape.joinTable?.memberTable ?? shape.ownerColumn?.table
            guard member == table, let label = other.mainLabel else { continue }
            let count = other.count(of: .toManyFault)
            if best == nil || count > best?.1 ?? 0 { best = (label, count) }
        }
        return best?.0
    }

    /// A fetched entity with a to-one column named after `table`'s entity (`ZSTUDENT.ZADDRESS` leads to `ZADDRESS`).
    private func ownerLeadingTo(
        table: String?, names: inout NameResolver
    ) -> (entity: ResolvedName, keyPath: String, relationship: ResolvedName)? {
        guard let table, table.hasPrefix("Z"), !table.hasPrefix("Z_") else { return nil }
        let needle = "t0.\(table)"
        for (id, other) in accumulator.fingerprints where other.count(of: .fetch) > 0 {
            let shape = analyzer.fingerprintShapes[id]
            guard let ownerTable = shape.tables.first, ownerTable != table else { continue }
            let text = analyzer.fingerprintTexts[id]
            guard let from = text.firstRange(of: " FROM ") else { continue }
            let selectList = text[..<from.lowerBound]
            guard selectList.contains(needle + ",") || selectList.hasSuffix(needle) else { continue }
            let property = names.property(TableColumn(table: ownerTable, column: table))
            let keyPath = String(property.name.split(separator: ".").last ?? "").lowercased()
            return (names.entity(forTable: ownerTable), keyPath, property)
        }
        return nil
    }
}
