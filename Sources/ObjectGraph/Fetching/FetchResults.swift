/// The objects a fetch returned: an array, or with fetchBatchSize a list of IDs whose rows are fetched a batch
/// at a time when first touched (Core Data's batch-faulting array).
///
/// A batched result keeps only the batch last touched: objects of earlier batches live on only while the
/// program holds them, so iterating a large result keeps memory flat.
public struct FetchResults: RandomAccessCollection {
    enum Storage {
        case objects([ManagedObject])
        case batched(BatchedFetch)
    }

    let storage: Storage

    init(storage: Storage) { self.storage = storage }

    /// Objects in hand as a result (what a list shows after a merge: the objects it held, then the merged ones).
    public init(_ objects: [ManagedObject]) { storage = .objects(objects) }

    public var startIndex: Int { 0 }
    public var endIndex: Int {
        switch storage {
        case let .objects(objects): return objects.count
        case let .batched(batched): return batched.rows.count
        }
    }

    public subscript(position: Int) -> ManagedObject {
        switch storage {
        case let .objects(objects): return objects[position]
        case let .batched(batched): return batched.object(at: position)
        }
    }

    /// Every object, materializing all batches of a batched result.
    public var array: [ManagedObject] {
        switch storage {
        case let .objects(objects): return objects
        case .batched: return Array(self)
        }
    }

    /// The objects of an unbatched result (nil for a batched one, whose objects load as they are touched): a loop
    /// over them costs no more than over an array.
    public var loadedObjects: [ManagedObject]? {
        if case let .objects(objects) = storage { return objects }
        return nil
    }

    /// The error of the last batch that failed to load (its objects came back as unfired faults), if any.
    public var batchError: (any Error)? {
        if case let .batched(batched) = storage { return batched.lastError }
        return nil
    }
}

/// The state behind a batched result: the IDs in order and the batch currently held.
final class BatchedFetch {
    let context: ObjectContext
    let entity: EntityDescription
    let rows: FetchedIDs
    let batchSize: Int
    let asFaults: Bool
    let prefetchKeyPaths: [String]
    @exclusivity(unchecked) private var window: [ManagedObject] = []
    @exclusivity(unchecked) private var windowBatch = -1
    @exclusivity(unchecked) private(set) var lastError: (any Error)?

    init(context: ObjectContext, entity: EntityDescription, rows: FetchedIDs, request: FetchRequest) {
        self.context = context
        self.entity = entity
        self.rows = rows
        self.batchSize = request.fetchBatchSize
        self.asFaults = request.returnsObjectsAsFaults
        self.prefetchKeyPaths = request.relationshipKeyPathsForPrefetching
    }

    func object(at index: Int) -> ManagedObject {
        let batch = index / batchSize
        if batch != windowBatch { load(batch) }
        return window[index - batch * batchSize]
    }

    /// Fetches one batch: `SELECT 0, ... WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT <batch size>`.
    /// A batch whose objects are all registered and fired needs no SQL.
    private func load(_ batch: Int) {
        let range = (batch * batchSize)..<min((batch + 1) * batchSize, rows.count)
        windowBatch = batch
        // The previous batch stays held until this one is loaded, so that objects both share stay registered.
        if let ready = registeredObjects(range) {
            window = ready
            return
        }
        do {
            let objects = try context.fetchBatch(
                entity, ids: ContiguousArray(rows.primaryKeys[range]),
                entities: range.map { rows.entity(at: $0) }, limit: batchSize, asFaults: asFaults)
            if !prefetchKeyPaths.isEmpty {
                try Prefetcher(context: context).prefetch(prefetchKeyPaths, for: objects, entity: entity)
            }
            window = objects
        } catch {
            lastError = error
            window = range.map { context.object(rows.entity(at: $0), primaryKey: rows.primaryKeys[$0]) }
        }
    }

    private func registeredObjects(_ range: Range<Int>) -> [ManagedObject]? {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(range.count)
        for index in range {
            guard let object = context.registered(entity, primaryKey: rows.primaryKeys[index]), !object.isFault else { return nil }
            objects.append(object)
        }
        return objects
    }
}
