/// The DDL of a model's store, in Core Data's shapes (coredata-facts §1).
struct SchemaBuilder {
    let model: ObjectModel

    static let primaryKeyTable = "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    static let metadataTable = "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    static let modelCacheTable = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// Entity tables with their indexes, join tables with theirs, system tables, then derived-attribute triggers.
    var statements: [String] {
        var sql: [String] = []
        for entity in model.entities {
            sql.append(createTable(entity))
            for column in entity.columns where column.isIndexed {
                sql.append("CREATE INDEX \(entity.tableName)_\(column.name)_INDEX ON \(entity.tableName) (\(column.name))")
            }
        }
        for join in model.joinTables {
            sql.append("CREATE TABLE \(join.tableName) ( \(join.sourceColumn) INTEGER, \(join.destinationColumn) INTEGER, PRIMARY KEY (\(join.sourceColumn), \(join.destinationColumn)) )")
            sql.append("CREATE INDEX \(join.tableName)_\(join.destinationColumn)_INDEX ON \(join.tableName) (\(join.destinationColumn), \(join.sourceColumn))")
        }
        sql.append(Self.primaryKeyTable)
        sql.append(Self.metadataTable)
        sql.append(Self.modelCacheTable)
        return sql + derivedAttributeTriggers
    }

    /// `CREATE TABLE`, columns ranked by type as Core Data's `sortColumnsByType` does: integers (attributes,
    /// then foreign keys), then floats and timestamps, then text, then blobs; by name within a rank.
    func createTable(_ entity: EntityDescription) -> String {
        func rank(_ column: Column) -> Int {
            switch column.sqlType {
            case "INTEGER": return 0
            case "FLOAT", "TIMESTAMP": return 1
            case "VARCHAR": return 2
            default: return 3
            }
        }
        let ranked = entity.columns.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }
        let columns = ["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"]
            + ranked.map { "\($0.element.name) \($0.element.sqlType)" }
        return "CREATE TABLE \(entity.tableName) ( \(columns.joined(separator: ", ")) )"
    }
}

extension SchemaBuilder {
    /// Triggers that keep derived `<toMany>.@count` columns up to date, named and shaped as Core Data's
    /// `Z_DA_<TABLE>_<Entity>_<attribute>_<EVENT>` triggers; each reports the new value through
    /// `NSCoreDataDATriggerUpdatedAffectedObjectValue` so that the saving context can update its objects.
    var derivedAttributeTriggers: [String] {
        var sql: [String] = []
        for entity in model.entities {
            for derived in entity.derivedAttributes {
                sql += Self.triggers(for: derived)
            }
        }
        return sql
    }

    static func triggers(for derived: DerivedAttributeDescription) -> [String] {
        let owner = derived.entity.tableName
        let column = derived.columnName
        let prefix = "Z_DA_\(owner)_\(derived.entity.name)_\(derived.name)"
        let relationship = derived.relationship!
        func body(_ delta: String, _ key: String) -> String {
            "BEGIN UPDATE \(owner) SET \(column) = IFNULL(\(column), 0) \(delta) 1 WHERE Z_PK = \(key); "
                + "SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('\(owner)', Z_ENT, Z_PK, '\(derived.name)', \(column)) "
                + "FROM \(owner) WHERE Z_PK = \(key); END"
        }
        let memberTable: String
        let key: String
        switch relationship.kind {
        case .manyToMany:
            let join = relationship.joinTable!
            memberTable = join.tableName
            key = join.sourceColumn
        default:
            memberTable = relationship.destination.tableName
            key = relationship.columnName
        }
        var sql = [
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_INSERT AFTER INSERT ON \(memberTable) FOR EACH ROW WHEN (NEW.\(key) NOT NULL) \(body("+", "NEW.\(key)"))",
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_DELETE AFTER DELETE ON \(memberTable) FOR EACH ROW WHEN (OLD.\(key) NOT NULL) \(body("-", "OLD.\(key)"))",
        ]
        if relationship.kind != .manyToMany {
            sql.append("CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_INCREMENT AFTER UPDATE OF \(key) ON \(memberTable) FOR EACH ROW WHEN (NEW.\(key) NOT NULL AND (OLD.\(key) IS NULL OR NEW.\(key) != OLD.\(key))) \(body("+", "NEW.\(key)"))")
            sql.append("CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_DECREMENT AFTER UPDATE OF \(key) ON \(memberTable) FOR EACH ROW WHEN (OLD.\(key) NOT NULL AND (NEW.\(key) IS NULL OR NEW.\(key) != OLD.\(key))) \(body("-", "OLD.\(key)"))")
        }
        return sql
    }
}
