/// Advice on a segment: a pattern the log shows, what to change in Core Data's terms, and what it would save.
public struct LogFinding: Sendable, Equatable, Codable {
    public enum Pattern: String, Sendable, Codable, CaseIterable {
        /// One fetch repeated per owner with different bound values.
        case nPlusOne
        /// One fetch repeated with the same values every time.
        case repeatedQuery
        /// Object faults fired one by one (`fault fulfilled from database` per object).
        case faultChain
        /// A to-many relationship fault per object.
        case toManyFaultPerObject
        /// A fetch that read many rows at once without fetchBatchSize.
        case largeUnbatchedFetch
        /// Many small save transactions: a save inside a loop.
        case saveInLoop
        /// A fetch filtering on a column with no index.
        case unindexedFilter
        /// A fetch sorting on a column with no index.
        case unindexedSort
    }

    public var pattern: Pattern
    /// The segment it was found in.
    public var segment: String
    /// The fingerprint of the statement repeated (for a save in a loop, the main INSERT/UPDATE's).
    public var fingerprint: String
    /// How many times it ran.
    public var repeats: Int
    /// The entity involved (`Student`, or `STUDENT` inferred).
    public var entity: ResolvedName?
    /// The relationship or property involved (`Class.students`, `Student.name`).
    public var relationship: ResolvedName?
    /// The fix, in Core Data's terms.
    public var fix: String
    /// Statements the fix saves (nil when the log cannot tell).
    public var statementsSaved: Int?
    /// Milliseconds the log measured for the repeated statements.
    public var measuredMilliseconds: Double
    /// The estimated time of what replaces them (nil when the log cannot tell).
    public var replacementMilliseconds: Double?
    /// `measuredMilliseconds - replacementMilliseconds`, never below 0 (nil when the log cannot tell).
    public var millisecondsSaved: Double?
    /// One line saying what was seen.
    public var summary: String
}
