/// A pattern worth changing in one segment of SQL (a device log's screen, a scenario's phase), with its identity,
/// what to change in Core Data's terms and what that saves.
///
/// `bench log` and `bench advise` both produce these from the same analysis of the same SQLDebug text, so a screen
/// measured as a scenario and read from a device's log is advised alike. `id` is stable: it depends on the rule,
/// the segment, the subject and (for fetch rules) the statement's fingerprint, never on counts, times, line numbers
/// or the order things ran in, so that a baseline file can list the findings a team has accepted.
public struct Finding: Sendable, Equatable, Codable {
    public var rule: FindingRule
    public var severity: FindingSeverity
    /// What the finding is about: an entity, a relationship, a property or a key path.
    public var subject: FindingSubject
    /// Whether the subject's names were inferred from Z names (upper case) rather than given by a model or logged.
    public var namesInferred: Bool
    /// The segment (screen, phase) it was found in.
    public var segment: String
    /// The fingerprint of the statement that repeats (the SQL without its values); empty when no statement is.
    public var statement: String
    /// The stable identity: `rule`, segment, subject and (for fetch rules) statement, hashed (FNV-1a, 64 bits).
    public var id: String
    /// How many times the pattern's statements (or faults, or saves) ran.
    public var repeats: Int
    /// The segment's statements as run, and an estimate of them after the fix (nil when the fix saves no statement
    /// or the log cannot tell).
    public var statements: Int
    public var statementsAfter: Int?
    /// What was seen, in words, naming the subject (no counts of time: those are in `milliseconds`).
    public var summary: String
    /// The change, in Core Data's terms.
    public var fix: String
    /// The log's own milliseconds for the repeated statements and an estimate of the replacement's (a device's
    /// times in a device's log; ObjectGraph's, which say nothing about a device, in a run's trace).
    public var milliseconds: MillisecondSaving?
    /// Segments of this name in which the finding was seen (the log visits a screen several times).
    public var occurrences: Int

    public init(
        rule: FindingRule, subject: FindingSubject, namesInferred: Bool = false, segment: String, statement: String,
        repeats: Int, statements: Int, statementsAfter: Int?, summary: String, fix: String,
        milliseconds: MillisecondSaving? = nil, severity: FindingSeverity? = nil
    ) {
        self.rule = rule
        self.severity = severity ?? rule.severity
        self.subject = subject
        self.namesInferred = namesInferred
        self.segment = segment
        self.statement = statement
        self.repeats = repeats
        self.statements = statements
        self.statementsAfter = statementsAfter
        self.summary = summary
        self.fix = fix
        self.milliseconds = milliseconds
        occurrences = 1
        id = FindingID.of(rule: rule, segment: segment, subject: subject, statement: rule.identifiedByStatement ? statement : "")
    }

    /// Statements the fix saves (nil when it saves none the log can count).
    public var statementsSaved: Int? { statementsAfter.map { max(0, statements - $0) } }

    enum CodingKeys: String, CodingKey {
        case rule, severity, subject, segment, statement, id, repeats, statements, summary, fix, milliseconds, occurrences
        case namesInferred = "names_inferred"
        case statementsAfter = "statements_after"
        case statementsSaved = "statements_saved"
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rule = try container.decode(FindingRule.self, forKey: .rule)
        severity = try container.decode(FindingSeverity.self, forKey: .severity)
        subject = try container.decode(FindingSubject.self, forKey: .subject)
        namesInferred = try container.decode(Bool.self, forKey: .namesInferred)
        segment = try container.decode(String.self, forKey: .segment)
        statement = try container.decode(String.self, forKey: .statement)
        id = try container.decode(String.self, forKey: .id)
        repeats = try container.decode(Int.self, forKey: .repeats)
        statements = try container.decode(Int.self, forKey: .statements)
        statementsAfter = try container.decodeIfPresent(Int.self, forKey: .statementsAfter)
        summary = try container.decode(String.self, forKey: .summary)
        fix = try container.decode(String.self, forKey: .fix)
        milliseconds = try container.decodeIfPresent(MillisecondSaving.self, forKey: .milliseconds)
        occurrences = try container.decode(Int.self, forKey: .occurrences)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rule, forKey: .rule)
        try container.encode(severity, forKey: .severity)
        try container.encode(subject, forKey: .subject)
        try container.encode(namesInferred, forKey: .namesInferred)
        try container.encode(segment, forKey: .segment)
        try container.encode(statement, forKey: .statement)
        try container.encode(id, forKey: .id)
        try container.encode(repeats, forKey: .repeats)
        try container.encode(statements, forKey: .statements)
        try container.encode(statementsAfter, forKey: .statementsAfter)
        try container.encode(statementsSaved, forKey: .statementsSaved)
        try container.encode(summary, forKey: .summary)
        try container.encode(fix, forKey: .fix)
        try container.encode(milliseconds, forKey: .milliseconds)
        try container.encode(occurrences, forKey: .occurrences)
    }

    /// `walk: 20 × "SELECT ..." — to-many fault Class.students per owner: add ... (21 → 2 statements)`.
    public var line: String {
        let what = repeats > 0 && !statement.isEmpty ? "\(Self.count(repeats)) × \"\(statement)\" — " : ""
        let saving = statementsAfter.map { $0 == statements ? "" : " (\(Self.count(statements)) → \(Self.count($0)) statements)" } ?? ""
        return "\(segment): \(what)\(summary): \(fix)\(saving)"
    }

    /// 12,345.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(character)
        }
        return (value < 0 ? "-" : "") + grouped
    }
}

/// What a finding's fix would save in the log's own time.
public struct MillisecondSaving: Sendable, Equatable, Codable {
    /// Milliseconds the log measured for the repeated statements.
    public var measured: Double
    /// The estimated time of what replaces them.
    public var replacement: Double
    /// `measured - replacement`, never below 0.
    public var saved: Double

    public init(measured: Double, replacement: Double) {
        self.measured = measured
        self.replacement = replacement
        saved = max(0, measured - replacement)
    }
}

/// How much a finding matters.
public enum FindingSeverity: String, Sendable, Codable, CaseIterable, Comparable {
    /// A save or a migration will fail, or data is lost.
    case problem
    /// Likely slow or fragile: what the SQL shows costs statements or time at scale.
    case risk
    /// A guess about how the app uses the model (the log cannot show what the screen needs).
    case suggestion

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// The rules a finding comes from. The raw values are stable: baselines and JSON name rules by them.
public enum FindingRule: String, Sendable, Codable, CaseIterable {
    /// A to-many relationship faulted for every owner of a fetched list (Bullet's N+1).
    case toManyFaultPerOwner = "to-many-fault-per-owner"
    /// A to-many faulted for every owner while the screen reads only its count (known from declared reads).
    case countThroughFaults = "count-through-faults"
    /// An object fault for every destination of a to-one of a fetched list.
    case toOneFaultPerObject = "to-one-fault-per-object"
    /// The fetched objects themselves faulted one by one (returnsObjectsAsFaults left on).
    case faultedResults = "faulted-results"
    /// Objects faulted one by one that no fetch of the segment reaches.
    case faultsOneByOne = "faults-one-by-one"
    /// One to-many faulted, then its members one by one, to find one of them.
    case walkToFind = "walk-to-find"
    /// One fetch per owner, with a different value each time.
    case fetchPerObject = "fetch-per-object"
    /// The same fetch with the same values, again and again.
    case repeatedFetch = "repeated-fetch"
    /// A count request per object.
    case countPerObject = "count-per-object"
    /// fetchBatchSize small against the rows read: a batch statement per few rows.
    case smallBatches = "small-batches"
    /// A fetch that read many rows at once without fetchBatchSize.
    case largeUnbatchedFetch = "large-unbatched-fetch"
    /// Many small save transactions: a save inside a loop.
    case saveInLoop = "save-in-loop"
    /// A fetch filtering on a column with no index.
    case unindexedFilter = "unindexed-filter"
    /// A fetch sorting on a column with no index.
    case unindexedSort = "unindexed-sort"
    /// A prefetched key path the screen never reads (known from declared reads).
    case unusedPrefetch = "unused-prefetch"
    /// fetchBatchSize far above the rows the screen reads (known from declared reads).
    case oversizedBatch = "oversized-batch"

    public var severity: FindingSeverity {
        switch self {
        case .toManyFaultPerOwner, .toOneFaultPerObject, .faultedResults, .faultsOneByOne, .walkToFind, .fetchPerObject,
            .repeatedFetch, .countPerObject, .smallBatches, .saveInLoop, .unindexedFilter, .unindexedSort, .unusedPrefetch,
            .countThroughFaults:
            return .risk
        case .largeUnbatchedFetch, .oversizedBatch:
            return .suggestion
        }
    }

    /// Whether the finding rests on what the screen is declared to read (a scenario's steps), which no log shows.
    public var needsDeclaredAccess: Bool {
        switch self {
        case .countThroughFaults, .unusedPrefetch, .oversizedBatch: return true
        default: return false
        }
    }

    /// Whether two findings of this rule about one subject are told apart by their statement: fetches of one
    /// entity with different SQL are different causes; faults of one relationship are one cause however they ran.
    var identifiedByStatement: Bool {
        switch self {
        case .fetchPerObject, .repeatedFetch, .countPerObject, .largeUnbatchedFetch, .smallBatches: return true
        default: return false
        }
    }
}

/// What a finding is about, typed: baselines match on it, and the text names it.
public enum FindingSubject: Sendable, Hashable, Codable, CustomStringConvertible {
    /// An entity (`Student`), with the sub-entities seen when several were (`Account (Customer, Staff)`).
    case entity(String, members: [String])
    /// A relationship, named on the entity that declares it (`Class.students`).
    case relationship(entity: String, name: String)
    /// An attribute or a to-one's column (`Student.name`).
    case property(entity: String, name: String)
    /// A key path from a fetched entity (`Book.tags`, `Class.students.address`).
    case keyPath(entity: String, path: String)
    /// Nothing the model names (a statement on a table no name is known for).
    case none

    private enum CodingKeys: String, CodingKey { case kind, entity, name, members }

    /// `{"kind": "relationship", "entity": "Class", "name": "students"}`: flat, as a baseline file lists it.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case let .entity(name, members):
            try container.encode("entity", forKey: .kind)
            try container.encode(name, forKey: .entity)
            if !members.isEmpty { try container.encode(members, forKey: .members) }
        case let .relationship(entity, name):
            try container.encode("relationship", forKey: .kind)
            try container.encode(entity, forKey: .entity)
            try container.encode(name, forKey: .name)
        case let .property(entity, name):
            try container.encode("property", forKey: .kind)
            try container.encode(entity, forKey: .entity)
            try container.encode(name, forKey: .name)
        case let .keyPath(entity, path):
            try container.encode("keyPath", forKey: .kind)
            try container.encode(entity, forKey: .entity)
            try container.encode(path, forKey: .name)
        case .none:
            try container.encode("none", forKey: .kind)
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "entity":
            self = .entity(
                try container.decode(String.self, forKey: .entity),
                members: try container.decodeIfPresent([String].self, forKey: .members) ?? [])
        case "relationship":
            self = .relationship(
                entity: try container.decode(String.self, forKey: .entity), name: try container.decode(String.self, forKey: .name))
        case "property":
            self = .property(
                entity: try container.decode(String.self, forKey: .entity), name: try container.decode(String.self, forKey: .name))
        case "keyPath":
            self = .keyPath(
                entity: try container.decode(String.self, forKey: .entity), path: try container.decode(String.self, forKey: .name))
        case "none":
            self = .none
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "unknown subject kind '\(kind)' (entity, relationship, property, keyPath, none)")
        }
    }

    public var description: String {
        switch self {
        case let .entity(name, members): return members.count > 1 ? "\(name) (\(members.joined(separator: ", ")))" : name
        case let .relationship(entity, name), let .property(entity, name): return "\(entity).\(name)"
        case let .keyPath(entity, path): return "\(entity).\(path)"
        case .none: return "?"
        }
    }
}

/// Stable identities of findings: FNV-1a (64 bits) of their parts, as 16 hex digits (the same on every platform
/// and in every process, unlike Swift's seeded `Hasher`).
public enum FindingID {
    public static func of(rule: FindingRule, segment: String, subject: FindingSubject, statement: String) -> String {
        hash([rule.rawValue, segment, subjectKey(subject), statement])
    }

    /// FNV-1a (64 bits) of `parts`, each followed by a separator no name holds, as 16 hex digits: lint's findings are
    /// identified the same way.
    public static func hash(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ 0x1F) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func subjectKey(_ subject: FindingSubject) -> String {
        switch subject {
        case let .entity(name, _): return "entity:\(name)" // the sub-entities seen depend on the data
        case let .relationship(entity, name): return "relationship:\(entity).\(name)"
        case let .property(entity, name): return "property:\(entity).\(name)"
        case let .keyPath(entity, path): return "keyPath:\(entity).\(path)"
        case .none: return "none"
        }
    }
}
