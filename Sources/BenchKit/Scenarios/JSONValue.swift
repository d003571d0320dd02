import Foundation

/// Any JSON value, decoded strictly: booleans, numbers and strings stay distinct, so a scenario file that
/// writes `true` or `"5"` where a number belongs is refused.
enum JSONValue: Decodable, CustomStringConvertible {
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// How the value reads in an error message.
    var description: String {
        switch self {
        case let .bool(value): return value ? "true" : "false"
        case let .number(value): return "the number \(VariantValue.number(value))"
        case let .string(value): return "the string \"\(value)\""
        case .array: return "an array"
        case .object: return "an object"
        case .null: return "null"
        }
    }

    var string: String? { if case let .string(value) = self { return value } else { return nil } }
    var number: Double? { if case let .number(value) = self { return value } else { return nil } }
    var array: [JSONValue]? { if case let .array(value) = self { return value } else { return nil } }
    var object: [String: JSONValue]? { if case let .object(value) = self { return value } else { return nil } }
}
