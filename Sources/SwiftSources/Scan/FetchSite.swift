#if SwiftSources
import Foundation

/// One fetch in an app's sources: where it is, which API it uses, what it asks for (entity, predicate, sort, limit,
/// batch size, prefetching, properties) and the key paths the code reads from its results.
public struct FetchSite: Sendable {
    /// The API the code fetches with, which decides how an edit is written.
    public enum API: String, Sendable {
        case query = "@Query"
        case fetchRequest = "@FetchRequest"
        case fetchDescriptor = "FetchDescriptor"
        case nsFetchRequest = "NSFetchRequest"
        case fetchedResultsController = "NSFetchedResultsController"
        /// One object by its identifier: `context.model(for:)`, `existingObject(with:)`, `context[id, as:]`.
        case byIdentifier = "by identifier"
    }

    /// A key path read from the results, and where.
    public struct Read: Sendable, Equatable {
        public var keyPath: String
        /// `TripRow.swift:14`.
        public var location: String
        /// The row view it was read in (one level deep), if not the fetching code itself.
        public var rowView: String?
        /// Read on every result by code that runs as the view draws (a `filter`, `map` or loop over the results),
        /// even where a list draws only the first rows.
        public var everyRow = false
    }

    public var api: API
    /// Whether the site fetches through SwiftData (`@Query`, `FetchDescriptor`, `ModelContext`) or Core Data.
    public var isSwiftData: Bool
    /// `Views/TripList.swift` relative to the scanned folder.
    public var file: String
    public var line: Int
    /// `TripListView`, `TripStore.loadTrips()`.
    public var context: String
    public var entity: String
    /// An NSPredicate format string with `$name` variables.
    public var predicate: String?
    /// The variables of `predicate`, as a scenario's phase variables (JSON objects).
    public var variables: [String: [String: JSONScalar]] = [:]
    /// The predicate as written, when it is not run (and why).
    public var predicateSkipped: String?
    /// Sort keys, `-` for descending.
    public var sort: [String] = []
    public var limit: Int?
    public var offset: Int?
    public var batchSize: Int?
    public var prefetch: [String] = []
    public var propertiesToFetch: [String] = []
    /// `returnsObjectsAsFaults`, when the code sets it.
    public var faults: Bool?
    /// `objects`, `ids` or `count`.
    public var result = "objects"
    public var reads: [Read] = []
    /// Rows a lazy container draws (List, LazyVStack): the reads happen for the first screen only.
    public var rowsRead: Int?
    /// The variable holding the results (`trips`), and the one holding the request or descriptor, if any.
    public var resultName: String?
    public var requestName: String?
    /// What the scanner could not follow, one line each.
    public var notes: [String] = []

    /// `TripList.swift:24`.
    public var location: String { "\(file):\(line)" }

    /// A scenario name for the site: `scan-TripList-24`.
    public var scenarioName: String {
        let base = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let cleaned = base.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" }
        return "scan-\(String(cleaned))-\(line)"
    }
}

/// A JSON scalar of a scenario file (variables' specs).
public enum JSONScalar: Sendable, Equatable {
    case string(String)
    case int(Int)
    case bool(Bool)

    var any: Any {
        switch self {
        case let .string(value): return value
        case let .int(value): return value
        case let .bool(value): return value
        }
    }
}
#endif
