/// A shape shared by reference: statements in flight hold one without copying its arrays.
final class ShapeBox: Sendable {
    let value: StatementShape
    init(_ value: StatementShape) { self.value = value }
}

/// Reads a statement's tokens into its shape.
struct ShapeReader {
    let sql: ByteView
    let tokens: [SQLToken]
    /// Aliases and their tables, searched in order, the last given first (a statement names a few: profiled, a
    /// dictionary of them per distinct statement cost 2% of reading a log of distinct statements).
    var aliases: [(alias: String, table: String)] = []

    init(sql: ByteView, tokens: [SQLToken]) {
        self.sql = sql
        self.tokens = tokens
    }

    func text(_ token: SQLToken) -> String { sql.slice(token.start, token.end).string }

    func isWord(_ index: Int, _ word: StaticString) -> Bool {
        guard index >= 0, index < tokens.count, tokens[index].kind == .word else { return false }
        let token = tokens[index]
        return token.end - token.start == word.utf8CodeUnitCount && sql.matchesIgnoringCase(word, at: token.start)
    }

    func isPunct(_ index: Int, _ byte: UInt8) -> Bool {
        index >= 0 && index < tokens.count && tokens[index].kind == .punctuation && sql[tokens[index].start] == byte
    }

    func aliasedTable(_ token: SQLToken) -> String? {
        let alias = text(token)
        return aliases.first { $0.alias == alias }?.table
    }

    func upper(_ index: Int) -> String { text(tokens[index]).uppercased() }

    /// Whether token `index`, of any kind, is `keyword` ignoring ASCII case: what `upper(index) == keyword` tells (a
    /// word token is ASCII; any other token holds a quote, bracket, digit or sign no keyword has), without making two
    /// Strings per distinct statement (profiled: 1.5% of reading a log of distinct statements).
    func spells(_ index: Int, _ keyword: StaticString) -> Bool {
        guard index < tokens.count else { return false }
        let token = tokens[index]
        return token.end - token.start == keyword.utf8CodeUnitCount && sql.matchesIgnoringCase(keyword, at: token.start)
    }

    mutating func classify(first: SQLToken, into shape: inout StatementShape) {
        if spells(0, "SELECT") || spells(0, "WITH") || spells(0, "VALUES") {
            shape.kind = .select
        } else if spells(0, "INSERT") || spells(0, "REPLACE") {
            shape.kind = .insert
        } else if spells(0, "UPDATE") {
            shape.kind = .update
        } else if spells(0, "DELETE") {
            shape.kind = .delete
        } else if spells(0, "BEGIN") || spells(0, "SAVEPOINT") {
            shape.kind = .transaction
            shape.verb = .begin
        } else if spells(0, "COMMIT") || spells(0, "END") || spells(0, "RELEASE") {
            shape.kind = .transaction
            shape.verb = .commit
        } else if spells(0, "ROLLBACK") {
            shape.kind = .transaction
            shape.verb = isWord(1, "TO") ? .none : .rollback
        } else if spells(0, "PRAGMA") {
            shape.kind = .pragma
        } else {
            shape.kind = .other
        }
        readTables(into: &shape)
        let touchesSystem = shape.tables.contains { StatementShape.isSystemTable($0) }
        switch shape.kind {
        case .pragma:
            shape.isBookkeeping = true
            let assigns = tokens.contains { $0.kind == .op && sql[$0.start] == UInt8(ascii: "=") }
            let name = tokens.count > 1 ? upper(1) : ""
            shape.returnsRows = !assigns || name == "JOURNAL_MODE"
            shape.knownRows = shape.returnsRows ? 1 : 0
        case .select:
            shape.returnsRows = true
            shape.isBookkeeping = touchesSystem
            if touchesSystem { shape.knownRows = 1 }
            readSelect(into: &shape)
        case .insert, .update, .delete:
            shape.writesModel = !touchesSystem && !shape.tables.isEmpty
            shape.isBookkeeping = touchesSystem
            shape.knownRows = 0
            readWrite(into: &shape)
        case .transaction:
            shape.knownRows = 0
        case .other:
            shape.isBookkeeping = true // schema statements, triggers, ANALYZE, VACUUM
            shape.knownRows = 0
        }
    }

    /// Tables after FROM, JOIN, INTO, UPDATE [OR x], with their aliases.
    mutating func readTables(into shape: inout StatementShape) {
        var index = 0
        while index < tokens.count {
            var tableIndex: Int?
            if isWord(index, "FROM") || isWord(index, "JOIN") || isWord(index, "INTO") {
                tableIndex = index + 1
            } else if isWord(index, "UPDATE") {
                tableIndex = isWord(index + 1, "OR") ? index + 3 : index + 1
            }
            if let tableIndex, tableIndex < tokens.count, tokens[tableIndex].kind == .word {
                let name = text(tokens[tableIndex])
                if name.hasPrefix("_Z_intarray") {
                    shape.usesIntarray = true
                } else if !isReserved(tableIndex) {
                    if !shape.tables.contains(name) { shape.tables.append(name) }
                    var aliasIndex = tableIndex + 1
                    if isWord(aliasIndex, "AS") { aliasIndex += 1 }
                    if aliasIndex < tokens.count, tokens[aliasIndex].kind == .word, !isReserved(aliasIndex) {
                        let alias = text(tokens[aliasIndex])
                        aliases.removeAll { $0.alias == alias }
                        aliases.append((alias, name))
                    }
                }
            }
            index += 1
        }
    }

    func isReserved(_ index: Int) -> Bool {
        let reserved: [StaticString] = [
            "SELECT", "WHERE", "JOIN", "ON", "LEFT", "INNER", "OUTER", "CROSS", "ORDER", "GROUP",
            "LIMIT", "SET", "VALUES", "AS", "USING", "NATURAL", "HAVING", "UNION", "DEFAULT",
        ]
        return reserved.contains { isWord(index, $0) }
    }

    mutating func readSelect(into shape: inout StatementShape) {
        shape.isCount = isWord(1, "COUNT") && isPunct(2, UInt8(ascii: "("))
        if shape.isCount { shape.knownRows = shape.knownRows ?? 1 }
        // SELECT 0, t0.Z_PK FROM / SELECT t0.Z_ENT, t0.Z_PK FROM
        if let from = (0..<tokens.count).first(where: { isWord($0, "FROM") }) {
            // The words before FROM, compared in place (profiled: an array of them and their upper-cased copies, made
            // for every distinct statement, cost 3% of reading a log of distinct statements).
            var words = (0, 0, 0, 0)
            var count = 0
            for index in 1..<max(1, from) where tokens[index].kind == .word {
                switch count {
                case 0: words.0 = index
                case 1: words.1 = index
                case 2: words.2 = index
                case 3: words.3 = index
                default: break
                }
                count += 1
            }
            if count == 2 {
                shape.isIDOnly = isWord(words.0, "T0") && isWord(words.1, "Z_PK")
            } else if count == 4 {
                shape.isIDOnly = isWord(words.0, "T0") && isWord(words.1, "Z_ENT") && isWord(words.2, "T0") && isWord(words.3, "Z_PK")
            }
        }
        readLimit(into: &shape)
        readClauses(into: &shape)
        shape.hasValueList = hasValueList()
        let keyIn = keyInList()
        shape.isBatch = keyIn && shape.limit != nil
        shape.isSingleRowByKey = shape.limit == 1 && shape.filterColumns.count == 1 && keyEquality()
        readToManyShapes(into: &shape)
        shape.entityNumber = entityNumber()
    }

    /// `t0.Z_ENT = 5`, or the first of `t0.Z_ENT IN (4, 5, 6)` (an entity and its sub-entities, in Core Data's order):
    /// the entity a fetch of a table shared by a hierarchy asked for.
    func entityNumber() -> Int? {
        for index in tokens.indices where isWord(index, "Z_ENT") && isPunct(index - 1, UInt8(ascii: ".")) {
            var value = index + 2
            if isWord(index + 1, "IN"), isPunct(index + 2, UInt8(ascii: "(")) {
                value = index + 3
            } else if !(index + 1 < tokens.count && tokens[index + 1].kind == .op && sql[tokens[index + 1].start] == UInt8(ascii: "=")) {
                continue
            }
            if value < tokens.count, tokens[value].kind == .number, let number = Int(text(tokens[value])) { return number }
        }
        return nil
    }

    mutating func readWrite(into shape: inout StatementShape) {
        readClauses(into: &shape)
        let text = sql.string.uppercased()
        if shape.kind == .update, text.contains("Z_OPT = (Z_OPT + 1)") || text.contains("Z_OPT = Z_OPT + 1") {
            shape.isBatchRequestForm = true
        }
        if shape.kind == .delete, text.contains("Z_PK IN (SELECT") { shape.isBatchRequestForm = true }
    }

    mutating func readLimit(into shape: inout StatementShape) {
        for index in tokens.indices where isWord(index, "LIMIT") {
            if index + 1 < tokens.count, tokens[index + 1].kind == .number, let value = Int(text(tokens[index + 1])) {
                shape.limit = value
            }
        }
    }

    /// Column references (`t0.ZNAME`) in WHERE and in ORDER BY.
    mutating func readClauses(into shape: inout StatementShape) {
        var section = 0 // 1: WHERE, 2: ORDER BY
        var index = 0
        while index < tokens.count {
            if isWord(index, "WHERE") {
                section = 1
            } else if isWord(index, "ORDER"), isWord(index + 1, "BY") {
                section = 2
            } else if isWord(index, "LIMIT") || isWord(index, "GROUP") {
                section = 0
            } else if section != 0, tokens[index].kind == .word, isPunct(index + 1, UInt8(ascii: ".")),
                index + 2 < tokens.count, tokens[index + 2].kind == .word,
                let table = aliasedTable(tokens[index])
            {
                let column = TableColumn(table: table, column: text(tokens[index + 2]))
                if section == 1, !shape.filterColumns.contains(column) { shape.filterColumns.append(column) }
                if section == 1, comparesDirectly(column: index), !shape.comparedColumns.contains(column) {
                    shape.comparedColumns.append(column)
                }
                if section == 2, !shape.sortColumns.contains(column) { shape.sortColumns.append(column) }
                index += 2
            }
            index += 1
        }
    }

    /// Whether the column reference at `index` (`t0` `.` `ZNAME`) is compared as an index can serve: `=`, `<`, `>`,
    /// `<=`, `>=`, `IN`, `BETWEEN`, `IS` after it or a comparison before it; not inside a function's arguments
    /// (`NSCoreDataStringSearch(t0.ZTITLE, ...)`, a CONTAINS no index helps), nor `LIKE` or `<>`.
    func comparesDirectly(column index: Int) -> Bool {
        func isComparison(_ position: Int) -> Bool {
            guard position >= 0, position < tokens.count, tokens[position].kind == .op else { return false }
            let token = tokens[position]
            let first = sql[token.start]
            let length = token.end - token.start
            if first == UInt8(ascii: "=") { return true }
            if first == UInt8(ascii: "<") || first == UInt8(ascii: ">") {
                return length == 1 || sql[token.start + 1] == UInt8(ascii: "=")
            }
            return false
        }
        let after = index + 3
        if isComparison(after) || isWord(after, "IN") || isWord(after, "BETWEEN") || isWord(after, "IS") { return true }
        return isComparison(index - 1)
    }

    func hasValueList() -> Bool {
        for index in tokens.indices where isWord(index, "IN") && isPunct(index + 1, UInt8(ascii: "(")) {
            let next = index + 2
            if next < tokens.count, tokens[next].kind == .parameter || tokens[next].kind == .number { return true }
        }
        return false
    }

    /// `t0.Z_PK IN (`: a list of ids (values or an int-array table).
    func keyInList() -> Bool {
        for index in tokens.indices where isWord(index, "Z_PK") && isWord(index + 1, "IN") { return true }
        return false
    }

    /// `t0.Z_PK = ?`.
    func keyEquality() -> Bool {
        for index in tokens.indices where isWord(index, "Z_PK") {
            if index + 2 < tokens.count, tokens[index + 1].kind == .op, sql[tokens[index + 1].start] == UInt8(ascii: "="),
                tokens[index + 2].kind == .parameter || tokens[index + 2].kind == .number
            {
                return true
            }
        }
        return false
    }

    /// The shapes of a to-many fault: one equality on a foreign key, or a join table.
    mutating func readToManyShapes(into shape: inout StatementShape) {
        guard shape.filterColumns.count <= 2 else { return }
        for index in tokens.indices where isWord(index, "JOIN") {
            // FROM Z_1TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_2TAGS WHERE t1.Z_1ITEMS = ?
            guard index + 1 < tokens.count, let member = Optional(text(tokens[index + 1])),
                let joinName = shape.tables.first, joinName.hasPrefix("Z_"), joinName != member
            else { continue }
            let joinColumns = shape.filterColumns.filter { $0.table == joinName }.map(\.column)
            var memberColumn: String?
            for probe in index..<min(tokens.count, index + 12) where isWord(probe, "Z_PK") {
                if probe + 4 < tokens.count, isPunct(probe + 3, UInt8(ascii: ".")) { memberColumn = text(tokens[probe + 4]) }
            }
            if let owner = joinColumns.first(where: { $0 != memberColumn }), let memberColumn {
                shape.joinTable = StatementShape.JoinTableUse(
                    table: joinName, ownerColumn: owner, memberColumn: memberColumn,
                    memberTable: member)
            }
            return
        }
        if shape.filterColumns.count == 1, let column = shape.filterColumns.first, column.column != "Z_PK",
            !shape.usesIntarray, !shape.hasValueList, tokens.contains(where: { $0.kind == .parameter })
        {
            shape.ownerColumn = column
        }
    }
}
