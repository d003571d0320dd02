import Foundation

/// One statement as the analyzer finished it: what it was, the rows it read and the device's times for it.
///
/// A statement finishes when the annotation that closes it arrives (or the next statement begins), so a fetch's
/// prefetch finishes before the fetch itself; `nested` marks the prefetch, whose total the fetch's includes.
public struct FinishedStatement: Sendable, Equatable {
    public var fingerprint: String
    public var kind: SQLStatementKind
    public var role: StatementRole
    /// Rows it returned (0 when the log does not say; then `rowsKnown` is false).
    public var rows: Int
    public var rowsKnown: Bool
    /// `sql connection fetch time`, `sql execution time` and `total fetch execution time`, when the log gave them.
    public var connectionSeconds: Double?
    public var executionSeconds: Double?
    public var totalSeconds: Double?
    /// A prefetch (or other id-list read) run while another statement's fetch was open.
    public var nested: Bool
    /// The line it began on.
    public var line: Int

    init(_ run: StatementRun, fingerprint: String) {
        self.fingerprint = fingerprint
        kind = run.shape.kind
        role = run.role
        rows = run.rows
        rowsKnown = run.rowsKnown
        connectionSeconds = run.connectionSeconds
        executionSeconds = run.executionSeconds
        totalSeconds = run.totalSeconds
        nested = run.nested
        line = run.line
    }

    /// The device's time for it: the fetch's total when logged, else SQLite's connection time, else its execution time.
    public var seconds: Double? { totalSeconds ?? connectionSeconds ?? executionSeconds }
}

extension LogAnalyzer {
    /// The statements finished since the last call (kept only while `keepsFinishedStatements` is set).
    public mutating func takeFinishedStatements() -> [FinishedStatement] {
        defer { finished.removeAll(keepingCapacity: true) }
        return finished
    }

    /// Analyzes the log file at `path` as `analyze(path:mapping:options:)` does, handing `each` every statement as
    /// it finishes, in one pass (memory stays bounded).
    public static func analyze(
        path: String, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions(),
        eachStatement each: (FinishedStatement) -> Void
    ) throws -> LogAnalysis {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw LogReadError(path: path, code: errno) }
        defer { close(descriptor) }
        return try analyze(descriptor: descriptor, path: path, mapping: mapping, options: options, eachStatement: each)
    }

    /// Analyzes what `handle` yields until its end, handing `each` every statement as it finishes.
    public static func analyze(
        handle: FileHandle, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions(),
        eachStatement each: (FinishedStatement) -> Void
    ) throws -> LogAnalysis {
        try analyze(descriptor: handle.fileDescriptor, path: "", mapping: mapping, options: options, eachStatement: each)
    }

    /// Analyzes a log held in a string, handing `each` every statement as it finishes.
    public static func analyze(
        text: String, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions(),
        eachStatement each: (FinishedStatement) -> Void
    ) -> LogAnalysis {
        var parser = SQLDebugLogParser()
        var analyzer = LogAnalyzer(mapping: mapping, options: options)
        analyzer.keepsFinishedStatements = true
        var bytes = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            bytes += line.utf8.count + 1
            parser.feed(line) { analyzer.consume($0) }
            analyzer.takeFinishedStatements().forEach(each)
        }
        parser.finish { analyzer.consume($0) }
        let analysis = analyzer.finish(parser: parser.statistics, bytesRead: max(0, bytes - 1))
        analyzer.takeFinishedStatements().forEach(each)
        return analysis
    }

    static func analyze(
        descriptor: Int32, path: String, mapping: NameMapping?, options: AnalysisOptions,
        eachStatement each: (FinishedStatement) -> Void
    ) throws -> LogAnalysis {
        var parser = SQLDebugLogParser()
        var analyzer = LogAnalyzer(mapping: mapping, options: options)
        analyzer.keepsFinishedStatements = true
        let bytes = try LineReader(descriptor: descriptor, path: path).forEachLine { line, cut in
            parser.feed(bytes: line, cut: cut) { analyzer.consume($0) }
            if !analyzer.finished.isEmpty { analyzer.takeFinishedStatements().forEach(each) }
        }
        parser.finish { analyzer.consume($0) }
        let analysis = analyzer.finish(parser: parser.statistics, bytesRead: bytes)
        analyzer.takeFinishedStatements().forEach(each)
        return analysis
    }
}
