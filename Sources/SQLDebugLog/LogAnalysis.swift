/// The analysis of a whole log: its segments, findings, and how readable it was.
public struct LogAnalysis: Sendable, Equatable, Codable {
    /// Segments by name, in the order the first of each name began (segments of one name, a screen visited
    /// several times, are added up into one). Without markers, one segment named `log` holds everything; with
    /// markers, what ran outside every marked segment is in a segment named `LogAnalysis.outsideSegmentName`
    /// (listed first, and only when something ran there).
    public var segments: [LogSegment]
    /// Lines that were invalid UTF-8, held control bytes, or were cut at the reader's length limit.
    public var garbledLines: Int
    /// Core Data lines cut short (a message ending before its values, a prefix cut mid-word, a block never closed).
    public var truncatedLines: Int
    /// Core Data annotation or detail lines this parser recognised as Core Data's but did not interpret.
    public var unknownCoreDataLines: Int
    /// Whether some entity or property names were inferred from Z names (upper-case) rather than given by the
    /// caller's mapping or said by the log's annotations.
    public var namesInferred: Bool
    public var bytesRead: Int
    public var lines: Int
    /// Lines holding a Core Data message.
    public var coreDataLines: Int
    /// Copies of messages the console printed more than once, dropped.
    public var duplicateMessages: Int
    /// All segments' counts added up.
    public var totals: LogCounters
    /// Everything the parser counted.
    public var parser: ParserStatistics
    /// Segment markers that did not pair.
    public var markerProblems: MarkerProblems
    /// Repeats of one statement in a segment above which it is a finding (`AnalysisOptions.repeatThreshold`).
    public var threshold: Int

    public static let outsideSegmentName = "(outside segments)"
    public static let wholeLogSegmentName = "log"

    /// The segment named `name`.
    public func segment(named name: String) -> LogSegment? { segments.first { $0.name == name } }

    /// Every finding of every segment.
    public var findings: [Finding] { segments.flatMap(\.findings) }
}

/// A named part of the log (between `RelBench: begin NAME` and `RelBench: end NAME`, or a test case), or the whole
/// log; every segment of one name added up.
public struct LogSegment: Sendable, Equatable, Codable {
    public var name: String
    /// The lines of its first begin and last end markers (nil for the implicit segments, or an end never reached).
    public var beginLine: Int?
    public var endLine: Int?
    /// Whether every segment of this name was ended by its own end marker.
    public var closed: Bool
    /// How many segments of this name the log began, and how many of them it never ended.
    public var occurrences: Int
    public var unclosed: Int
    public var counters: LogCounters
    /// Tables it touched, with their entity names.
    public var entities: [EntityUsage]
    /// Its statements by fingerprint, most frequent first.
    public var fingerprints: [FingerprintStats]
    /// Saves (write transactions) and how many rows each wrote, summarised.
    public var saveSizes: SaveSizes
    public var findings: [Finding]
}

/// A table a segment touched.
public struct EntityUsage: Sendable, Equatable, Codable {
    public var table: String
    public var entity: ResolvedName
    /// Statements that read or wrote it.
    public var statements: Int
    public var rowsRead: Int
    /// Object faults of its objects (`fault fulfilled from database` with this entity's URI).
    public var objectFaults: Int
}

/// How big a segment's saves were.
public struct SaveSizes: Sendable, Equatable, Codable {
    public var saves = 0
    /// Rows written (INSERT, UPDATE, DELETE of model tables) over all saves.
    public var rowsWritten = 0
    /// Saves that wrote at most `AnalysisOptions.smallSaveRows` rows.
    public var smallSaves = 0
    /// Statements of the small saves other than their row writes (BEGIN, COMMIT, primary-key reservation...).
    public var smallSaveOverheadStatements = 0
    /// Milliseconds the log measured for those overhead statements.
    public var smallSaveOverheadMilliseconds: Double = 0

    public init() {}

    mutating func add(_ other: SaveSizes) {
        saves += other.saves
        rowsWritten += other.rowsWritten
        smallSaves += other.smallSaves
        smallSaveOverheadStatements += other.smallSaveOverheadStatements
        smallSaveOverheadMilliseconds += other.smallSaveOverheadMilliseconds
    }
}

/// Thresholds of the findings.
public struct AnalysisOptions: Sendable, Equatable {
    /// A fingerprint repeated more than this many times in a segment is an N+1 pattern (as `bench advise`).
    public var repeatThreshold: Int
    /// A fetch returning at least this many rows without fetchBatchSize is a large unbatched fetch.
    public var largeFetchRows: Int
    /// A save writing at most this many rows is small; more than `repeatThreshold` small saves is a save in a loop.
    public var smallSaveRows: Int
    /// The batch size a large-fetch finding suggests.
    public var suggestedBatchSize: Int

    public init(repeatThreshold: Int = 10, largeFetchRows: Int = 1000, smallSaveRows: Int = 5, suggestedBatchSize: Int = 20) {
        self.repeatThreshold = repeatThreshold
        self.largeFetchRows = largeFetchRows
        self.smallSaveRows = smallSaveRows
        self.suggestedBatchSize = suggestedBatchSize
    }
}
