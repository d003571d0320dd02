import CSQLite
import Foundation

/// Any JSON value, decoded strictly: booleans, numbers and strings stay distinct, so a scenario file that
/// writes `true` or `"5"` where a number belongs is refused.
enum JSONValue: Decodable, Equatable, CustomStringConvertible {
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// How the value reads in an error message.
    var description: String {
        switch self {
        case let .bool(value): return value ? "true" : "false"
        case let .number(value):
            // 1e18 as the whole number it is, not "1e+18".
            let shown =
                value.rounded() == value && abs(value) < 1e21 ? String(format: "%.0f", value) : VariantValue.number(value).description
            return "the number \(shown)"
        case let .string(value): return "the string \"\(shortened(value, limit: 60))\""
        case .array, .object: return shortened(json, limit: 60)
        case .null: return "null"
        }
    }

    /// The value as compact JSON text (object keys sorted).
    var json: String {
        switch self {
        case let .bool(value): return value ? "true" : "false"
        case let .number(value): return VariantValue.number(value).description
        case let .string(value):
            let data = (try? JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed])) ?? Data()
            return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
        case let .array(items): return "[" + items.map(\.json).joined(separator: ",") + "]"
        case let .object(members):
            return "{"
                + members.sorted { $0.key < $1.key }.map { JSONValue.string($0.key).json + ":" + $0.value.json }.joined(separator: ",")
                + "}"
        case .null: return "null"
        }
    }

    var string: String? { if case let .string(value) = self { return value } else { return nil } }
    var number: Double? { if case let .number(value) = self { return value } else { return nil } }
    var array: [JSONValue]? { if case let .array(value) = self { return value } else { return nil } }
    var object: [String: JSONValue]? { if case let .object(value) = self { return value } else { return nil } }
}

extension JSONValue {
    /// The path of the first key an object of `data` holds twice (`phases[0].steps[1].limit`), or nil.
    ///
    /// JSONDecoder keeps one of two equal keys without a word, so a scenario that sets `sizes` twice would run
    /// with one of them; SQLite's `json_tree` lists every member, duplicates included. Text SQLite's JSON
    /// reader refuses (JSON5 trailing commas, on older SQLite) has no duplicates reported.
    static func firstDuplicateKey(in data: Data) -> String? {
        var db: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db else { return nil }
        defer { sqlite3_close_v2(db) }
        var statement: OpaquePointer?
        // By parent and decoded key: "name" and "n\u0061me" are one key written two ways.
        let sql =
            "SELECT min(path), key FROM json_tree(?1) WHERE typeof(key) = 'text' GROUP BY parent, key HAVING count(*) > 1 ORDER BY min(id) LIMIT 1"
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }
        defer { sqlite3_finalize(statement) }
        let bound = data.withUnsafeBytes { bytes in
            sqlite3_bind_text(statement, 1, bytes.bindMemory(to: CChar.self).baseAddress, Int32(bytes.count), csqlite_transient())
        }
        guard bound == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW, let parent = sqlite3_column_text(statement, 0),
            let key = sqlite3_column_text(statement, 1)
        else { return nil }
        let path = String(cString: parent)
        return (path.hasPrefix("$.") ? String(path.dropFirst(2)) + "." : path.hasPrefix("$[") ? String(path.dropFirst()) + "." : "")
            + String(cString: key)
    }
}
