/// The kinds of step a scenario file may use, and the options each takes: the one table the parser reads, and that a
/// test holds Scenarios/scenario.schema.json and Scenarios/README.md's list of steps to.
enum StepKind: String, CaseIterable, Sendable {
    case fetch
    case count
    case read
    case insert
    case insertData = "insert-data"
    case update
    case delete
    case deleteFetched = "delete-fetched"
    case link
    case unlink
    case batchInsert = "batch-insert"
    case batchUpdate = "batch-update"
    case batchDelete = "batch-delete"
    case save
    case reset
    case letGo = "let-go"
    case undoManager = "undo-manager"
    case newContext = "new-context"
    case merge
    case countLinks = "count-links"

    /// The options the kind takes besides its own key (and `when`, which any step may have).
    var options: [String] {
        switch self {
        case .fetch, .count:
            return [
                "predicate", "variables", "sort", "limit", "offset", "batchSize", "prefetch", "faults", "propertyValues", "result",
                "subentities",
            ]
        case .read: return ["first", "until"]
        case .insert: return ["count", "children", "into", "side"]
        case .update, .delete: return ["share"]
        case .link, .unlink, .batchInsert: return ["count"]
        case .batchUpdate: return ["predicate", "set"]
        case .batchDelete: return ["predicate"]
        case .insertData, .deleteFetched, .save, .reset, .letGo, .undoManager, .newContext, .merge, .countLinks: return []
        }
    }

    /// Every kind's name, in the table's order.
    static var names: [String] { allCases.map(\.rawValue) }

    /// The one kind among `keys` (a step object's keys), or why there is none: "count" is also an option (of insert,
    /// link and batch-insert), and a "count" that is a number is that option of a step whose kind is misspelled.
    static func kind(of object: [String: JSONValue]) -> Result<StepKind, KindProblem> {
        var kinds = object.keys.compactMap(StepKind.init(rawValue:))
        if kinds.count == 2, kinds.contains(.count) { kinds.removeAll { $0 == .count } }
        if kinds == [.count], object["count"]?.string == nil { kinds = [] }
        guard kinds.count == 1, let kind = kinds.first else {
            if kinds.isEmpty {
                return .failure(.none(unknown: object.keys.sorted().first { StepKind(rawValue: $0) == nil } ?? ""))
            }
            return .failure(.several(kinds.map(\.rawValue).sorted()))
        }
        return .success(kind)
    }

    enum KindProblem: Error {
        /// No kind key; `unknown`: the first key that is none, perhaps a misspelled kind.
        case none(unknown: String)
        case several([String])
    }
}
