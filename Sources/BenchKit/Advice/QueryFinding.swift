import Foundation

/// An access pattern the N+1 detector found in one phase, with the change that removes it and what that saves.
package struct QueryFinding: Sendable, Codable, Equatable {
    /// The patterns, as Rails' Bullet and Prosopite name theirs: what repeats, and why.
    package enum Pattern: String, Sendable, Codable, CaseIterable {
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

    package var scenario = ScenarioName("")
    package var strategy = Strategy.objectGraph
    package var variant = Variant([])
    package var size = 0
    package var phase: PhaseName
    package let pattern: Pattern
    /// What repeats: `Class.students`, `Student`.
    package let subject: String
    /// The repeated statement without its values.
    package let fingerprint: String
    package let repeats: Int
    /// The phase's statements as run.
    package let statements: Int
    /// The phase's statements after the change (estimated from the trace).
    package let statementsAfter: Int
    /// What to change, in Core Data's terms.
    package let change: String
    /// The same phase measured without the pattern in the run, when it has such a series (another variant).
    package var measured: String?

    /// `walk: 2,000 × "SELECT ..." — to-many fault Class.students per owner: add ... (2,001 → 2 statements)`.
    package var line: String {
        let what = repeats > 0 ? "\(formatCount(repeats)) × \"\(fingerprint)\" — " : ""
        let saving = statementsAfter == statements ? "" : " (\(formatCount(statements)) → \(formatCount(statementsAfter)) statements)"
        return "\(phase): \(what)\(description): \(change)\(saving)" + (measured.map { "; \($0)" } ?? "")
    }

    /// The pattern in words, naming the subject.
    package var description: String {
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
