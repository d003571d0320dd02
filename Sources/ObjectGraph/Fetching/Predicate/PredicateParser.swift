import Foundation

extension FetchPredicate {
    /// Parses an NSPredicate format string: `FetchPredicate(format: "likes.@count >= %@ AND title CONTAINS[cd]
    /// $query", 5, variables: ["query": "swift"])`. `%@`, `%K` (a key path), `%d` and `%f` take `arguments` in
    /// order; `$VARIABLE`s take `variables` (those without a value stay, to be substituted later).
    ///
    /// Precedence: NOT binds tightest, then AND, then OR (inferred from NSPredicate's behaviour; Apple documents
    /// none); runs of the same operator form one compound; parentheses keep their group. SUBQUERY, FUNCTION and
    /// arithmetic are refused with a message. A syntax error names its position and what was expected.
    public init(format: String, _ arguments: any PredicateArgument..., variables: [String: any PredicateArgument] = [:]) throws {
        try self.init(format: format, argumentArray: arguments, variables: variables)
    }

    /// The same, with the arguments in an array.
    public init(format: String, argumentArray: [any PredicateArgument], variables: [String: any PredicateArgument] = [:]) throws {
        var parser = try PredicateParser(format: format, arguments: argumentArray)
        var predicate = try parser.parse()
        if !variables.isEmpty {
            predicate = try predicate.map { expression in
                guard case let .variable(name) = expression, let value = variables[name] else { return nil }
                return try value.predicateExpression()
            }
        }
        self = predicate
    }
}

/// A recursive-descent parser over the tokens of `PredicateLexer`.
struct PredicateParser {
    private let format: String
    private let tokens: [PredicateToken]
    private var position = 0
    private var arguments: [any PredicateArgument]
    private var argumentIndex = 0
    /// How deep NOTs, groups and aggregates nest now: bounded, so that a hostile format cannot overflow the stack
    /// (SQLite refuses expressions deeper than 1,000 anyway).
    private var nesting = 0
    static let maximumNesting = 500

    init(format: String, arguments: [any PredicateArgument]) throws {
        self.format = format
        self.tokens = try PredicateLexer.tokens(format)
        self.arguments = arguments
    }

    mutating func parse() throws -> FetchPredicate {
        guard tokens.first?.kind != .end else { throw error("an empty format string", expected: "a predicate") }
        let predicate = try orPredicate()
        guard current.kind == .end else { throw error("extra text after the predicate", expected: "AND, OR or the end") }
        guard argumentIndex == arguments.count else {
            throw ObjectGraphError.invalidPredicate(
                "Unable to parse the format string \"\(format)\": it uses \(argumentIndex) format argument(s) but \(arguments.count) were given"
            )
        }
        return predicate
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[min(position, tokens.count - 1)] }

    private mutating func advance() { position += 1 }

    private func error(_ problem: String, expected: String) -> ObjectGraphError {
        let token = current
        let found: String
        switch token.kind {
        case .end: found = "the end"
        default:
            let start = format.index(format.startIndex, offsetBy: min(token.position, format.count))
            found = "'" + String(format[start...].prefix(12)) + "'"
        }
        return .invalidPredicate(
            "Unable to parse the format string \"\(format)\": \(problem) at position \(token.position + 1): expected \(expected), found \(found)"
        )
    }

    private mutating func accept(keyword: String) -> Bool {
        if case .keyword(keyword) = current.kind {
            advance()
            return true
        }
        return false
    }

    private mutating func accept(symbol: String) -> Bool {
        if case .symbol(symbol) = current.kind {
            advance()
            return true
        }
        return false
    }

    private mutating func expect(symbol: String, _ what: String) throws {
        guard accept(symbol: symbol) else { throw error("a missing '\(symbol)'", expected: what) }
    }

    // MARK: Predicates

    private mutating func orPredicate() throws -> FetchPredicate {
        var parts = [try andPredicate()]
        while accept(keyword: "OR") || accept(symbol: "||") { parts.append(try andPredicate()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func andPredicate() throws -> FetchPredicate {
        var parts = [try notPredicate()]
        while accept(keyword: "AND") || accept(symbol: "&&") { parts.append(try notPredicate()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func notPredicate() throws -> FetchPredicate {
        if accept(keyword: "NOT") || accept(symbol: "!") { return .not(try nested { try $0.notPredicate() }) }
        return try primaryPredicate()
    }

    private mutating func nested<T>(_ body: (inout PredicateParser) throws -> T) throws -> T {
        guard nesting < Self.maximumNesting else {
            throw error("NOT, parentheses or braces nested more than \(Self.maximumNesting) deep", expected: "a shallower predicate")
        }
        nesting += 1
        defer { nesting -= 1 }
        return try body(&self)
    }

    private mutating func primaryPredicate() throws -> FetchPredicate {
        if accept(keyword: "TRUEPREDICATE") { return .constant(true) }
        if accept(keyword: "FALSEPREDICATE") { return .constant(false) }
        if accept(symbol: "(") {
            let inner = try nested { try $0.orPredicate() }
            try expect(symbol: ")", "')' closing the group")
            return inner
        }
        return try comparison()
    }

    private mutating func comparison() throws -> FetchPredicate {
        var modifier = Comparison.Modifier.direct
        var negated = false
        if accept(keyword: "ANY") || accept(keyword: "SOME") {
            modifier = .any
        } else if accept(keyword: "ALL") {
            modifier = .all
        } else if accept(keyword: "NONE") {
            modifier = .any
            negated = true
        }
        let lhs = try expression()
        let (op, options) = try comparisonOperator()
        let rhs = try expression()
        if op == .between, !(rhs.isVariable) {
            guard case let .aggregate(bounds) = rhs, bounds.count == 2 else {
                throw ObjectGraphError.invalidPredicate(
                    "Unable to parse the format string \"\(format)\": BETWEEN needs two bounds, {low, high}")
            }
        }
        // NSPredicate compiles a MATCHES pattern only when it evaluates; a constant one that cannot compile is refused here.
        if op == .matches, case let .constant(.string(pattern)) = rhs {
            do {
                _ = try NSRegularExpressionCache.expression(pattern, caseInsensitive: options.contains(.caseInsensitive))
            } catch {
                throw ObjectGraphError.invalidPredicate(
                    "Unable to parse the format string \"\(format)\": MATCHES '\(pattern)' is not a regular expression ICU can compile")
            }
        }
        let comparison = FetchPredicate.comparison(Comparison(lhs, op, rhs, modifier: modifier, options: options))
        return negated ? .not(comparison) : comparison
    }

    private mutating func comparisonOperator() throws -> (PredicateOperator, StringOptions) {
        let op: PredicateOperator
        switch current.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .keyword("BEGINSWITH"): op = .beginsWith
        case .keyword("ENDSWITH"): op = .endsWith
        case .keyword("CONTAINS"): op = .contains
        case .keyword("LIKE"): op = .like
        case .keyword("MATCHES"): op = .matches
        case .keyword("IN"): op = .in
        case .keyword("BETWEEN"): op = .between
        default:
            throw error(
                "no comparison operator", expected: "==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN or BETWEEN")
        }
        advance()
        var options: StringOptions = []
        if accept(symbol: "[") {
            guard case let .identifier(letters) = current.kind else { throw error("no options", expected: "option letters c, d, n or l") }
            for letter in letters.lowercased() {
                switch letter {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                case "n": options.insert(.normalized)
                case "l": options.insert(.localeSensitive)
                default: throw error("an unknown option '\(letter)'", expected: "option letters c, d, n or l")
                }
            }
            advance()
            try expect(symbol: "]", "']' closing the options")
        }
        return (op, options)
    }

    // MARK: Expressions

    private mutating func expression() throws -> FetchExpression {
        let token = current
        switch token.kind {
        case let .string(text):
            advance()
            return .constant(.string(text))
        case let .integer(value):
            advance()
            return .constant(.int(value))
        case let .double(value):
            advance()
            return .constant(.double(value))
        case .symbol("-"):
            advance()
            switch current.kind {
            case let .integer(value):
                advance()
                return .constant(.int(-value))
            case let .double(value):
                advance()
                return .constant(.double(-value))
            default: throw error("'-' not before a number", expected: "a number")
            }
        case .symbol("{"):
            advance()
            var items: [FetchExpression] = []
            if !accept(symbol: "}") {
                repeat { items.append(try nested { try $0.expression() }) } while accept(symbol: ",")
                try expect(symbol: "}", "'}' or ',' in the aggregate")
            }
            return .aggregate(items)
        case let .variable(name):
            advance()
            return .variable(name)
        case .keyword("TRUE"), .keyword("YES"):
            advance()
            return .constant(.bool(true))
        case .keyword("FALSE"), .keyword("NO"):
            advance()
            return .constant(.bool(false))
        case .keyword("NIL"), .keyword("NULL"):
            advance()
            return .constant(.null)
        case .keyword("SELF"):
            advance()
            if accept(symbol: ".") { return .keyPath(try keyPathRest(start: "")) }
            return .evaluatedObject
        case .keyword("CAST"):
            advance()
            return try cast()
        case .keyword("SUBQUERY"), .keyword("FUNCTION"):
            throw error(
                "\(token.kind == .keyword("SUBQUERY") ? "SUBQUERY" : "FUNCTION") is not supported yet; for SUBQUERY(...).@count use a to-many's @count or ANY",
                expected: "a key path, a constant or a format argument")
        case let .argument(conversion):
            return try argument(conversion)
        case let .identifier(name):
            advance()
            return .keyPath(try keyPathRest(start: name))
        case .symbol("@"):
            return .keyPath(try keyPathRest(start: ""))
        case .symbol("("):
            throw error(
                "a parenthesized expression", expected: "a key path, a constant or a format argument (parentheses group predicates)")
        default:
            throw error("no expression", expected: "a key path, a constant, {a, b}, $VARIABLE or a format argument")
        }
    }

    /// The rest of a key path: `.name`, `.@count`, `.@sum.price` components; `start` is the first component.
    private mutating func keyPathRest(start: String) throws -> String {
        var components = start.isEmpty ? [] : [start]
        if start.isEmpty { components.append(try keyComponent()) }
        while accept(symbol: ".") { components.append(try keyComponent()) }
        if case .symbol("[") = current.kind {
            throw error(
                "an index ([FIRST], [LAST], [SIZE], [n]) on a key path, which Core Data's SQL store cannot fetch by",
                expected: "an operator")
        }
        return components.joined(separator: ".")
    }

    private mutating func keyComponent() throws -> String {
        if accept(symbol: "@") {
            guard case let .identifier(name) = current.kind, ["count", "sum", "avg", "min", "max"].contains(name.lowercased()) else {
                throw error("an unknown collection operator", expected: "@count, @sum, @avg, @min or @max")
            }
            advance()
            return "@" + name.lowercased()
        }
        switch current.kind {
        case let .identifier(name):
            advance()
            return name
        case let .keyword(word):
            throw error(
                "the reserved word \(word) as a key", expected: "a key (write #\(word.lowercased()) to use a reserved word as a key)")
        default:
            throw error("no key after '.'", expected: "a key")
        }
    }

    /// `CAST(726000000.0, "NSDate")`, and ObjectGraph's `CAST("...", "NSUUID" | "NSData" | "NSDecimalNumber" | "NSURL")`.
    private mutating func cast() throws -> FetchExpression {
        try expect(symbol: "(", "'(' after CAST")
        let valueToken = current
        advance()
        try expect(symbol: ",", "',' between CAST's value and type")
        guard case let .string(type) = current.kind else { throw error("no type name", expected: "a quoted type such as \"NSDate\"") }
        advance()
        try expect(symbol: ")", "')' closing CAST")
        switch (valueToken.kind, type) {
        case let (.double(seconds), "NSDate"): return .constant(.date(Date(timeIntervalSinceReferenceDate: seconds)))
        case let (.integer(seconds), "NSDate"): return .constant(.date(Date(timeIntervalSinceReferenceDate: Double(seconds))))
        case let (.string(text), "NSUUID"):
            guard let uuid = UUID(uuidString: text) else { break }
            return .constant(.uuid(uuid))
        case let (.string(text), "NSData"):
            guard let data = Data(base64Encoded: text) else { break }
            return .constant(.binary(data))
        case let (.string(text), "NSDecimalNumber"):
            guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { break }
            return .constant(.decimal(decimal))
        case let (.string(text), "NSURL"):
            guard let url = URL(string: text) else { break }
            return .constant(.url(url))
        case let (.string(text), "NSNumber"):
            guard let number = Double(text) else { break }
            return .constant(.double(number))
        default: break
        }
        throw ObjectGraphError.invalidPredicate(
            "Unable to parse the format string \"\(format)\": CAST at position \(valueToken.position + 1) cannot make a \(type) of that value (use CAST(seconds, \"NSDate\"), or CAST(\"text\", \"NSUUID\" | \"NSData\" | \"NSDecimalNumber\" | \"NSURL\"))"
        )
    }

    private mutating func argument(_ conversion: String) throws -> FetchExpression {
        if conversion == "%" { throw error("'%%' outside a quoted string", expected: "an expression") }
        guard argumentIndex < arguments.count else {
            throw error("more format arguments than were given (\(arguments.count))", expected: "an argument for each %@, %K, %d or %f")
        }
        advance()
        let value = arguments[argumentIndex]
        argumentIndex += 1
        let expression = try value.predicateExpression()
        switch conversion.last ?? "@" {
        case "K":
            switch expression {
            case let .constant(.string(path)), let .keyPath(path):
                var rest = path
                while accept(symbol: ".") { rest += "." + (try keyComponent()) }
                return .keyPath(rest)
            default:
                throw ObjectGraphError.invalidPredicate(
                    "Unable to parse the format string \"\(format)\": %K needs a key path string, got \(PredicateFormatter.format(expression))"
                )
            }
        case "d", "i", "u", "x", "X", "c":
            guard case let .constant(number) = expression, let integer = number.int, !(number.string != nil) else {
                throw ObjectGraphError.invalidPredicate(
                    "Unable to parse the format string \"\(format)\": %\(conversion) needs an integer, got \(PredicateFormatter.format(expression))"
                )
            }
            return .constant(.int(integer))
        case "f", "g", "e", "E":
            guard case let .constant(number) = expression, let double = number.double else {
                throw ObjectGraphError.invalidPredicate(
                    "Unable to parse the format string \"\(format)\": %\(conversion) needs a number, got \(PredicateFormatter.format(expression))"
                )
            }
            return .constant(.double(double))
        case "s":
            throw ObjectGraphError.invalidPredicate(
                "Unable to parse the format string \"\(format)\": %s takes a C string; pass Swift strings with %@")
        default:
            return expression
        }
    }
}

extension FetchExpression {
    var isVariable: Bool {
        if case .variable = self { return true }
        return false
    }
}
