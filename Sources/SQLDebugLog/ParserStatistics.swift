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
    /// Bytes of the log as read, and of it as text (after UTF-16 was transcoded to UTF-8, when it was UTF-16).
    public var encoding = TextEncoding.utf8

    public init() {}

    enum CodingKeys: String, CodingKey {
        case lines, encoding
        case coreDataLines = "core_data_lines"
        case garbledLines = "garbled_lines"
        case truncatedLines = "truncated_lines"
        case unknownCoreDataLines = "unknown_core_data_lines"
        case duplicateMessages = "duplicate_messages"
        case informationalMessages = "informational_messages"
        case continuationLines = "continuation_lines"
        case valueBlockLines = "value_block_lines"
        case otherLines = "other_lines"
    }
}

/// How the log's bytes were encoded.
public enum TextEncoding: String, Sendable, Codable, Equatable {
    case utf8 = "utf-8"
    case utf16LittleEndian = "utf-16le"
    case utf16BigEndian = "utf-16be"
}
