/// A token of an SQL statement, as offsets into its UTF-8 bytes.
struct SQLToken {
    enum Kind: Equatable {
        case word // keyword or identifier (letters, digits, `_`, `$`), or a "quoted identifier"
        case number // 12, 0.5, 1e3
        case string // 'text'
        case blob // x'ABCD'
        case parameter // ? ?1 :name @name
        case punctuation // ( ) , . ; *
        case op // = < > <= >= <> != || + - / % & |
    }

    var kind: Kind
    var start: Int
    var end: Int
}

/// Splits SQL into tokens; never fails (an unterminated string runs to the end).
enum SQLTokenizer {
    static func tokens(_ sql: ByteView) -> [SQLToken] {
        var tokens: [SQLToken] = []
        tokens.reserveCapacity(sql.count / 4)
        tokenize(sql, into: &tokens)
        return tokens
    }

    /// The tokens of `sql` in `tokens`, emptied first (its storage reused: profiled, a new array per distinct statement,
    /// grown as it filled, cost 6% of reading a log of distinct statements).
    static func tokenize(_ sql: ByteView, into tokens: inout [SQLToken]) {
        tokens.removeAll(keepingCapacity: true)
        var index = 0
        let count = sql.count
        while index < count {
            let byte = sql[index]
            let start = index
            if byte == 32 || byte == 9 || byte == 10 || byte == 13 {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X"), index + 1 < count, sql[index + 1] == UInt8(ascii: "'") {
                index = skipQuoted(sql, from: index + 1, quote: UInt8(ascii: "'"))
                tokens.append(SQLToken(kind: .blob, start: start, end: index))
            } else if byte.isIdentifierByte && !byte.isDigit {
                while index < count, sql[index].isIdentifierByte { index += 1 }
                tokens.append(SQLToken(kind: .word, start: start, end: index))
            } else if byte.isDigit || (byte == UInt8(ascii: ".") && index + 1 < count && sql[index + 1].isDigit) {
                index = skipNumber(sql, from: index)
                tokens.append(SQLToken(kind: .number, start: start, end: index))
            } else if byte == UInt8(ascii: "'") {
                index = skipQuoted(sql, from: index, quote: byte)
                tokens.append(SQLToken(kind: .string, start: start, end: index))
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "`") {
                index = skipQuoted(sql, from: index, quote: byte)
                tokens.append(SQLToken(kind: .word, start: start, end: index))
            } else if byte == UInt8(ascii: "[") {
                index = sql.find(byte: UInt8(ascii: "]"), from: index).map { $0 + 1 } ?? count
                tokens.append(SQLToken(kind: .word, start: start, end: index))
            } else if byte == UInt8(ascii: "?") {
                index += 1
                while index < count, sql[index].isDigit { index += 1 }
                tokens.append(SQLToken(kind: .parameter, start: start, end: index))
            } else if byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@"), index + 1 < count, sql[index + 1].isIdentifierByte {
                index += 1
                while index < count, sql[index].isIdentifierByte { index += 1 }
                tokens.append(SQLToken(kind: .parameter, start: start, end: index))
            } else if byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: ",")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "*")
            {
                index += 1
                tokens.append(SQLToken(kind: .punctuation, start: start, end: index))
            } else {
                index += 1
                if index < count, isOperatorContinuation(byte, sql[index]) { index += 1 }
                tokens.append(SQLToken(kind: .op, start: start, end: index))
            }
        }
    }

    private static func isOperatorContinuation(_ first: UInt8, _ second: UInt8) -> Bool {
        switch (first, second) {
        case (UInt8(ascii: "<"), UInt8(ascii: "=")), (UInt8(ascii: ">"), UInt8(ascii: "=")),
            (UInt8(ascii: "<"), UInt8(ascii: ">")), (UInt8(ascii: "!"), UInt8(ascii: "=")),
            (UInt8(ascii: "="), UInt8(ascii: "=")), (UInt8(ascii: "|"), UInt8(ascii: "|")),
            (UInt8(ascii: "<"), UInt8(ascii: "<")), (UInt8(ascii: ">"), UInt8(ascii: ">")):
            return true
        default:
            return false
        }
    }

    private static func skipNumber(_ sql: ByteView, from start: Int) -> Int {
        var index = start
        if index + 1 < sql.count, sql[index] == UInt8(ascii: "0"),
            sql[index + 1] == UInt8(ascii: "x") || sql[index + 1] == UInt8(ascii: "X")
        {
            index += 2
            while index < sql.count, sql[index].isDigit || (sql[index] | 0x20 >= 97 && sql[index] | 0x20 <= 102) { index += 1 }
            return index
        }
        while index < sql.count, sql[index].isDigit || sql[index] == UInt8(ascii: ".") { index += 1 }
        if index < sql.count, sql[index] == UInt8(ascii: "e") || sql[index] == UInt8(ascii: "E") {
            var exponent = index + 1
            if exponent < sql.count, sql[exponent] == UInt8(ascii: "-") || sql[exponent] == UInt8(ascii: "+") { exponent += 1 }
            if exponent < sql.count, sql[exponent].isDigit {
                index = exponent
                while index < sql.count, sql[index].isDigit { index += 1 }
            }
        }
        return index
    }

    /// Past the closing quote (a doubled quote is an escaped one), or the end.
    private static func skipQuoted(_ sql: ByteView, from start: Int, quote: UInt8) -> Int {
        var index = start + 1
        while index < sql.count {
            if sql[index] == quote {
                if index + 1 < sql.count, sql[index + 1] == quote {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return sql.count
    }
}
