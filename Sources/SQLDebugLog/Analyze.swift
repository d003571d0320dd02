import Foundation

extension LogAnalyzer {
    /// Analyzes the log file at `path`, streaming it in 1 MiB chunks (memory does not grow with the file).
    public static func analyze(
        path: String, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions()
    ) throws -> LogAnalysis {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw LogReadError(path: path, code: errno) }
        defer { close(descriptor) }
        return try analyze(descriptor: descriptor, path: path, mapping: mapping, options: options)
    }

    /// Analyzes what `handle` yields until its end (standard input: `FileHandle.standardInput`).
    public static func analyze(
        handle: FileHandle, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions()
    ) throws -> LogAnalysis {
        try analyze(descriptor: handle.fileDescriptor, path: "", mapping: mapping, options: options)
    }

    /// Analyzes a log held in a string (tests, small logs).
    public static func analyze(text: String, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions()) -> LogAnalysis {
        var parser = SQLDebugLogParser()
        var analyzer = LogAnalyzer(mapping: mapping, options: options)
        var bytes = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            bytes += line.utf8.count + 1
            parser.feed(line) { analyzer.consume($0) }
        }
        parser.finish { analyzer.consume($0) }
        return analyzer.finish(parser: parser.statistics, bytesRead: max(0, bytes - 1))
    }

    static func analyze(descriptor: Int32, path: String, mapping: NameMapping?, options: AnalysisOptions) throws -> LogAnalysis {
        var parser = SQLDebugLogParser()
        var analyzer = LogAnalyzer(mapping: mapping, options: options)
        let bytes = try LineReader(descriptor: descriptor, path: path).forEachLine { line, cut in
            parser.feed(bytes: line, cut: cut) { analyzer.consume($0) }
        }
        parser.finish { analyzer.consume($0) }
        return analyzer.finish(parser: parser.statistics, bytesRead: bytes)
    }
}

extension SQLDebugLogParser {
    /// Parses the log file at `path` line by line, calling `body` with each event; returns the statistics.
    public static func parse(fileAt path: String, _ body: (LogEvent) -> Void) throws -> ParserStatistics {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw LogReadError(path: path, code: errno) }
        defer { close(descriptor) }
        return try parse(descriptor: descriptor, path: path, body)
    }

    /// Parses what `handle` yields until its end, calling `body` with each event; returns the statistics.
    public static func parse(handle: FileHandle, _ body: (LogEvent) -> Void) throws -> ParserStatistics {
        try parse(descriptor: handle.fileDescriptor, path: "", body)
    }

    static func parse(descriptor: Int32, path: String, _ body: (LogEvent) -> Void) throws -> ParserStatistics {
        var parser = SQLDebugLogParser()
        _ = try LineReader(descriptor: descriptor, path: path).forEachLine { line, cut in
            parser.feed(bytes: line, cut: cut, body)
        }
        parser.finish(body)
        return parser.statistics
    }
}

extension LogAnalysis {
    /// Analyzes the log file at `path` (see `LogAnalyzer.analyze(path:mapping:options:)`).
    public static func analyze(
        path: String, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions()
    ) throws -> LogAnalysis {
        try LogAnalyzer.analyze(path: path, mapping: mapping, options: options)
    }

    /// Analyzes what `handle` yields until its end, standard input for example.
    public static func analyze(
        handle: FileHandle, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions()
    ) throws -> LogAnalysis {
        try LogAnalyzer.analyze(handle: handle, mapping: mapping, options: options)
    }
}
