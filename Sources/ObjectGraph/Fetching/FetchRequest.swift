/// What to fetch and how (Core Data's NSFetchRequest).
public struct FetchRequest {
    public enum ResultType: Sendable { case objects, objectIDs, count }

    public var entityName: String
    public var predicate: FetchPredicate?
    public var sortDescriptors: [FetchSort]
    /// At most this many results; 0 for no limit.
    public var fetchLimit = 0
    public var fetchOffset = 0
    /// 0 fetches every row at once; N fetches IDs first, then each batch of N rows when first touched.
    public var fetchBatchSize = 0
    /// true (Core Data's default): objects come back as faults whose rows wait in the row cache.
    public var returnsObjectsAsFaults = true
    /// false fetches IDs only: each object's row is read when it fires.
    public var includesPropertyValues = true
    /// true: unsaved inserts, changes and deletes of the context are reflected in the results.
    public var includesPendingChanges = true
    /// false: objects of sub-entities are left out (`t0.Z_ENT = n`).
    public var includesSubentities = true
    /// Relationship key paths (`class`, `subjects`, `author.profile`) fetched along with the results,
    /// one extra query per key path for the whole result.
    public var relationshipKeyPathsForPrefetching: [String] = []
    public var resultType: ResultType = .objects

    public init(_ entityName: String, predicate: FetchPredicate? = nil, sortDescriptors: [FetchSort] = []) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
    }
}

/// A sort key (Core Data's NSSortDescriptor): an attribute, possibly through to-one relationships.
public struct FetchSort: Sendable {
    public var keyPath: String
    public var ascending: Bool

    public init(_ keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}
