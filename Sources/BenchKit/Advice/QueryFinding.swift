import Foundation

/// An access pattern the N+1 detector found in one phase, with the change that removes it and what that saves.
public struct QueryFinding: Sendable, Codable, Equatable {
    /// The patterns, as Rails' Bullet and Prosopite name theirs: what repeats, and why.
    public enum Pattern: String, Sendable, Codable, CaseIterable {
        /// A to-many fault for every owner of a fetched list.
        case toManyFaultPerOwner = "to-many-fault-per-owner"
        /// A to-many faulted for every owner with none of its members read: only its count (or a membership test).
        case countThroughFaults = "count-through-faults"
        /// An object fault for every destination of a to-one of a fetched list.
        case toOneFaultPerObject = "to-one-fault-per-object"
        /// The fetched objects themselves faulted one by one (returnsObjectsAsFaults left true).
        case faultedResults = "faulted-results"
        /// One to-many faulted, then its members one by one to find one of them.
        case walkToFind = "walk-to-find"
        /// fetchBatchSize small against the rows read: a batch statement per few rows.
        case smallBatches = "small-batches"
        /// fetchBatchSize far above the rows a declared phase reads.
        case oversizedBatch = "oversized-batch"
        /// A prefetched key path the phase never reads (Bullet's unused eager loading).
        case unusedPrefetch = "unused-prefetch"
        /// Any other statement run many times in one phase.
        case repeatedStatement = "repeated-statement"
    }

    public var scenario = ScenarioName("")
    public var strategy = Strategy.objectGraph
    public var variant = Variant([])
    public var size = 0
    public var phase: PhaseName
    public let pattern: Pattern
    /// What repeats: `Class.students`, `Student`.
    public let subject: String
    /// The repeated statement without its values.
    public let fingerprint: String
    public let repeats: Int
    /// The phase's statements as run.
    public let statements: Int
    /// The phase's statements after the change (estimated from the trace).
    public let statementsAfter: Int
    /// What to change, in Core Data's terms.
    public let change: String
    /// The same phase measured without the pattern in the run, when it has such a series (another variant).
    public var measured: String?

    /// `walk: 2,000 × "SELECT ..." — to-many fault Class.students per owner: add ... (2,001 → 2 statements)`.
    public var line: String {
        let what = repeats > 0 ? "\(formatCount(repeats)) × \"\(fingerprint)\" — " : ""
        let saving = statementsAfter == statements ? "" : " (\(formatCount(statements)) → \(formatCount(statementsAfter)) statements)"
        return "\(phase): \(what)\(description): \(change)\(saving)" + (measured.map { "; \($0)" } ?? "")
    }

    /// The pattern in words, naming the subject.
    public var description: String {
        switch pattern {
        case .toManyFaultPerOwner: return "to-many fault \(subject) per owner"
        case .countThroughFaults: return "to-many \(subject) faulted per owner only to count it"
        case .toOneFaultPerObject: return "object fault of \(subject) per fetched object"
        case .faultedResults: return "fetched \(subject) objects faulted one by one"
        case .walkToFind: return "\(subject) walked member by member to find one"
        case .smallBatches: return "\(subject) fetched in small batches"
        case .oversizedBatch: return "batches of \(subject) far larger than the rows read"
        case .unusedPrefetch: return "prefetch of \(subject) never read"
        case .repeatedStatement: return "the same statement for \(subject) repeated"
        }
    }
}

/// `2,001`: a count with thousands separators, as the findings print them.
/// A whole number with thousands separators; one beyond Int's exact range is written as a plain number.
public func formatCount(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 9e15 else { return formatNumber(value) }
    return formatCount(Int(value.rounded()))
}

public func formatCount(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (index, character) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
        grouped.append(character)
    }
    return (value < 0 ? "-" : "") + grouped
}
