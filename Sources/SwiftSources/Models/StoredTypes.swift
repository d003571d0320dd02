#if SwiftSources
import Foundation
import ObjectGraph

/// How SwiftData stores a property's Swift type, in Core Data's terms.
///
/// Facts and inferences (each inference is also a note of the model that uses it, so `bench schema` says it):
/// - Integers, floating point, Bool, String, Date, Data, URL, UUID and Decimal are Core Data's attribute types of the
///   same names; `Int` is Integer 64 (Swift's Int is 64-bit on every device SwiftData runs on). Seen in a real
///   SwiftData store (sergd2005/ResourcesManager's default.store and its model cache): `Int` INTEGER, `String`
///   VARCHAR, `UUID` BLOB. Int8/UInt8/Int16 as Integer 16, UInt16 and Int32 as Integer 32, UInt32/UInt/UInt64 as
///   Integer 64 are inferred (the smallest Core Data type that holds every value).
/// - An enum with raw values is stored as its raw value in a column of the raw type (inferred: no real store seen);
///   an enum without raw values, or with associated values, as its Codable encoding in one column (inferred).
/// - A Codable struct is a composite attribute: one column per stored property of the struct ("SwiftData creates
///   separate fields for each attribute of Codable data", fatbobman 2024; hackingwithswift). The columns are named
///   here `<property>_<element>` (`ZLOCATION_LATITUDE`): inferred, no store with a composite attribute was found.
/// - Collections of values (`[String]`, `Set<Int>`, dictionaries, arrays of structs) are one column holding a binary
///   property list (hackingwithswift: "encoded as binary property list data"): a Transformable BLOB here.
/// - Any other type not declared in the sources read is taken to be Codable and stored in one column (inferred).
enum StoredTypes {
    static let basic: [String: AttributeType] = [
        "Int": .int64, "Int64": .int64, "UInt": .int64, "UInt64": .int64, "UInt32": .int64,
        "Int32": .int32, "UInt16": .int32,
        "Int16": .int16, "Int8": .int16, "UInt8": .int16,
        "Double": .double, "CGFloat": .double, "TimeInterval": .double, "Float64": .double,
        "Float": .float, "Float32": .float,
        "Bool": .bool,
        "String": .string, "Character": .string, "Substring": .string,
        "Date": .date, "Data": .binary, "URL": .uri, "UUID": .uuid, "Decimal": .decimal,
    ]

    /// The type of a literal initial value (`0`, `1.5`, `""`, `true`, `Date()`, `UUID()`, `Date.now`, `[Tag]()`), for a
    /// property declared without a type.
    static func type(ofInitializer text: String) -> String? {
        let text = text.trimmingCharacters(in: .whitespaces)
        // An empty collection made by its type: `[Tag]()`, `[String: Int]()`, `Set<Tag>()`, `Array<Tag>()`.
        if text.hasSuffix("()"), text.count > 4 {
            let type = String(text.dropLast(2))
            if type.hasPrefix("["), type.hasSuffix("]") { return type }
            if ["Array<", "Set<", "Dictionary<", "ContiguousArray<"].contains(where: type.hasPrefix), type.hasSuffix(">") { return type }
        }
        if text == "true" || text == "false" { return "Bool" }
        if text.hasPrefix("\"") { return "String" }
        if Int(text.replacingOccurrences(of: "_", with: "")) != nil { return "Int" }
        if Double(text.replacingOccurrences(of: "_", with: "")) != nil { return "Double" }
        for name in ["Date", "UUID", "Data", "Decimal", "URL"] where text.hasPrefix(name + "(") || text.hasPrefix(name + ".") {
            return name
        }
        if text == ".now" || text.hasPrefix("Date.") { return "Date" }
        // `Status.active`, `Location(latitude: 0, longitude: 0)`: the named type.
        if let first = text.first, first.isUppercase {
            let name = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
            let parts = name.split(separator: ".")
            if text.dropFirst(name.count).hasPrefix("(") { return String(name) }
            if parts.count >= 2 { return parts.dropLast().joined(separator: ".") }
        }
        return nil
    }

    /// The value a literal initializer gives an attribute of `type`, if it is a literal.
    static func defaultValue(_ text: String?, type: AttributeType) -> Value? {
        guard let text = text?.trimmingCharacters(in: .whitespaces) else { return nil }
        switch type {
        case .int16, .int32, .int64:
            return Int64(text.replacingOccurrences(of: "_", with: "")).map(Value.int)
        case .double, .float:
            return Double(text.replacingOccurrences(of: "_", with: "")).map(Value.double)
        case .decimal:
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(Value.decimal)
        case .bool:
            return text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        case .string:
            guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\""), !text.contains("\\(") else { return nil }
            return .string(String(text.dropFirst().dropLast()))
        default:
            return nil
        }
    }

    /// Whether `text` is an expression evaluated when SwiftData makes the schema (`Date()`, `UUID()`, `.now`): the
    /// model keeps the value it had then as the attribute's default (a real store's model cache holds a fixed UUID
    /// for `let id = UUID()`).
    static func isEvaluatedDefault(_ text: String?) -> Bool {
        guard let text, !text.isEmpty else { return false }
        return defaultValue(text, type: .string) == nil && Int(text) == nil && Double(text) == nil && text != "true" && text != "false"
    }
}
#endif
