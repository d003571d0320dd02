import Foundation

/// Every statement a context runs goes through here: counted by kind (in the context and the store) and traced.
extension ObjectContext {
    /// The prepared statement for `sql` (prepared once per store), ready to bind.
    @inline(__always)
    func statement(_ sql: String) throws -> SQLiteStatement {
        let statement = try store.connection.cachedStatement(sql)
        if let trace = store.sqlTrace, trace.showsBindings {
            statement.recordedBindings = []
        } else if statement.recordedBindings != nil {
            statement.recordedBindings = nil
        }
        return statement
    }

    /// Runs a bound statement that returns rows, calling `row` for each; returns the number of rows.
    @discardableResult
    func query(_ statement: SQLiteStatement, _ kind: StatementKind, row: (SQLiteStatement) throws -> Void) throws -> Int {
        countStatement(kind)
        let trace = store.sqlTrace
        let start = trace == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        if let trace { traceStatement(statement, trace) }
        defer { statement.reset() }
        var rows = 0
        while try statement.step() {
            rows &+= 1
            try row(statement)
        }
        counters.rowsRead &+= rows
        store.counters.rowsRead &+= rows
        if let trace {
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            trace.annotation("sql connection fetch time: \(SQLTrace.seconds(elapsed))")
        }
        return rows
    }

    /// Runs a bound statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func execute(_ statement: SQLiteStatement, _ kind: StatementKind) throws -> Int {
        countStatement(kind)
        if let trace = store.sqlTrace { traceStatement(statement, trace) }
        defer { statement.reset() }
        _ = try statement.step()
        return store.connection.changes
    }

    /// Runs SQL without bindings (transaction control).
    func execute(_ sql: String, _ kind: StatementKind) throws {
        try execute(statement(sql), kind)
    }

    @inline(__always)
    func countStatement(_ kind: StatementKind) {
        counters.count(kind)
        store.counters.count(kind)
    }

    private func traceStatement(_ statement: SQLiteStatement, _ trace: SQLTrace) {
        trace.sql(statement.sql)
        if trace.showsQueryPlans {
            for line in store.connection.queryPlan(statement.sql) { trace.details(line) }
        }
        if let bindings = statement.recordedBindings {
            for binding in bindings { trace.details(binding) }
            statement.recordedBindings = []
        }
    }

    /// Sets `_Z_intarray0` to `ids` for the next batch or prefetch statement.
    func bindIDList(_ ids: ContiguousArray<Int64>) {
        store.idList.values = ids
        if let trace = store.sqlTrace, trace.showsBindings {
            trace.annotation("Bound intarray \(store.idList.name)")
        }
    }
}
