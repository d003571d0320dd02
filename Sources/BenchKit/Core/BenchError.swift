import Foundation

/// An error of the harness, said in one line that names what was wrong, the value given, what is allowed and what to
/// do. Its parts are kept apart and rendered here only, so that every message has the same shape:
/// `PLACE: PROBLEM[ (did you mean 'NEAR'?)][; ALLOWED][; REMEDY]`.
package struct BenchError: Error, CustomStringConvertible, Equatable, Sendable {
    package enum Kind: Sendable, Equatable {
        /// Bad input: an option, a file, a name (exit code 64).
        case invalidInput
        /// A file or database that cannot be read or written, a run that failed.
        case io
        /// A strategy asked for something it does not implement.
        case unsupported
    }

    package let kind: Kind
    /// Where the mistake is, as the user names it: an option (`--sizes`), a file and its field
    /// (`x.json: field 'phases[0].steps[1]'`); nil when the problem says it.
    package var place: String?
    /// What was wrong, in words, quoting the value given (`'abc' is not a positive integer`, `unknown metric 'walltime'`).
    package var problem: String
    /// The name closest to the one given, when it was a name among `allowed`'s.
    package var nearest: String?
    /// What is allowed (`the metrics are wall_ms, ...`, `a whole number from 1 to 100`); shown when no nearest name is.
    package var allowed: String?
    /// What to do.
    package var remedy: String?

    package init(
        _ kind: Kind = .invalidInput, place: String? = nil, problem: String, nearest: String? = nil, allowed: String? = nil,
        remedy: String? = nil
    ) {
        self.kind = kind
        self.place = place
        self.problem = problem
        self.nearest = nearest
        self.allowed = allowed
        self.remedy = remedy
    }

    /// The one line a user reads.
    package var description: String {
        var line = (place.map { "\($0): " } ?? "") + problem
        if let nearest {
            line += " (did you mean '\(nearest)'?)"
        } else if let allowed {
            line += "; " + allowed
        }
        if let remedy { line += "; " + remedy }
        return line
    }

    /// Bad input said in one sentence of its own.
    package static func invalidInput(_ message: String) -> BenchError { BenchError(.invalidInput, problem: message) }

    /// A file, database or run that failed, said in one sentence of its own.
    package static func io(_ message: String) -> BenchError { BenchError(.io, problem: message) }

    /// What a strategy does not implement.
    package static func unsupported(_ operation: String) -> BenchError {
        BenchError(.unsupported, problem: "this strategy does not implement \(operation)")
    }

    /// `unknown metric 'walltime' (did you mean 'wall_ms'?)`, or with no near name `unknown metric 'x'; the metrics
    /// are ...`: a name that is not one of `names`. `plural` names them (`what` + "s" unless given).
    package static func unknown(
        _ what: String, _ value: String, among names: [String], plural: String? = nil, place: String? = nil, remedy: String? = nil
    ) -> BenchError {
        BenchError(
            place: place, problem: value.isEmpty ? "an empty \(what) name" : "unknown \(what) '\(value)'",
            nearest: nearNames(value, in: names).first, allowed: "the \(plural ?? what + "s") are \(names.joined(separator: ", "))",
            remedy: remedy)
    }

    /// A mistake in a field of a file (a scenario file's `phases[0].steps[1]`).
    package static func field(_ field: String?, of file: String, _ problem: String) -> BenchError {
        BenchError(place: file + (field.map { ": field '\($0)'" } ?? ""), problem: problem)
    }

    /// The same error at `place` (a message of a nested reader, said at the file that holds it).
    package func at(_ outer: String) -> BenchError {
        var copy = self
        copy.place = place.map { "\(outer): \($0)" } ?? outer
        return copy
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
            for (key, item) in object.sorted(by: { $0.key < $1.key }) {
                if let found = firstMisfitNumber(item, path: path.isEmpty ? key : "\(path).\(key)") { return found }
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
