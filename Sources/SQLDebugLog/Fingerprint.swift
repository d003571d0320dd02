/// Statement fingerprints: the SQL with its values normalised, so that one statement run with different values
/// (or different literal limits, id lists and int-array tables) counts as one.
public enum Fingerprint {
    /// The fingerprint of `sql`: numbers, strings and blobs become `?`, `IN (...)` lists of values `IN (?+)`,
    /// `_Z_intarray3` becomes `_Z_intarray?`, runs of whitespace collapse to one space (none inside parentheses,
    /// none before a comma), and the text is trimmed.
    public static func of(_ sql: String) -> String {
        var copy = sql
        return copy.withUTF8 { of(bytes: $0) }
    }

    static func of(bytes sql: ByteView) -> String {
        of(bytes: sql, tokens: SQLTokenizer.tokens(sql))
    }

    static func of(bytes sql: ByteView, tokens: [SQLToken]) -> String {
        var out: [UInt8] = []
        write(bytes: sql, tokens: tokens, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The fingerprint's bytes in `out`, emptied first (its storage reused: the analyzer looks fingerprints up by
    /// their bytes and makes a String only for a new one).
    static func write(bytes sql: ByteView, tokens: [SQLToken], into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(sql.count)
        var index = 0
        var previous: SQLToken?
        while index < tokens.count {
            let token = tokens[index]
            // `IN (` followed only by values, parameters and commas: one placeholder for the whole list.
            if token.kind == .punctuation, sql[token.start] == UInt8(ascii: "("), let last = previous,
                last.kind == .word, isWord(sql, last, "IN"), let close = valueListEnd(tokens, sql, from: index + 1)
            {
                appendSeparator(&out, sql, previous, token)
                out.append(contentsOf: "(?+)".utf8)
                previous = tokens[close]
                index = close + 1
                continue
            }
            appendSeparator(&out, sql, previous, token)
            switch token.kind {
            case .number, .string, .blob, .parameter:
                out.append(UInt8(ascii: "?"))
            case .word where token.end - token.start > 11 && sql.matches("_Z_intarray", at: token.start):
                out.append(contentsOf: "_Z_intarray?".utf8)
            default:
                out.append(contentsOf: sql.slice(token.start, token.end))
            }
            previous = token
            index += 1
        }
    }

    /// The index of the `)` closing a list of only values and commas starting at `from`, or nil.
    private static func valueListEnd(_ tokens: [SQLToken], _ sql: ByteView, from: Int) -> Int? {
        var index = from
        var sawValue = false
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .number, .string, .blob, .parameter:
                sawValue = true
            case .op where sql[token.start] == UInt8(ascii: "-"):
                break
            case .punctuation where sql[token.start] == UInt8(ascii: ","):
                break
            case .punctuation where sql[token.start] == UInt8(ascii: ")"):
                return sawValue ? index : nil
            default:
                return nil
            }
            index += 1
        }
        return nil
    }

    private static func isWord(_ sql: ByteView, _ token: SQLToken, _ word: StaticString) -> Bool {
        token.end - token.start == word.utf8CodeUnitCount && sql.matchesIgnoringCase(word, at: token.start)
    }

    /// One space between tokens, except around `.`, after `(`, before `)` and `,`.
    private static func appendSeparator(_ out: inout [UInt8], _ sql: ByteView, _ previous: SQLToken?, _ token: SQLToken) {
        guard let previous else { return }
        let first = sql[token.start]
        let last = sql[previous.end - 1]
        if previous.kind == .punctuation, last == UInt8(ascii: "(") || last == UInt8(ascii: ".") { return }
        if token.kind == .punctuation,
            first == UInt8(ascii: ")") || first == UInt8(ascii: ",") || first == UInt8(ascii: ".")
                || first == UInt8(ascii: ";")
        {
            return
        }
        if token.kind == .punctuation, first == UInt8(ascii: "("), previous.kind == .word, !isKeywordBeforeParen(sql, previous) {
            return // a function call: COUNT(, total(
        }
        out.append(32)
    }

    private static func isKeywordBeforeParen(_ sql: ByteView, _ token: SQLToken) -> Bool {
        for word in [
            "IN", "VALUES", "ON", "AND", "OR", "NOT", "WHERE", "EXISTS", "FROM", "JOIN", "AS", "SELECT", "WHEN",
            "THEN", "ELSE", "BY", "HAVING", "USING", "SET",
        ] as [StaticString] where isWord(sql, token, word) {
            return true
        }
        // INSERT INTO ZTABLE(...) keeps no space either way; table names are words too.
        return false
    }

    /// The bytes with runs of whitespace collapsed to one space and the ends trimmed.
    static func collapsedWhitespace(_ text: ByteView) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var space = false
        for byte in text {
            if byte == 32 || byte == 9 || byte == 10 || byte == 13 {
                space = !out.isEmpty
                continue
            }
            if space { out.append(32) }
            space = false
            out.append(byte)
        }
        return out
    }
}
