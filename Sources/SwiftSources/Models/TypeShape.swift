#if SwiftSources
/// A Swift type as written (`[Trip]?`, `Set<Tag>`, `Optional<Date>`, `SchemaV1.Trip`), read from its text: enough to
/// tell optionals, collections and the named type inside without a type checker.
indirect enum TypeShape: Equatable {
    case named(String)
    case optional(TypeShape)
    case array(TypeShape)
    case set(TypeShape)
    case dictionary(TypeShape, TypeShape)

    /// Reads `text` (whitespace, `any`/`some` and attributes such as `@Sendable` ignored).
    init(_ text: String) {
        var text = text.filter { !$0.isWhitespace }
        for prefix in ["any", "some"] where text.hasPrefix(prefix) && text.count > prefix.count {
            let rest = text.dropFirst(prefix.count)
            if let first = rest.first, first.isUppercase || first == "(" { text = String(rest) }
        }
        if text.hasPrefix("("), text.hasSuffix(")"), Self.balanced(String(text.dropFirst().dropLast())) {
            self.init(String(text.dropFirst().dropLast()))
            return
        }
        if text.hasSuffix("?") || text.hasSuffix("!") {
            self = .optional(TypeShape(String(text.dropLast())))
            return
        }
        if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = String(text.dropFirst().dropLast())
            if let colon = Self.topLevelColon(inner) {
                self = .dictionary(
                    TypeShape(String(inner[..<colon])), TypeShape(String(inner[inner.index(after: colon)...])))
            } else {
                self = .array(TypeShape(inner))
            }
            return
        }
        if let open = text.firstIndex(of: "<"), text.hasSuffix(">") {
            let base = String(text[..<open])
            let arguments = Self.splitTopLevel(String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
            switch (base.split(separator: ".").last.map(String.init) ?? base, arguments.count) {
            case ("Optional", 1): self = .optional(TypeShape(arguments[0]))
            case ("Array", 1), ("ContiguousArray", 1): self = .array(TypeShape(arguments[0]))
            case ("Set", 1): self = .set(TypeShape(arguments[0]))
            case ("Dictionary", 2): self = .dictionary(TypeShape(arguments[0]), TypeShape(arguments[1]))
            default: self = .named(text)
            }
            return
        }
        self = .named(text)
    }

    /// The type inside one level of optional.
    var unwrapped: (shape: TypeShape, isOptional: Bool) {
        if case let .optional(inner) = self { return (inner.unwrapped.shape, true) }
        return (self, false)
    }

    /// `Trip` for `SchemaV1.Trip` and `Swift.Int`: the last component of a named type.
    static func lastComponent(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }

    private static func balanced(_ text: String) -> Bool {
        var depth = 0
        for character in text {
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if depth < 0 { return false }
        }
        return depth == 0
    }

    private static func topLevelColon(_ text: String) -> String.Index? {
        var depth = 0
        for index in text.indices {
            let character = text[index]
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if character == ":" && depth == 0 { return index }
        }
        return nil
    }

    static func splitTopLevel(_ text: String) -> [String] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            if "([<".contains(character) { depth += 1 }
            if ")]>".contains(character) { depth -= 1 }
            if character == "," && depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}
#endif
