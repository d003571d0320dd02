import Foundation

/// Prints a predicate in NSPredicate's canonical format (its `predicateFormat`), which `FetchPredicate(format:)`
/// parses back to the same tree.
///
/// As Apple's printer: operators in their canonical spelling (`==`, `!=`, `BEGINSWITH[cd]`), strings double-quoted,
/// compound children that are themselves compound wrapped in parentheses (`(a == 1 OR b == 2) AND c == 3`), NOT
/// as `NOT x`, NONE as `NOT ANY`, dates as `CAST(726000000.000000, "NSDate")`. Two departures keep the round trip
/// exact where Apple's output loses the type: booleans print `TRUE`/`FALSE` (Apple: `1`/`0`) and whole doubles keep
/// a decimal point (`5.0`, Apple: `5`); UUIDs, data, decimals and URIs print as `CAST("...", "NSUUID")` and the like.
enum PredicateFormatter {
    static func format(_ predicate: FetchPredicate) -> String {
        switch predicate {
        case let .comparison(comparison): return format(comparison)
        case let .and(parts): return compound(parts, "AND", empty: "TRUEPREDICATE")
        case let .or(parts): return compound(parts, "OR", empty: "FALSEPREDICATE")
        case let .not(part): return "NOT " + child(part)
        case let .constant(value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
    }

    private static func compound(_ parts: [FetchPredicate], _ keyword: String, empty: String) -> String {
        if parts.isEmpty { return empty }
        if parts.count == 1 { return format(parts[0]) }
        return parts.map(child).joined(separator: " \(keyword) ")
    }

    /// A compound child in parentheses, anything else bare.
    private static func child(_ predicate: FetchPredicate) -> String {
        switch predicate {
        case let .and(parts) where parts.count > 1: return "(" + format(predicate) + ")"
        case let .or(parts) where parts.count > 1: return "(" + format(predicate) + ")"
        default: return format(predicate)
        }
    }

    static func format(_ comparison: Comparison) -> String {
        let modifier: String
        switch comparison.modifier {
        case .direct: modifier = ""
        case .any: modifier = "ANY "
        case .all: modifier = "ALL "
        }
        return "\(modifier)\(format(comparison.lhs)) \(comparison.op.rawValue)\(comparison.options.suffix) \(format(comparison.rhs))"
    }

    static func format(_ expression: FetchExpression) -> String {
        switch expression {
        case let .keyPath(path):
            return path.split(separator: ".", omittingEmptySubsequences: false).map { component in
                PredicateLexer.isReserved(String(component)) ? "#" + component : String(component)
            }.joined(separator: ".")
        case let .constant(value): return format(value)
        case let .object(id): return id.description
        case let .aggregate(items): return "{" + items.map(format).joined(separator: ", ") + "}"
        case let .variable(name): return "$" + name
        case .evaluatedObject: return "SELF"
        }
    }

    static func format(_ value: Value) -> String {
        switch value {
        case .null: return "nil"
        case let .int(v): return String(v)
        case let .double(v):
            if v.isNaN || v.isInfinite { return "CAST(\"\(v)\", \"NSNumber\")" }
            if v == v.rounded(), abs(v) < 1e15 { return String(format: "%.1f", v) }
            return "\(v)"
        case let .bool(v): return v ? "TRUE" : "FALSE"
        case let .string(v): return quoted(v)
        case let .date(v): return String(format: "CAST(%f, \"NSDate\")", v.timeIntervalSinceReferenceDate)
        case let .uuid(v): return "CAST(\(quoted(v.uuidString)), \"NSUUID\")"
        case let .binary(v): return "CAST(\(quoted(v.base64EncodedString())), \"NSData\")"
        case let .decimal(v): return "CAST(\(quoted(v.description)), \"NSDecimalNumber\")"
        case let .url(v): return "CAST(\(quoted(v.absoluteString)), \"NSURL\")"
        }
    }

    /// A double-quoted string with `\` and `"` escaped (and control characters as `\n`, `\t`, `\uXXXX`).
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}
