/// How the school's exercised relationship is modelled: what lands on disk and which SQL reads it.
public enum Modelling: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case manyToOne = "many-to-one"
    case manyToMany = "many-to-many"
    case manyToNil = "many-to-nil"
    case manualFK = "manual-fk"
    case oneToOne = "one-to-one"
    case oneToNil = "one-to-nil"

    public var description: String { rawValue }

    /// One sentence for `bench list`.
    public var summary: String {
        switch self {
        case .manyToOne: return "a to-many with a to-one inverse (Class.students <-> Student.class): a key on the member"
        case .manyToMany: return "a to-many with a to-many inverse: a join table with a reverse index"
        case .manyToNil: return "a to-many without inverse: a hidden owner column on the member, one owner per row"
        case .manualFK: return "no relationship: Student keeps its class's UUID (seed 003), indexed; members found by fetch"
        case .oneToOne: return "Student.address <-> Address.student: a key on both sides"
        case .oneToNil: return "Student.address without inverse: a key on the student only"
        }
    }

    /// Whether the modelling is of a to-one relationship (Student.address) rather than a to-many.
    public var isToOne: Bool { self == .oneToOne || self == .oneToNil }
}

/// What runs a scenario: an implementation (ObjectGraph or a peer without an object graph) storing the exercised
/// relationship as a modelling says; for a scenario that declares its own model, ObjectGraph (`objectgraph`) or the
/// replay of its SQL (`sql-replay`).
///
/// Names: an ObjectGraph strategy is named by its modelling (`many-to-one`); a peer by its implementation and
/// the modelling it stores (`raw-sqlite:many-to-many`, `grdb:one-to-one`). In scenario files and `--strategies`,
/// a bare peer name (`raw-sqlite`) stands for that peer of every modelling the scenario runs.
public struct StrategyID: Hashable, Codable, Sendable, CustomStringConvertible, Comparable {
    public enum Implementation: String, CaseIterable, Codable, Sendable {
        case objectGraph = "objectgraph"
        case rawSQLite = "raw-sqlite"
        case grdb = "grdb"
        /// The statements ObjectGraph ran for a declared scenario's phase, replayed through the C API.
        case sqlReplay = "sql-replay"

        /// One sentence for `bench list`.
        public var summary: String {
            switch self {
            case .objectGraph: return "ObjectGraph: Core Data's semantics over SQLite"
            case .rawSQLite: return "the floor: the same tables and SQL through the SQLite C API, rows into plain Swift values"
            case .grdb: return "GRDB.swift 7.10.0, idiomatic records and associations, on the same tables"
            case .sqlReplay: return "the floor of a declared scenario: the exact statements ObjectGraph ran, replayed through the SQLite C API"
            }
        }
    }

    public let implementation: Implementation
    /// The school's modelling; nil for a declared scenario's strategies.
    public let modelling: Modelling?

    public init(_ implementation: Implementation, _ modelling: Modelling?) {
        self.implementation = implementation
        self.modelling = modelling
    }

    /// ObjectGraph on a declared scenario's own model.
    public static let objectGraph = StrategyID(.objectGraph, nil)
    /// The replay of ObjectGraph's statements for a declared scenario.
    public static let sqlReplay = StrategyID(.sqlReplay, nil)

    public init?(rawValue: String) {
        if let modelling = Modelling(rawValue: rawValue) {
            self.init(.objectGraph, modelling)
            return
        }
        if rawValue == "objectgraph" {
            self.init(.objectGraph, nil)
            return
        }
        if rawValue == "sql-replay" {
            self.init(.sqlReplay, nil)
            return
        }
        let parts = rawValue.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let implementation = Implementation(rawValue: String(parts[0])), implementation != .objectGraph,
              let modelling = Modelling(rawValue: String(parts[1])) else { return nil }
        self.init(implementation, modelling)
    }

    public var rawValue: String {
        guard let modelling else { return implementation.rawValue }
        return implementation == .objectGraph ? modelling.rawValue : "\(implementation.rawValue):\(modelling.rawValue)"
    }

    public var description: String { rawValue }

    /// Whether this is a reference point rather than an ObjectGraph modelling.
    public var isPeer: Bool { implementation != .objectGraph }

    /// What `ratio_to_raw` divides by: the raw SQLite peer storing the same modelling, or for a declared scenario
    /// the replay of the same statements.
    public var floor: StrategyID {
        guard let modelling else { return .sqlReplay }
        return StrategyID(.rawSQLite, modelling)
    }

    public static func < (lhs: StrategyID, rhs: StrategyID) -> Bool {
        let order = Implementation.allCases
        func rank(_ modelling: Modelling?) -> Int { modelling.map { Modelling.allCases.firstIndex(of: $0)! } ?? -1 }
        return (order.firstIndex(of: lhs.implementation)!, rank(lhs.modelling)) < (order.firstIndex(of: rhs.implementation)!, rank(rhs.modelling))
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let strategy = StrategyID(rawValue: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown strategy '\(text)'"))
        }
        self = strategy
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static let manyToOne = StrategyID(.objectGraph, .manyToOne)
    public static let manyToMany = StrategyID(.objectGraph, .manyToMany)
    public static let manyToNil = StrategyID(.objectGraph, .manyToNil)
    public static let manualFK = StrategyID(.objectGraph, .manualFK)
    public static let oneToOne = StrategyID(.objectGraph, .oneToOne)
    public static let oneToNil = StrategyID(.objectGraph, .oneToNil)
    public static func raw(_ modelling: Modelling) -> StrategyID { StrategyID(.rawSQLite, modelling) }
    public static func grdb(_ modelling: Modelling) -> StrategyID { StrategyID(.grdb, modelling) }

    /// Implementations that run the school (every one but the SQL replay of declared scenarios).
    static let schoolImplementations: [Implementation] = [.objectGraph, .rawSQLite, .grdb]

    /// Every strategy: each modelling in ObjectGraph, then each peer of each modelling; then the two of declared
    /// scenarios.
    public static let allCases: [StrategyID] = schoolImplementations.flatMap { implementation in
        Modelling.allCases.map { StrategyID(implementation, $0) }
    } + [.objectGraph, .sqlReplay]

    /// The strategies `modellings` name in every implementation of the school, ObjectGraph's first.
    public static func all(_ modellings: [Modelling]) -> [StrategyID] {
        schoolImplementations.flatMap { implementation in modellings.map { StrategyID(implementation, $0) } }
    }

    /// "many-to-one, manual-fk, and the peers raw-sqlite, grdb of each": a list of strategies, short, for messages.
    public static func summarize(_ strategies: [StrategyID]) -> String {
        var modellings: [String] = []
        var peers: [Implementation] = []
        for strategy in strategies {
            guard let modelling = strategy.modelling else {
                if !modellings.contains(strategy.rawValue) { modellings.append(strategy.rawValue) }
                continue
            }
            if !modellings.contains(modelling.rawValue) { modellings.append(modelling.rawValue) }
            if strategy.isPeer, !peers.contains(strategy.implementation) { peers.append(strategy.implementation) }
        }
        let names = modellings.joined(separator: ", ")
        return peers.isEmpty ? names : names + ", and the peers " + peers.map(\.rawValue).joined(separator: ", ") + " of each"
    }

    /// Names within edit distance 2 of `name`, for "did you mean ...?" (bare peer names included).
    public static func suggestions(for name: String) -> [String] {
        nearNames(name, in: allCases.map(\.rawValue) + [Implementation.rawSQLite.rawValue, Implementation.grdb.rawValue])
    }
}

/// What a scenario file or `--strategies` names: one strategy, or a peer of every modelling (`raw-sqlite`).
public enum StrategySelector: Hashable, Sendable, CustomStringConvertible {
    case one(StrategyID)
    case peer(StrategyID.Implementation)

    public init?(_ text: String) {
        if let strategy = StrategyID(rawValue: text) {
            self = .one(strategy)
        } else if let implementation = StrategyID.Implementation(rawValue: text), implementation == .rawSQLite || implementation == .grdb {
            self = .peer(implementation)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case let .one(strategy): return strategy.rawValue
        case let .peer(implementation): return implementation.rawValue
        }
    }

    /// Whether `strategy` is selected.
    public func matches(_ strategy: StrategyID) -> Bool {
        switch self {
        case let .one(one): return one == strategy
        case let .peer(implementation): return strategy.implementation == implementation
        }
    }

    /// The strategies selected among `available`; a bare peer expands to that peer of each modelling the
    /// ObjectGraph strategies of `chosen` use (or of every modelling available when none is chosen).
    public static func expand(_ selectors: [StrategySelector], available: [StrategyID]) -> [StrategyID] {
        let modellings = selectors.compactMap { selector -> Modelling? in
            if case let .one(strategy) = selector, strategy.implementation == .objectGraph { return strategy.modelling }
            return nil
        }
        var result: [StrategyID] = []
        for selector in selectors {
            switch selector {
            case let .one(strategy):
                if available.contains(strategy), !result.contains(strategy) { result.append(strategy) }
            case let .peer(implementation):
                for strategy in available where strategy.implementation == implementation
                    && (modellings.isEmpty || strategy.modelling.map(modellings.contains) == true) && !result.contains(strategy) {
                    result.append(strategy)
                }
            }
        }
        return result
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
