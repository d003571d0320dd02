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

    package struct Entry: Sendable {
        package let sql: String
        /// By parameter index (1-based: element 0 is parameter 1); unbound parameters are NULL.
        package let bindings: [Bound]
        /// The int-array tables the statement reads (`_Z_intarray0` is 0) and their values when it ran.
        package let intArrays: [(table: Int, values: ContiguousArray<Int64>)]
        /// Run through `sqlite3_exec` (no bindings; possibly several statements), not a prepared statement.
        package let isExec: Bool

        init(sql: String, bindings: [Bound], intArrays: [(table: Int, values: ContiguousArray<Int64>)], isExec: Bool = false) {
            self.sql = sql
            self.bindings = bindings
            self.intArrays = intArrays
            self.isExec = isExec
        }
    }

    package private(set) var entries: [Entry] = []

    package init() {}

    func append(_ entry: Entry) { entries.append(entry) }

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
