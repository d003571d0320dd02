import Foundation

/// Executing fetch requests: objects, object IDs or counts.
extension ObjectContext {
    /// Runs `request`: one statement for the rows (or, with fetchBatchSize, for the IDs, then one per batch
    /// touched), plus one per prefetched key path. Unsaved changes show in the result unless
    /// `includesPendingChanges` is false. Fetching a parent entity returns its sub-entities' objects too, unless
    /// `includesSubentities` is false.
    public func fetch(_ request: FetchRequest) throws -> FetchResults {
        try checkThread()
        let entity = try model.requireEntity(request.entityName)
        try check(request)
        countFetchRequest()
        let start = DispatchTime.now().uptimeNanoseconds
        let results: FetchResults
        if request.includesPendingChanges && hasPendingChanges(for: entity) {
            results = FetchResults(storage: .objects(try fetchMergingPendingChanges(request, entity: entity)))
        } else if request.fetchBatchSize > 0 {
            let rows = try fetchIDs(request, entity: entity, paging: true)
            results = FetchResults(storage: .batched(BatchedFetch(context: self, entity: entity, rows: rows, request: request)))
        } else {
            let objects = try fetchObjects(request, entity: entity, paging: true)
            if !request.relationshipKeyPathsForPrefetching.isEmpty {
                try Prefetcher(context: self).prefetch(request.relationshipKeyPathsForPrefetching, for: objects, entity: entity)
            }
            results = FetchResults(storage: .objects(objects))
        }
        traceFetchTotal(since: start, rows: results.count)
        return results
    }

    /// The IDs of the objects `request` matches (Core Data's managedObjectIDResultType).
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        try checkThread()
        let entity = try model.requireEntity(request.entityName)
        try check(request)
        countFetchRequest()
        if request.includesPendingChanges && hasPendingChanges(for: entity) {
            return try fetchMergingPendingChanges(request, entity: entity).map(\.objectID)
        }
        return try fetchIDs(request, entity: entity, paging: true).map {
            ObjectID(entity: $0.entity, primaryKey: $0.primaryKey, temporaryNumber: 0, storeIdentifier: store.identifier, model: model)
        }
    }

    /// How many objects `request` matches: one `SELECT COUNT(...)`, no objects.
    public func count(for request: FetchRequest) throws -> Int {
        try checkThread()
        let entity = try model.requireEntity(request.entityName)
        try check(request)
        countFetchRequest()
        if request.includesPendingChanges && hasPendingChanges(for: entity) {
            return try fetchMergingPendingChanges(request, entity: entity).count
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let query = try QueryCompiler.compile(request, entity: entity, model: model, mode: .count)
        let statement = try bound(query)
        var total = 0
        try self.query(statement, .fetch, subject: "count " + entity.name, traceText: query.traceSQL) { total = Int($0.int64(0)) }
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
                "fetchLimit, fetchOffset and fetchBatchSize must not be negative (got \(request.fetchLimit), \(request.fetchOffset), \(request.fetchBatchSize))"
            )
        }
    }

    private func bound(_ query: QueryCompiler.Query) throws -> SQLiteStatement {
        for (table, ids) in query.intArrays { bindIDList(ids, table: table) }
        let statement = try self.statement(query.sql)
        for (index, value) in query.bindings.enumerated() { statement.bind(value, at: Int32(index + 1)) }
        return statement
    }

    /// The matching rows as registered objects (faults holding their row when returnsObjectsAsFaults).
    func fetchObjects(_ request: FetchRequest, entity: EntityDescription, paging: Bool) throws -> [ManagedObject] {
        guard request.includesPropertyValues else {
            return try fetchIDs(request, entity: entity, paging: paging).map { object($0.entity, primaryKey: $0.primaryKey) }
        }
        let query = try QueryCompiler.compile(request, entity: entity, model: model, mode: .rows, paging: paging)
        let statement = try bound(query)
        var objects = FetchedObjects()
        defer { objects.release() }
        let asFaults = request.returnsObjectsAsFaults
        try self.query(statement, .fetch, subject: entity.name, traceText: query.traceSQL) { row in
            objects.append(materialize(entity, from: row, asFault: asFaults))
        }
        return objects.array()
    }

    /// The matching rows' entities and primary keys, in order: `SELECT 0, t0.Z_PK FROM ...`.
    func fetchIDs(_ request: FetchRequest, entity: EntityDescription, paging: Bool) throws -> FetchedIDs {
        let query = try QueryCompiler.compile(request, entity: entity, model: model, mode: .ids, paging: paging)
        let statement = try bound(query)
        var ids = FetchedIDs(entity: entity)
        let hierarchy = entity.isInHierarchy
        try self.query(statement, .fetch, subject: entity.name, traceText: query.traceSQL) { row in
            ids.append(primaryKey: row.int64(1), entityNumber: hierarchy ? Int32(truncatingIfNeeded: row.int64(0)) : 0)
        }
        return ids
    }

    /// One batch of a batched fetch, in the order of `ids`; rows missing from the store come back as faults.
    func fetchBatch(
        _ entity: EntityDescription, ids: ContiguousArray<Int64>, entities: [EntityDescription], limit: Int,
        asFaults: Bool
    ) throws -> [ManagedObject] {
        bindIDList(ids)
        let statement = try self.statement(entity.sql.batchPrefix + String(limit))
        var fetched: [ManagedObject] = []
        fetched.reserveCapacity(ids.count)
        try query(statement, .batch, subject: entity.name) { row in fetched.append(materialize(entity, from: row, asFault: asFaults)) }
        // The registry maps keys to the objects just materialized; `fetched` keeps them alive meanwhile.
        return withExtendedLifetime(fetched) { zip(ids, entities).map { object($0.1, primaryKey: $0.0) } }
    }

    // MARK: Pending changes

    private func hasPendingChanges(for entity: EntityDescription) -> Bool {
        guard hasChanges else { return false }
        return insertedCounts[entity.rootNumber] > 0 || updated.contains { $0.entity.isKind(of: entity) }
            || deleted.contains { $0.entity.isKind(of: entity) }
    }

    /// Store results merged with the context's unsaved changes: deleted objects leave, changed objects are
    /// tested again, inserted ones join; then sorting, offset and limit apply in memory.
    private func fetchMergingPendingChanges(_ request: FetchRequest, entity: EntityDescription) throws -> [ManagedObject] {
        var storeRequest = request
        storeRequest.returnsObjectsAsFaults = false
        storeRequest.includesPropertyValues = true
        var results: [ManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        let belongs = { (object: ManagedObject) in
            request.includesSubentities ? object.entity.isKind(of: entity) : object.entity === entity
        }
        for object in try fetchObjects(storeRequest, entity: entity, paging: false) where !object.isDeleted {
            if object.isUpdated, let predicate = request.predicate, !(try predicate.evaluate(on: object)) { continue }
            results.append(object)
            seen.insert(ObjectIdentifier(object))
        }
        for object in updated + inserted where belongs(object) && !object.isDeleted && !seen.contains(ObjectIdentifier(object)) {
            if let predicate = request.predicate, !(try predicate.evaluate(on: object)) { continue }
            results.append(object)
        }
        if !request.sortDescriptors.isEmpty {
            let keyed = try results.map { object in
                (object, try request.sortDescriptors.map { try object.sortValue(atKeyPath: $0.keyPath) })
            }
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

/// The rows an ID fetch found: primary keys in order, with each row's entity when the fetched entity has
/// sub-entities.
struct FetchedIDs {
    let entity: EntityDescription
    private(set) var primaryKeys = ContiguousArray<Int64>()
    private(set) var entityNumbers = ContiguousArray<Int32>()

    init(entity: EntityDescription) { self.entity = entity }

    mutating func append(primaryKey: Int64, entityNumber: Int32) {
        primaryKeys.append(primaryKey)
        if entityNumber != 0 { entityNumbers.append(entityNumber) }
    }

    var count: Int { primaryKeys.count }

    /// The entity of the row at `index` (the fetched entity, or one of its sub-entities: a contiguous range).
    @inline(__always)
    func entity(at index: Int) -> EntityDescription {
        guard !entityNumbers.isEmpty else { return entity }
        let position = entity.subtree.startIndex + Int(entityNumbers[index]) - entity.number
        return entity.subtree.indices.contains(position) ? entity.subtree[position] : entity
    }

    func map<T>(_ transform: ((entity: EntityDescription, primaryKey: Int64)) throws -> T) rethrows -> [T] {
        var result: [T] = []
        result.reserveCapacity(primaryKeys.count)
        for index in primaryKeys.indices { result.append(try transform((entity(at: index), primaryKeys[index]))) }
        return result
    }
}

/// The objects of a fetch, one appended a row, then handed over as an array.
///
/// A buffer of its own rather than `Array.append`: the array's append is two calls into the standard library a row
/// (its uniqueness and capacity check and the store), about 30 instructions a row of fetch-all (callgrind, query
/// fetch-all at 10,000). The buffer grows with `realloc`: at 10,000 rows it copies as often as doubling by hand did
/// (callgrind: 13 instructions a row either way, the neighbouring memory holding the new objects), but a block above
/// glibc's mmap threshold (128 KiB, 16,384 objects) is moved by remapping its pages, not copied. References move as
/// bits, so that a realloc moves them as well as a copy would. Moving the objects into the array at the end is a copy
/// of a word each.
struct FetchedObjects {
    private var base: UnsafeMutablePointer<ManagedObject>
    private var count = 0
    private var capacity = 64

    init() {
        base = FetchedObjects.resized(nil, capacity: 64)
    }

    private static func resized(_ old: UnsafeMutablePointer<ManagedObject>?, capacity: Int) -> UnsafeMutablePointer<ManagedObject> {
        guard let raw = realloc(old, capacity * MemoryLayout<ManagedObject>.stride) else {
            fatalError("out of memory for the \(capacity) objects of a fetch")
        }
        return raw.bindMemory(to: ManagedObject.self, capacity: capacity)
    }

    @inline(__always)
    mutating func append(_ object: __owned ManagedObject) {
        if count == capacity { grow() }
        (base + count).initialize(to: object)
        count &+= 1
    }

    @inline(never)
    private mutating func grow() {
        capacity *= 2
        base = FetchedObjects.resized(base, capacity: capacity)
    }

    /// The objects appended, in order, moved out of the buffer (which is empty afterwards).
    mutating func array() -> [ManagedObject] {
        let moved = count
        count = 0
        return [ManagedObject](unsafeUninitializedCapacity: moved) { buffer, initialized in
            if moved > 0, let target = buffer.baseAddress { target.moveInitialize(from: base, count: moved) }
            initialized = moved
        }
    }

    /// Releases what is still in the buffer (the objects of a fetch that failed) and the buffer itself.
    mutating func release() {
        base.deinitialize(count: count)
        count = 0
        free(base)
    }
}
