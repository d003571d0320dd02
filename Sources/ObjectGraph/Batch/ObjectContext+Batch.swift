/// Executing batch requests: straight to the store, bypassing the context (its objects, the row cache and other
/// contexts learn nothing until the result's changes are merged), as Core Data documents for SQLite stores.
extension ObjectContext {
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        try checkThread()
        let entity = try model.requireEntity(request.entityName)
        guard !entity.isAbstract else {
            throw ObjectGraphError.invalidOperation(
                "cannot batch-insert objects of abstract entity \(entity.name); name one of its sub-entities")
        }
        let attributes = entity.storedAttributes
        for (index, object) in request.objects.enumerated() {
            for name in object.keys.sorted() where entity.attribute(name).map({ $0.isTransient }) ?? true {
                throw ObjectGraphError.invalidOperation(
                    "batch insert object \(index): '\(name)' is not a stored attribute of \(entity.name) (relationships cannot be set by a batch insert)"
                )
            }
            for attribute in attributes where !attribute.isOptional && (object[attribute.name] ?? attribute.defaultValue).isNull {
                throw ObjectGraphError.validation(
                    object: "batch insert object \(index) of \(entity.name)", property: attribute.name,
                    reason: "\"\(attribute.name) is a required value.\" (NSValidationMissingMandatoryPropertyError, 1570)")
            }
        }
        guard !request.objects.isEmpty else { return BatchResult(status: true, objectIDs: [], count: 0, changes: SaveNotification()) }
        let columns = entity.insertOrder.map { entity.columns[$0] }
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.name)
        var sql =
            "INSERT INTO \(entity.tableName)(\(names.joined(separator: ", "))) VALUES(\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
        if let constraint = entity.root.subtree.flatMap(\.uniquenessConstraints).first {
            let keys = constraint.compactMap { ModelCompiler.indexColumnName($0, of: entity) }
            if mergePolicy == .mergeByPropertyObjectTrump || mergePolicy == .overwrite {
                let others = columns.filter { column in
                    !keys.contains(column.name) && { if case .attribute = column.kind { return true } else { return false } }()
                }
                sql +=
                    " ON CONFLICT(\(keys.joined(separator: " , "))) DO UPDATE SET Z_OPT = Z_OPT+1"
                    + others.map { " , \($0.name) = excluded.\($0.name)" }.joined()
            } else {
                sql = "INSERT OR IGNORE INTO" + sql.dropFirst("INSERT INTO".count)
            }
        }
        var insertedIDs: [ObjectID] = []
        try execute("BEGIN EXCLUSIVE", .other)
        do {
            // Every compiled entity has its root.
            // swift-format-ignore: NeverForceUnwrap
            let root = entity.root!
            let select = try statement(root.sql.maxPrimaryKey)
            select.bind(Int64(root.number), at: 1)
            var max: Int64 = 0
            try query(select, .other) { max = $0.int64(0) }
            let update = try statement(root.sql.reservePrimaryKeys)
            update.bind(max + Int64(request.objects.count), at: 1)
            update.bind(Int64(root.number), at: 2)
            update.bind(max, at: 3)
            guard try execute(update, .other) == 1 else {
                throw ObjectGraphError.sqlite(code: 19, message: "Z_PRIMARYKEY changed under the batch insert", sql: update.sql)
            }
            let insert = try statement(sql)
            for (offset, object) in request.objects.enumerated() {
                let key = max + 1 + Int64(offset)
                insert.bind(key, at: 1)
                insert.bind(Int64(entity.number), at: 2)
                insert.bind(Int64(1), at: 3)
                for (index, column) in columns.enumerated() {
                    var value: Value = .null
                    switch column.kind {
                    case let .attribute(attribute):
                        value = (object[attribute.name] ?? attribute.defaultValue).normalized(for: attribute.type)
                    case let .derived(derived): value = ColumnLayout.initialValue(of: derived)
                    default: break
                    }
                    insert.bind(value, at: Int32(index + 4))
                }
                if try execute(insert, .insert) > 0 {
                    insertedIDs.append(
                        ObjectID(entity: entity, primaryKey: key, temporaryNumber: 0, storeIdentifier: store.identifier, model: model))
                }
            }
            try execute("COMMIT", .other)
        } catch {
            try? execute("ROLLBACK", .other)
            throw error
        }
        store.derivedValues.updates = []
        let changes = SaveNotification(inserted: insertedIDs)
        return BatchResult(
            status: true, objectIDs: request.resultType == .objectIDs ? insertedIDs : [],
            count: insertedIDs.count, changes: changes)
    }

    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        try checkThread()
        let entity = try model.requireEntity(request.entityName)
        guard !request.propertiesToUpdate.isEmpty else {
            throw ObjectGraphError.invalidOperation("a batch update needs propertiesToUpdate")
        }
        var sets: [(String, Value)] = []
        for (name, value) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
            guard let attribute = entity.attribute(name), !attribute.isTransient else {
                throw ObjectGraphError.invalidOperation(
                    "batch update of \(entity.name): '\(name)' is not a stored attribute (relationships cannot be changed by a batch update)"
                )
            }
            sets.append((attribute.columnName, value.normalized(for: attribute.type)))
        }
        var fetch = FetchRequest(entity.name, predicate: request.predicate)
        fetch.includesSubentities = request.includesSubentities
        let condition = try batchCondition(fetch, entity: entity)
        let ids = request.resultType == .objectIDs ? try matchingIDs(fetch, entity: entity) : []
        let alias = condition.text == nil ? "" : " AS t0"
        var sql =
            "UPDATE OR FAIL \(entity.tableName)\(alias) SET " + sets.map { "\($0.0) = ?" }.joined(separator: ", ")
            + ", Z_OPT = (Z_OPT + 1) "
        if let text = condition.text { sql += "WHERE \(text) " }
        let update = try statement(sql)
        for (index, (_, value)) in sets.enumerated() { update.bind(value, at: Int32(index + 1)) }
        for (index, value) in condition.bindings.enumerated() { update.bind(value, at: Int32(sets.count + index + 1)) }
        let changed = try execute(update, .update)
        store.derivedValues.updates = []
        return BatchResult(status: true, objectIDs: ids, count: changed, changes: SaveNotification(updated: ids))
    }

    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        try checkThread()
        let entity = try model.requireEntity(request.entityName)
        for member in entity.subtree {
            for relationship in member.relationships where relationship.deleteRule == .deny {
                throw ObjectGraphError.invalidOperation(
                    "Delete rule is not supported for batch deletes (Core Data: NSCoreDataError 134060): \(relationship.qualifiedName) has the Deny rule; delete through a context instead"
                )
            }
        }
        var idList: ContiguousArray<Int64>?
        if let objectIDs = request.objectIDs {
            guard objectIDs.allSatisfy({ $0.entity.isKind(of: entity) && !$0.isTemporary }) else {
                throw ObjectGraphError.invalidOperation(
                    "a batch delete's object IDs must be saved IDs of one entity (\(entity.name)); mixing entity types is an error")
            }
            idList = ContiguousArray(objectIDs.map(\.primaryKey))
        }
        let fetch = FetchRequest(entity.name, predicate: request.predicate)
        let ids: [ObjectID]
        if let objectIDs = request.objectIDs {
            ids = objectIDs
        } else if request.resultType == .objectIDs {
            ids = try matchingIDs(fetch, entity: entity)
        } else {
            ids = []
        }
        let triggers = BatchDeleteTriggers(root: entity.root).statements
        var selection: String
        var bindings: [Value] = []
        if idList != nil {
            selection = "SELECT * FROM _Z_intarray0"
        } else {
            let condition = try batchCondition(fetch, entity: entity)
            selection = "SELECT t0.Z_PK FROM \(entity.tableName) t0 " + (condition.text.map { "WHERE \($0) " } ?? "")
            bindings = condition.bindings
        }
        var changed = 0
        try execute("BEGIN EXCLUSIVE", .other)
        do {
            for create in triggers.create { try execute(create, .other) }
            if let idList { bindIDList(idList) }
            let delete = try statement("DELETE FROM \(entity.tableName) WHERE Z_PK IN (\(selection))")
            for (index, value) in bindings.enumerated() { delete.bind(value, at: Int32(index + 1)) }
            changed = try execute(delete, .delete)
            for drop in triggers.drop { try execute(drop, .other) }
            try execute("COMMIT", .other)
        } catch {
            try? execute("ROLLBACK", .other)
            for drop in triggers.drop { try? store.connection.execute(drop) }
            throw error
        }
        store.derivedValues.updates = []
        return BatchResult(
            status: true, objectIDs: request.resultType == .objectIDs ? ids : [], count: changed,
            changes: SaveNotification(deleted: ids))
    }

    /// The WHERE text of a batch request's predicate (no joins: Core Data refuses key paths through
    /// relationships in a batch update), with its bindings.
    private func batchCondition(_ request: FetchRequest, entity: EntityDescription) throws -> (text: String?, bindings: [Value]) {
        guard request.predicate != nil || entity.sql.entityRestriction != nil else { return (nil, []) }
        let query = try QueryCompiler.compile(request, entity: entity, model: model, mode: .ids)
        guard !query.sql.contains(" JOIN ") else {
            throw ObjectGraphError.invalidPredicate(
                "a batch request's predicate cannot follow relationships (Core Data refuses joins there): \(request.predicate.map { "\($0)" } ?? "")"
            )
        }
        for (table, ids) in query.intArrays { bindIDList(ids, table: table) }
        guard let whereRange = query.sql.range(of: "WHERE ") else { return (nil, []) }
        return (String(query.sql[whereRange.upperBound...]).trimmingTrailingSpace, query.bindings)
    }

    private func matchingIDs(_ request: FetchRequest, entity: EntityDescription) throws -> [ObjectID] {
        countIDFetchRequest()
        return try fetchIDs(request, entity: entity, paging: false).map {
            ObjectID(entity: $0.entity, primaryKey: $0.primaryKey, temporaryNumber: 0, storeIdentifier: store.identifier, model: model)
        }
    }

    private func countIDFetchRequest() {
        counters.fetchRequests &+= 1
        store.counters.fetchRequests &+= 1
    }
}

extension String {
    var trimmingTrailingSpace: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}

/// The temporary triggers through which a batch delete applies delete rules (decompiled NSSQLiteAdapter):
/// `CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_<TABLE>_TRIGGER AFTER DELETE ON <TABLE> FOR EACH ROW BEGIN ...; END`
/// on the deleted table and on every table a cascade reaches, dropped afterwards.
struct BatchDeleteTriggers {
    let root: EntityDescription

    var statements: (create: [String], drop: [String]) {
        var create: [String] = []
        var drop: [String] = []
        var visited = Set<Int>()
        var queue = [root]
        while let table = queue.first {
            queue.removeFirst()
            guard visited.insert(table.number).inserted else { continue }
            var body: [String] = []
            for relationship in table.subtree.flatMap({ entity in entity.relationships.filter { $0.entity === entity } }) {
                body += statements(for: relationship)
                if relationship.deleteRule == .cascade { queue.append(relationship.destination.root) }
            }
            guard !body.isEmpty else { continue }
            let name = "ZQ_\(table.tableName)_TRIGGER"
            create.append(
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(name) AFTER DELETE ON \(table.tableName) FOR EACH ROW BEGIN \(body.map { $0 + "; " }.joined()) END"
            )
            drop.append("DROP TRIGGER IF EXISTS \(name)")
        }
        return (create, drop)
    }

    private func statements(for relationship: RelationshipDescription) -> [String] {
        let destination = relationship.destination.tableName
        switch (relationship.deleteRule, relationship.kind) {
        case (.noAction, _), (.deny, _):
            return []
        case (.cascade, .manyToOne), (.cascade, .oneToOne), (.cascade, .oneToNil):
            return ["DELETE FROM \(destination) WHERE Z_PK = OLD.\(relationship.columnName)"]
        case (.cascade, .oneToMany), (.cascade, .manyToNil):
            return ["DELETE FROM \(destination) WHERE \(relationship.columnName) = OLD.Z_PK"]
        case (.cascade, .manyToMany):
            let join = relationship.join
            return [
                "DELETE FROM \(destination) WHERE Z_PK IN (SELECT \(join.destinationColumn) FROM \(join.tableName) WHERE \(join.sourceColumn) = OLD.Z_PK)",
                "DELETE FROM \(join.tableName) WHERE \(join.sourceColumn) = OLD.Z_PK",
            ]
        case (.nullify, .manyToOne):
            return ["UPDATE OR FAIL \(destination) SET Z_OPT = (Z_OPT + 1) WHERE Z_PK = OLD.\(relationship.columnName)"]
        case (.nullify, .oneToOne):
            let inverse = relationship.requiredInverse
            if !inverse.isOptional {
                return [
                    "SELECT RAISE(FAIL, 'Batch delete failed due to mandatory OTO nullify inverse on \(inverse.entity.name)/\(inverse.name)') FROM \(destination) WHERE \(inverse.columnName) = OLD.Z_PK"
                ]
            }
            return [
                "UPDATE OR FAIL \(destination) SET \(inverse.columnName) = NULL, Z_OPT = (Z_OPT + 1) WHERE \(inverse.columnName) = OLD.Z_PK"
            ]
        case (.nullify, .oneToMany):
            let inverse = relationship.requiredInverse
            if !inverse.isOptional {
                return [
                    "SELECT RAISE(FAIL, 'Batch delete failed due to mandatory OTM nullify inverse on \(inverse.entity.name)/\(inverse.name)') FROM \(destination) WHERE \(inverse.columnName) = OLD.Z_PK"
                ]
            }
            let order = relationship.isOrdered ? ", \(relationship.orderColumnName) = NULL" : ""
            return [
                "UPDATE OR FAIL \(destination) SET \(inverse.columnName) = NULL\(order), Z_OPT = (Z_OPT + 1) WHERE \(inverse.columnName) = OLD.Z_PK"
            ]
        case (.nullify, .manyToNil):
            let order = relationship.isOrdered ? ", \(relationship.orderColumnName) = NULL" : ""
            return [
                "UPDATE OR FAIL \(destination) SET \(relationship.columnName) = NULL\(order), Z_OPT = (Z_OPT + 1) WHERE \(relationship.columnName) = OLD.Z_PK"
            ]
        case (.nullify, .manyToMany):
            let join = relationship.join
            return ["DELETE FROM \(join.tableName) WHERE \(join.sourceColumn) = OLD.Z_PK"]
        case (.nullify, .oneToNil):
            return []
        }
    }
}
