/// The DDL of a model's store, in Core Data's shapes and order (coredata-facts §1).
///
/// Order, as the creation order (`rowid`) of real stores' `sqlite_master` shows it: each root entity in
/// entity-number order with its table, the join tables its hierarchy owns, then that hierarchy's indexes (the
/// foreign-key indexes of the root's table by column name, the join-table indexes, the Z_ENT index of a root with
/// sub-entities, indexed attributes and fetch indexes, uniqueness indexes); then Z_PRIMARYKEY, Z_METADATA and
/// Z_MODELCACHE; then the derived attributes' triggers. Both stores of shared/real-stores put a table's index
/// before the next table; Bear's `.dump` (tables first, indexes at the end, each in creation order) agrees.
struct SchemaBuilder {
    let model: ObjectModel

    static let primaryKeyTable = "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    static let metadataTable = "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    static let modelCacheTable = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    var statements: [String] {
        var sql: [String] = []
        for root in model.entities where root.parent == nil {
            sql.append(createTable(root))
            for join in joinTables(ownedIn: root.subtree) { sql.append(createJoinTable(join)) }
            sql += indexes(of: root.subtree)
        }
        return sql + [Self.primaryKeyTable, Self.metadataTable, Self.modelCacheTable] + triggers
    }

    /// The indexes of `entities`' tables, entity by entity.
    func indexes(of entities: some Sequence<EntityDescription>) -> [String] {
        var sql: [String] = []
        for entity in entities {
            let table = entity.tableName
            if entity.parent == nil {
                for column in entity.tableColumns.filter(\.hasForeignKeyIndex).sorted(by: {
                    $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
                }) {
                    sql.append("CREATE INDEX \(table)_\(column.name)_INDEX ON \(table) (\(column.name))")
                }
            }
            for join in joinTables(ownedIn: [entity]) where join.hasReverseIndex {
                sql.append(
                    "CREATE INDEX \(join.tableName)_\(join.destinationColumn)_INDEX ON \(join.tableName) (\(join.destinationColumn), \(join.sourceColumn))"
                )
            }
            if entity.parent == nil && !entity.subentities.isEmpty {
                sql.append("CREATE INDEX \(table)_Z_ENT_INDEX ON \(table) (Z_ENT)")
            }
            for attribute in entity.ownStoredAttributes where attribute.isIndexed {
                sql.append(createIndex(entity, name: attribute.name, columns: [(attribute.columnName, true)], unique: false))
            }
            for index in entity.fetchIndexes {
                // The model compiler refused an index or constraint naming no stored property.
                // swift-format-ignore: NeverForceUnwrap
                let columns = index.elements.map { (ModelCompiler.indexColumnName($0.property, of: entity)!, $0.ascending) }
                sql.append(createIndex(entity, name: index.name, columns: columns, unique: false))
            }
            for constraint in entity.uniquenessConstraints {
                // The model compiler refused an index or constraint naming no stored property.
                // swift-format-ignore: NeverForceUnwrap
                let columns = constraint.map { (ModelCompiler.indexColumnName($0, of: entity)!, true) }
                sql.append(createIndex(entity, name: "UNIQUE_" + constraint.joined(separator: "_"), columns: columns, unique: true))
            }
        }
        return sql
    }

    /// `CREATE TABLE`, columns ranked by type as Core Data's `sortColumnsByType` does (a stable sort): integers,
    /// then floats and timestamps, then decimals, then text, then blobs; within a rank, in layout order.
    ///
    /// Decimals rank on their own: a real Cog store (losnoco/XPCog's fixture, `sqlite3 .schema` of Cog 3633's
    /// DataModel.sqlite) has `ZSAMPLERATE FLOAT, ZVOLUME FLOAT, ZSPOTLIGHTLENGTH DECIMAL, ZARTHASH VARCHAR`, and
    /// MoneyWell's tables put `ZAMOUNT DECIMAL` after every TIMESTAMP column and before the VARCHAR ones.
    func createTable(_ root: EntityDescription) -> String {
        func rank(_ column: Column) -> Int {
            switch column.sqlType {
            case "INTEGER": return 0
            case "FLOAT", "TIMESTAMP": return 1
            case "DECIMAL": return 2
            case "VARCHAR": return 3
            default: return 4
            }
        }
        let ranked = root.tableColumns.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
        let columns =
            ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + ranked.map { "\($0.element.name) \($0.element.sqlType)" }
        return "CREATE TABLE \(root.tableName) ( \(columns.joined(separator: ", ")) )"
    }

    func createJoinTable(_ join: JoinTable) -> String {
        var columns = ["\(join.sourceColumn) INTEGER", "\(join.destinationColumn) INTEGER"]
        if let order = join.orderColumn { columns.append("\(order) INTEGER") }
        if let inverseOrder = join.inverseOrderColumn { columns.append("\(inverseOrder) INTEGER") }
        columns.append("PRIMARY KEY (\(join.sourceColumn), \(join.destinationColumn))")
        return "CREATE TABLE \(join.tableName) ( \(columns.joined(separator: ", ")) )"
    }

    /// `CREATE [UNIQUE ]INDEX Z_<Entity>_<name> ON <TABLE> (<COLUMN> COLLATE BINARY ASC, ...)` (decompiled
    /// NSSQLBinaryIndex; real stores: `Z_Asset_byDateCreatedIndex`, `Z_Keyword_UNIQUE_title`).
    private func createIndex(_ entity: EntityDescription, name: String, columns: [(String, Bool)], unique: Bool) -> String {
        let elements = columns.map { "\($0.0) COLLATE BINARY \($0.1 ? "ASC" : "DESC")" }.joined(separator: ", ")
        return "CREATE \(unique ? "UNIQUE " : "")INDEX Z_\(entity.name)_\(name) ON \(entity.tableName) (\(elements))"
    }

    /// The join tables whose naming side is declared by one of `entities`, by table name.
    private func joinTables(ownedIn entities: some Sequence<EntityDescription>) -> [JoinTable] {
        let owners = Set(entities.map(ObjectIdentifier.init))
        var tables: [JoinTable] = []
        for entity in entities where owners.contains(ObjectIdentifier(entity)) {
            for relationship in entity.ownRelationships {
                if let join = relationship.joinTable, join.isPrimarySide { tables.append(join) }
            }
        }
        return tables.sorted { $0.tableName.utf8.lexicographicallyPrecedes($1.tableName.utf8) }
    }
}
