import Foundation

/// An SQL trace in the shape of Core Data's SQLDebug log (`-com.apple.CoreData.SQLDebug N`).
///
/// Level 1 prints each statement (`CoreData: sql: ...`) and Core Data's annotations (fetch times, row counts,
/// faults fulfilled, prefetches); level 2 and above adds the bound values (`CoreData: details: SQLite bind[0] = 18`);
/// level 4 adds SQLite's query plan of each statement, as Core Data's level 4 does.
public struct SQLTrace {
    public var level: Int
    public var sink: (String) -> Void

    public init(level: Int = 1, sink: @escaping (String) -> Void) {
        self.level = level
        self.sink = sink
    }

    /// A trace that prints to standard output.
    public static func printing(level: Int = 1) -> SQLTrace {
        SQLTrace(level: level) { print($0) }
    }

    var showsBindings: Bool { level >= 2 }
    var showsQueryPlans: Bool { level >= 4 }

    func sql(_ text: String) { sink("CoreData: sql: \(text)") }
    func annotation(_ text: String) { sink("CoreData: annotation: \(text)") }
    func details(_ text: String) { sink("CoreData: details: \(text)") }

    static func seconds(_ interval: Double) -> String { String(format: "%.4fs", interval) }
}
