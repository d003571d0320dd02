/// The tag Core Data puts before a message (`CoreData: sql: ...`).
enum MessageTag: Equatable {
    case sql, annotation, details
    case error, fault, warning
    /// `CoreData: X` with no tag: how Xcode 15+ shows an os_log fault's own copy.
    case untagged
    /// `debug:`, `CloudKit:`, `XPC:` and other informational categories.
    case informational

    var isProblem: Bool { self == .error || self == .fault || self == .warning || self == .untagged }
}

/// How the line spelled the message's prefix; copies of one message in different forms are display duplicates.
enum MessageForm: Equatable {
    /// `CoreData: tag: ` (Xcode console, NSLog, syslog, `log show`).
    case prefixed
    /// `Core Data: tag: ` (older device syslogs).
    case spaced
    /// `tag: ` at the start of the line (Xcode 15+ os_log copies, blog posts that strip the prefix).
    case bare
    /// `...: tag: ` after a prefix cut mid-word (`ata: sql: BEGIN`): a truncated copy.
    case cutPrefix
    /// `CoreData: message` with no tag.
    case untagged
    /// The message column of `log show` / `log stream` for the com.apple.coredata subsystem, without the prefix.
    case logShow
    /// An os_log message as Xcode prints it with its type: `... App[1:2] [error] warning: X`.
    case osLogType
    /// A Console.app copy (`type<TAB>time<TAB>process<TAB>message`, with or without the subsystem and category
    /// columns) whose message has no `CoreData:` prefix.
    case consoleApp
}

extension MessageForm {
    /// A bit per form, to keep the set of forms a message's copies came in.
    var bit: UInt16 {
        switch self {
        case .prefixed: return 1
        case .spaced: return 2
        case .bare: return 4
        case .cutPrefix: return 8
        case .untagged: return 16
        case .logShow: return 32
        case .osLogType: return 64
        case .consoleApp: return 128
        }
    }
}

/// A Core Data message found in a line: its tag, how it was written, and the text after the tag.
struct LocatedMessage {
    var tag: MessageTag
    var form: MessageForm
    /// The offset of the body in the line.
    var bodyStart: Int
    /// The offset where the message (prefix included) starts, to find a second message glued after it.
    var messageStart: Int
}

/// Finds the Core Data message in a line whatever came before it: a timestamp and `App[pid:tid]` (NSLog), the
/// columns of `log show` / `log stream` (`... App: (CoreData) [com.apple.coredata:sql] CoreData: sql: ...`),
/// a syslog prefix, a blog's indentation, or nothing.
enum MessageLocator {
    /// The first Core Data message in `line` at or after `from`, or nil.
    static func locate(_ line: ByteView, from: Int = 0) -> LocatedMessage? {
        // One pass for both prefixes (profiled: a pass for each, over every line and again after every message for a
        // second one glued to it, cost 5% of reading a log): `CoreData: ` wins wherever it is, else the first `Core Data: `.
        var search = from
        var spaced: Int?
        while let hit = line.find("Core", from: search) {
            if line.matches("Data: ", at: hit + 4) {
                let message = tagged(line, prefixStart: hit, bodyStart: hit + 10, form: .prefixed)
                if hit == 0 || !line[hit - 1].isIdentifierByte {
                    if message.tag != .untagged || plausibleUntagged(line, at: hit) { return message }
                } else if from > 0, message.tag != .untagged, message.tag != .informational {
                    return message // a second message glued to the end of the first: any byte may precede it
                }
            } else if spaced == nil, line.matches(" Data: ", at: hit + 4) {
                spaced = hit
            }
            search = hit + 4
        }
        if let hit = spaced, hit == 0 || !line[hit - 1].isIdentifierByte {
            return tagged(line, prefixStart: hit, bodyStart: hit + 11, form: .spaced)
        }
        guard from == 0 else { return nil }
        return bare(line) ?? logShowBody(line) ?? osLogType(line) ?? consoleApp(line) ?? cutPrefix(line)
    }

    /// `[error] warning: X`, `[fault] fault: X`, `[error] error: X`: an os_log message of type error or fault whose
    /// text starts with Core Data's problem tag (Xcode's console with the message type shown; Core Data prints the
    /// same message again as `CoreData: warning: X`, which is then a copy).
    private static func osLogType(_ line: ByteView) -> LocatedMessage? {
        guard let open = line.find("[error] ") ?? line.find("[fault] ") else { return nil }
        let start = open + 8
        guard let (tag, body) = tag(in: line, at: start), tag == .error || tag == .fault || tag == .warning else { return nil }
        return LocatedMessage(tag: tag, form: .osLogType, bodyStart: body, messageStart: open)
    }

    /// Console.app's copied rows, tab-separated: the type, the time, the process, then the message (or the subsystem,
    /// the category and the message). A message of the com.apple.coredata subsystem is read by its category; without
    /// that column, a message is Core Data's only when its text is what Core Data writes: an annotation or detail it
    /// prints, or a statement on its `Z` tables or a transaction verb.
    private static func consoleApp(_ line: ByteView) -> LocatedMessage? {
        guard line.count > 8, let firstTab = line.find(byte: 9), firstTab <= 8 else { return nil }
        let type = line.slice(0, firstTab)
        guard isConsoleType(type) else { return nil }
        var starts = [firstTab + 1]
        while starts.count < 6, let tab = line.find(byte: 9, from: starts[starts.count - 1]) { starts.append(tab + 1) }
        guard starts.count >= 3 else { return nil }
        func field(_ index: Int) -> ByteView {
            line.slice(starts[index], index + 1 < starts.count ? starts[index + 1] - 1 : line.count)
        }
        for index in 2..<(starts.count - 1) where field(index).count == 18 && field(index).matches("com.apple.coredata", at: 0) {
            guard index + 2 < starts.count else { return nil }
            let category = field(index + 1)
            let bodyStart = starts[index + 2]
            return classify(line.slice(bodyStart), category: category).map {
                LocatedMessage(tag: $0, form: .consoleApp, bodyStart: bodyStart, messageStart: bodyStart)
            }
        }
        let bodyStart = starts[2]
        return classify(line.slice(bodyStart), category: nil).map {
            LocatedMessage(tag: $0, form: .consoleApp, bodyStart: bodyStart, messageStart: bodyStart)
        }
    }

    private static func isConsoleType(_ word: ByteView) -> Bool {
        for type in ["default", "info", "debug", "error", "fault", "notice"] as [StaticString]
        where word.count == type.utf8CodeUnitCount && word.matchesIgnoringCase(type, at: 0) {
            return true
        }
        return false
    }

    /// What a message without Core Data's prefix is, by its category (when the copy has one) and its text.
    static func classify(_ body: ByteView, category: ByteView?) -> MessageTag? {
        let text = body.trimmingLeadingBlanks()
        if let (tag, _) = tag(in: text, at: 0), tag != .informational, tag != .untagged { return nil } // tagged: located as such
        if text.matches("SQLite bind[", at: 0) || text.matches("SQLite: ", at: 0) { return .details }
        if AnnotationParser.isAnnotationInDisguise(text) || AnnotationParser.isDistinctiveAnnotation(text) { return .annotation }
        if let category {
            if category.count == 5, category.matches("error", at: 0) { return .error }
            if category.count == 7, category.matches("warning", at: 0) { return .warning }
            if SQLText.isWholeStatement(text) { return .sql }
            return category.matches("annotation", at: 0) ? .annotation : .informational
        }
        return SQLText.isWholeStatement(text) && SQLText.readsCoreDataTables(text) ? .sql : nil
    }

    /// `CoreData: X` with no tag is Core Data's when it starts the line or follows a log prefix (`] `, `: `, a
    /// tab), not inside an app's own text (`💽 CoreData: 100 objects`).
    private static func plausibleUntagged(_ line: ByteView, at offset: Int) -> Bool {
        var index = offset
        while index > 0, line[index - 1] == 32 { index -= 1 }
        if index == 0 { return true }
        let before = line[index - 1]
        return before == UInt8(ascii: "]") || before == UInt8(ascii: ":") || before == 9
    }

    /// The tag after `CoreData: ` and where the body starts.
    private static func tagged(_ line: ByteView, prefixStart: Int, bodyStart: Int, form: MessageForm) -> LocatedMessage {
        if let (tag, end) = tag(in: line, at: bodyStart) {
            return LocatedMessage(tag: tag, form: form, bodyStart: end, messageStart: prefixStart)
        }
        return LocatedMessage(
            tag: .untagged, form: form == .prefixed ? .untagged : form, bodyStart: bodyStart,
            messageStart: prefixStart)
    }

    /// A word and `: ` at `offset`: a known tag, or an informational category (`CloudKit: `, `debug: `).
    static func tag(in line: ByteView, at offset: Int) -> (MessageTag, Int)? {
        // The tags of nearly every line, compared at once (profiled: the scan below cost 3% of reading a log); what the
        // scan gives for them.
        if let (tag, length) = commonTag(line, at: offset) {
            var bodyStart = offset + length
            while bodyStart < line.count, line[bodyStart] == 32 || line[bodyStart] == 9 { bodyStart += 1 }
            return (tag, bodyStart)
        }
        var index = offset
        while index < line.count, index - offset < 24, line[index].isLetter || line[index] == UInt8(ascii: "+") {
            index += 1
        }
        guard index > offset, index < line.count, line[index] == UInt8(ascii: ":") else { return nil }
        let afterColon = index + 1
        guard afterColon == line.count || line[afterColon] == 32 || line[afterColon] == 9 else { return nil }
        var bodyStart = afterColon
        while bodyStart < line.count, line[bodyStart] == 32 || line[bodyStart] == 9 { bodyStart += 1 }
        let word = line.slice(offset, index)
        if let known = knownTag(word) { return (known, bodyStart) }
        // `CoreData: SQLite: error: ...` (an exception reason about SQLite itself).
        if word.count == 6, word.matches("SQLite", at: 0), let (inner, innerBody) = tag(in: line, at: bodyStart), inner.isProblem {
            return (inner, innerBody)
        }
        // A capitalised word then a colon is a category (CloudKit:, XPC:); a lower-case one too (debug:, info:).
        return (.informational, bodyStart)
    }

    /// `sql: `, `details: ` or `annotation: ` at `offset`, with the length of that text.
    @inline(__always)
    private static func commonTag(_ line: ByteView, at offset: Int) -> (MessageTag, Int)? {
        guard offset < line.count else { return nil }
        switch line[offset] {
        case UInt8(ascii: "s") where line.matches("sql: ", at: offset): return (.sql, 5)
        case UInt8(ascii: "d") where line.matches("details: ", at: offset): return (.details, 9)
        case UInt8(ascii: "a") where line.matches("annotation: ", at: offset): return (.annotation, 12)
        default: return nil
        }
    }

    static func knownTag(_ word: ByteView) -> MessageTag? {
        switch word.count {
        case 3 where word.matches("sql", at: 0): return .sql
        case 5 where word.matches("error", at: 0): return .error
        case 5 where word.matches("fault", at: 0): return .fault
        case 7 where word.matches("details", at: 0): return .details
        case 7 where word.matches("warning", at: 0): return .warning
        case 10 where word.matches("annotation", at: 0): return .annotation
        default: return nil
        }
    }

    /// `sql: ...`, `annotation: ...`, `fault: ...` at the start of the line (after blanks).
    private static func bare(_ line: ByteView) -> LocatedMessage? {
        var start = 0
        while start < line.count, line[start].isBlank { start += 1 }
        guard start < line.count, line[start].isLowerLetter else { return nil }
        guard let (tag, body) = tag(in: line, at: start), tag != .informational, tag != .untagged else { return nil }
        return LocatedMessage(tag: tag, form: .bare, bodyStart: body, messageStart: start)
    }

    /// `log show` of the com.apple.coredata subsystem whose message carries no `CoreData: ` prefix:
    /// `... App: (CoreData) [com.apple.coredata:sql] SELECT ...`.
    private static func logShowBody(_ line: ByteView) -> LocatedMessage? {
        guard let subsystem = line.find("[com.apple.coredata:"),
            let close = line.find(byte: UInt8(ascii: "]"), from: subsystem)
        else { return nil }
        var bodyStart = close + 1
        while bodyStart < line.count, line[bodyStart].isBlank { bodyStart += 1 }
        if let (tag, body) = tag(in: line, at: bodyStart), tag != .informational {
            return LocatedMessage(tag: tag, form: .logShow, bodyStart: body, messageStart: bodyStart)
        }
        // Core Data's categories (CoreData.framework's _pflogInitialize): sql (statements and details),
        // annotation, error, warning, debug, XPC, CloudKit, instruments.
        let category = line.slice(subsystem + 20, close)
        let body = line.slice(bodyStart)
        let tag: MessageTag
        if body.matches("SQLite bind[", at: 0) || body.matches("SQLite: ", at: 0) {
            tag = .details
        } else if category.count == 3, category.matches("sql", at: 0), SQLText.startsWithStatementKeyword(body) {
            tag = .sql
        } else if category.matchesIgnoringCase("annotation", at: 0) || category.matches("sql", at: 0) {
            tag = .annotation
        } else if category.matchesIgnoringCase("details", at: 0) {
            tag = .details
        } else if category.count == 5, category.matches("error", at: 0) {
            tag = .error
        } else if category.count == 7, category.matches("warning", at: 0) {
            tag = .warning
        } else {
            tag = .informational
        }
        return LocatedMessage(tag: tag, form: .logShow, bodyStart: bodyStart, messageStart: bodyStart)
    }

    /// A prefix cut mid-word before the tag: `ata: sql: BEGIN EXCLUSIVE`, `oreData: annotation: ...`.
    private static func cutPrefix(_ line: ByteView) -> LocatedMessage? {
        for (needle, tag, length) in [
            (": sql: " as StaticString, MessageTag.sql, 7), (": annotation: ", .annotation, 14),
            (": details: ", .details, 11),
        ] {
            if let hit = line.find(needle) {
                // Only a short fragment may come before the tag, as when a copy lost the line's beginning.
                var start = hit
                while start > 0, line[start - 1].isLetter { start -= 1 }
                let prefix = line.slice(0, start).trimmed()
                guard prefix.count == 0 else { continue }
                return LocatedMessage(tag: tag, form: .cutPrefix, bodyStart: hit + length, messageStart: start)
            }
        }
        return nil
    }
}
