import Foundation

/// Errors of the harness, each saying what was wrong and what to do.
package enum BenchError: Error, CustomStringConvertible, Equatable {
    case unsupported(String)
    case invalidInput(String)
    case io(String)

    package var description: String {
        switch self {
        case let .unsupported(operation): return "this strategy does not implement \(operation)"
        case let .invalidInput(message), let .io(message): return message
        }
    }
}

extension DecodingError {
    /// What was wrong in the JSON, in a user's words: the field's path and what it should hold.
    package var plainDescription: String {
        func path(_ context: Context, adding key: CodingKey? = nil) -> String {
            var text = ""
            for key in context.codingPath + (key.map { [$0] } ?? []) {
                // An array's position is a key named "Index N"; a dictionary's key "5" has an intValue too.
                if let index = key.intValue, key.stringValue.hasPrefix("Index ") {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "the top level" : "field '\(text)'"
        }
        switch self {
        case let .keyNotFound(key, context): return "\(path(context, adding: key)) is missing"
        case let .valueNotFound(type, context): return "\(path(context)) is null where \(Self.kind(type)) belongs"
        case let .typeMismatch(type, context): return "\(path(context)) should be \(Self.kind(type))"
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty {
                let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
                return "not valid JSON" + (detail.map { " (\($0))" } ?? "")
            }
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(self)"
        }
    }

    /// `plainDescription` for a decoding of `data`, telling a number that does not fit its field from text that is not
    /// JSON: Foundation on Linux reports both as "not valid JSON" with no path.
    package func plainDescription(of data: Data) -> String {
        guard case let .dataCorrupted(context) = self, context.codingPath.isEmpty,
            let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return plainDescription }
        let suspect = Self.firstMisfitNumber(root, path: "").map { " (the first such: field '\($0.path)', \($0.value))" } ?? ""
        return "a number does not fit its field: a negative or fractional number where a count belongs, or one too large\(suspect)"
    }

    /// The first number in `value` that no count holds: negative, fractional or beyond 2^63.
    private static func firstMisfitNumber(_ value: Any, path: String) -> (path: String, value: String)? {
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                if let found = firstMisfitNumber(object[key]!, path: path.isEmpty ? key : "\(path).\(key)") { return found }
            }
        } else if let array = value as? [Any] {
            for (index, item) in array.enumerated() {
                if let found = firstMisfitNumber(item, path: "\(path)[\(index)]") { return found }
            }
        } else if let number = value as? NSNumber {
            let double = number.doubleValue
            if double < 0 || double.rounded() != double || double >= 9.2e18 { return (path, number.stringValue) }
        }
        return nil
    }

    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type, is Double.Type: return "a number"
        default:
            return "\(type)".hasPrefix("Array") ? "an array" : "an object"
        }
    }
}
