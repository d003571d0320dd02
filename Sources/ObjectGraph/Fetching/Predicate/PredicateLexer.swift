import Foundation

/// One token of a predicate format string, with its position (0-based, in characters).
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        /// A reserved word, upper-cased (`AND`, `CONTAINS`, `NIL`, ...).
        case keyword(String)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `==`, `!=`, `<`, `(`, `{`, `.`, `,`, `[`, `]`, `@`, ...
        case symbol(String)
        /// `$NAME`.
        case variable(String)
        /// `%@`, `%K`, `%d`, `%f`, ... (the conversion letters after `%`).
        case argument(String)
        case end
    }

    let kind: Kind
    let position: Int
}

/// Splits a format string into tokens, following Apple's "Predicate Format String Syntax": keywords are
/// case-insensitive, strings take single or double quotes with backslash escapes, numbers may be hexadecimal
/// (`0x`), octal (`0o`) or binary (`0b`), `#word` escapes a reserved word into a key.
struct PredicateLexer {
    static let reserved: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES", "CONTAINS",
        "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO", "FIRST", "LAST", "SIZE",
        "ANYKEY", "SUBQUERY", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "FUNCTION",
    ]

    static func isReserved(_ word: String) -> Bool { reserved.contains(word.uppercased()) }

    private let characters: [Character]
    private var index = 0
    let format: String

    init(_ format: String) {
        self.format = format
        characters = Array(format)
    }

    static func tokens(_ format: String) throws -> [PredicateToken] {
        var lexer = PredicateLexer(format)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ message: String, at position: Int) -> ObjectGraphError {
        .invalidPredicate("Unable to parse the format string \"\(format)\": \(message) at position \(position + 1)")
    }

    private mutating func next() throws -> PredicateToken {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
        guard index < characters.count else { return PredicateToken(kind: .end, position: characters.count) }
        let start = index
        let character = characters[index]
        if character == "\"" || character == "'" { return PredicateToken(kind: .string(try string(quote: character)), position: start) }
        if character.isNumber { return PredicateToken(kind: try number(), position: start) }
        if character.isLetter || character == "_" || character == "#" {
            var escaped = false
            if character == "#" {
                escaped = true
                index += 1
                guard index < characters.count, characters[index].isLetter || characters[index] == "_" else {
                    throw error("'#' must be followed by a key name", at: start)
                }
            }
            let word = identifier()
            if !escaped, Self.isReserved(word) { return PredicateToken(kind: .keyword(word.uppercased()), position: start) }
            return PredicateToken(kind: .identifier(word), position: start)
        }
        if character == "$" {
            index += 1
            guard index < characters.count, characters[index].isLetter || characters[index] == "_" else {
                throw error("'$' must be followed by a variable name", at: start)
            }
            return PredicateToken(kind: .variable(identifier()), position: start)
        }
        if character == "%" {
            index += 1
            var conversion = ""
            while index < characters.count, "lqh".contains(characters[index]) {
                conversion.append(characters[index])
                index += 1
            }
            guard index < characters.count, "@KdiuxXfgeEcs%".contains(characters[index]) else {
                throw error("'%' must start a format argument such as %@, %K, %d or %f", at: start)
            }
            conversion.append(characters[index])
            index += 1
            return PredicateToken(kind: .argument(conversion), position: start)
        }
        for symbol in ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"] where matches(symbol) {
            index += symbol.count
            return PredicateToken(kind: .symbol(symbol), position: start)
        }
        if "=<>!(){}[],.@-".contains(character) {
            index += 1
            return PredicateToken(kind: .symbol(String(character)), position: start)
        }
        if "+*/".contains(character) {
            throw error("arithmetic ('\(character)') is not supported; compute the value and pass it as an argument", at: start)
        }
        throw error("unexpected character '\(character)'", at: start)
    }

    private func matches(_ symbol: String) -> Bool {
        let text = Array(symbol)
        guard index + text.count <= characters.count else { return false }
        return Array(characters[index..<(index + text.count)]) == text
    }

    private mutating func identifier() -> String {
        var word = ""
        while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
            word.append(characters[index])
            index += 1
        }
        return word
    }

    private mutating func string(quote: Character) throws -> String {
        let start = index
        index += 1
        var text = ""
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == quote { return text }
            guard character == "\\" else {
                text.append(character)
                continue
            }
            guard index < characters.count else { break }
            let escaped = characters[index]
            index += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "a": text.append("\u{07}")
            case "b": text.append("\u{08}")
            case "f": text.append("\u{0C}")
            case "v": text.append("\u{0B}")
            case "x", "X": text.unicodeScalars.append(try scalar(digits: 2, radix: 16, at: start))
            case "u", "U": text.unicodeScalars.append(try scalar(digits: 4, radix: 16, at: start))
            case "0"..."7":
                index -= 1
                text.unicodeScalars.append(try scalar(digits: 3, radix: 8, at: start, upTo: true))
            default: text.append(escaped)
            }
        }
        throw error("unterminated quoted string", at: start)
    }

    private mutating func scalar(digits: Int, radix: Int, at start: Int, upTo: Bool = false) throws -> Unicode.Scalar {
        var text = ""
        while text.count < digits, index < characters.count, characters[index].isHexDigit,
            Int(String(characters[index]), radix: radix) != nil
        {
            text.append(characters[index])
            index += 1
        }
        guard upTo ? !text.isEmpty : text.count == digits, let value = UInt32(text, radix: radix), let scalar = Unicode.Scalar(value) else {
            throw error("a bad escape in a quoted string", at: start)
        }
        return scalar
    }

    private mutating func number() throws -> PredicateToken.Kind {
        let start = index
        if characters[index] == "0", index + 1 < characters.count,
            let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][characters[index + 1]]
        {
            index += 2
            var digits = ""
            while index < characters.count, characters[index].isHexDigit || characters[index].isLetter {
                digits.append(characters[index])
                index += 1
            }
            guard let value = Int64(digits, radix: radix) else {
                throw error("'0\(characters[start + 1])\(digits)' is not a number", at: start)
            }
            return .integer(value)
        }
        var text = ""
        var isDouble = false
        while index < characters.count, characters[index].isNumber {
            text.append(characters[index])
            index += 1
        }
        if index + 1 < characters.count, characters[index] == ".", characters[index + 1].isNumber {
            isDouble = true
            text.append(".")
            index += 1
            while index < characters.count, characters[index].isNumber {
                text.append(characters[index])
                index += 1
            }
        }
        if index < characters.count, characters[index] == "e" || characters[index] == "E" {
            var lookahead = index + 1
            if lookahead < characters.count, characters[lookahead] == "+" || characters[lookahead] == "-" { lookahead += 1 }
            if lookahead < characters.count, characters[lookahead].isNumber {
                isDouble = true
                text += String(characters[index..<lookahead])
                index = lookahead
                while index < characters.count, characters[index].isNumber {
                    text.append(characters[index])
                    index += 1
                }
            }
        }
        if index < characters.count, characters[index].isLetter || characters[index] == "_" {
            throw error("'\(text)\(characters[index])...' is neither a number nor a key (a key starts with a letter)", at: start)
        }
        if !isDouble, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text) else { throw error("'\(text)' is not a number", at: start) }
        return .double(value)
    }
}
