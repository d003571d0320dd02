import Foundation

/// A value of an attribute, as stored in a row and read from an object.
///
/// Dates are stored as seconds since 2001-01-01 (Core Data's TIMESTAMP), UUIDs as 16-byte blobs, booleans as 0/1,
/// decimals as their exact decimal text, URIs as their absolute string; transformable values as the bytes their
/// transformer makes (`.binary`).
public enum Value: Hashable, Sendable, CustomStringConvertible {
    case null
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case string(String)
    case date(Date)
    case uuid(UUID)
    case binary(Data)
    case decimal(Decimal)
    case url(URL)

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    public var string: String? { if case let .string(v) = self { return v } else { return nil } }
    public var int: Int64? {
        switch self {
        case let .int(v): return v
        case let .bool(v): return v ? 1 : 0
        default: return nil
        }
    }
    public var double: Double? {
        switch self {
        case let .double(v): return v
        case let .int(v): return Double(v)
        case let .decimal(v): return NSDecimalNumber(decimal: v).doubleValue
        default: return nil
        }
    }
    public var decimal: Decimal? {
        switch self {
        case let .decimal(v): return v
        case let .int(v): return Decimal(v)
        case let .double(v): return Decimal(v)
        default: return nil
        }
    }
    public var url: URL? { if case let .url(v) = self { return v } else { return nil } }
    public var bool: Bool? {
        switch self {
        case let .bool(v): return v
        case let .int(v): return v != 0
        default: return nil
        }
    }
    public var date: Date? { if case let .date(v) = self { return v } else { return nil } }
    public var uuid: UUID? { if case let .uuid(v) = self { return v } else { return nil } }
    public var binary: Data? { if case let .binary(v) = self { return v } else { return nil } }

    public var description: String {
        switch self {
        case .null: return "nil"
        case let .int(v): return String(v)
        case let .double(v): return String(v)
        case let .bool(v): return v ? "true" : "false"
        case let .string(v): return "\"\(v)\""
        case let .date(v): return "\(v)"
        case let .uuid(v): return v.uuidString
        case let .binary(v): return "<\(v.count) bytes>"
        case let .decimal(v): return v.description
        case let .url(v): return v.absoluteString
        }
    }

    /// Whether this value can be stored in an attribute of `type` (null is checked separately, by optionality).
    public func fits(_ type: AttributeType) -> Bool {
        switch (self, type) {
        case (.null, _), (_, .undefined), (.string, .string), (.int, .int16), (.int, .int32), (.int, .int64),
            (.double, .double), (.int, .double), (.double, .float), (.int, .float), (.bool, .bool), (.int, .bool),
            (.date, .date), (.uuid, .uuid), (.binary, .binary), (.binary, .transformable), (.url, .uri),
            (.decimal, .decimal), (.int, .decimal), (.double, .decimal):
            return true
        default:
            return false
        }
    }

    /// The value converted to the canonical case for `type` (`.int` into a bool, double or decimal attribute; a
    /// double into a float attribute rounded to Float precision, as a Float attribute stores it).
    @inline(__always)
    func normalized(for type: AttributeType) -> Value {
        // By type first: most attributes (strings, integers, dates) keep the value as it is, without a copy.
        switch type {
        case .double:
            if case let .int(v) = self { return .double(Double(v)) }
        case .float:
            if case let .int(v) = self { return .double(Double(Float(v))) }
            if case let .double(v) = self { return .double(Double(Float(v))) }
        case .bool:
            if case let .int(v) = self { return .bool(v != 0) }
        case .decimal:
            if case let .int(v) = self { return .decimal(Decimal(v)) }
            if case let .double(v) = self { return .decimal(Decimal(v)) }
        default:
            break
        }
        return self
    }

    /// The name of the value's kind, for messages.
    public var kindName: String {
        switch self {
        case .null: return "nil"
        case .int: return "integer"
        case .double: return "double"
        case .bool: return "boolean"
        case .string: return "string"
        case .date: return "date"
        case .uuid: return "UUID"
        case .binary: return "data"
        case .decimal: return "decimal"
        case .url: return "URI"
        }
    }
}

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}

extension Value: Comparable {
    /// Orders values as SQLite does for sorting: NULL first, numbers by value, then text, then blobs.
    public static func < (lhs: Value, rhs: Value) -> Bool {
        switch (lhs.sortKey, rhs.sortKey) {
        case let (.number(a), .number(b)): return a < b
        case let (.text(a), .text(b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case let (.blob(a), .blob(b)): return a.lexicographicallyPrecedes(b)
        case let (a, b): return a.rank < b.rank
        }
    }

    private enum SortKey {
        case null, number(Double), text(String), blob([UInt8])
        var rank: Int {
            switch self {
            case .null: 0
            case .number: 1
            case .text: 2
            case .blob: 3
            }
        }
    }

    private var sortKey: SortKey {
        switch self {
        case .null: return .null
        case let .int(v): return .number(Double(v))
        case let .double(v): return .number(v)
        case let .bool(v): return .number(v ? 1 : 0)
        case let .date(v): return .number(v.timeIntervalSinceReferenceDate)
        case let .string(v): return .text(v)
        case let .uuid(v): return .blob(withUnsafeBytes(of: v.uuid) { Array($0) })
        case let .binary(v): return .blob(Array(v))
        case let .decimal(v): return .number(NSDecimalNumber(decimal: v).doubleValue)
        case let .url(v): return .text(v.absoluteString)
        }
    }
}
