/// What runs a scenario's phases: ObjectGraph running its declared steps, the replay of the SQL they ran (the floor of
/// every phase), or a hand-written peer's implementation of the School scenarios' phases on the same tables; or, for
/// series read from a device's SQLDebug log by `bench log --output`, real Core Data on that device.
package enum Strategy: String, CaseIterable, Codable, Sendable, CustomStringConvertible, Comparable {
    case objectGraph = "objectgraph"
    /// The statements ObjectGraph ran for a phase, replayed through the SQLite C API: the floor.
    case sqlReplay = "sql-replay"
    case rawSQLite = "raw-sqlite"
    case grdb = "grdb"
    /// Series read from a device's SQLDebug log (`bench log --output`): never run by `bench run`.
    case device = "device"

    package var description: String { rawValue }

    /// One sentence for `bench list`.
    package var summary: String {
        switch self {
        case .objectGraph: return "ObjectGraph: Core Data's semantics over SQLite, running the scenario's steps"
        case .sqlReplay: return "the floor: the exact statements ObjectGraph ran, replayed through the SQLite C API, every column read"
        case .rawSQLite: return "hand-written SQL an app without Core Data would write for the School scenarios, on the same tables"
        case .grdb: return "GRDB.swift 7.10.0, idiomatic records and associations, for the School scenarios, on the same tables"
        case .device:
            return "real Core Data on a device, its counters read from its SQLDebug log by bench log --output (not run by bench run)"
        }
    }

    /// Whether `bench run` can run it (a device's series come only from its log).
    package var isRunnable: Bool { self != .device }

    /// Whether the strategy is a hand-written implementation of the School scenarios' phases.
    package var isPeer: Bool { self == .rawSQLite || self == .grdb }

    /// What `ratio_to_floor` divides by: the replay of the same statements on the same variant (so the same modelling).
    package static let floor = Strategy.sqlReplay

    package static func < (lhs: Strategy, rhs: Strategy) -> Bool { lhs.rank < rhs.rank }

    /// Its place in the order reports list strategies in (the declaration order).
    private var rank: Int {
        switch self {
        case .objectGraph: return 0
        case .sqlReplay: return 1
        case .rawSQLite: return 2
        case .grdb: return 3
        case .device: return 4
        }
    }

    /// A strategy `bench run` can run, by name: `named(_:)`, refusing `device` with where its series come from.
    package static func runnable(named name: String) throws -> Strategy {
        let strategy = try named(name)
        guard strategy.isRunnable else {
            throw BenchError.invalidInput(
                "'\(name)' series are read from a device's SQLDebug log with 'bench log LOG --output DIR', not run; the strategies bench runs are \(allCases.filter(\.isRunnable).map(\.rawValue).joined(separator: ", "))"
            )
        }
        return strategy
    }

    /// A strategy by name, or an error that says what the names are (and, for a name of the old vocabulary, that
    /// the modelling is now a variant).
    package static func named(_ name: String) throws -> Strategy {
        if let strategy = Strategy(rawValue: name) { return strategy }
        let modelling = Modelling(rawValue: name.split(separator: ":").last.map(String.init) ?? name)
        if let modelling {
            throw BenchError.invalidInput(
                "'\(name)' is a modelling, now a variant: give --variant modelling=\(modelling.rawValue) (and --strategies \(name.contains(":") ? String(name.split(separator: ":")[0]) : "objectgraph"))"
            )
        }
        throw BenchError.unknown("strategy", name, among: allCases.map(\.rawValue), plural: "strategies")
    }
}

/// Candidates within a small edit distance of `name`, closest first.
package func nearNames(_ name: String, in candidates: [String], maxDistance: Int = 2) -> [String] {
    candidates.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }
        .filter { $0.1 <= maxDistance || $0.0.lowercased().hasPrefix(name.lowercased()) && !name.isEmpty }
        .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        .map(\.0)
}

/// Levenshtein distance.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
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
