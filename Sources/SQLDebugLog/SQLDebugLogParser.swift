/// A streaming parser of Core Data's SQLDebug log: feed it lines, it calls back with events.
///
/// It holds at most one statement (to join wrapped lines) and one message body (to drop console copies), so
/// memory does not grow with the log. Any bytes are accepted: invalid UTF-8, control bytes and cut lines are
/// counted in `statistics` and reported as `.garbled` events, never fatal.
public struct SQLDebugLogParser: Sendable {
    public private(set) var statistics = ParserStatistics()
    private var lineNumber = 0
    private var pendingSQL: [UInt8] = []
    private var pendingLine = 0
    private var hasPending = false
    private var pendingContinuations = 0
    private var lastStatement: [UInt8] = []
    private var blockDepth = 0
    private var blockStartLine = 0
    private var duplicates = DuplicateFilter()
    private var interner = StringInterner()
    /// The first lines, held until they show whether the stream is doubled (then emitted, in order).
    private var prologue: Prologue? = Prologue()

    public init() {}

    /// A parser of a stream known to be single (ObjectGraph's own trace, read as it is written): no prologue is held
    /// to tell a doubled stream, so each line's events come as it is fed, which a reader that asks for a segment's
    /// findings at its end marker needs (a held prologue of 24 messages kept a short phase's lines back).
    public init(singleStream: Bool) {
        if singleStream { prologue = nil }
    }

    /// The log's first lines, kept whole (bounded) until enough Core Data messages show whether every one of them
    /// came twice in a row: a doubled stream (os_log and standard error both captured) that starts with messages
    /// which may repeat (pragmas, metadata reads) is then read as one from its first line.
    struct Prologue: Sendable {
        var lines: [(bytes: [UInt8], cut: Bool)] = []
        var bytes = 0
        /// Core Data messages' tags and texts, in order.
        var messages: [(tag: MessageTag, body: [UInt8])] = []

        static let messagesNeeded = 24
        static let byteLimit = 1 << 20

        var isFull: Bool { messages.count >= Self.messagesNeeded || lines.count >= 1024 || bytes >= Self.byteLimit }

        /// Whether every message came twice in a row, with at least two pairs, one of them of a message that cannot
        /// repeat back to back (an annotation, a detail, a fetch's SELECT, a transaction verb).
        var looksDoubled: Bool {
            var index = 0
            var pairs = 0
            var evidence = false
            while index + 1 < messages.count {
                let (tag, body) = messages[index]
                guard messages[index + 1].tag == tag, messages[index + 1].body == body else { return false }
                pairs += 1
                if tag == .annotation || tag == .details { evidence = true }
                if tag == .sql, body.withUnsafeBufferPointer({ DuplicateFilter.cannotRepeat($0, annotatesFetches: true) }) {
                    evidence = true
                }
                index += 2
            }
            return pairs >= 2 && evidence
        }
    }

    /// The number of the last line fed (1-based).
    public var currentLine: Int { lineNumber }

    /// Parses one line (without its newline), calling `emit` with its events.
    ///
    /// A `sql:` line's statement is emitted when the next line shows it is complete (the next line may continue
    /// a wrapped statement), or by `finish()`.
    public mutating func feed(_ line: Substring, _ emit: (LogEvent) -> Void) {
        var text = String(line.hasSuffix("\r") ? line.dropLast() : line)
        text.withUTF8 { feed(bytes: $0, emit) }
    }

    /// Parses one line and returns its events (the statement of a `sql:` line comes with the next line's events,
    /// or from `finish()`, since the next line may continue it).
    public mutating func feed(_ line: String) -> [LogEvent] {
        feed(Substring(line))
    }

    /// Parses one line and returns its events (see `feed(_:_:)`).
    public mutating func feed(_ line: Substring) -> [LogEvent] {
        var events: [LogEvent] = []
        feed(line) { events.append($0) }
        return events
    }

    /// Parses one line given as UTF-8 bytes (any bytes, without the newline); the fast path for big logs.
    public mutating func feed(bytes line: UnsafeBufferPointer<UInt8>, _ emit: (LogEvent) -> Void) {
        feed(bytes: line, cut: false, emit)
    }

    /// Ends the log: emits the statement still held and reports a block left open.
    public mutating func finish(_ emit: (LogEvent) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var sink = ClosureSink(emit: emit)
            finish(into: &sink)
        }
    }

    /// Ends the log into `sink` (see `finish(_:)`).
    mutating func finish(into sink: inout some LogEventSink) {
        releasePrologue(&sink)
        flushStatement(&sink)
        if blockDepth > 0 {
            blockDepth = 0
            statistics.truncatedLines += 1
            sink.event(.garbled(line: blockStartLine, reason: .unterminatedBlock))
        }
    }

    /// Ends the log and returns the last events.
    public mutating func finish() -> [LogEvent] {
        var events: [LogEvent] = []
        finish { events.append($0) }
        return events
    }

    mutating func feed(bytes raw: ByteView, cut: Bool, _ emit: (LogEvent) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var sink = ClosureSink(emit: emit)
            feed(bytes: raw, cut: cut, into: &sink)
        }
    }

    /// Parses one line into `sink`: the analyzer takes statements as bytes, so that no String is made for them.
    mutating func feed(bytes raw: ByteView, cut: Bool, into sink: inout some LogEventSink) {
        if prologue != nil {
            hold(raw, cut: cut)
            if prologue?.isFull == true { releasePrologue(&sink) }
            return
        }
        lineNumber += 1
        statistics.lines += 1
        let line = raw
        let scan = Self.scan(line)
        if cut {
            statistics.garbledLines += 1
            sink.event(.garbled(line: lineNumber, reason: .overlong))
        } else if let reason = scan.garbled {
            statistics.garbledLines += 1
            sink.event(.garbled(line: lineNumber, reason: reason))
        }
        if let message = Self.jsonMessage(line) {
            // `log show --style json` / `ndjson`: the message is a JSON string; its escaped newlines are lines.
            for part in message.split(separator: 10, omittingEmptySubsequences: false) {
                Array(part).withUnsafeBufferPointer { processVisible($0, &sink) }
            }
            return
        }
        if scan.hasAmpersand || scan.hasEscape {
            processVisible(line, &sink)
        } else {
            process(line, &sink)
        }
    }

    /// Keeps a line of the prologue, with its message when it has one.
    private mutating func hold(_ line: ByteView, cut: Bool) {
        prologue?.lines.append((Array(line), cut))
        prologue?.bytes += line.count
        guard !cut, let message = MessageLocator.locate(line), Self.isPlausible(message, in: line) else { return }
        var tag = message.tag
        let body = line.slice(message.bodyStart).trimmed()
        if tag == .untagged || tag == .error, SQLText.isWholeStatement(body) { tag = .sql }
        if tag.isProblem, AnnotationParser.isAnnotationInDisguise(body) { tag = .annotation }
        if tag == .untagged, AnnotationParser.isDistinctiveAnnotation(body) { tag = .annotation }
        prologue?.messages.append((tag, Array(body)))
    }

    /// Reads the held lines, knowing now whether the stream is doubled.
    private mutating func releasePrologue(_ sink: inout some LogEventSink) {
        guard let held = prologue else { return }
        prologue = nil
        if held.looksDoubled { duplicates.assumeDoubled() }
        for (bytes, cut) in held.lines {
            bytes.withUnsafeBufferPointer { feed(bytes: $0, cut: cut, into: &sink) }
        }
    }

    /// Reads a line after removing terminal colours (and HTML entities, in logs copied from a web page).
    private mutating func processVisible(_ line: ByteView, _ sink: inout some LogEventSink) {
        if line.find(byte: UInt8(ascii: "&")) != nil, let unescaped = Self.unescapingHTML(line) {
            unescaped.withUnsafeBufferPointer { withoutColours($0, &sink) }
            return
        }
        withoutColours(line, &sink)
    }

    private mutating func withoutColours(_ line: ByteView, _ sink: inout some LogEventSink) {
        if line.find(byte: 0x1B) != nil {
            let cleaned = Self.strippingEscapes(line)
            cleaned.withUnsafeBufferPointer { process($0, &sink) }
            return
        }
        process(line, &sink)
    }

    private mutating func process(_ line: ByteView, _ sink: inout some LogEventSink) {
        if blockDepth > 0 {
            let marker = Markers.marker(in: line, line: lineNumber)
            if marker != nil || MessageLocator.locate(line).map({ $0.form == .prefixed || $0.form == .spaced }) == true {
                blockDepth = 0
                statistics.truncatedLines += 1
                sink.event(.garbled(line: blockStartLine, reason: .unterminatedBlock))
            } else {
                statistics.valueBlockLines += 1
                blockDepth += AnnotationParser.parenthesisDepth(line)
                if blockDepth <= 0 { blockDepth = 0 }
                return
            }
        }
        guard let first = MessageLocator.locate(line), Self.isPlausible(first, in: line) else {
            if let marker = Markers.marker(in: line, line: lineNumber) {
                flushStatement(&sink)
                sink.event(.marker(marker))
                return
            }
            let trimmed = line.trimmed()
            if hasPending, trimmed.count > 0, pendingContinuations < 64, pendingSQL.count < 1 << 20,
                SQLText.isContinuation(trimmed) || pendingSQL.withUnsafeBufferPointer({ SQLText.expectsMore($0) })
            {
                statistics.continuationLines += 1
                pendingContinuations += 1
                pendingSQL.append(32)
                pendingSQL.append(contentsOf: trimmed)
                return
            }
            flushStatement(&sink)
            duplicates.noteOtherLine()
            statistics.otherLines += 1
            return
        }
        statistics.coreDataLines += 1
        var message = first
        while true {
            // A second message glued onto the same line (two threads writing at once).
            let next = message.form == .prefixed || message.form == .spaced ? MessageLocator.locate(line, from: message.bodyStart) : nil
            let gluedStart = next.flatMap { candidate in candidate.tag != .untagged && candidate.tag != .informational ? candidate : nil }
            let end = gluedStart?.messageStart ?? line.count
            let body = line.slice(message.bodyStart, end)
            // `CoreData: error: CoreData: error: X`: the first copy is empty, the second holds the message.
            if gluedStart == nil || body.trimmed().count > 0 { handle(message, body: body, &sink) }
            guard let following = gluedStart else { break }
            message = following
        }
    }

    private mutating func handle(_ message: LocatedMessage, body rawBody: ByteView, _ sink: inout some LogEventSink) {
        let body = rawBody.trimmingTableBars()
        var tag = message.tag
        if tag.isProblem, AnnotationParser.isAnnotationInDisguise(body) { tag = .annotation }
        if tag == .untagged, AnnotationParser.isDistinctiveAnnotation(body) { tag = .annotation }
        if tag.isProblem, body.matches("SQLite bind[", at: 0) || body.matches("SQLite: ", at: 0) { tag = .details }
        // Catastrophic mode labels statements `error:` too; Xcode 15's untagged copy (`CoreData: SELECT ...`) has no tag.
        if tag == .error || tag == .untagged, SQLText.isWholeStatement(body) { tag = .sql }
        switch duplicates.judge(tag: tag, form: message.form, body: body) {
        case .drop:
            statistics.duplicateMessages += 1
            return
        case .hold:
            flushStatement(&sink)
            return
        case .keep:
            if duplicates.confirmedBare { statistics.duplicateMessages += 1 }
        }
        if message.form == .cutPrefix {
            statistics.truncatedLines += 1
            sink.event(.garbled(line: lineNumber, reason: .truncated))
        }
        switch tag {
        case .sql:
            flushStatement(&sink)
            let text = body.trimmingLeadingBlanks()
            guard text.count > 0 else {
                statistics.truncatedLines += 1
                sink.event(.garbled(line: lineNumber, reason: .truncated))
                return
            }
            pendingSQL.removeAll(keepingCapacity: true)
            pendingSQL.append(contentsOf: text)
            pendingLine = lineNumber
            pendingContinuations = 0
            hasPending = true
        case .annotation:
            flushStatement(&sink)
            if body.matches("fetch using ", at: 0) { statementInText(body, origin: .annotationText, &sink) }
            var parsed = AnnotationParser.parseAnnotation(body, interner: &interner)
            apply(&parsed, &sink)
        case .details:
            flushStatement(&sink)
            var parsed = AnnotationParser.parseDetails(body)
            apply(&parsed, &sink)
        case .error, .fault, .warning, .untagged:
            flushStatement(&sink)
            problem(tag, body, &sink)
        case .informational:
            flushStatement(&sink)
            statistics.informationalMessages += 1
        }
    }

    /// A message found without `CoreData:` before it (`sql: ...`, `annotation: ...`) counts only when its text is
    /// what Core Data writes after that tag: app output also says `details: ...`.
    static func isPlausible(_ message: LocatedMessage, in line: ByteView) -> Bool {
        guard message.form == .bare || message.form == .cutPrefix else { return true }
        let body = line.slice(message.bodyStart).trimmingTableBars()
        switch message.tag {
        case .sql:
            return SQLText.startsWithStatementKeyword(body.trimmingLeadingBlanks()) || body.matches("<private>", at: 0)
        case .annotation:
            if case .annotation? = AnnotationParser.parseAnnotation(body).event { return false }
            return true
        case .details:
            if case .annotation? = AnnotationParser.parseDetails(body).event { return false }
            return AnnotationParser.parseDetails(body).event != nil
        default:
            return true
        }
    }

    private mutating func apply(_ parsed: inout ParsedMessage, _ sink: inout some LogEventSink) {
        if parsed.truncated {
            statistics.truncatedLines += 1
            sink.event(.garbled(line: lineNumber, reason: .truncated))
        }
        // Moved out, not copied (profiled: copies and destructions of events through their value witnesses cost a
        // few percent of reading a log).
        if let event = parsed.event.take() {
            if case .annotation = event { statistics.unknownCoreDataLines += 1 }
            sink.event(event)
        }
        if parsed.opensBlock {
            blockDepth = parsed.blockDepth
            blockStartLine = lineNumber
        }
    }

    private mutating func problem(_ tag: MessageTag, _ body: ByteView, _ sink: inout some LogEventSink) {
        let severity: ProblemSeverity = tag == .error ? .error : tag == .warning ? .warning : .fault
        statementInText(body, origin: .errorText, &sink)
        sink.event(.problem(severity: severity, message: body.trimmed().string))
    }

    /// A statement shown only inside a message (`... with sql text 'SELECT ...' returned 6 rows`, an error
    /// quoting the failed statement) counts when it is not the statement just logged by its own `sql:` line.
    private mutating func statementInText(_ body: ByteView, origin: LoggedStatement.Origin, _ sink: inout some LogEventSink) {
        guard let at = body.find("with sql text '") else { return }
        let start = at + 15
        var close: Int?
        if let returned = body.find("' returned ", from: start) {
            close = returned
        } else {
            var index = body.count - 1
            while index > start, body[index] != UInt8(ascii: "'") { index -= 1 }
            if index > start { close = index }
        }
        guard let close else { return }
        let sql = body.slice(start, close).trimmed()
        guard sql.count > 0, SQLText.startsWithStatementKeyword(sql), !sameStatement(sql) else { return }
        sink.statement(sql: sql, line: lineNumber, origin: origin)
        remember(sql)
    }

    private mutating func flushStatement(_ sink: inout some LogEventSink) {
        guard hasPending else { return }
        hasPending = false
        if pendingSQL.withUnsafeBufferPointer({ SQLText.expectsMore($0) }) {
            statistics.truncatedLines += 1
            sink.event(.garbled(line: pendingLine, reason: .truncated))
        }
        pendingSQL.withUnsafeBufferPointer { sql in
            sink.statement(sql: sql, line: pendingLine, origin: .sqlLine)
        }
        swap(&lastStatement, &pendingSQL)
    }

    private mutating func remember(_ sql: ByteView) {
        lastStatement.removeAll(keepingCapacity: true)
        lastStatement.append(contentsOf: sql)
    }

    /// Whether `sql` is the last statement logged, ignoring whitespace differences.
    private func sameStatement(_ sql: ByteView) -> Bool {
        lastStatement.withUnsafeBufferPointer { last in
            Fingerprint.collapsedWhitespace(last) == Fingerprint.collapsedWhitespace(sql)
        }
    }
}

/// Where the parser's events go. The analyzer takes a statement as the bytes the log holds (valid during the call
/// only), so that no String is made for it (profiled: a String per statement, hashed again as a cache key, cost 5% of
/// reading a log); the public closures get every event, statements made into `LoggedStatement`s.
protocol LogEventSink {
    mutating func statement(sql: ByteView, line: Int, origin: LoggedStatement.Origin)
    mutating func event(_ event: LogEvent)
}

/// The sink of the public, closure-taking methods.
struct ClosureSink: LogEventSink {
    let emit: (LogEvent) -> Void

    func statement(sql: ByteView, line: Int, origin: LoggedStatement.Origin) {
        emit(.statement(LoggedStatement(sql: sql.string, line: line, origin: origin)))
    }

    func event(_ event: LogEvent) { emit(event) }
}
