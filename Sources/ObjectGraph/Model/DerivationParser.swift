import Foundation

/// Parses a derived attribute's `derivationExpression` into what it computes, naming relationships and
/// attributes still unresolved (the compiler checks them against the model).
///
/// Accepted forms (Core Data's derivations; decompiled NSSQLDerivedAttributeSQLGenerator):
/// `items.@count`, `items.price.@sum` (also `items.@sum.price`, `@sum.items.price`; `@max`, `@min`),
/// `category.name`, `name`, `canonical:(name)`, `uppercase:(name)`, `lowercase:(name)`, `now()`.
/// Anything else (filtering predicates, key paths of more steps, other functions) is refused, as Core Data
/// refuses it ("currently unsupported").
enum DerivationParser {
    /// Why a derivation is refused, in words a message can quote.
    struct Unsupported: Error { let reason: String }

    static func parse(_ text: String, entity: EntityDescription, property: String) throws -> Derivation {
        do {
            return try parse(text)
        } catch let error as Unsupported {
            throw ObjectGraphError.model(entity: entity.name, property: property, reason: error.reason)
        }
    }

    static func parse(_ text: String) throws -> Derivation {
        let expression = text.trimmingCharacters(in: .whitespaces)
        func unsupported(_ why: String) -> Unsupported {
            Unsupported(
                reason:
                    "derivation '\(text)' is not supported (\(why)); use <toMany>.@count, <toMany>.<attribute>.@sum|@max|@min, <toOne>.<attribute>, canonical:(<attribute>), uppercase:(...), lowercase:(...) or now()"
            )
        }
        if expression == "now()" { return .now }
        for function in [Derivation.StringFunction.canonical, .uppercase, .lowercase] {
            let prefix = function.rawValue + ":("
            if expression.hasPrefix(prefix), expression.hasSuffix(")") {
                let inner = expression.dropFirst(prefix.count).dropLast().trimmingCharacters(in: .whitespaces)
                guard isIdentifier(inner) else { throw unsupported("\(function.rawValue): takes one attribute of the entity") }
                return .ownAttribute(function, attribute: inner)
            }
        }
        let parts = expression.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else { throw unsupported("an empty key path component") }
        let aggregates: [String: Derivation.Aggregate] = ["@sum": .sum, "@max": .max, "@min": .min]
        switch parts.count {
        case 1:
            guard isIdentifier(parts[0]) else { throw unsupported("not a key path") }
            return .ownAttribute(.copy, attribute: parts[0])
        case 2:
            if parts[1] == "@count", isIdentifier(parts[0]) { return .count(.init(name: parts[0])) }
            if isIdentifier(parts[0]), isIdentifier(parts[1]) { return .toOneKeyPath(.init(name: parts[0]), attribute: parts[1]) }
            throw unsupported("unknown operator in '\(expression)'")
        case 3:
            if let function = aggregates[parts[2]], isIdentifier(parts[0]), isIdentifier(parts[1]) {
                return .aggregate(function, .init(name: parts[0]), attribute: parts[1])
            }
            if let function = aggregates[parts[1]], isIdentifier(parts[0]), isIdentifier(parts[2]) {
                return .aggregate(function, .init(name: parts[0]), attribute: parts[2])
            }
            if let function = aggregates[parts[0]], isIdentifier(parts[1]), isIdentifier(parts[2]) {
                return .aggregate(function, .init(name: parts[1]), attribute: parts[2])
            }
            if parts.contains(where: { $0.hasPrefix("@") }) { throw unsupported("only @count, @sum, @max and @min") }
            throw unsupported("key paths of more than one relationship")
        default:
            throw unsupported("key paths of more than one relationship")
        }
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}

/// Compiled regular expressions by pattern, shared by validation and MATCHES (NSRegularExpression is ICU's,
/// as NSPredicate's MATCHES is).
enum NSRegularExpressionCache {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: NSRegularExpression] = [:]

    /// The expression for `pattern`, anchored to match a whole string.
    static func expression(_ pattern: String, caseInsensitive: Bool = false) throws -> NSRegularExpression {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[key] { return cached }
        let expression = try NSRegularExpression(
            pattern: "^(?:" + pattern + ")$",
            options: caseInsensitive ? [.caseInsensitive] : [])
        if cache.count > 256 { cache.removeAll() }
        cache[key] = expression
        return expression
    }

    /// Whether `text` matches `pattern` whole.
    static func matches(_ text: String, _ pattern: String, caseInsensitive: Bool = false) -> Bool {
        guard let expression = try? expression(pattern, caseInsensitive: caseInsensitive) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [], range: range) != nil
    }
}
