#if SwiftSources
import Foundation
import ObjectGraph
import SwiftSyntax

/// A fetch's predicate as an NSPredicate format string a scenario runs, with `$v1`, `$v2` ... for the values the code
/// supplies at run time (each given a value of the data: the attribute it is compared with, an object of the entity
/// a relationship is compared with). Translated: `NSPredicate(format:)` with its `%@`/`%K`/`%d` arguments, and the
/// common `#Predicate` forms: comparisons, `&&`, `||`, `!`, `== nil`, `contains`/`localizedStandardContains`/
/// `starts(with:)`/`hasPrefix`/`hasSuffix` on strings, `isEmpty`/`count` and `contains(where:)` on to-many
/// relationships, `persistentModelID ==`. Anything else is not translated: the site runs without its predicate and
/// says so.
struct PredicateTranslator {
    let entity: EntityDescription
    private(set) var variables: [String: [String: JSONScalar]] = [:]
    private var counter: Int

    struct Unsupported: Error {
        let reason: String
    }

    init(entity: EntityDescription, firstVariable: Int = 1) {
        self.entity = entity
        counter = firstVariable
    }

    // MARK: NSPredicate(format:)

    /// `NSPredicate(format: "name == %@ AND age > %d", name, 3)`.
    mutating func translate(formatCall call: FunctionCallExprSyntax) throws -> String {
        let arguments = Array(call.arguments)
        guard let first = arguments.first, first.label?.text == "format" || first.label == nil,
            let format = Self.stringLiteral(first.expression)
        else { throw Unsupported(reason: "its format is not a string literal") }
        var values = arguments.dropFirst().map { $0.expression }
        var output = ""
        var index = format.startIndex
        while index < format.endIndex {
            let character = format[index]
            guard character == "%" else {
                output.append(character)
                index = format.index(after: index)
                continue
            }
            var end = format.index(after: index)
            while end < format.endIndex, "lhqzjt".contains(format[end]) { end = format.index(after: end) }
            guard end < format.endIndex else { throw Unsupported(reason: "a % at the end of its format") }
            let specifier = format[end]
            index = format.index(after: end)
            if specifier == "%" {
                output.append("%")
                continue
            }
            guard !values.isEmpty else { throw Unsupported(reason: "fewer arguments than its format's placeholders") }
            let value = values.removeFirst()
            if specifier == "K" {
                guard let key = Self.stringLiteral(value) ?? Self.keyPathLiteral(value) else {
                    throw Unsupported(reason: "a %K whose key is not written in the code")
                }
                output += key
                continue
            }
            if let literal = Self.literal(value) {
                output += literal
                continue
            }
            output += try variable(comparedIn: output)
        }
        return output.trimmingCharacters(in: .whitespaces)
    }

    /// A `$vN` for the value compared at the end of `text` (`... name CONTAINS[cd] `), with a spec from the key path.
    private mutating func variable(comparedIn text: String) throws -> String {
        // A constant pattern: it cannot fail to compile at run time.
        // swift-format-ignore: NeverUseForceTry
        let pattern = try! NSRegularExpression(
            pattern:
                "(ANY\\s+|ALL\\s+)?([A-Za-z_@][A-Za-z0-9_.@]*)\\s*(==|=|!=|<>|<=|>=|=<|=>|<|>|CONTAINS|BEGINSWITH|ENDSWITH|LIKE|MATCHES|IN)(\\[[a-z]*\\])?\\s*$",
            options: [.caseInsensitive])
        let range = NSRange(text.startIndex..., in: text)
        guard let match = pattern.firstMatch(in: text, range: range), let keyRange = Range(match.range(at: 2), in: text),
            let opRange = Range(match.range(at: 3), in: text)
        else { throw Unsupported(reason: "a value it compares with nothing RelBench can name") }
        return try variable(for: String(text[keyRange]), operator: text[opRange].uppercased())
    }

    /// A new variable for a value compared with `keyPath` by `op`, given a value of the data.
    mutating func variable(for keyPath: String, operator op: String) throws -> String {
        guard op != "IN" else { throw Unsupported(reason: "an IN with a list the code supplies") }
        let name = "v\(counter)"
        counter += 1
        variables[name] = try spec(keyPath, textual: ["CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES"].contains(op))
        return "$" + name
    }

    /// The data value a variable takes: an object of the entity a relationship holds, a word of a string attribute
    /// searched in, else the first generated value of the attribute compared.
    private func spec(_ keyPath: String, textual: Bool) throws -> [String: JSONScalar] {
        if keyPath == "SELF" { return ["object": .string(entity.name), "index": .int(0)] }
        // A count compared with a number the code computes: 1, a value every generated count can reach.
        if keyPath.hasSuffix("@count") { return ["literal": .int(1)] }
        var current = entity
        let parts = keyPath.split(separator: ".").map(String.init).filter { !$0.hasPrefix("@") }
        for (position, part) in parts.enumerated() {
            if let relationship = current.relationship(part) {
                current = relationship.destination
                if position == parts.count - 1 { return ["object": .string(current.name), "index": .int(0)] }
                continue
            }
            if let attribute = current.attribute(part), position == parts.count - 1 {
                if textual && attribute.type == .string { return ["word": .string("\(attribute.entity.name).\(part)")] }
                return ["valueOf": .string("\(attribute.entity.name).\(part)"), "index": .int(0)]
            }
            break
        }
        throw Unsupported(reason: "'\(keyPath)' is not a stored property of \(entity.name)")
    }

    // MARK: #Predicate

    /// `#Predicate<Trip> { trip in trip.name == name && trip.nights > 3 }`.
    mutating func translate(predicateMacro macro: MacroExpansionExprSyntax) throws -> String {
        let closure = macro.trailingClosure ?? macro.arguments.first?.expression.as(ClosureExprSyntax.self)
        guard let closure else { throw Unsupported(reason: "a #Predicate without a closure") }
        var parameter = "$0"
        if let signature = closure.signature?.parameterClause {
            switch signature {
            case let .simpleInput(list): parameter = list.first?.name.text ?? "$0"
            case let .parameterClause(clause): parameter = clause.parameters.first.map { ($0.secondName ?? $0.firstName).text } ?? "$0"
            }
        }
        var statements = Array(closure.statements)
        if statements.count > 1 { throw Unsupported(reason: "a #Predicate of several statements") }
        guard let item = statements.popLast() else { return "TRUEPREDICATE" }
        let expression: ExprSyntax
        if let returned = item.item.as(ReturnStmtSyntax.self), let value = returned.expression {
            expression = value
        } else if let value = item.item.as(ExprSyntax.self) {
            expression = value
        } else {
            throw Unsupported(reason: "a #Predicate whose body is not one expression")
        }
        return try condition(expression, parameter)
    }

    private enum Operand {
        case keyPath(String)
        case literal(String)
        /// A value the code computes (a captured variable, `Date.now`): a `$vN`.
        case value
    }

    private mutating func condition(_ expression: ExprSyntax, _ parameter: String) throws -> String {
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1 {
            // A tuple of one element, counted above.
            // swift-format-ignore: NeverForceUnwrap
            return "(" + (try condition(tuple.elements.first!.expression, parameter)) + ")"
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return "NOT (" + (try condition(prefix.expression, parameter)) + ")"
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return try condition(sequence: Array(sequence.elements), parameter)
        }
        if let infix = expression.as(InfixOperatorExprSyntax.self) {
            return try condition(sequence: [infix.leftOperand, ExprSyntax(infix.operator), infix.rightOperand], parameter)
        }
        if let call = expression.as(FunctionCallExprSyntax.self) { return try method(call, parameter) }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) {
            return boolean.literal.text == "true" ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
        if let access = expression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "isEmpty",
            let base = access.base, case let .keyPath(path) = try operand(base, parameter)
        {
            return isToMany(path) ? "\(path).@count == 0" : "\(path) == \"\""
        }
        if case let .keyPath(path) = try operand(expression, parameter) { return "\(path) == YES" }
        throw Unsupported(reason: "'\(expression.trimmedDescription)' is not a form RelBench translates")
    }

    private mutating func condition(sequence elements: [ExprSyntax], _ parameter: String) throws -> String {
        func op(_ expression: ExprSyntax) -> String? { expression.as(BinaryOperatorExprSyntax.self)?.operator.text }
        for joiner in ["||", "&&"] {
            let positions = elements.indices.filter { op(elements[$0]) == joiner }
            guard !positions.isEmpty else { continue }
            var parts: [[ExprSyntax]] = []
            var start = 0
            for position in positions {
                parts.append(Array(elements[start..<position]))
                start = position + 1
            }
            parts.append(Array(elements[start...]))
            return try parts.map { "(" + (try condition(sequence: $0, parameter)) + ")" }.joined(
                separator: joiner == "||" ? " OR " : " AND ")
        }
        if elements.count == 1 { return try condition(elements[0], parameter) }
        // `a ?? b` on one side: the optional key path.
        var items = elements
        while let position = items.indices.first(where: { op(items[$0]) == "??" }) {
            items.removeSubrange(position...(position + 1))
        }
        guard items.count == 3, let comparison = op(items[1]), ["==", "!=", "<", "<=", ">", ">="].contains(comparison) else {
            throw Unsupported(
                reason: "'\(elements.map(\.trimmedDescription).joined(separator: " "))' is not a comparison RelBench translates")
        }
        let left = try operand(items[0], parameter)
        let right = try operand(items[2], parameter)
        switch (left, right) {
        case let (.keyPath(path), .literal(value)):
            return "\(path) \(comparison) \(value)"
        case let (.literal(value), .keyPath(path)):
            return "\(path) \(Self.flipped(comparison)) \(value)"
        case let (.keyPath(path), .value):
            return "\(path) \(comparison) \(try variable(for: path, operator: comparison))"
        case let (.value, .keyPath(path)):
            return "\(path) \(Self.flipped(comparison)) \(try variable(for: path, operator: comparison))"
        case let (.keyPath(one), .keyPath(other)):
            return "\(one) \(comparison) \(other)"
        default:
            throw Unsupported(reason: "a comparison with no stored property in it")
        }
    }

    private static func flipped(_ comparison: String) -> String {
        switch comparison {
        case "<": return ">"
        case "<=": return ">="
        case ">": return "<"
        case ">=": return "<="
        default: return comparison
        }
    }

    /// `trip.name.contains(text)`, `trip.tags.contains { $0.name == text }`, `trip.name.starts(with: "A")`.
    private mutating func method(_ call: FunctionCallExprSyntax, _ parameter: String) throws -> String {
        guard let callee = call.calledExpression.as(MemberAccessExprSyntax.self), let base = callee.base else {
            throw Unsupported(reason: "'\(call.trimmedDescription)' is not a form RelBench translates")
        }
        let name = callee.declName.baseName.text
        guard case let .keyPath(path) = try operand(base, parameter) else {
            throw Unsupported(reason: "'\(call.trimmedDescription)' calls a method on no stored property")
        }
        if name == "contains", isToMany(path) {
            let closure = call.trailingClosure ?? call.arguments.first?.expression.as(ClosureExprSyntax.self)
            guard let closure else { throw Unsupported(reason: "a contains on \(path) with an object the code supplies") }
            var inner = "$0"
            if case let .simpleInput(list)? = closure.signature?.parameterClause { inner = list.first?.name.text ?? "$0" }
            guard closure.statements.count == 1, let expression = closure.statements.first?.item.as(ExprSyntax.self) else {
                throw Unsupported(reason: "a contains(where:) of several statements")
            }
            // `isToMany(path)` held above: the path is a relationship.
            // swift-format-ignore: NeverForceUnwrap
            var nested = PredicateTranslator(entity: relationship(path)!.destination, firstVariable: counter)
            let body = try nested.condition(expression, inner)
            // ObjectGraph runs ANY, not SUBQUERY: one comparison on the members is translated.
            // A constant pattern: it cannot fail to compile at run time.
            // swift-format-ignore: NeverUseForceTry
            let comparison = try! NSRegularExpression(
                pattern: "^([A-Za-z_][A-Za-z0-9_.@]*) (==|!=|<|<=|>|>=|CONTAINS\\S*|BEGINSWITH|ENDSWITH) (.+)$")
            guard !body.contains(" AND "), !body.contains(" OR "),
                let match = comparison.firstMatch(in: body, range: NSRange(body.startIndex..., in: body)),
                let key = Range(match.range(at: 1), in: body), let op = Range(match.range(at: 2), in: body),
                let value = Range(match.range(at: 3), in: body)
            else { throw Unsupported(reason: "a contains(where:) on \(path) that is not one comparison") }
            counter += nested.variables.count
            variables.merge(nested.variables) { first, _ in first }
            return "ANY \(path).\(body[key]) \(body[op]) \(body[value])"
        }
        let operators = [
            "contains": "CONTAINS", "localizedStandardContains": "CONTAINS[cd]", "localizedCaseInsensitiveContains": "CONTAINS[c]",
            "starts": "BEGINSWITH", "hasPrefix": "BEGINSWITH", "hasSuffix": "ENDSWITH",
        ]
        guard let op = operators[name], let argument = call.arguments.first?.expression else {
            throw Unsupported(reason: "'\(name)' is not a method RelBench translates")
        }
        switch try operand(argument, parameter) {
        case let .literal(value): return "\(path) \(op) \(value)"
        case .value: return "\(path) \(op) \(try variable(for: path, operator: String(op.prefix { $0 != "[" })))"
        case .keyPath: throw Unsupported(reason: "a string compared with another property")
        }
    }

    private func operand(_ expression: ExprSyntax, _ parameter: String) throws -> Operand {
        if let literal = Self.literal(expression) { return .literal(literal) }
        if let path = keyPath(expression, parameter) {
            // An object's identity compared: the object itself (`$0.recipient?.persistentModelID == id`).
            if path == "persistentModelID" || path == "id" && entity.attribute("id") == nil { return .keyPath("SELF") }
            if path.hasSuffix(".persistentModelID") { return .keyPath(String(path.dropLast(".persistentModelID".count))) }
            guard resolves(path) else { throw Unsupported(reason: "'\(path)' is not a stored property of \(entity.name)") }
            return .keyPath(path)
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1 {
            // A tuple of one element, counted above.
            // swift-format-ignore: NeverForceUnwrap
            return try operand(tuple.elements.first!.expression, parameter)
        }
        if expression.trimmedDescription.contains(parameter) && parameter != "$0" || expression.trimmedDescription.contains("$0") {
            throw Unsupported(reason: "'\(expression.trimmedDescription)' computes on the object")
        }
        return .value
    }

    /// `name.first` for `trip.name.first` when rooted at the closure's parameter (optional chaining dropped), with
    /// `count` on a to-many read as `@count`.
    private func keyPath(_ expression: ExprSyntax, _ parameter: String) -> String? {
        var names: [String] = []
        var current: ExprSyntax? = expression
        while let node = current {
            if let access = node.as(MemberAccessExprSyntax.self) {
                names.insert(access.declName.baseName.text, at: 0)
                current = access.base
            } else if let chained = node.as(OptionalChainingExprSyntax.self) {
                current = chained.expression
            } else if let forced = node.as(ForceUnwrapExprSyntax.self) {
                current = forced.expression
            } else if let reference = node.as(DeclReferenceExprSyntax.self) {
                guard reference.baseName.text == parameter, !names.isEmpty else { return nil }
                return Self.composite(names, in: entity)
            } else {
                return nil
            }
        }
        return nil
    }

    /// Key path names with a to-many's `count` as `@count`, and a composite's `location.latitude` as the attribute
    /// `location_latitude` the reader laid it out as.
    static func composite(_ names: [String], in entity: EntityDescription) -> String {
        var output: [String] = []
        var current: EntityDescription? = entity
        var index = 0
        while index < names.count {
            let name = names[index]
            if let entityNow = current, let relationship = entityNow.relationship(name) {
                output.append(name)
                current = relationship.destination
                if relationship.isToMany, index + 1 < names.count, names[index + 1] == "count" {
                    output.append("@count")
                    index += 2
                    continue
                }
            } else if let entityNow = current, index + 1 < names.count, entityNow.attribute("\(name)_\(names[index + 1])") != nil {
                output.append("\(name)_\(names[index + 1])")
                current = nil
                index += 2
                continue
            } else {
                output.append(name)
                current = nil
            }
            index += 1
        }
        return output.joined(separator: ".")
    }

    private func relationship(_ path: String) -> RelationshipDescription? {
        var current = entity
        var found: RelationshipDescription?
        for part in path.split(separator: ".").map(String.init) {
            guard let relationship = current.relationship(part) else { return nil }
            found = relationship
            current = relationship.destination
        }
        return found
    }

    private func isToMany(_ path: String) -> Bool { relationship(path)?.isToMany ?? false }

    /// Whether `path` names stored properties all the way (`@count` after a to-many allowed).
    private func resolves(_ path: String) -> Bool {
        var current: EntityDescription? = entity
        for part in path.split(separator: ".").map(String.init) {
            guard let entityNow = current else { return part == "@count" }
            if let relationship = entityNow.relationship(part) {
                current = relationship.destination
            } else if entityNow.attribute(part) != nil || entityNow.derivedAttribute(part) != nil {
                current = nil
            } else {
                return part == "@count"
            }
        }
        return true
    }

    // MARK: Literals

    /// A literal as an NSPredicate writes it: `"Paris"`, `3`, `2.5`, `YES`, `nil`.
    static func literal(_ expression: ExprSyntax) -> String? {
        if let string = stringLiteral(expression) { return "\"" + string.replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        if let integer = expression.as(IntegerLiteralExprSyntax.self) {
            return integer.literal.text.replacingOccurrences(of: "_", with: "")
        }
        if let float = expression.as(FloatLiteralExprSyntax.self) { return float.literal.text.replacingOccurrences(of: "_", with: "") }
        if let boolean = expression.as(BooleanLiteralExprSyntax.self) { return boolean.literal.text == "true" ? "YES" : "NO" }
        if expression.is(NilLiteralExprSyntax.self) { return "nil" }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
            let number = literal(prefix.expression)
        {
            return "-" + number
        }
        return nil
    }

    /// The text of a string literal without interpolation.
    static func stringLiteral(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let part = segment.as(StringSegmentSyntax.self) else { return nil }
            text += part.content.text
        }
        return text
    }

    /// `name` for `#keyPath(Trip.name)` or `\Trip.name`.
    static func keyPathLiteral(_ expression: ExprSyntax) -> String? {
        let text = expression.trimmedDescription
        if text.hasPrefix("#keyPath("), text.hasSuffix(")") {
            return text.dropFirst(9).dropLast().split(separator: ".").dropFirst().joined(separator: ".")
        }
        if text.hasPrefix("\\") {
            return text.dropFirst().split(separator: ".").dropFirst().joined(separator: ".").replacingOccurrences(of: "?", with: "")
        }
        return nil
    }
}
#endif
