import Foundation

/// Executing fetch requests: objects, object IDs or counts.
extension ObjectContext {
    /// Runs `request`: one statement for the rows (or, with fetchBatchSize, for the IDs, then one per batch
    /// touched), plus one per prefetched key path. Unsaved changes show in the result unless
    /// `includesPendingChanges` is false.
    public func fetch(_ request: FetchRequest) throws -> FetchResults {
        let entity = try model.requireEntity(request.entityName)
        try check(request)
        countFetchRequest()
        let start = DispatchTime.now().uptimeNanoseconds
        let results: FetchResults
        if request.includesPendingChanges && hasPendingChanges(for: entity) {
            results = FetchResults(storage: .objects(try fetchMergingPendingChanges(request, entity: entity)))
        } else if request.fetchBatchSize > 0 {
            let ids = try fetchIDs(request, entity: entity, paging: true)
            results = FetchResults(storage: .batched(BatchedFetch(context: self, entity: entity, ids: ids, request: request)))
        } else {
            let objects = try fetchObjects(request, entity: entity, paging: true)
            if !request.relationshipKeyPathsForPrefetching.isEmpty {
                try Prefetcher(context: self).prefetch(request.relationshipKeyPathsForPrefetching, for: objects, entity: entity)
            }
            results = FetchResults(storage: .objects(objects))
        }
        if let trace = store.sqlTrace {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            trace.annotation("total fetch execution time: \(SQLTrace.seconds(elapsed)) for \(results.count) rows.")
        }
        return results
    }

    /// The IDs of the objects `request` matches (Core Data's managedObjectIDResultType).
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        let entity = try model.requireEntity(request.entityName)
        try check(request)
        if request.includesPendingChanges && hasPendingChanges(for: entity) {
            countFetchRequest()
            return try fetchMergingPendingChanges(request, entity: entity).map(\.objectID)
        }
        countFetchRequest()
        return try fetchIDs(request, entity: entity, paging: true).map {
            ObjectID(entity: entity, primaryKey: $0, temporaryNumber: 0, storeIdentifier: store.identifier)
        }
    }

    /// How many objects `request` matches: one `SELECT COUNT(...)`, no objects.
    public func count(for request: FetchRequest) throws -> Int {
        let entity = try model.requireEntity(request.entityName)
        try check(request)
        if request.includesPendingChanges && hasPendingChanges(for: entity) {
            countFetchRequest()
            return try fetchMergingPendingChanges(request, entity: entity).count
        }
        countFetchRequest()
        let start = DispatchTime.now().uptimeNanoseconds
        let query = try QueryCompiler.compile(request, entity: entity, mode: .count)
        let statement = try bound(query)
        var total = 0
        try self.query(statement, .fetch) { total = Int($0.int64(0)) }
        total = max(0, total - request.fetchOffset)
        if request.fetchLimit > 0 { total = min(total, request.fetchLimit) }
        if let trace = store.sqlTrace {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            trace.annotation("total count request execution time: \(SQLTrace.seconds(elapsed)) for count of \(total).")
        }
        return total
    }

    // MARK: Statements

    private func countFetchRequest() {
        counters.fetchRequests &+= 1
        store.counters.fetchRequests &+= 1
    }

    private func check(_ request: FetchRequest) throws {
        guard request.fetchLimit >= 0, request.fetchOffset >= 0, request.fetchBatchSize >= 0 else {
            throw ObjectGraphError.invalidOperation(
                "fetchLimit, fetchOffset and fetchBatchSize must not be negative (got \(request.fetchLimit), \(request.fetchOffset), \(request.fetchBatchSize))")
        }
    }

    private func bound(_ query: QueryCompiler.Query) throws -> SQLiteStatement {
        let statement = try self.statement(query.sql)
        for (index, value) in query.bindings.enumerated() { statement.bind(value, at: Int32(index + 1)) }
        return statement
    }

    /// The matching rows as registered objects (faults holding their row when returnsObjectsAsFaults).
    func fetchObjects(_ request: FetchRequest, entity: EntityDescription, paging: Bool) throws -> [ManagedObject] {
        guard request.includesPropertyValues else {
            return try fetchIDs(request, entity: entity, paging: paging).map { object(entity, primaryKey: $0) }
        }
        let statement = try bound(QueryCompiler.compile(request, entity: entity, mode: .rows, paging: paging))
        var objects: [ManagedObject] = []
        let asFaults = request.returnsObjectsAsFaults
        try query(statement, .fetch) { row in
            objects.append(materialize(entity, from: row, asFault: asFaults))
        }
        return objects
    }

    /// The matching primary keys, in order: `SELECT 0, t0.Z_PK FROM ...`.
    func fetchIDs(_ request: FetchRequest, entity: EntityDescription, paging: Bool) throws -> ContiguousArray<Int64> {
        let statement = try bound(QueryCompiler.compile(request, entity: entity, mode: .ids, paging: paging))
        var ids = ContiguousArray<Int64>()
        try query(statement, .fetch) { ids.append($0.int64(1)) }
        return ids
    }

    /// One batch of a batched fetch, in the order of `ids`; rows missing from the store come back as faults.
    func fetchBatch(_ entity: EntityDescription, ids: ContiguousArray<Int64>, limit: Int, asFaults: Bool) throws -> [ManagedObject] {
        bindIDList(ids)
        let statement = try self.statement(entity.sql.batchPrefix + " LIMIT \(limit)")
        var fetched: [ManagedObject] = []
        fetched.reserveCapacity(ids.count)
        try query(statement, .batch) { row in fetched.append(materialize(entity, from: row, asFault: asFaults)) }
        // The registry maps keys to the objects just materialized; `fetched` keeps them alive meanwhile.
        return withExtendedLifetime(fetched) { ids.map { object(entity, primaryKey: $0) } }
    }

    // MARK: Pending changes

    private func hasPendingChanges(for entity: EntityDescription) -> Bool {
        guard hasChanges else { return false }
        return insertedCounts[entity.number] > 0 || updated.contains { $0.entity === entity }
            || deleted.contains { $0.entity === entity }
    }

    /// Store results merged with the context's unsaved changes: deleted objects leave, changed objects are
    /// tested again, inserted ones join; then sorting, offset and limit apply in memory.
    private func fetchMergingPendingChanges(_ request: FetchRequest, entity: EntityDescription) throws -> [ManagedObject] {
        var storeRequest = request
        storeRequest.returnsObjectsAsFaults = false
        var results: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        for object in try fetchObjects(storeRequest, entity: entity, paging: false) where !object.isDeleted {
            if object.isUpdated, let predicate = request.predicate, !(try predicate.evaluate(on: object)) { continue }
            results.append(object)
            seen.insert(ObjectIdentifier(object))
        }
        for object in updated + inserted
        where object.entity === entity && !object.isDeleted && !seen.contains(ObjectIdentifier(object)) {
            if let predicate = request.predicate, !(try predicate.evaluate(on: object)) { continue }
            results.append(object)
        }
        if !request.sortDescriptors.isEmpty {
            let keyed = try results.map { object in (object, try request.sortDescriptors.map { try object.value(atKeyPath: $0.keyPath) }) }
            results = keyed.sorted { lhs, rhs in
                for (index, sort) in request.sortDescriptors.enumerated() {
                    let (a, b) = (lhs.1[index], rhs.1[index])
                    if a.sqlEquals(b) { continue }
                    return sort.ascending ? a < b : b < a
                }
                return false
            }.map(\.0)
        }
        if request.fetchOffset > 0 { results = Array(results.dropFirst(request.fetchOffset)) }
        if request.fetchLimit > 0 { results = Array(results.prefix(request.fetchLimit)) }
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            try Prefetcher(context: self).prefetch(request.relationshipKeyPathsForPrefetching, for: results, entity: entity)
        }
        return results
    }
}
