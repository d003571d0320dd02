import CSQLite
import Foundation

/// The SQL functions Core Data registers on its connections, reimplemented: string search, LIKE, MATCHES and
/// option-aware comparison for predicates; the helpers of derived-attribute triggers; and the callback those
/// triggers report new values through.
package enum SQLFunctions {
    /// Flags of `NSCoreDataStringSearch(value, pattern, flags, locale)`: CFStringCompareFlags, as Core Data
    /// passes them (decompiled NSSQLSimpleWhereIntermediate): CONTAINS 0, BEGINSWITH 8 (anchored), ENDSWITH 12
    /// (anchored, backwards); `[c]` adds 0x101, `[d]` 0x180, `[l]` 0x120.
    struct StringSearchFlags: OptionSet {
        let rawValue: Int64
        static let caseInsensitive = StringSearchFlags(rawValue: 0x1)
        static let backwards = StringSearchFlags(rawValue: 0x4)
        static let anchored = StringSearchFlags(rawValue: 0x8)
        static let localized = StringSearchFlags(rawValue: 0x20)
        static let diacriticInsensitive = StringSearchFlags(rawValue: 0x80)
        static let widthInsensitive = StringSearchFlags(rawValue: 0x100)
        static let beginsWith: StringSearchFlags = [.anchored]
        static let endsWith: StringSearchFlags = [.anchored, .backwards]
    }

    static func register(on connection: SQLiteConnection, collector: DerivedValueCollector) throws {
        do {
            try register(handle: connection.handle, collector: collector)
        } catch let failure as RegistrationFailure {
            throw connection.error(failure.code, sql: nil)
        }
    }

    /// Registration failed with this SQLite result code.
    package struct RegistrationFailure: Error {
        package let code: Int32
    }

    /// Registers the functions on any connection (the harness's SQL replay runs ObjectGraph's triggers and
    /// predicates through them too).
    package static func register(handle connection: OpaquePointer, collector: DerivedValueCollector = DerivedValueCollector()) throws {
        try function(connection, "NSCoreDataStringSearch", 4) { args in
            guard let value = args.text(0), let pattern = args.text(1) else { return .int(0) }
            return .int(stringSearch(value, pattern, StringSearchFlags(rawValue: args.int(2))) ? 1 : 0)
        }
        try function(connection, "NSCoreDataLike", 3) { args in
            guard let value = args.text(0), let pattern = args.text(1) else { return .int(0) }
            return .int(like(value, pattern, options: args.int(2)) ? 1 : 0)
        }
        try function(connection, "NSCoreDataMatches", 3) { args in
            guard let value = args.text(0), let pattern = args.text(1) else { return .int(0) }
            return .int(
                NSRegularExpressionCache.matches(
                    fold(value, args.int(2) & 2 != 0 ? [.diacriticInsensitive] : []),
                    pattern, caseInsensitive: args.int(2) & 1 != 0) ? 1 : 0)
        }
        try function(connection, "NSCoreDataStringCompare", 4) { args in
            guard let value = args.text(0), let other = args.text(1) else { return .null }
            return .int(Int64(compare(value, other, options: args.int(3))))
        }
        try function(connection, "NSCoreDataNow", 0) { _ in .double(Date().timeIntervalSinceReferenceDate) }
        try function(connection, "NSCoreDataCanonical", 1) { args in
            args.text(0).map { .string(fold($0, [.caseInsensitive, .diacriticInsensitive])) } ?? .null
        }
        try function(connection, "NSCoreDataToUpper", 1) { args in args.text(0).map { .string($0.uppercased()) } ?? .null }
        try function(connection, "NSCoreDataToLower", 1) { args in args.text(0).map { .string($0.lowercased()) } ?? .null }
        for name in ["NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"] {
            try function(connection, name, 5, deterministic: false) { args in
                collector.updates.append(
                    DerivedValueCollector.Update(
                        entityNumber: Int(args.int(1)), primaryKey: args.int(2), attribute: args.text(3) ?? "", value: args.value(4)))
                return .null
            }
        }
    }

    /// The comparison `NSCoreDataStringSearch` performs, shared with in-memory predicate evaluation.
    static func stringSearch(_ value: String, _ pattern: String, _ flags: StringSearchFlags) -> Bool {
        var options: String.CompareOptions = []
        if flags.contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        if flags.contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        let subject = options.isEmpty ? value : value.folding(options: options, locale: nil)
        let needle = options.isEmpty ? pattern : pattern.folding(options: options, locale: nil)
        if flags.isSuperset(of: .endsWith) { return subject.hasSuffix(needle) }
        if flags.contains(.anchored) { return subject.hasPrefix(needle) }
        return needle.isEmpty || subject.contains(needle)
    }

    /// NSPredicate's LIKE: `?` matches one character, `*` any run; options 1 = [c], 2 = [d].
    static func like(_ value: String, _ pattern: String, options: Int64) -> Bool {
        var folding: String.CompareOptions = []
        if options & 1 != 0 { folding.insert(.caseInsensitive) }
        if options & 2 != 0 { folding.insert(.diacriticInsensitive) }
        let subject = Array(fold(value, folding))
        let wildcard = Array(fold(pattern, folding))
        var s = 0
        var p = 0
        var star = -1
        var mark = 0
        while s < subject.count {
            if p < wildcard.count, wildcard[p] == "?" || wildcard[p] == subject[s] {
                s += 1
                p += 1
            } else if p < wildcard.count, wildcard[p] == "*" {
                star = p
                mark = s
                p += 1
            } else if star >= 0 {
                p = star + 1
                mark += 1
                s = mark
            } else {
                return false
            }
        }
        while p < wildcard.count, wildcard[p] == "*" { p += 1 }
        return p == wildcard.count
    }

    /// -1, 0 or 1 comparing two strings with options 1 = [c], 2 = [d].
    static func compare(_ value: String, _ other: String, options: Int64) -> Int {
        var folding: String.CompareOptions = []
        if options & 1 != 0 { folding.insert(.caseInsensitive) }
        if options & 2 != 0 { folding.insert(.diacriticInsensitive) }
        let a = fold(value, folding)
        let b = fold(other, folding)
        return a == b ? 0 : (a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1)
    }

    static func fold(_ text: String, _ options: String.CompareOptions) -> String {
        options.isEmpty ? text : text.folding(options: options, locale: nil)
    }

    // MARK: Registration

    /// Arguments of a call, read as needed.
    struct Arguments {
        let argv: UnsafeMutablePointer<OpaquePointer?>
        func text(_ index: Int) -> String? {
            guard sqlite3_value_type(argv[index]) != SQLITE_NULL, let text = sqlite3_value_text(argv[index]) else { return nil }
            return String(cString: text)
        }
        func int(_ index: Int) -> Int64 { sqlite3_value_int64(argv[index]) }
        func value(_ index: Int) -> Value {
            let value = argv[index]
            switch sqlite3_value_type(value) {
            case SQLITE_INTEGER: return .int(sqlite3_value_int64(value))
            case SQLITE_FLOAT: return .double(sqlite3_value_double(value))
            case SQLITE_TEXT: return .string(String(cString: sqlite3_value_text(value)))
            case SQLITE_BLOB:
                let count = Int(sqlite3_value_bytes(value))
                guard count > 0, let bytes = sqlite3_value_blob(value) else { return .binary(Data()) }
                return .binary(Data(bytes: bytes, count: count))
            default: return .null
            }
        }
    }

    private final class Body {
        let run: (Arguments) -> Value
        init(_ run: @escaping (Arguments) -> Value) { self.run = run }
    }

    private static func function(
        _ connection: OpaquePointer, _ name: String, _ arity: Int32, deterministic: Bool = true,
        _ body: @escaping (Arguments) -> Value
    ) throws {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
        let code = sqlite3_create_function_v2(
            connection, name, arity, flags, context,
            { context, argc, argv in
                guard let pointer = sqlite3_user_data(context) else { return }
                let body = Unmanaged<Body>.fromOpaque(pointer).takeUnretainedValue()
                let empty = UnsafeMutablePointer<OpaquePointer?>.allocate(capacity: 1)
                defer { empty.deallocate() }
                switch body.run(Arguments(argv: argv ?? empty)) {
                case let .int(v): sqlite3_result_int64(context, v)
                case let .double(v): sqlite3_result_double(context, v)
                case let .string(v): sqlite3_result_text(context, v, -1, csqlite_transient())
                default: sqlite3_result_null(context)
                }
            }, nil, nil,
            { pointer in
                guard let pointer else { return }
                Unmanaged<Body>.fromOpaque(pointer).release()
            })
        guard code == SQLITE_OK else { throw RegistrationFailure(code: code) }
    }
}

/// New derived-attribute values reported by triggers during a save, applied to objects after the commit.
package final class DerivedValueCollector {
    package init() {}

    struct Update {
        let entityNumber: Int
        let primaryKey: Int64
        let attribute: String
        let value: Value
    }
    var updates: [Update] = []
}
