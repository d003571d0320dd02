/// Counts of what the parser saw, line by line.
public struct ParserStatistics: Sendable, Equatable, Codable {
    /// Every line fed.
    public var lines = 0
    /// Lines holding a Core Data message (any tag), duplicates included.
    public var coreDataLines = 0
    /// Lines that were invalid UTF-8, held control bytes, or were cut at the reader's length limit.
    public var garbledLines = 0
    /// Core Data lines that end before their message does, or start mid-prefix (`ata: sql: ...`).
    public var truncatedLines = 0
    /// Core Data `annotation:`/`details:` lines whose content this parser does not interpret.
    public var unknownCoreDataLines = 0
    /// Copies of a message the console printed again (dropped, counted here).
    public var duplicateMessages = 0
    /// Core Data messages of other categories (`debug:`, `CloudKit:`, `XPC:`), read and ignored.
    public var informationalMessages = 0
    /// Lines joined to the statement before them (a statement wrapped over several lines).
    public var continuationLines = 0
    /// Lines inside `with values: (` blocks.
    public var valueBlockLines = 0
    /// Lines that are not Core Data's.
    public var otherLines = 0

    public init() {}
}
