import Foundation

extension LogAnalyzer {
    /// Analyzes the log file at `path`, streaming it in 1 MiB chunks (memory does not grow with the file); `each`, when
    /// given, gets every statement as it finishes.
    public static func analyze(
        path: String, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions(),
        access: [String: SegmentAccess] = [:], eachStatement each: ((FinishedStatement) -> Void)? = nil
    ) throws -> LogAnalysis {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw LogReadError(path: path, code: errno) }
        defer { close(descriptor) }
        var analyzer = LogAnalyzer(mapping: mapping, options: options, access: access)
        return try analyzer.read(descriptor: descriptor, path: path, eachStatement: each)
    }

    /// Analyzes what `handle` yields until its end (standard input: `FileHandle.standardInput`).
    public static func analyze(
        handle: FileHandle, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions(),
        access: [String: SegmentAccess] = [:], eachStatement each: ((FinishedStatement) -> Void)? = nil
    ) throws -> LogAnalysis {
        var analyzer = LogAnalyzer(mapping: mapping, options: options, access: access)
        return try analyzer.read(descriptor: handle.fileDescriptor, path: "", eachStatement: each)
    }

    /// Analyzes a log held in a string (tests, small logs), UTF-8 as Swift holds it.
    public static func analyze(
        text: String, mapping: NameMapping? = nil, options: AnalysisOptions = AnalysisOptions(),
        access: [String: SegmentAccess] = [:], eachStatement each: ((FinishedStatement) -> Void)? = nil
    ) -> LogAnalysis {
        var parser = SQLDebugLogParser()
        var analyzer = LogAnalyzer(mapping: mapping, options: options, access: access)
        analyzer.keepsFinishedStatements = each != nil
        var bytes = 0
        var copy = text
        copy.withUTF8 { utf8 in
            // Lines end at a line feed; a carriage return before it is dropped (CRLF), as the file reader does.
            var start = 0
            while start <= utf8.count {
                var end = start
                while end < utf8.count, utf8[end] != 10 { end += 1 }
                bytes += end - start + 1
                var upper = end
                if upper > start, utf8[upper - 1] == 13 { upper -= 1 }
                parser.feed(bytes: ByteView(rebasing: utf8[start..<upper]), cut: false, into: &analyzer)
                if let each, !analyzer.finished.isEmpty { analyzer.takeFinishedStatements().forEach(each) }
                start = end + 1
            }
        }
        parser.finish(into: &analyzer)
        let analysis = analyzer.finish(parser: parser.statistics, bytesRead: max(0, bytes - 1))
        if let each { analyzer.takeFinishedStatements().forEach(each) }
        return analysis
    }

    /// Reads the descriptor to its end into this analyzer, in one pass.
    mutating func read(descriptor: Int32, path: String, eachStatement each: ((FinishedStatement) -> Void)?) throws -> LogAnalysis {
        var parser = SQLDebugLogParser()
        keepsFinishedStatements = each != nil
        let (bytes, encoding) = try LineReader(descriptor: descriptor, path: path).forEachLine { line, cut in
            parser.feed(bytes: line, cut: cut, into: &self)
            if let each, !self.finished.isEmpty { self.takeFinishedStatements().forEach(each) }
        }
        parser.finish(into: &self)
        var statistics = parser.statistics
        statistics.encoding = encoding
        let analysis = finish(parser: statistics, bytesRead: bytes)
        if let each { takeFinishedStatements().forEach(each) }
        return analysis
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
        let (_, encoding) = try LineReader(descriptor: descriptor, path: path).forEachLine { line, cut in
            parser.feed(bytes: line, cut: cut, body)
        }
        parser.finish(body)
        var statistics = parser.statistics
        statistics.encoding = encoding
        return statistics
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
