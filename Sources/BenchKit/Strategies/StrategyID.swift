/// A way to model (or to implement) the relationship a workload exercises.
///
/// The ObjectGraph strategies differ in how the relationship is modelled; the peers implement the same job
/// on the same Core-Data-shaped schema without an object graph (raw SQLite) or with GRDB.
public enum StrategyID: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case manyToOne = "many-to-one"
    case manyToMany = "many-to-many"
    case manyToNil = "many-to-nil"
    case manualFK = "manual-fk"
    case oneToOne = "one-to-one"
    case oneToNil = "one-to-nil"
    case rawSQLite = "raw-sqlite"
    case grdb = "grdb"

    public var description: String { rawValue }

    /// One sentence for `bench list`.
    public var summary: String {
        switch self {
        case .manyToOne: return "ObjectGraph, a to-many with a to-one inverse (Class.students <-> Student.class)"
        case .manyToMany: return "ObjectGraph, a to-many with a to-many inverse: a join table"
        case .manyToNil: return "ObjectGraph, a to-many without inverse: a hidden owner column, one owner per row"
        case .manualFK: return "ObjectGraph, no relationship: Student keeps its class's UUID (seed 003); members found by fetch"
        case .oneToOne: return "ObjectGraph, Student.address <-> Address.student: a key on both sides"
        case .oneToNil: return "ObjectGraph, Student.address without inverse: a key on the student only"
        case .rawSQLite: return "the floor: the same schema and SQL through the SQLite C API, rows into plain Swift values"
        case .grdb: return "GRDB.swift 7.10.0, idiomatic records and associations"
        }
    }

    /// Whether this is a reference point rather than an ObjectGraph modelling.
    public var isPeer: Bool { self == .rawSQLite || self == .grdb }

    /// Names within edit distance 2 of `name`, for "did you mean ...?".
    public static func suggestions(for name: String) -> [String] {
        nearNames(name, in: allCases.map(\.rawValue))
    }
}

/// Candidates within a small edit distance of `name`, closest first.
public func nearNames(_ name: String, in candidates: [String], maxDistance: Int = 2) -> [String] {
    candidates.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
        .filter { $0.1 <= maxDistance || $0.0.lowercased().hasPrefix(name.lowercased()) && !name.isEmpty }
        .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        .map(\.0)
}

/// Levenshtein distance.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
