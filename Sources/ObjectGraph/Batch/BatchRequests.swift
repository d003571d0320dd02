/// What a batch request returns (Core Data's `resultType`: status only by default, the object IDs changed, or
/// their count).
public enum BatchResultType: Sendable {
    case statusOnly, objectIDs, count
}

/// The outcome of a batch request: whether it ran, the IDs it changed (objectIDs result type) or how many rows
/// (count), and the changes as a notification to merge into contexts (`ObjectContext.mergeChanges(from:)`).
public struct BatchResult: Sendable {
    public let status: Bool
    public let objectIDs: [ObjectID]
    public let count: Int
    /// The changed IDs (whatever the result type), for merging.
    public let changes: SaveNotification
}

/// NSBatchInsertRequest: rows written straight to the store, one INSERT each, without objects; attribute values
/// by name (relationships cannot be set, as in Core Data). Mandatory attributes are checked (1570); with a
/// uniqueness constraint, rows are inserted `OR IGNORE` (error merge policy) or upserted
/// (`ON CONFLICT(...) DO UPDATE SET Z_OPT = Z_OPT+1 , ...`, object-trump and overwrite), as Core Data's logs show.
public struct BatchInsertRequest {
    public var entityName: String
    public var objects: [[String: Value]]
    public var resultType: BatchResultType = .statusOnly

    public init(entityName: String, objects: [[String: Value]], resultType: BatchResultType = .statusOnly) {
        self.entityName = entityName
        self.objects = objects
        self.resultType = resultType
    }
}

/// NSBatchUpdateRequest: one `UPDATE OR FAIL ... SET ..., Z_OPT = (Z_OPT + 1) WHERE ...` for every matching row,
/// without validation, without objects, without touching the row cache or contexts.
public struct BatchUpdateRequest {
    public var entityName: String
    public var predicate: FetchPredicate?
    public var propertiesToUpdate: [String: Value]
    public var includesSubentities = true
    public var resultType: BatchResultType = .statusOnly

    public init(
        entityName: String, predicate: FetchPredicate? = nil, propertiesToUpdate: [String: Value], resultType: BatchResultType = .statusOnly
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
        self.resultType = resultType
    }
}

/// NSBatchDeleteRequest: `DELETE FROM ... WHERE Z_PK IN (SELECT ...)` for the rows a predicate matches (or the
/// IDs given), delete rules applied by temporary triggers as Core Data does: cascade deletes, nullify clears
/// (failing on a mandatory inverse), deny is refused before any SQL (Core Data error 134060).
public struct BatchDeleteRequest {
    public var entityName: String
    public var predicate: FetchPredicate?
    public var objectIDs: [ObjectID]?
    public var resultType: BatchResultType = .statusOnly

    public init(entityName: String, predicate: FetchPredicate? = nil, resultType: BatchResultType = .statusOnly) {
        self.entityName = entityName
        self.predicate = predicate
        self.resultType = resultType
    }

    public init(objectIDs: [ObjectID], resultType: BatchResultType = .statusOnly) {
        self.entityName = objectIDs.first?.entity.name ?? ""
        self.objectIDs = objectIDs
        self.resultType = resultType
    }
}
