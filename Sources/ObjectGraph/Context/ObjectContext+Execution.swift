import Foundation

/// Every statement a context runs goes through here: counted by kind (in the context and the store) and traced.
extension ObjectContext {
    /// The prepared statement for `sql` (prepared once per store, while it stays cached), ready to bind.
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
    /// `traceText` is what the trace shows instead of the SQL (Core Data's text, limits written as literals).
    /// `subject` says what the statement is for (an entity, `Entity.relationship`), computed only while a statement
    /// log is attached.
    ///
    /// Inlined, so that each caller's row closure is inlined into the loop over the rows (callgrind, query fetch-all at
    /// 10,000: calling the closure through its context for each row, with its frame, was about 40 instructions a row).
    @discardableResult
    @inline(__always)
    func query(
        _ statement: SQLiteStatement, _ kind: StatementKind, subject: @autoclosure () -> String = "", traceText: String? = nil,
        row: (SQLiteStatement) throws -> Void
    ) throws -> Int {
        countStatement(kind)
        if let log = store.connection.statementLog {
            return try loggedQuery(statement, kind, subject(), log, traceText: traceText, row: row)
        }
        guard store.sqlTrace != nil else {
            defer { statement.reset() }
            var rows = 0
            while try statement.step() {
                rows &+= 1
                try row(statement)
            }
            counters.rowsRead &+= rows
            store.counters.rowsRead &+= rows
            return rows
        }
        return try tracedQuery(statement, kind, traceText: traceText, row: row)
    }

    /// `query` with the trace on: the statement shown before it runs, its time after.
    @inline(never)
    private func tracedQuery(
        _ statement: SQLiteStatement, _ kind: StatementKind, traceText: String?,
        row: (SQLiteStatement) throws -> Void
    ) throws -> Int {
        let trace = store.sqlTrace
        let start = DispatchTime.now().uptimeNanoseconds
        if let trace { traceStatement(statement, trace, text: traceText) }
        defer { statement.reset() }
        var rows = 0
        while try statement.step() {
            rows &+= 1
            try row(statement)
        }
        counters.rowsRead &+= rows
        store.counters.rowsRead &+= rows
        if let trace { traceElapsed(since: start, kind, trace) }
        return rows
    }

    private func traceElapsed(since start: UInt64, _ kind: StatementKind, _ trace: SQLTrace) {
        let elapsed = SQLTrace.seconds(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        if kind == .other && trace.exact {
            trace.annotation("sql execution time: \(elapsed)")
        } else if kind != .other {
            trace.annotation("sql connection fetch time: \(elapsed)")
        }
    }

    /// `query` with the statement's cause and row count logged (the harness's untimed passes only).
    @inline(never)
    private func loggedQuery(
        _ statement: SQLiteStatement, _ kind: StatementKind, _ subject: String, _ log: StatementLog,
        traceText: String?, row: (SQLiteStatement) throws -> Void
    ) throws -> Int {
        log.cause = StatementLog.Cause(kind: kind, subject: subject)
        defer { log.cause = StatementLog.Cause(kind: .other, subject: "") }
        let rows = try tracedQuery(statement, kind, traceText: traceText, row: row)
        log.recordRows(rows)
        return rows
    }

    /// Runs a bound statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func execute(_ statement: SQLiteStatement, _ kind: StatementKind) throws -> Int {
        // The untraced path first, with no copy of the trace (profiled: 38 instructions a statement).
        guard store.sqlTrace != nil else {
            countStatement(kind)
            if let log = store.connection.statementLog { log.cause = StatementLog.Cause(kind: kind, subject: "") }
            defer { statement.reset() }
            _ = try statement.step()
            return store.connection.changes
        }
        // Checked above; the int-array tables are installed when the store opens (the hot path).
        // swift-format-ignore: NeverForceUnwrap
        return try executeTraced(statement, kind, trace: store.sqlTrace!)
    }

    @inline(never)
    private func executeTraced(_ statement: SQLiteStatement, _ kind: StatementKind, trace: SQLTrace) throws -> Int {
        countStatement(kind)
        let start = DispatchTime.now().uptimeNanoseconds
        traceStatement(statement, trace, text: nil)
        defer { statement.reset() }
        _ = try statement.step()
        if trace.exact, statement.sql.hasPrefix("pragma") {
            trace.annotation("sql execution time: \(SQLTrace.seconds(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))")
        }
        return store.connection.changes
    }

    /// Runs SQL without bindings (transaction control, pragmas).
    func execute(_ sql: String, _ kind: StatementKind) throws {
        try execute(statement(sql), kind)
    }

    @inline(__always)
    func countStatement(_ kind: StatementKind) {
        counters.count(kind)
        store.counters.count(kind)
    }

    private func traceStatement(_ statement: SQLiteStatement, _ trace: SQLTrace, text: String?) {
        trace.sql(text ?? statement.sql)
        if trace.showsQueryPlans {
            for line in store.connection.queryPlan(statement.sql) { trace.details(line) }
        }
        if let bindings = statement.recordedBindings {
            for binding in bindings { trace.binding(binding) }
            statement.recordedBindings = []
        }
    }

    /// Sets the int-array table `_Z_intarray<n>` to `ids` for the next statement that reads it.
    func bindIDList(_ ids: ContiguousArray<Int64>, table: Int = 0) {
        // Checked above; the int-array tables are installed when the store opens (the hot path).
        // swift-format-ignore: NeverForceUnwrap
        let array = store.connection.intArrays!.arrays[table]
        array.values = ids
        if let trace = store.sqlTrace {
            trace.annotation("Bound intarray \(array.name)")
            if trace.exact { trace.annotation("Bound intarray values.") }
        }
    }

    /// `total fetch execution time: 0.0010s for 20 rows.`, which Core Data prints after fetches and faults.
    func traceFetchTotal(since start: UInt64, rows: Int) {
        guard let trace = store.sqlTrace else { return }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        trace.annotation("total fetch execution time: \(SQLTrace.seconds(elapsed)) for \(rows) rows.")
    }
}
