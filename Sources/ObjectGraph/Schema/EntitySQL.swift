/// The statements an entity's objects run again and again, in the text of Core Data's SQLDebug log, built once.
///
/// The spacing is Core Data's (decompiled NSSQLFetchIntermediate, confirmed by real logs): the select clause ends
/// `FROM ZX t0 `, a column in a predicate is written ` t0.ZA` (hence `WHERE  t0.Z_PK = ?`), the WHERE clause is
/// followed by a space (hence `?  LIMIT 1`), and the int-array subquery carries one more (`_Z_intarray0)   LIMIT 20`).
struct EntitySQL {
    /// `SELECT 0, ` for an entity outside any hierarchy, `SELECT t0.Z_ENT, ` inside one.
    let head: String
    /// The columns a fetch of this entity reads, after the head, Z_PK and Z_OPT: its own row's columns, then the
    /// columns its sub-entities add, in entity-number order.
    let selectColumns: [Column]
    /// `t0.Z_PK, t0.Z_OPT, t0.ZNAME, ...`: every selected column, in select order.
    let rowColumns: String
    /// `SELECT 0, t0.Z_PK, t0.Z_OPT, ... FROM ZSTUDENT t0 `
    let selectRows: String
    /// `SELECT 0, t0.Z_PK FROM ZSTUDENT t0 `: object IDs only.
    let selectIDs: String
    /// ` t0.Z_ENT = 5` or ` t0.Z_ENT IN (4, 5, 6)` restricting a fetch to this entity (and its sub-entities), or
    /// nil when every row of the table qualifies (an entity alone in its table, or a root with its sub-entities).
    /// The literal numbers are inferred: no real log of such a fetch was found.
    let entityRestriction: String?
    /// The same restriction without sub-entities (includesSubentities = false), or nil when not needed.
    let entityOnlyRestriction: String?
    /// One object fault: `SELECT ... FROM ZX t0 WHERE  t0.Z_PK = ?  LIMIT 1`, reading this entity's row.
    let fault: String
    /// One batch of a batched fetch: `... WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT `, the batch
    /// size appended. The leading constant is 0 as in every other fetch; the `SELECT 1, t0.Z_PK, t0.ZNAME ...` of
    /// coredata-facts §3 came from a request with propertiesToFetch.
    let batchPrefix: String
    /// Rows whose primary key is in `_Z_intarray0` (to-one prefetch).
    let rowsByPrimaryKeys: String
    /// `INSERT INTO ZSTUDENT(Z_PK, Z_ENT, Z_OPT, <keys>, <attributes>) VALUES(?, ...)`: keys first, as Core Data.
    let insert: String
    let delete: String
    /// For each entity whose rows a fetch of this entity can return (keyed by entity number): the result column of
    /// each of that entity's row slots.
    let rowPositions: [Int: [Int32]]
    let maxPrimaryKey = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"
    let reservePrimaryKeys = "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?"

    init(entity: EntityDescription) {
        let table = entity.tableName
        head = entity.isInHierarchy ? "SELECT t0.Z_ENT, " : "SELECT 0, "
        var columns = entity.columns
        for descendant in entity.subtree.dropFirst() {
            columns += descendant.columns[descendant.inheritedColumnCount...]
        }
        selectColumns = columns
        var positions: [Int: [Int32]] = [:]
        let byName = Dictionary(columns.enumerated().map { ($0.element.name, Int32($0.offset + 3)) }, uniquingKeysWith: { a, _ in a })
        for member in entity.subtree {
            // Built in order by the compiler: every entity's SQL before its relationships', every column in its root's table.
            // swift-format-ignore: NeverForceUnwrap
            positions[member.number] = member.columns.map { byName[$0.name]! }
        }
        rowPositions = positions
        rowColumns = (["t0.Z_PK", "t0.Z_OPT"] + columns.map { "t0.\($0.name)" }).joined(separator: ", ")
        selectRows = "\(head)\(rowColumns) FROM \(table) t0 "
        selectIDs = "\(head)t0.Z_PK FROM \(table) t0 "
        let ownRow = (["t0.Z_PK", "t0.Z_OPT"] + entity.columns.map { "t0.\($0.name)" }).joined(separator: ", ")
        fault = "\(head)\(ownRow) FROM \(table) t0 WHERE  t0.Z_PK = ?  LIMIT 1"
        batchPrefix = "\(selectRows)WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT "
        rowsByPrimaryKeys = "\(selectRows)WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0) "
        entityRestriction = Self.restriction(entity, includingSubentities: true)
        entityOnlyRestriction = entity.subentities.isEmpty ? entityRestriction : Self.restriction(entity, includingSubentities: false)
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + entity.insertOrder.map { entity.columns[$0].name }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        insert = "INSERT INTO \(table)(\(names.joined(separator: ", "))) VALUES(\(placeholders))"
        delete = "DELETE FROM \(table) WHERE Z_PK = ? AND Z_OPT = ?"
    }

    private static func restriction(_ entity: EntityDescription, includingSubentities: Bool) -> String? {
        guard entity.isInHierarchy else { return nil }
        if includingSubentities {
            if entity.parent == nil { return nil }
            if entity.subentities.isEmpty { return " t0.Z_ENT = \(entity.number)" }
            return " t0.Z_ENT IN (\(entity.subtree.map { String($0.number) }.joined(separator: ", ")))"
        }
        return " t0.Z_ENT = \(entity.number)"
    }

    /// `UPDATE OR FAIL ZSTUDENT SET ZCLASS = ?, ZNAME = ?, Z_OPT = ?  WHERE Z_PK = ? AND Z_OPT = ?` for the
    /// changed columns, in the order given (keys first); two spaces before WHERE, as Core Data's generator
    /// appends ` WHERE` after `Z_OPT = ? ` (decompiled _NSSQLGenerator; no real UPDATE log found).
    static func update(_ entity: EntityDescription, columns: [Int], versionMayBeNull: Bool) -> String {
        let sets = columns.map { "\(entity.columns[$0].name) = ?" } + ["Z_OPT = ?"]
        let version = versionMayBeNull ? "(Z_OPT = ? OR Z_OPT IS NULL)" : "Z_OPT = ?"
        return "UPDATE OR FAIL \(entity.tableName) SET \(sets.joined(separator: ", "))  WHERE Z_PK = ? AND \(version)"
    }
}

/// The statements of one relationship: its to-many fault, its prefetch and its join-table rows.
struct RelationshipSQL {
    /// Member IDs of one owner (a to-many fault), in order for an ordered relationship.
    let fault: String?
    /// Destination rows for every owner in `_Z_intarray0`, sorted by owner (then order), with the owner key in
    /// the column at `ownerColumn` (0-based, counting the leading constant).
    let prefetch: String
    let ownerColumn: Int32
    /// On the side of a many-to-many that names the join table: `INSERT OR REPLACE INTO Z_1SUBJECTS(...) VALUES (?, ?)`,
    /// `DELETE FROM Z_1SUBJECTS WHERE ... = ? AND ... = ?`, and for an ordered side the reorder statement.
    let joinInsert: String?
    let joinDelete: String?
    let joinReorder: String?

    /// The to-many fault of a relationship the caller knows is a to-many.
    var toManyFault: String { Self.required(fault, "a to-one relationship has no to-many fault") }
    /// The join-table statements of the side the caller knows names the join table (and, for reorder, is ordered).
    var primaryJoinInsert: String { Self.required(joinInsert, "only the side that names a join table inserts into it") }
    var primaryJoinDelete: String { Self.required(joinDelete, "only the side that names a join table deletes from it") }
    var orderedJoinReorder: String { Self.required(joinReorder, "only an ordered many-to-many reorders its join table") }

    private static func required(_ statement: String?, _ otherwise: @autoclosure () -> String) -> String {
        guard let statement else { preconditionFailure(otherwise()) }
        return statement
    }

    init(_ relationship: RelationshipDescription) {
        let destination = relationship.destination
        // Built in order by the compiler: every entity's SQL before its relationships', every column in its root's table.
        // swift-format-ignore: NeverForceUnwrap
        let sql = destination.sql!
        let table = destination.tableName
        if let join = relationship.joinTable, join.isPrimarySide {
            let columns = [join.sourceColumn, join.destinationColumn] + [join.orderColumn, join.inverseOrderColumn].compactMap { $0 }
            joinInsert =
                "INSERT OR REPLACE INTO \(join.tableName)(\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
            joinDelete = "DELETE FROM \(join.tableName) WHERE \(join.sourceColumn) = ? AND \(join.destinationColumn) = ?"
        } else {
            joinInsert = nil
            joinDelete = nil
        }
        if let join = relationship.joinTable, let order = join.orderColumn {
            let (source, destination) =
                join.isPrimarySide ? (join.sourceColumn, join.destinationColumn) : (join.destinationColumn, join.sourceColumn)
            joinReorder = "UPDATE OR FAIL \(join.tableName) SET \(order) = ? WHERE \(source) = ? AND \(destination) = ?"
        } else {
            joinReorder = nil
        }
        switch relationship.kind {
        case .manyToOne, .oneToOne, .oneToNil:
            fault = nil
            prefetch = sql.rowsByPrimaryKeys
            ownerColumn = 1
        case .oneToMany, .manyToNil:
            let column = relationship.columnName
            let order = relationship.isOrdered ? "ORDER BY t0.\(relationship.orderColumnName)" : ""
            fault = "\(sql.head)t0.Z_PK FROM \(table) t0 WHERE  t0.\(column) = ? \(order)"
            prefetch =
                "\(sql.selectRows)WHERE  t0.\(column) IN (SELECT * FROM _Z_intarray0)  ORDER BY t0.\(column)"
                + (relationship.isOrdered ? ", t0.\(relationship.orderColumnName)" : "")
            // Built in order by the compiler: every entity's SQL before its relationships', every column in its root's table.
            // swift-format-ignore: NeverForceUnwrap
            ownerColumn = 3 + Int32(sql.selectColumns.firstIndex { $0.name == column }!)
        case .manyToMany:
            // An ordered side also reads each member's order key (inferred: Core Data needs it to place inserts).
            let join = relationship.join
            let order = join.orderColumn.map { " ORDER BY t1.\($0)" } ?? ""
            let orderColumn = join.orderColumn.map { ", t1.\($0)" } ?? ""
            fault =
                "\(sql.head)t0.Z_PK\(orderColumn) FROM \(join.tableName) t1 JOIN \(table) t0 ON t0.Z_PK = t1.\(join.destinationColumn) WHERE t1.\(join.sourceColumn) = ?\(order)"
            prefetch =
                "\(sql.head)\(sql.rowColumns), t1.\(join.sourceColumn)\(orderColumn) FROM \(table) t0 JOIN \(join.tableName) t1 ON t0.Z_PK = t1.\(join.destinationColumn) WHERE  t1.\(join.sourceColumn) IN (SELECT * FROM _Z_intarray0)  ORDER BY t1.\(join.sourceColumn)"
                + orderColumn
            ownerColumn = 3 + Int32(sql.selectColumns.count)
        }
    }
}
