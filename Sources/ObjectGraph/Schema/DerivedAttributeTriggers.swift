/// The triggers that keep derived attributes up to date, named and shaped as Core Data's
/// (decompiled NSSQLDerivedAttributeSQLGenerator; the `now()` trigger and the `@count` arithmetic are confirmed by
/// a published store). Each reports the new value through `NSCoreDataDATriggerUpdatedAffectedObjectValue` (or the
/// `Insert` variant for a row just inserted), so that the saving context can update its objects.
extension SchemaBuilder {
    var triggers: [String] {
        var sql: [String] = []
        for entity in model.entities {
            for derived in entity.ownDerivedAttributes {
                sql += Self.triggers(for: derived)
            }
        }
        return sql
    }

    static func triggers(for derived: DerivedAttributeDescription) -> [String] {
        let entity = derived.entity
        let owner = entity.tableName
        let column = derived.columnName
        let name = derived.name
        let ownRows = ownerCondition(entity)
        func report(_ table: String, _ condition: String, inserted: Bool = false) -> String {
            "SELECT NSCoreDataDATrigger\(inserted ? "Insert" : "")UpdatedAffectedObjectValue('\(table)', Z_ENT, Z_PK, '\(name)', \(column)) FROM \(table) WHERE \(condition);"
        }
        switch derived.kind {
        case .count, .aggregate(.sum, _, _):
            let relationship = derived.throughRelationship
            let sumColumn = derived.sourceAttribute?.columnName
            let (memberTable, key) = memberKey(relationship)
            let prefix = "Z_DA_\(memberTable)_\(entity.name)_\(name)_PARAMETER"
            let plus = sumColumn.map { "IFNULL(NEW.\($0), 0)" } ?? "1"
            let minus = sumColumn.map { "IFNULL(OLD.\($0), 0)" } ?? "1"
            let aggregate = sumColumn.map { "IFNULL(SUM(\($0)), 0)" } ?? "IFNULL(COUNT(\(key)), 0)"
            let watched = sumColumn.map { "\(key), \($0)" } ?? key
            var sql = [
                "CREATE TRIGGER IF NOT EXISTS \(prefix)_INSERT AFTER INSERT ON \(memberTable) FOR EACH ROW WHEN (NEW.\(key) NOT NULL) BEGIN UPDATE \(owner) SET \(column) = IFNULL(\(column), 0) + \(plus) WHERE Z_PK = NEW.\(key); \(report(owner, "Z_PK = NEW.\(key)")) END"
            ]
            if relationship.kind != .manyToMany {
                sql.append(
                    "CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_INCREMENT AFTER UPDATE OF \(watched) ON \(memberTable) FOR EACH ROW WHEN (NEW.\(key) NOT NULL) BEGIN UPDATE \(owner) SET \(column) = \(column) + \(plus) WHERE Z_PK = NEW.\(key); \(report(owner, "Z_PK = NEW.\(key)")) END"
                )
                sql.append(
                    "CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_DECREMENT AFTER UPDATE OF \(watched) ON \(memberTable) FOR EACH ROW WHEN (OLD.\(key) NOT NULL) BEGIN UPDATE \(owner) SET \(column) = \(column) - \(minus) WHERE Z_PK = OLD.\(key); \(report(owner, "Z_PK = OLD.\(key)")) END"
                )
            }
            sql.append(
                "CREATE TRIGGER IF NOT EXISTS \(prefix)_DELETE AFTER DELETE ON \(memberTable) FOR EACH ROW WHEN (OLD.\(key) NOT NULL) BEGIN UPDATE \(owner) SET \(column) = \(column) - \(minus) WHERE Z_PK = OLD.\(key); \(report(owner, "Z_PK = OLD.\(key)")) END"
            )
            sql.append(
                "CREATE TRIGGER IF NOT EXISTS Z_DA_\(owner)_\(entity.name)_\(name)_SOURCE_INSERT AFTER INSERT ON \(owner) FOR EACH ROW\(ownRows) BEGIN UPDATE \(owner) SET \(column) = (SELECT \(aggregate) FROM \(memberTable) WHERE \(key) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; \(report(owner, "Z_PK = NEW.Z_PK", inserted: true)) END"
            )
            return sql
        case let .aggregate(function, _, _):
            let relationship = derived.throughRelationship
            let value = derived.readAttribute.columnName
            let (memberTable, key) = memberKey(relationship)
            let prefix = "Z_DA_\(memberTable)_\(entity.name)_\(name)"
            let (better, sqlFunction) = function == .max ? (">", "MAX") : ("<", "MIN")
            let recompute =
                "UPDATE \(owner) SET \(column) = (SELECT \(sqlFunction)(\(value)) FROM \(memberTable) WHERE \(key) = OLD.\(key)) WHERE Z_PK = OLD.\(key) AND OLD.\(value) \(better)= \(column);"
            let improve =
                "UPDATE \(owner) SET \(column) = NEW.\(value) WHERE Z_PK = NEW.\(key) AND (\(column) IS NULL OR NEW.\(value) \(better) \(column)); \(report(owner, "Z_PK = NEW.\(key) AND (\(column) IS NULL OR NEW.\(value) \(better)= \(column))"))"
            return [
                "CREATE TRIGGER IF NOT EXISTS \(prefix)_INSERT AFTER INSERT ON \(memberTable) FOR EACH ROW WHEN (NEW.\(key) NOT NULL AND NEW.\(value) NOT NULL) BEGIN \(improve) END",
                "CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_SET AFTER UPDATE OF \(key), \(value) ON \(memberTable) FOR EACH ROW WHEN (NEW.\(key) NOT NULL AND NEW.\(value) NOT NULL) BEGIN \(improve) END",
                "CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE_UNSET AFTER UPDATE OF \(key), \(value) ON \(memberTable) FOR EACH ROW WHEN (OLD.\(key) NOT NULL AND OLD.\(value) NOT NULL) BEGIN \(recompute) \(report(owner, "Z_PK = OLD.\(key)")) END",
                "CREATE TRIGGER IF NOT EXISTS \(prefix)_DELETE AFTER DELETE ON \(memberTable) FOR EACH ROW WHEN (OLD.\(key) NOT NULL AND OLD.\(value) NOT NULL) BEGIN \(recompute) \(report(owner, "Z_PK = OLD.\(key)")) END",
                "CREATE TRIGGER IF NOT EXISTS Z_DA_\(owner)_\(entity.name)_\(name)_INSERT AFTER INSERT ON \(owner) FOR EACH ROW\(ownRows) BEGIN UPDATE \(owner) SET \(column) = (SELECT \(sqlFunction)(\(value)) FROM \(memberTable) WHERE \(key) = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; \(report(owner, "Z_PK = NEW.Z_PK", inserted: true)) END",
            ]
        case .toOneKeyPath:
            let relationship = derived.throughRelationship
            let destination = relationship.destination.tableName
            let key = relationship.columnName
            let value = derived.readAttribute.columnName
            let lookup = "(SELECT \(value) FROM \(destination) WHERE Z_PK = NEW.\(key))"
            let source = "Z_DA_\(owner)_\(entity.name)_\(name)_SOURCE"
            let parameter = "Z_DA_\(destination)_\(entity.name)_\(name)_PARAMETER"
            return [
                "CREATE TRIGGER IF NOT EXISTS \(source)_INSERT AFTER INSERT ON \(owner) FOR EACH ROW\(ownRows) BEGIN UPDATE \(owner) SET \(column) = \(lookup) WHERE Z_PK = NEW.Z_PK; \(report(owner, "Z_PK = NEW.Z_PK", inserted: true)) END",
                "CREATE TRIGGER IF NOT EXISTS \(source)_UPDATE AFTER UPDATE OF \(key) ON \(owner) FOR EACH ROW\(ownRows) BEGIN UPDATE \(owner) SET \(column) = \(lookup) WHERE Z_PK = NEW.Z_PK; \(report(owner, "Z_PK = NEW.Z_PK")) END",
                "CREATE TRIGGER IF NOT EXISTS \(parameter)_INSERT AFTER INSERT ON \(destination) FOR EACH ROW BEGIN UPDATE \(owner) SET \(column) = NEW.\(value) WHERE \(key) = NEW.Z_PK; \(report(owner, "\(key) = NEW.Z_PK", inserted: true)) END",
                "CREATE TRIGGER IF NOT EXISTS \(parameter)_UPDATE AFTER UPDATE OF \(value) ON \(destination) FOR EACH ROW BEGIN UPDATE \(owner) SET \(column) = NEW.\(value) WHERE \(key) = NEW.Z_PK; \(report(owner, "\(key) = NEW.Z_PK")) END",
            ]
        case let .ownAttribute(function, _):
            let value = derived.readAttribute.columnName
            let token: String
            switch function {
            case .copy: token = "NEW.\(value)"
            case .canonical: token = "NSCoreDataCanonical(NEW.\(value))"
            case .uppercase: token = "NSCoreDataToUpper(NEW.\(value))"
            case .lowercase: token = "NSCoreDataToLower(NEW.\(value))"
            }
            return ownRowTriggers(derived, token: token, watching: value, condition: ownRows)
        case .now:
            return ownRowTriggers(derived, token: "NSCoreDataNow()", watching: "Z_OPT", condition: ownRows)
        }
    }

    /// An insert trigger and an update trigger on the owner's own row (Core Data's real `now()` trigger:
    /// `Z_DA_ZITEM_Item_update_UPDATE AFTER UPDATE OF Z_OPT ON ZITEM ... SET ZUPDATE = NSCoreDataNow() ...`).
    private static func ownRowTriggers(
        _ derived: DerivedAttributeDescription, token: String, watching: String, condition: String
    ) -> [String] {
        let entity = derived.entity
        let owner = entity.tableName
        let column = derived.columnName
        let prefix = "Z_DA_\(owner)_\(entity.name)_\(derived.name)"
        func body(_ inserted: Bool) -> String {
            "BEGIN UPDATE \(owner) SET \(column) = \(token) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATrigger\(inserted ? "Insert" : "")UpdatedAffectedObjectValue('\(owner)', Z_ENT, Z_PK, '\(derived.name)', \(column)) FROM \(owner) WHERE Z_PK = NEW.Z_PK; END"
        }
        return [
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_INSERT AFTER INSERT ON \(owner) FOR EACH ROW\(condition) \(body(true))",
            "CREATE TRIGGER IF NOT EXISTS \(prefix)_UPDATE AFTER UPDATE OF \(watching) ON \(owner) FOR EACH ROW\(condition) \(body(false))",
        ]
    }

    /// The table holding a to-many's member keys and the column naming the owner: the destination and its
    /// foreign key (or hidden owner column), or the join table and the owner's column.
    private static func memberKey(_ relationship: RelationshipDescription) -> (String, String) {
        if relationship.kind == .manyToMany {
            let join = relationship.join
            return (join.tableName, join.sourceColumn)
        }
        return (relationship.destination.tableName, relationship.columnName)
    }

    /// ` WHEN (NEW.Z_ENT ...)` restricting an owner-row trigger to the entity's sub-tree when it shares its table
    /// with other entities (inferred: Core Data adds an entity condition for inheritance).
    private static func ownerCondition(_ entity: EntityDescription) -> String {
        guard entity.parent != nil else { return "" }
        if entity.subentities.isEmpty { return " WHEN (NEW.Z_ENT = \(entity.number))" }
        return " WHEN (NEW.Z_ENT >= \(entity.number) AND NEW.Z_ENT <= \(entity.subtreeMaxNumber))"
    }
}
