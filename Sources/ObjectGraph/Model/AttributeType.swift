/// The type of an attribute (every type Xcode's model editor offers), with the SQLite column type Core Data
/// declares for it.
public enum AttributeType: String, Sendable, CaseIterable, Codable {
    case int16, int32, int64, decimal, double, float, string, bool, date, binary, uuid, uri, transformable
    /// Xcode's "Undefined": allowed on transient attributes only, which have no column.
    case undefined

    /// The declared column type in Core Data's DDL. Integer 16/32/64, Boolean, String, Date, Binary and
    /// Transformable are seen in real stores; DECIMAL (Decimal), FLOAT (Float, like Double), BLOB (UUID, 16
    /// bytes) and VARCHAR (URI, its absolute string) are inferred: no real DDL with them was found.
    var sqlType: String {
        switch self {
        case .int16, .int32, .int64, .bool: return "INTEGER"
        case .decimal: return "DECIMAL"
        case .double, .float: return "FLOAT"
        case .date: return "TIMESTAMP"
        case .string, .uri: return "VARCHAR"
        case .uuid, .binary, .transformable: return "BLOB"
        case .undefined: return "UNDEFINED"
        }
    }

    /// Xcode's name for the type, as a model file's `attributeType` writes it.
    public var xcodeName: String {
        switch self {
        case .int16: return "Integer 16"
        case .int32: return "Integer 32"
        case .int64: return "Integer 64"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .bool: return "Boolean"
        case .date: return "Date"
        case .binary: return "Binary"
        case .uuid: return "UUID"
        case .uri: return "URI"
        case .transformable: return "Transformable"
        case .undefined: return "Undefined"
        }
    }

    /// The type Xcode's `attributeType` names, or nil for a name it does not use.
    public init?(xcodeName: String) {
        guard let type = AttributeType.allCases.first(where: { $0.xcodeName == xcodeName }) else { return nil }
        self = type
    }

    /// The range an integer type holds; nil for other types.
    var integerRange: ClosedRange<Int64>? {
        switch self {
        case .int16: return Int64(Int16.min)...Int64(Int16.max)
        case .int32: return Int64(Int32.min)...Int64(Int32.max)
        case .int64: return Int64.min...Int64.max
        default: return nil
        }
    }

    var isInteger: Bool { integerRange != nil }

    /// Whether values are numbers (compared and bounded by value).
    var isNumeric: Bool {
        switch self {
        case .int16, .int32, .int64, .decimal, .double, .float: return true
        default: return false
        }
    }
}
