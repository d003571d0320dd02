import CSQLite
import Foundation

extension SQLiteConnection {
    /// What a write keeps current besides its table's rows: the indexes on the table it writes (for an UPDATE, those
    /// holding a column it sets) and the triggers its event fires, one line each (`maintains index ZITEM_ZOFCATEGORY_INDEX
    /// (ZOFCATEGORY)`, `maintains trigger <its SQL>`); empty for a statement that writes nothing. Two arms whose
    /// INSERTs read alike but keep different indexes give SQLite different work.
    func maintenance(_ sql: String) -> [String] {
        guard let write = WriteTarget(sql) else { return [] }
        var lines: [String] = []
        for (name, unique) in indexes(on: write.table) {
            let columns = indexColumns(name)
            if let set = write.setColumns, !columns.contains(where: set.contains) { continue }
            let label = name.hasPrefix("sqlite_autoindex") ? "the table's key" : name
            lines.append("maintains \(unique ? "unique " : "")index \(label) (\(columns.joined(separator: ", ")))")
        }
        for trigger in triggers(on: write.table) where write.fires(trigger) {
            lines.append("maintains trigger " + trigger.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        }
        return lines
    }

    private func indexes(on table: String) -> [(name: String, unique: Bool)] {
        rows("SELECT name, \"unique\" FROM pragma_index_list(?) ORDER BY name", table) { statement in
            (name: sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "", unique: sqlite3_column_int(statement, 1) != 0)
        }
    }

    private func indexColumns(_ index: String) -> [String] {
        rows("SELECT name FROM pragma_index_info(?) ORDER BY seqno", index) { statement in
            sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "(expression)"
        }
    }

    private func triggers(on table: String) -> [String] {
        rows("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY name", table) { statement in
            sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? ""
        }
    }

    /// The rows of a read-only query of the schema with one text parameter; empty when it cannot be prepared.
    private func rows<T>(_ sql: String, _ parameter: String, _ row: (OpaquePointer) -> T) -> [T] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return [] }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_bind_text(statement, 1, parameter, -1, csqlite_transient()) == SQLITE_OK else { return [] }
        var result: [T] = []
        while sqlite3_step(statement) == SQLITE_ROW { result.append(row(statement)) }
        return result
    }
}

/// The table an INSERT, UPDATE or DELETE writes, and for an UPDATE the columns it sets.
struct WriteTarget: Equatable {
    let table: String
    let verb: String
    let setColumns: Set<String>?

    /// Whether a trigger of the table (its `CREATE TRIGGER` SQL) fires on this write: its event is the write's, and
    /// an `UPDATE OF` trigger names a column the UPDATE sets.
    func fires(_ trigger: String) -> Bool {
        let words = trigger.uppercased().split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        guard let on = words.firstIndex(of: "ON") else { return true }
        let head = words[..<on]
        guard let event = head.lastIndex(where: { ["INSERT", "UPDATE", "DELETE"].contains($0) }) else { return true }
        guard head[event] == (verb == "REPLACE" ? "INSERT" : verb) else { return false }
        // `UPDATE OF a, b`: only an UPDATE setting one of them.
        if head[event] == "UPDATE", event + 1 < head.endIndex, head[event + 1] == "OF" { return columnsMatch(Array(head[(event + 2)...])) }
        return true
    }

    private func columnsMatch(_ columns: [String]) -> Bool {
        guard let set = setColumns else { return true }
        return columns.contains { set.contains($0) || set.contains($0.uppercased()) }
    }

    init?(_ sql: String) {
        let words = sql.split(whereSeparator: { $0.isWhitespace || $0 == "(" }).map(String.init)
        guard let verb = words.first?.uppercased() else { return nil }
        self.verb = verb
        func name(after keyword: String) -> String? {
            guard let index = words.firstIndex(where: { $0.uppercased() == keyword }), index + 1 < words.count else { return nil }
            return words[index + 1]
        }
        switch verb {
        case "INSERT", "REPLACE":
            guard let table = name(after: "INTO") else { return nil }
            self.table = table
            setColumns = nil
        case "DELETE":
            guard let table = name(after: "FROM") else { return nil }
            self.table = table
            setColumns = nil
        case "UPDATE":
            guard words.count > 1 else { return nil }
            var index = 1
            if words[index].uppercased() == "OR", words.count > 3 { index += 2 }
            table = words[index]
            guard let set = sql.range(of: " SET ", options: .caseInsensitive) else { return nil }
            let tail = sql[set.upperBound...]
            let assignments = tail.range(of: " WHERE ", options: .caseInsensitive).map { tail[..<$0.lowerBound] } ?? tail
            setColumns = Set(
                assignments.split(separator: ",").compactMap { assignment in
                    assignment.split(separator: "=").first.map { $0.trimmingCharacters(in: .whitespaces) }
                })
        default:
            return nil
        }
    }
}
