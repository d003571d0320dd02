import Foundation

/// An SQL trace in the shape of Core Data's SQLDebug log (`-com.apple.CoreData.SQLDebug N`).
///
/// Level 1 prints each statement (`CoreData: sql: ...`) and Core Data's annotations (fetch times, row counts,
/// faults fulfilled, prefetches); level 2 and above adds the bound values (`CoreData: details: SQLite bind[0] = 18`);
/// level 4 adds SQLite's query plan of each statement.
///
/// The compact form (the default) collapses Core Data's double spaces and prints fewer annotations, for reading.
/// The exact form (`exact: true`) prints each statement as Core Data's log writes it (`WHERE  t0.Z_PK = ?  LIMIT 1`,
/// limits as literals, trailing spaces kept), with its annotations (`Bound intarray values.`, `total fetch
/// execution time: ... for N rows.` after faults, object IDs as `0x... <x-coredata://...>`) and binds in its
/// formats (`(int64)3`), so that a trace can be diffed against a log from a device (times aside).
public struct SQLTrace {
    public var level: Int
    public var exact: Bool
    public var sink: (String) -> Void

    public init(level: Int = 1, exact: Bool = false, sink: @escaping (String) -> Void) {
        self.level = level
        self.exact = exact
        self.sink = sink
    }

    /// A trace that prints to standard output.
    public static func printing(level: Int = 1, exact: Bool = false) -> SQLTrace {
        SQLTrace(level: level, exact: exact) { print($0) }
    }

    var showsBindings: Bool { level >= 2 }
    var showsQueryPlans: Bool { level >= 4 }

    func sql(_ text: String) { sink("CoreData: sql: " + (exact ? text : Self.compact(text))) }
    func annotation(_ text: String) { sink("CoreData: annotation: \(text)") }
    func details(_ text: String) { sink("CoreData: details: \(text)") }

    func binding(_ binding: RecordedBinding) {
        details("SQLite bind[\(binding.index)] = \(exact ? binding.exact : binding.compact)")
    }

    /// An object ID as the log prints it: `0x... <x-coredata://...>` in the exact form.
    func objectID(_ id: ObjectID) -> String { exact ? id.debugDescription : id.description }

    static func seconds(_ interval: Double) -> String { String(format: "%.4fs", interval) }

    /// Runs of spaces collapsed to one, none just inside parentheses, none leading or trailing.
    static func compact(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for character in text {
            if character == " " {
                pendingSpace = !result.isEmpty && result.last != "("
                continue
            }
            if pendingSpace && character != ")" { result.append(" ") }
            pendingSpace = false
            result.append(character)
        }
        return result
    }
}
