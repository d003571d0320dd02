/// Every statement a connection runs, with the exact values bound to it and the ID lists in its int-array tables:
/// what the harness's `sql-replay` peer runs again, without an object graph, to measure ObjectGraph's own cost for
/// any model. Package-internal: the harness is its only user.
package final class StatementLog {
    /// A value bound to a statement, as SQLite holds it.
    package enum Bound: Equatable, Sendable {
        case null
        case int(Int64)
        case double(Double)
        case text(String)
        case blob([UInt8])
    }

    /// Why ObjectGraph ran a statement: its kind, and what it was for (`Student` for a fetch or an object fault,
    /// `Class.students` for a to-many fault or a prefetch), for the harness's N+1 detector.
    package struct Cause: Sendable, Equatable {
        package var kind: StatementKind
        package var subject: String
    }

    package struct Entry: Sendable {
        package let sql: String
        /// By parameter index (1-based: element 0 is parameter 1); unbound parameters are NULL.
        package let bindings: [Bound]
        /// The int-array tables the statement reads (`_Z_intarray0` is 0) and their values when it ran.
        package let intArrays: [(table: Int, values: ContiguousArray<Int64>)]
        /// Run through `sqlite3_exec` (no bindings; possibly several statements), not a prepared statement.
        package let isExec: Bool
        package let cause: Cause
        /// Rows the statement returned (0 for one that returns none).
        package fileprivate(set) var rows = 0

        init(
            sql: String, bindings: [Bound], intArrays: [(table: Int, values: ContiguousArray<Int64>)], isExec: Bool = false,
            cause: Cause = Cause(kind: .other, subject: "")
        ) {
            self.sql = sql
            self.bindings = bindings
            self.intArrays = intArrays
            self.isExec = isExec
            self.cause = cause
        }
    }

    package private(set) var entries: [Entry] = []
    /// The model of the store last attached, to name what the causes refer to.
    package fileprivate(set) var model: ObjectModel?
    /// What the context is running the next statement for (set before each one while a log is attached).
    var cause = Cause(kind: .other, subject: "")

    package init() {}

    func append(_ entry: Entry) { entries.append(entry) }

    /// Records how many rows the last statement returned.
    func recordRows(_ rows: Int) {
        guard !entries.isEmpty else { return }
        entries[entries.count - 1].rows = rows
    }

    /// Takes the entries logged so far, leaving the log empty (one phase's statements at a time).
    package func take() -> [Entry] {
        defer { entries = [] }
        return entries
    }
}

extension PersistentStore {
    /// Logs every statement the store's connection runs into `log` (nil stops logging).
    package func logStatements(into log: StatementLog?) {
        connection.statementLog = log
        log?.model = model
    }
}

extension ObjectContext {
    /// The object of `entity` whose primary key is `key`: the registered one or a new fault (no SQL), for the
    /// harness, which knows the keys of the rows it filled a store with.
    package func object(of entity: EntityDescription, key: Int64) -> ManagedObject {
        object(entity, primaryKey: key)
    }
}

extension ObjectID {
    /// The permanent ID of row `key` of `entity` in `store`, for the harness, which knows the keys of the rows it
    /// filled a store with.
    package init(entity: EntityDescription, key: Int64, in store: PersistentStore) {
        self.init(entity: entity, primaryKey: key, temporaryNumber: 0, storeIdentifier: store.identifier, model: store.model)
    }
}
