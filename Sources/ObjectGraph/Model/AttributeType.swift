/// The type of an attribute, with the SQLite column type Core Data declares for it.
public enum AttributeType: String, Sendable, CaseIterable, Codable {
    case string, int64, double, bool, date, uuid, binary

    /// The declared column type in Core Data's DDL.
    var sqlType: String {
        switch self {
        case .string: return "VARCHAR"
        case .int64, .bool: return "INTEGER"
        case .double: return "FLOAT"
        case .date: return "TIMESTAMP"
        case .uuid, .binary: return "BLOB"
        }
    }
}
