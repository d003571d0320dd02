/// The statements an entity's objects run again and again, in the shapes of Core Data's SQLDebug log
/// (coredata-facts §3), built once per entity.
struct EntitySQL {
    /// `t0.Z_PK, t0.Z_OPT, t0.ZNAME, ...`: every column a row snapshot needs, in row order.
    let rowColumns: String
    /// `SELECT 0, t0.Z_PK, t0.Z_OPT, ... FROM ZSTUDENT t0`
    let selectRows: String
    /// `SELECT 0, t0.Z_PK FROM ZSTUDENT t0`: object IDs only.
    let selectIDs: String
    /// One object fault: `... WHERE t0.Z_PK = ? LIMIT 1`.
    let fault: String
    /// One batch of a batched fetch: `SELECT 0, ... WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)`.
    /// The leading constant stands for the entity column of an entity without sub-entities, so it is 0 as in
    /// every other fetch; the `SELECT 1, t0.Z_PK, t0.ZNAME ...` of coredata-facts §3 came from a request with
    /// propertiesToFetch, where Core Data writes the entity number instead (decompiled NSSQLGenerator).
    let batchPrefix: String
    /// Rows whose primary key is in `_Z_intarray0` (to-one prefetch).
    let rowsByPrimaryKeys: String
    /// `INSERT INTO ZSTUDENT(Z_PK, Z_ENT, Z_OPT, <keys>, <attributes>) VALUES(?, ...)`: keys first, as Core Data.
    let insert: String
    let delete: String
    let maxPrimaryKey = "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"
    let reservePrimaryKeys = "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?"

    init(entity: EntityDescription) {
        let table = entity.tableName
        rowColumns = (["t0.Z_PK", "t0.Z_OPT"] + entity.columns.map { "t0.\($0.name)" }).joined(separator: ", ")
        selectRows = "SELECT 0, \(rowColumns) FROM \(table) t0"
        selectIDs = "SELECT 0, t0.Z_PK FROM \(table) t0"
        fault = "\(selectRows) WHERE t0.Z_PK = ? LIMIT 1"
        batchPrefix = "SELECT 0, \(rowColumns) FROM \(table) t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)"
        rowsByPrimaryKeys = "\(selectRows) WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)"
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + entity.insertOrder.map { entity.columns[$0].name }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        insert = "INSERT INTO \(table)(\(names.joined(separator: ", "))) VALUES(\(placeholders))"
        delete = "DELETE FROM \(table) WHERE Z_PK = ? AND Z_OPT = ?"
    }

    /// `UPDATE OR FAIL ZSTUDENT SET ZNAME = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?` for the changed columns.
    static func update(_ entity: EntityDescription, columns: [Int]) -> String {
        let sets = columns.map { "\(entity.columns[$0].name) = ?" } + ["Z_OPT = ?"]
        return "UPDATE OR FAIL \(entity.tableName) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ? AND Z_OPT = ?"
    }
}

/// The statements of one relationship: its to-many fault and its prefetch.
struct RelationshipSQL {
    /// Member IDs of one owner (a to-many fault).
    let fault: String?
    /// Destination rows for every owner in `_Z_intarray0`, sorted by owner, with the owner key in the
    /// column at `ownerColumn` (0-based, counting the leading constant).
    let prefetch: String
    let ownerColumn: Int32
    /// On the side of a many-to-many that names the join table: `INSERT OR REPLACE INTO Z_1SUBJECTS(...) VALUES (?, ?)`
    /// and `DELETE FROM Z_1SUBJECTS WHERE ... = ? AND ... = ?`.
    let joinInsert: String?
    let joinDelete: String?

    init(_ relationship: RelationshipDescription) {
        let destination = relationship.destination!
        let rows = destination.sql.rowColumns
        let table = destination.tableName
        let keyColumnBase: Int32 = 3 // the leading constant, Z_PK, Z_OPT
        if let join = relationship.joinTable, join.isPrimarySide {
            joinInsert = "INSERT OR REPLACE INTO \(join.tableName)(\(join.sourceColumn), \(join.destinationColumn)) VALUES (?, ?)"
            joinDelete = "DELETE FROM \(join.tableName) WHERE \(join.sourceColumn) = ? AND \(join.destinationColumn) = ?"
        } else {
            joinInsert = nil
            joinDelete = nil
        }
        switch relationship.kind {
        case .manyToOne, .oneToOne, .oneToNil:
            fault = nil
            prefetch = destination.sql.rowsByPrimaryKeys
            ownerColumn = 1
        case .oneToMany, .manyToNil:
            let column = relationship.columnName
            fault = "SELECT 0, t0.Z_PK FROM \(table) t0 WHERE t0.\(column) = ?"
            prefetch = "SELECT 0, \(rows) FROM \(table) t0 WHERE t0.\(column) IN (SELECT * FROM _Z_intarray0) ORDER BY t0.\(column)"
            ownerColumn = keyColumnBase + Int32(relationship.slot)
        case .manyToMany:
            let join = relationship.joinTable!
            fault = "SELECT 0, t0.Z_PK FROM \(join.tableName) t1 JOIN \(table) t0 ON t0.Z_PK = t1.\(join.destinationColumn) WHERE t1.\(join.sourceColumn) = ?"
            prefetch = "SELECT 0, \(rows), t1.\(join.sourceColumn) FROM \(table) t0 JOIN \(join.tableName) t1 ON t0.Z_PK = t1.\(join.destinationColumn) WHERE t1.\(join.sourceColumn) IN (SELECT * FROM _Z_intarray0) ORDER BY t1.\(join.sourceColumn)"
            ownerColumn = keyColumnBase + Int32(destination.columns.count)
        }
    }
}
