import CSQLite
import Foundation

/// The SQL functions Core Data registers on its connections, reimplemented.
enum SQLFunctions {
    /// Flags of `NSCoreDataStringSearch(value, pattern, flags, normalized)`, as Core Data passes them.
    struct StringSearchFlags: OptionSet {
        let rawValue: Int64
        static let caseInsensitive = StringSearchFlags(rawValue: 0x1)
        static let endsWithBit = StringSearchFlags(rawValue: 0x4)
        static let beginsWith = StringSearchFlags(rawValue: 0x8)
        static let diacriticInsensitive = StringSearchFlags(rawValue: 0x80)
        static let search = StringSearchFlags(rawValue: 0x100)
        static let endsWith: StringSearchFlags = [.beginsWith, .endsWithBit]
    }

    /// Registers `NSCoreDataStringSearch` (CONTAINS, BEGINSWITH, ENDSWITH with [c], [d] options).
    static func registerStringSearch(on connection: SQLiteConnection) throws {
        let code = sqlite3_create_function_v2(connection.handle, "NSCoreDataStringSearch", 4,
                                              SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil, { context, argc, argv in
            guard let argv, argc == 4, sqlite3_value_type(argv[0]) != SQLITE_NULL,
                  sqlite3_value_type(argv[1]) != SQLITE_NULL else {
                sqlite3_result_int(context, 0)
                return
            }
            let value = String(cString: sqlite3_value_text(argv[0]))
            let pattern = String(cString: sqlite3_value_text(argv[1]))
            let flags = SQLFunctions.StringSearchFlags(rawValue: sqlite3_value_int64(argv[2]))
            sqlite3_result_int(context, SQLFunctions.stringSearch(value, pattern, flags) ? 1 : 0)
        }, nil, nil, nil)
        guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
    }

    /// The comparison `NSCoreDataStringSearch` performs, shared with in-memory predicate evaluation.
    static func stringSearch(_ value: String, _ pattern: String, _ flags: StringSearchFlags) -> Bool {
        var options: String.CompareOptions = []
        if flags.contains(.caseInsensitive) { options.insert(.caseInsensitive) }
        if flags.contains(.diacriticInsensitive) { options.insert(.diacriticInsensitive) }
        let subject = options.isEmpty ? value : value.folding(options: options, locale: nil)
        let needle = options.isEmpty ? pattern : pattern.folding(options: options, locale: nil)
        if flags.contains(.endsWith) { return subject.hasSuffix(needle) }
        if flags.contains(.beginsWith) { return subject.hasPrefix(needle) }
        return needle.isEmpty || subject.contains(needle)
    }

    /// Registers `NSCoreDataDATriggerUpdatedAffectedObjectValue(table, ent, pk, attribute, value)`, which the
    /// derived-attribute triggers call with every new value, so that the save can update objects in memory.
    static func registerDerivedValueCallback(on connection: SQLiteConnection, collector: DerivedValueCollector) throws {
        let context = Unmanaged.passRetained(collector).toOpaque()
        let code = sqlite3_create_function_v2(connection.handle, "NSCoreDataDATriggerUpdatedAffectedObjectValue", 5,
                                              SQLITE_UTF8, context, { context, argc, argv in
            guard let argv, argc == 5, let pointer = sqlite3_user_data(context) else { return }
            let collector = Unmanaged<DerivedValueCollector>.fromOpaque(pointer).takeUnretainedValue()
            collector.updates.append(DerivedValueCollector.Update(
                entityNumber: Int(sqlite3_value_int64(argv[1])),
                primaryKey: sqlite3_value_int64(argv[2]),
                attribute: String(cString: sqlite3_value_text(argv[3])),
                value: sqlite3_value_int64(argv[4])))
            sqlite3_result_null(context)
        }, nil, nil, { pointer in
            guard let pointer else { return }
            Unmanaged<DerivedValueCollector>.fromOpaque(pointer).release()
        })
        guard code == SQLITE_OK else { throw connection.error(code, sql: nil) }
    }
}

/// New derived-attribute values reported by triggers during a save, applied to objects after the commit.
final class DerivedValueCollector {
    struct Update {
        let entityNumber: Int
        let primaryKey: Int64
        let attribute: String
        let value: Int64
    }
    var updates: [Update] = []
}
