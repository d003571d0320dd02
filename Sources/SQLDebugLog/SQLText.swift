/// Small questions about SQL text asked while reading lines.
enum SQLText {
    static let statementKeywords: [StaticString] = [
        "SELECT", "INSERT", "UPDATE", "DELETE", "BEGIN", "COMMIT", "ROLLBACK",
        "PRAGMA", "CREATE", "DROP", "ALTER", "REPLACE", "END", "WITH", "ANALYZE",
        "VACUUM", "SAVEPOINT", "RELEASE",
    ]

    /// Whether the text starts with an SQL statement keyword followed by a space or the end.
    static func startsWithStatementKeyword(_ text: ByteView) -> Bool {
        for keyword in statementKeywords where text.matchesIgnoringCase(keyword, at: 0) {
            let after = keyword.utf8CodeUnitCount
            if after == text.count || !text[after].isIdentifierByte { return true }
        }
        return false
    }

    static let continuationKeywords: [StaticString] = [
        "FROM", "WHERE", "AND", "OR", "ORDER", "GROUP", "HAVING", "LIMIT",
        "OFFSET", "JOIN", "LEFT", "INNER", "OUTER", "CROSS", "ON", "UNION",
        "EXCEPT", "INTERSECT", "VALUES", "SET", "SELECT", "NOT", "EXISTS",
        "CASE", "WHEN", "THEN", "ELSE", "END", "USING", "COLLATE", "BETWEEN",
        "LIKE", "IN", "IS", "ESCAPE", "DESC", "ASC",
    ]

    /// Whether a message body is itself a statement (Core Data's catastrophic logging mode prints statements as
    /// `CoreData: error: SELECT ...`): a SELECT or DELETE with FROM, an INSERT with INTO, an UPDATE with SET,
    /// a transaction verb alone, a lower-case pragma.
    /// Whether a statement is recognisably Core Data's: a transaction verb, a pragma, or a read or write of a `Z`
    /// table (`ZSTUDENT`, `Z_PRIMARYKEY`, `Z_2STUDENTS`) or with Core Data's `t0.` alias.
    static func readsCoreDataTables(_ body: ByteView) -> Bool {
        let text = body.trimmed()
        if !(text.matches("SELECT ", at: 0) || text.matches("INSERT ", at: 0) || text.matches("UPDATE ", at: 0)
            || text.matches("DELETE ", at: 0))
        {
            return true
        }
        return text.find(" t0.") != nil || text.find(" FROM Z") != nil || text.find(" INTO Z") != nil
            || text.find("UPDATE Z") != nil || text.find("UPDATE OR FAIL Z") != nil
    }

    static func isWholeStatement(_ body: ByteView) -> Bool {
        let text = body.trimmed()
        if text.matches("SELECT ", at: 0) { return text.find(" FROM ") != nil }
        if text.matches("DELETE FROM ", at: 0) { return true }
        if text.matches("INSERT ", at: 0) { return text.find(" INTO ") != nil }
        if text.matches("UPDATE ", at: 0) { return text.find(" SET ") != nil }
        if text.matches("pragma ", at: 0) { return true }
        for verb in ["BEGIN EXCLUSIVE", "BEGIN IMMEDIATE", "BEGIN DEFERRED", "BEGIN", "COMMIT", "ROLLBACK", "END"] as [StaticString]
        where text.count == verb.utf8CodeUnitCount && text.matches(verb, at: 0) {
            return true
        }
        return false
    }

    /// Whether a statement was cut before its end: unbalanced parentheses or an unclosed quote.
    static func looksCut(_ sql: ByteView) -> Bool {
        var depth = 0
        var quote: UInt8 = 0
        guard let base = sql.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var index = 0
        // Skip eight bytes at a time while none of them is ( ) ' or " (most of a statement): two tests, `(` or `)` with
        // the low bit cleared, and `'` or `"` with bits 0 and 2 set (which lets `#` and `&` through to the exact loop).
        while index < sql.count {
            if quote == 0, index + 8 <= sql.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if !Self.hasByte(word & 0xFEFE_FEFE_FEFE_FEFE, 0x28) && !Self.hasByte(word | 0x0505_0505_0505_0505, 0x27) {
                    index += 8
                    continue
                }
            }
            let byte = base[index]
            index += 1
            if quote != 0 {
                if byte == quote { quote = 0 }
                continue
            }
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""): quote = byte
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            default: break
            }
        }
        return depth > 0 || quote != 0
    }

    /// Whether any byte of `word` equals `byte` (the classic has-zero-byte test on `word ^ byte * 0x01..`).
    @inline(__always)
    static func hasByte(_ word: UInt64, _ byte: UInt8) -> Bool {
        let x = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
    }

    static let openEndings: [StaticString] = [
        "SELECT", "FROM", "WHERE", "AND", "OR", "ON", "JOIN", "BY", "SET", "VALUES", "IN",
        "NOT", "LIKE", "AS", "INTO", "UPDATE", "HAVING", "LIMIT", "CASE", "WHEN", "THEN", "ELSE",
    ]

    /// Whether a statement cannot end where it does (a trailing comma, operator or keyword, an open parenthesis):
    /// the next line, whatever it starts with, continues it (a console that wrapped a long line).
    static func expectsMore(_ sql: ByteView) -> Bool {
        let text = sql.trimmed()
        guard let last = text.last else { return false }
        if last == UInt8(ascii: ",") || last == UInt8(ascii: "(") || last == UInt8(ascii: "=") || last == UInt8(ascii: "<")
            || last == UInt8(ascii: ">") || last == UInt8(ascii: ".")
        {
            return true
        }
        var start = text.count
        while start > 0, text[start - 1].isIdentifierByte { start -= 1 }
        let word = text.slice(start)
        if word.count > 0, openEndings.contains(where: { word.count == $0.utf8CodeUnitCount && word.matches($0, at: 0) }) { return true }
        return looksCut(text)
    }

    /// Whether a line (already trimmed) reads as the rest of a statement wrapped over several lines.
    static func isContinuation(_ text: ByteView) -> Bool {
        guard let first = text.first else { return false }
        if first == UInt8(ascii: "(") || first == UInt8(ascii: ")") || first == UInt8(ascii: ",") || first == UInt8(ascii: "?") {
            return true
        }
        if first == UInt8(ascii: "t"), text.count > 3, text[1].isDigit, text.find(byte: UInt8(ascii: ".")) != nil { return true }
        for keyword in continuationKeywords where text.matches(keyword, at: 0) {
            let after = keyword.utf8CodeUnitCount
            if after == text.count || !text[after].isIdentifierByte { return true }
        }
        return false
    }
}
