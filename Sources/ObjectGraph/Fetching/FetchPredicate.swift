/// A fetch request's condition (Core Data's NSPredicate), built in Swift rather than parsed from a format:
/// `Key("name") == "Ada" && Key("class.name").beginsWith("M", [.caseInsensitive])`.
///
/// Key paths are attribute names, optionally reached through to-one relationships (`class.name`); a key path
/// ending in a to-one relationship compares with an object (`Key("class") == someClass`); `.count` compares
/// a to-many relationship's size (`Key("students").count > 20`).
public indirect enum FetchPredicate: CustomStringConvertible {
    case compare(keyPath: String, ComparisonOperator, Value)
    case compareObject(keyPath: String, equal: Bool, ManagedObject?)
    case oneOf(keyPath: String, [Value])
    case string(keyPath: String, StringOperator, String, StringOptions)
    case count(keyPath: String, ComparisonOperator, Int)
    case and([FetchPredicate])
    case or([FetchPredicate])
    case not(FetchPredicate)
    case constant(Bool)

    public var description: String {
        switch self {
        case let .compare(keyPath, op, value): return "\(keyPath) \(op.rawValue) \(value)"
        case let .compareObject(keyPath, equal, object):
            return "\(keyPath) \(equal ? "==" : "!=") \(object.map { $0.objectID.description } ?? "nil")"
        case let .oneOf(keyPath, values): return "\(keyPath) IN {\(values.map(\.description).joined(separator: ", "))}"
        case let .string(keyPath, op, text, options): return "\(keyPath) \(op.rawValue)\(options.suffix) \"\(text)\""
        case let .count(keyPath, op, count): return "\(keyPath).@count \(op.rawValue) \(count)"
        case let .and(parts): return "(" + parts.map(\.description).joined(separator: " AND ") + ")"
        case let .or(parts): return "(" + parts.map(\.description).joined(separator: " OR ") + ")"
        case let .not(part): return "NOT \(part)"
        case let .constant(value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
    }
}

public enum ComparisonOperator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    var sql: String {
        switch self {
        case .equal: return "="
        case .notEqual: return "<>"
        default: return rawValue
        }
    }

    func holds(_ lhs: Value, _ rhs: Value) -> Bool {
        switch self {
        case .equal: return lhs.sqlEquals(rhs)
        case .notEqual: return !lhs.sqlEquals(rhs)
        case .less: return lhs < rhs
        case .lessOrEqual: return lhs < rhs || lhs.sqlEquals(rhs)
        case .greater: return rhs < lhs
        case .greaterOrEqual: return rhs < lhs || lhs.sqlEquals(rhs)
        }
    }
}

public enum StringOperator: String, Sendable {
    case beginsWith = "BEGINSWITH", contains = "CONTAINS", endsWith = "ENDSWITH"
}

/// NSPredicate's `[c]` and `[d]` options.
public struct StringOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let caseInsensitive = StringOptions(rawValue: 1)
    public static let diacriticInsensitive = StringOptions(rawValue: 2)

    var suffix: String {
        let letters = (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "")
        return letters.isEmpty ? "" : "[\(letters)]"
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
public func == (key: Key, object: ManagedObject) -> FetchPredicate { .compareObject(keyPath: key.path, equal: true, object) }
public func != (key: Key, object: ManagedObject) -> FetchPredicate { .compareObject(keyPath: key.path, equal: false, object) }
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
