/// A fetch request's condition (Core Data's NSPredicate): parsed from a format string,
/// `FetchPredicate(format: "likes.@count >= %@ AND title CONTAINS[cd] $query", 5)`, or built in Swift,
/// `Key("name") == "Ada" && Key("class.name").beginsWith("M", [.caseInsensitive])`.
///
/// A predicate is a tree of comparisons joined by AND, OR and NOT. It prints back in NSPredicate's canonical
/// format (`description`), which parses to the same tree.
public indirect enum FetchPredicate: Hashable, Sendable, CustomStringConvertible {
    case comparison(Comparison)
    case and([FetchPredicate])
    case or([FetchPredicate])
    case not(FetchPredicate)
    /// TRUEPREDICATE or FALSEPREDICATE.
    case constant(Bool)

    public var description: String { PredicateFormatter.format(self) }
}

/// One comparison, `[ANY|ALL] lhs op[options] rhs` (NSComparisonPredicate). NONE is NOT over ANY.
public struct Comparison: Hashable, Sendable {
    public enum Modifier: String, Hashable, Sendable { case direct, any, all }

    public var modifier: Modifier
    public var lhs: FetchExpression
    public var op: PredicateOperator
    public var options: StringOptions
    public var rhs: FetchExpression

    public init(
        _ lhs: FetchExpression, _ op: PredicateOperator, _ rhs: FetchExpression,
        modifier: Modifier = .direct, options: StringOptions = []
    ) {
        self.modifier = modifier
        self.lhs = lhs
        self.op = op
        self.options = options
        self.rhs = rhs
    }
}

/// The operators of NSComparisonPredicate, with the spelling `predicateFormat` prints.
public enum PredicateOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", contains = "CONTAINS", like = "LIKE", matches = "MATCHES"
    case `in` = "IN", between = "BETWEEN"

    /// Whether this is one of the six ordering and equality operators.
    var isOrdering: Bool {
        switch self {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return true
        default: return false
        }
    }
}

/// One side of a comparison (NSExpression).
public indirect enum FetchExpression: Hashable, Sendable {
    /// A key path from the evaluated object: `name`, `class.name`, `likes.@count`, `items.@sum.price`.
    case keyPath(String)
    /// A constant value (`nil` is `.constant(.null)`).
    case constant(Value)
    /// A managed object, by ID (`class == %@` given an object).
    case object(ObjectID)
    /// `{a, b, c}`: an aggregate, for IN and BETWEEN.
    case aggregate([FetchExpression])
    /// `$name`: replaced before the predicate runs (`substituting(_:)`).
    case variable(String)
    /// `SELF`: the evaluated object itself.
    case evaluatedObject
}

/// Option letters of string comparisons: `[c]`, `[d]`, `[cd]`, `[n]`, `[l]`.
public struct StringOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let caseInsensitive = StringOptions(rawValue: 1)
    public static let diacriticInsensitive = StringOptions(rawValue: 2)
    /// `[n]`: the strings are already normalized (BEGINSWITH then compares ranges, as Core Data does).
    public static let normalized = StringOptions(rawValue: 4)
    /// `[l]`: locale-sensitive.
    public static let localeSensitive = StringOptions(rawValue: 8)

    /// `[cd]`, in the order NSPredicate prints the letters (c, d, l, n); empty when there are none.
    var suffix: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        if contains(.localeSensitive) { letters += "l" }
        if contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}

// MARK: - Building predicates in Swift

extension FetchPredicate {
    /// `keyPath op value`.
    public static func compare(keyPath: String, _ op: ComparisonOperator, _ value: Value) -> FetchPredicate {
        .comparison(Comparison(.keyPath(keyPath), op.predicateOperator, .constant(value)))
    }

    /// `keyPath IN {values}`.
    public static func oneOf(keyPath: String, _ values: [Value]) -> FetchPredicate {
        .comparison(Comparison(.keyPath(keyPath), .in, .aggregate(values.map(FetchExpression.constant))))
    }

    /// `keyPath.@count op count`.
    public static func count(keyPath: String, _ op: ComparisonOperator, _ count: Int) -> FetchPredicate {
        .comparison(Comparison(.keyPath(keyPath + ".@count"), op.predicateOperator, .constant(.int(Int64(count)))))
    }

    /// `keyPath BEGINSWITH|CONTAINS|ENDSWITH[options] text`.
    public static func string(keyPath: String, _ op: StringOperator, _ text: String, _ options: StringOptions) -> FetchPredicate {
        .comparison(Comparison(.keyPath(keyPath), op.predicateOperator, .constant(.string(text)), options: options))
    }

    /// The predicate with every `$variable` replaced; throws when one has no value.
    public func substituting(_ variables: [String: any PredicateArgument]) throws -> FetchPredicate {
        try map { expression in
            guard case let .variable(name) = expression else { return nil }
            guard let value = variables[name] else {
                throw ObjectGraphError.invalidPredicate("variable $\(name) has no value; pass it in variables: [\"\(name)\": ...]")
            }
            return try value.predicateExpression()
        }
    }

    /// The names of the `$variables` the predicate still holds.
    public var variableNames: Set<String> {
        var names = Set<String>()
        _ = try? map { (expression: FetchExpression) -> FetchExpression? in
            if case let .variable(name) = expression { names.insert(name) }
            return nil
        }
        return names
    }

    /// The key paths the predicate reads, as written (`author.name`, `likes.@count`).
    public var keyPaths: [String] {
        var paths: [String] = []
        _ = try? map { (expression: FetchExpression) -> FetchExpression? in
            if case let .keyPath(path) = expression { paths.append(path) }
            return nil
        }
        return paths
    }

    /// The predicate with each expression `transform` returns a replacement for replaced.
    func map(_ transform: (FetchExpression) throws -> FetchExpression?) throws -> FetchPredicate {
        func replace(_ expression: FetchExpression) throws -> FetchExpression {
            if let replaced = try transform(expression) { return replaced }
            if case let .aggregate(items) = expression { return .aggregate(try items.map(replace)) }
            return expression
        }
        switch self {
        case var .comparison(comparison):
            comparison.lhs = try replace(comparison.lhs)
            comparison.rhs = try replace(comparison.rhs)
            return .comparison(comparison)
        case let .and(parts): return .and(try parts.map { try $0.map(transform) })
        case let .or(parts): return .or(try parts.map { try $0.map(transform) })
        case let .not(part): return .not(try part.map(transform))
        case .constant: return self
        }
    }
}

/// The six comparison operators, for predicates built in Swift.
public enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    var predicateOperator: PredicateOperator {
        switch self {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        }
    }
}

public enum StringOperator: String, Sendable {
    case beginsWith = "BEGINSWITH", contains = "CONTAINS", endsWith = "ENDSWITH"

    var predicateOperator: PredicateOperator {
        switch self {
        case .beginsWith: return .beginsWith
        case .contains: return .contains
        case .endsWith: return .endsWith
        }
    }
}

/// A key path in a predicate or sort: `Key("name")`, `Key("class.name")`.
public struct Key: Sendable {
    public let path: String
    public init(_ path: String) { self.path = path }

    /// The size of the to-many relationship at this key path (`students.@count`).
    public var count: CountKey { CountKey(path: path) }

    public func beginsWith(_ prefix: String, _ options: StringOptions = []) -> FetchPredicate {
        .string(keyPath: path, .beginsWith, prefix, options)
    }
    public func contains(_ text: String, _ options: StringOptions = []) -> FetchPredicate {
        .string(keyPath: path, .contains, text, options)
    }
    public func endsWith(_ suffix: String, _ options: StringOptions = []) -> FetchPredicate {
        .string(keyPath: path, .endsWith, suffix, options)
    }
    public func isIn(_ values: [Value]) -> FetchPredicate { .oneOf(keyPath: path, values) }
}

/// `Key("students").count`, compared with an integer.
public struct CountKey: Sendable {
    public let path: String
}

public func == (key: Key, value: Value) -> FetchPredicate { .compare(keyPath: key.path, .equal, value) }
public func != (key: Key, value: Value) -> FetchPredicate { .compare(keyPath: key.path, .notEqual, value) }
public func < (key: Key, value: Value) -> FetchPredicate { .compare(keyPath: key.path, .less, value) }
public func <= (key: Key, value: Value) -> FetchPredicate { .compare(keyPath: key.path, .lessOrEqual, value) }
public func > (key: Key, value: Value) -> FetchPredicate { .compare(keyPath: key.path, .greater, value) }
public func >= (key: Key, value: Value) -> FetchPredicate { .compare(keyPath: key.path, .greaterOrEqual, value) }
public func == (key: Key, object: ManagedObject) -> FetchPredicate {
    .comparison(Comparison(.keyPath(key.path), .equal, .object(object.objectID)))
}
public func != (key: Key, object: ManagedObject) -> FetchPredicate {
    .comparison(Comparison(.keyPath(key.path), .notEqual, .object(object.objectID)))
}
public func == (key: CountKey, count: Int) -> FetchPredicate { .count(keyPath: key.path, .equal, count) }
public func != (key: CountKey, count: Int) -> FetchPredicate { .count(keyPath: key.path, .notEqual, count) }
public func < (key: CountKey, count: Int) -> FetchPredicate { .count(keyPath: key.path, .less, count) }
public func <= (key: CountKey, count: Int) -> FetchPredicate { .count(keyPath: key.path, .lessOrEqual, count) }
public func > (key: CountKey, count: Int) -> FetchPredicate { .count(keyPath: key.path, .greater, count) }
public func >= (key: CountKey, count: Int) -> FetchPredicate { .count(keyPath: key.path, .greaterOrEqual, count) }

public func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
    if case let .and(left) = lhs { return .and(left + [rhs]) }
    return .and([lhs, rhs])
}
public func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate {
    if case let .or(left) = lhs { return .or(left + [rhs]) }
    return .or([lhs, rhs])
}
public prefix func ! (predicate: FetchPredicate) -> FetchPredicate { .not(predicate) }

extension Value {
    /// Equality as SQLite compares stored values: numbers by value whatever their case.
    func sqlEquals(_ other: Value) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        default: return !(self < other) && !(other < self)
        }
    }
}
