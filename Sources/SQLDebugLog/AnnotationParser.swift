#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What an annotation or detail line says.
struct ParsedMessage {
    var event: LogEvent?
    /// The line starts like a known annotation but ends before its values (a cut line).
    var truncated = false
    /// The message ends in `with values: (`: the lines up to the matching `)` belong to it.
    var opensBlock = false
    /// Parenthesis depth at the end of the line when a block opens.
    var blockDepth = 0
}

/// Reads the bodies of `annotation:` and `details:` messages (also when Core Data prints them under `error:`).
enum AnnotationParser {
    static func parseAnnotation(_ body: ByteView) -> ParsedMessage {
        var interner = StringInterner()
        return parseAnnotation(body, interner: &interner)
    }

    /// Parses an annotation, taking the names it holds (entities, store identifiers, relationships, key paths) from
    /// `interner`: a log names the same few again and again (profiled: a String made per fault cost 3%).
    static func parseAnnotation(_ body: ByteView, interner: inout StringInterner) -> ParsedMessage {
        var result = ParsedMessage()
        if body.matches("sql connection fetch time: ", at: 0) {
            if let (seconds, _) = body.parseDouble(at: 27) {
                result.event = .connectionFetchTime(seconds: seconds)
            } else {
                result.truncated = true
            }
        } else if body.matches("sql execution time: ", at: 0) {
            if let (seconds, _) = body.parseDouble(at: 20) {
                result.event = .executionTime(seconds: seconds)
            } else {
                result.truncated = true
            }
        } else if body.matches("total fetch execution time: ", at: 0) {
            let seconds = body.parseDouble(at: 28)
            var rows: Int?
            if let seconds, let forAt = body.find("for ", from: seconds.end), let (value, _) = body.parseInt(at: forAt + 4) {
                rows = Int(clamping: value)
            }
            result.truncated = rows == nil
            result.event = .fetchTotal(seconds: seconds?.value ?? 0, rows: rows)
        } else if body.matches("total count request execution time: ", at: 0) {
            let seconds = body.parseDouble(at: 37)
            var count: Int?
            if let seconds, let ofAt = body.find("count of ", from: seconds.end), let (value, _) = body.parseInt(at: ofAt + 9) {
                count = Int(clamping: value)
            }
            result.truncated = count == nil
            result.event = .countTotal(seconds: seconds?.value ?? 0, count: count)
        } else if body.matches("fault fulfilled from database for", at: 0) {
            let reference = objectReference(in: body, from: 33, interner: &interner)
            result.truncated = !reference.hasURI
            result.event = .objectFault(reference)
        } else if body.matches("to-many relationship fault ", at: 0) {
            result = toManyFault(body, interner: &interner)
        } else if body.matches("Prefetching with key ", at: 0) {
            result = prefetch(body, interner: &interner)
        } else if body.matches("Bound intarray", at: 0) {
            let rest = body.slice(14).trimmed()
            result.event = .intarrayBound(name: rest.matches("values", at: 0) || rest.count == 0 ? nil : rest.string)
        } else if body.matches("fetch using ", at: 0) || body.matches("count request ", at: 0) {
            result = returnedRows(body)
        } else if body.matches("logically false fetch request", at: 0) {
            result.event = .shortCircuitedFetch(body.trimmed().string)
        } else if isMigration(body) {
            result.event = .migration(body.trimmed().string)
        } else if isStoreEvent(body) {
            result.event = .storeEvent(body.trimmed().string)
        } else {
            result.event = .annotation(body.trimmed().string)
        }
        openBlockIfNeeded(body, &result)
        return result
    }

    /// `... with values: (` (SQLDebug 3), `... with row values: {`, or any annotation ending in an open `(` or `{`:
    /// a description printed over the following lines, up to the matching close.
    static func openBlockIfNeeded(_ body: ByteView, _ result: inout ParsedMessage) {
        var depth = 0
        if let valuesAt = valuesClause(body) {
            depth = parenthesisDepth(body.slice(valuesAt))
        } else if let last = body.trimmed().last, last == UInt8(ascii: "(") || last == UInt8(ascii: "{") {
            depth = parenthesisDepth(body)
        }
        if depth > 0 {
            result.opensBlock = true
            result.blockDepth = depth
        }
    }

    /// Where the first `with values: ` is, else the first `with row values: `, found in one pass (profiled: a pass for
    /// each, over every annotation and detail, cost 1% of reading a log).
    private static func valuesClause(_ body: ByteView) -> Int? {
        var search = 0
        var rowValues: Int?
        while let hit = body.find("with ", from: search) {
            if body.matches("values: ", at: hit + 5) { return hit }
            if rowValues == nil, body.matches("row values: ", at: hit + 5) { rowValues = hit }
            search = hit + 5
        }
        return rowValues
    }

    /// Whether an `error:`-tagged body is really an annotation printed in catastrophic mode.
    static func isAnnotationInDisguise(_ body: ByteView) -> Bool {
        body.matches("sql connection fetch time: ", at: 0) || body.matches("total fetch execution time: ", at: 0)
            || body.matches("total count request execution time: ", at: 0) || body.matches("fault fulfilled from database", at: 0)
            || body.matches("to-many relationship fault ", at: 0) || body.matches("Prefetching with key ", at: 0)
            || body.matches("Bound intarray", at: 0) || body.matches("sql execution time: ", at: 0)
            || body.matches("fetch using NSSQLiteStatement", at: 0)
    }

    /// Annotations whose text no other message has, recognised without a tag (Console.app copies, Xcode 15's
    /// untagged `CoreData: X` copies): Core Data's store opening and its other fixed phrases.
    static func isDistinctiveAnnotation(_ body: ByteView) -> Bool {
        body.matches("Bound intarray", at: 0) || body.matches("logically false fetch request", at: 0)
            || body.matches("count request <", at: 0) || body.matches("Connecting to sqlite database", at: 0)
            || body.matches("Disconnecting from sqlite database", at: 0) || body.matches("Creating primary key table", at: 0)
            || body.matches("Execute create index statement", at: 0) || body.matches("Incompatible version schema", at: 0)
            || body.matches("PostSaveMaintenance", at: 0) || body.matches("creating schema", at: 0)
    }

    static func parseDetails(_ body: ByteView) -> ParsedMessage {
        var result = ParsedMessage()
        let text = body.trimmingLeadingBlanks()
        if text.matches("SQLite bind[", at: 0) {
            guard let (index, end) = text.parseInt(at: 12), end < text.count, text[end] == UInt8(ascii: "]"),
                let equals = text.find(" = ", from: end)
            else {
                result.truncated = true
                return result
            }
            result.event = .bind(index: Int(clamping: index), value: bindValue(text.slice(equals + 3)))
        } else if text.matches("SQLite: ", at: 0) || text.matches("plan: ", at: 0) || text.matches("QUERY PLAN", at: 0)
            || text.matches("|--", at: 0) || text.matches("`--", at: 0)
        {
            result.event = .queryPlan(body.trimmed().string)
        } else {
            result.event = .annotation(body.trimmed().string)
        }
        openBlockIfNeeded(body, &result)
        return result
    }

    /// `(int64)3`, `"text"`, `nil`, `(timestamp)694224000.000000`, `<NSData len=16>`, `18`, `0.5`, a UUID...
    static func bindValue(_ raw: ByteView) -> BindValue {
        let text = raw.trimmed()
        if text.matches("(int64)", at: 0), let (value, _) = text.parseInt(at: 7) { return .integer(value) }
        if text.matches("(timestamp)", at: 0), let (value, _) = text.parseDouble(at: 11) { return .timestamp(value) }
        if text.count == 3, text.matches("nil", at: 0) { return .null }
        if text.count == 4, text.matches("NULL", at: 0) || text.matches("null", at: 0) { return .null }
        if text.first == UInt8(ascii: "\"") {
            let end = text.count > 1 && text[text.count - 1] == UInt8(ascii: "\"") ? text.count - 1 : text.count
            return .text(text.slice(1, end).string)
        }
        if text.first == UInt8(ascii: "<") {
            if let lenAt = text.find("len="), let (length, _) = text.parseInt(at: lenAt + 4) {
                return .blob(length: Int(clamping: length))
            }
            if let lenAt = text.find("length = "), let (length, _) = text.parseInt(at: lenAt + 9) {
                return .blob(length: Int(clamping: length))
            }
            if let (length, end) = text.parseInt(at: 1), text.matches(" bytes", at: end) { return .blob(length: Int(clamping: length)) }
            return .blob(length: nil)
        }
        if let (value, end) = text.parseInt(at: 0), end == text.count { return .integer(value) }
        if let (value, end) = text.parseDouble(at: 0), end == text.count { return .real(value) }
        return .other(text.string)
    }

    /// `... <x-coredata://UUID/Entity/p12>` anywhere after `from`.
    static func objectReference(in body: ByteView, from: Int) -> ObjectReference {
        var interner = StringInterner()
        return objectReference(in: body, from: from, interner: &interner)
    }

    static func objectReference(in body: ByteView, from: Int, interner: inout StringInterner) -> ObjectReference {
        guard let start = body.find("x-coredata:", from: from) else { return ObjectReference(entity: nil, primaryKey: nil, uri: nil) }
        var end = start
        while end < body.count, body[end] != UInt8(ascii: ">"), !body[end].isBlank { end += 1 }
        let uri = body.slice(start, end)
        // x-coredata://UUID/Entity/p12, x-coredata:///Entity/t... (temporary): its components by '/', of which only
        // the count, the first and the last two are read (kept as such: profiled, an array of them made for every fault
        // cost 1% of reading a log).
        var count = 0
        var first = ByteView(start: nil, count: 0)
        var penultimate = first
        var last = first
        var componentStart = 11
        while componentStart < uri.count, uri[componentStart] == UInt8(ascii: "/") { componentStart += 1 }
        var index = componentStart
        while index <= uri.count {
            if index == uri.count || uri[index] == UInt8(ascii: "/") {
                let component = uri.slice(componentStart, index)
                if count == 0 { first = component }
                penultimate = last
                last = component
                count += 1
                componentStart = index + 1
            }
            index += 1
        }
        var entity: String?
        var key: Int64?
        if count >= 2 {
            entity = interner.string(penultimate)
            if last.first == UInt8(ascii: "p"), let (value, valueEnd) = last.parseInt(at: 1), valueEnd == last.count { key = value }
        }
        let complete = end < body.count && body[end] == UInt8(ascii: ">")
        guard complete || count >= 3 else {
            return ObjectReference(entity: entity?.isEmpty == false ? entity : nil, primaryKey: key, uri: nil)
        }
        if count == 3, let key, let entity, !entity.isEmpty {
            // x-coredata://STORE/Entity/pN: kept as its parts, the URI made only when asked for.
            return ObjectReference(entity: entity, primaryKey: key, store: interner.string(first))
        }
        return ObjectReference(entity: entity?.isEmpty == false ? entity : nil, primaryKey: key, uri: uri.string)
    }

    /// `to-many relationship fault "students" for objectID 0x... <x-coredata://...> fulfilled from database.  Got 50 rows`
    private static func toManyFault(_ body: ByteView, interner: inout StringInterner) -> ParsedMessage {
        var result = ParsedMessage()
        var name = ""
        var after = 27
        if after < body.count, body[after] == UInt8(ascii: "\""), let close = body.find(byte: UInt8(ascii: "\""), from: after + 1) {
            name = interner.string(body.slice(after + 1, close))
            after = close + 1
        } else if let space = body.find(byte: 32, from: after) {
            name = interner.string(body.slice(after, space))
            after = space
        }
        let owner = objectReference(in: body, from: after, interner: &interner)
        var rows: Int?
        if let gotAt = body.find("Got ", from: after), let (value, _) = body.parseInt(at: gotAt + 4) { rows = Int(clamping: value) }
        result.truncated = rows == nil
        result.event = .toManyFault(relationship: name, owner: owner, rows: rows)
        return result
    }

    /// `Prefetching with key 'students'.  Got 50 rows.`
    private static func prefetch(_ body: ByteView, interner: inout StringInterner) -> ParsedMessage {
        var result = ParsedMessage()
        var keyPath = ""
        var after = 21
        if after < body.count, body[after] == UInt8(ascii: "'"), let close = body.find(byte: UInt8(ascii: "'"), from: after + 1) {
            keyPath = interner.string(body.slice(after + 1, close))
            after = close + 1
        }
        var rows: Int?
        if let gotAt = body.find("Got ", from: after), let (value, _) = body.parseInt(at: gotAt + 4) { rows = Int(clamping: value) }
        result.truncated = rows == nil
        result.event = .prefetch(keyPath: keyPath, rows: rows)
        return result
    }

    /// `fetch using NSSQLiteStatement <0x...> on entity 'X' with sql text '...' returned N rows`, and
    /// `count request <NSFetchRequest ...> returned N`.
    private static func returnedRows(_ body: ByteView) -> ParsedMessage {
        var result = ParsedMessage()
        var entity: String?
        if let on = body.find("on entity '"), let close = body.find(byte: UInt8(ascii: "'"), from: on + 11) {
            entity = body.slice(on + 11, close).string
        } else if let on = body.find("(entity: "), let close = body.find(byte: UInt8(ascii: ";"), from: on + 9) {
            entity = body.slice(on + 9, close).string
        }
        // The SQL text may itself contain "returned"; the count follows the last one.
        var search = 0
        var last: Int?
        while let hit = body.find(" returned ", from: search) {
            last = hit
            search = hit + 10
        }
        guard let last, let (value, _) = body.parseInt(at: last + 10) else {
            result.truncated = true
            result.event = .annotation(body.trimmed().string)
            return result
        }
        if body.matches("count request ", at: 0) {
            result.event = .statementRows(rows: 1, entity: entity)
        } else {
            result.event = .statementRows(rows: Int(clamping: value), entity: entity)
        }
        return result
    }

    static func isMigration(_ body: ByteView) -> Bool {
        body.matches("(migration)", at: 0) || body.find("migration") != nil || body.find("Migration") != nil
    }

    static func isStoreEvent(_ body: ByteView) -> Bool {
        body.matches("Connecting to sqlite database", at: 0) || body.matches("Disconnecting from sqlite database", at: 0)
            || body.matches("creating schema", at: 0) || body.matches("Creating primary key table", at: 0)
            || body.matches("Execute create index statement", at: 0) || body.matches("Incompatible version schema", at: 0)
            || body.matches("Connecting to", at: 0) || body.matches("Opening", at: 0)
            || body.matches("PostSaveMaintenance", at: 0)
    }

    /// Open minus closed parentheses and braces outside double-quoted strings.
    static func parenthesisDepth(_ text: ByteView) -> Int {
        var depth = 0
        var quoted = false
        var escaped = false
        for byte in text {
            if escaped {
                escaped = false
                continue
            }
            if quoted {
                if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { quoted = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): quoted = true
            case UInt8(ascii: "("), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return depth
    }
}

/// The last few strings made from bytes, handed out again for the same bytes instead of made anew.
struct StringInterner: Sendable {
    private var entries: [(bytes: [UInt8], string: String)] = []
    private var next = 0
    static let capacity = 16

    mutating func string(_ bytes: ByteView) -> String {
        for entry in entries where entry.bytes.count == bytes.count {
            if entry.bytes.withUnsafeBufferPointer({ stored in
                guard let left = stored.baseAddress, let right = bytes.baseAddress else { return stored.count == 0 }
                return memcmp(left, right, stored.count) == 0
            }) {
                return entry.string
            }
        }
        let string = bytes.string
        if entries.count < Self.capacity {
            entries.append((Array(bytes), string))
        } else {
            entries[next] = (Array(bytes), string)
            next = (next + 1) % Self.capacity
        }
        return string
    }
}
