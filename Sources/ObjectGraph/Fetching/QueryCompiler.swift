/// SQL for a fetch request, in the text of Core Data's SQLDebug log: `SELECT 0, t0.Z_PK, t0.Z_OPT, ... FROM ZSTUDENT
/// t0 JOIN ZCLASS t1 ON t0.ZCLASS = t1.Z_PK WHERE  t1.ZNAME = ? ORDER BY t0.ZNAME LIMIT 20`.
///
/// Limits and offsets are bound (`LIMIT ?`), so that the statement cache holds one text per request shape; the
/// trace shows them as literals, as Core Data writes them. Integer lists go through an int-array table.
struct QueryCompiler {
    enum Mode { case rows, ids, count }

    struct Query {
        /// The SQL executed.
        let sql: String
        /// The SQL as Core Data's log writes it (limits and offsets as literals).
        let traceSQL: String
        let bindings: [Value]
        /// Int-array tables to fill before running the statement.
        let intArrays: [(table: Int, ids: ContiguousArray<Int64>)]
    }

    struct Join {
        let path: String
        let alias: String
        let sql: (_ inner: Bool) -> String
    }

    let root: EntityDescription
    let model: ObjectModel
    var joins: [Join] = []
    var innerPaths: Set<String> = []
    var aliasCount = 1
    var bindings: [Value] = []
    var intArrays: [(table: Int, ids: ContiguousArray<Int64>)] = []
    /// A to-many join multiplies rows: the select then reads DISTINCT rows.
    var distinct = false

    init(entity: EntityDescription, model: ObjectModel) {
        root = entity
        self.model = model
    }

    /// The statement for `request` in `mode`; `paging` false leaves LIMIT and OFFSET out.
    static func compile(
        _ request: FetchRequest, entity: EntityDescription, model: ObjectModel, mode: Mode, paging: Bool = true
    ) throws -> Query {
        var compiler = QueryCompiler(entity: entity, model: model)
        var conjuncts: [String] = []
        if let restriction = request.includesSubentities ? entity.sql.entityRestriction : entity.sql.entityOnlyRestriction {
            conjuncts.append(restriction)
        }
        if let predicate = request.predicate {
            if !predicate.variableNames.isEmpty {
                throw ObjectGraphError.invalidPredicate(
                    "the predicate still has variables (\(predicate.variableNames.sorted().map { "$" + $0 }.joined(separator: ", "))); substitute them before fetching"
                )
            }
            compiler.innerPaths = compiler.requiredPaths(predicate)
            conjuncts.append(try compiler.render(predicate, required: true))
        }
        var order: [String] = []
        if mode != .count {
            for sort in request.sortDescriptors {
                var column = try compiler.sortColumn(sort.keyPath)
                if !column.hasPrefix(" ") { column = " " + column }
                order.append(sort.ascending ? column : column + " DESC")
            }
        }
        let table = entity.tableName
        let joinSQL = compiler.joins.map { $0.sql(compiler.innerPaths.contains($0.path)) + " " }.joined()
        let whereClause: String? =
            conjuncts.isEmpty ? nil : conjuncts.count == 1 ? conjuncts[0] : "(" + conjuncts.joined(separator: " AND ") + ")"
        var sql: String
        switch mode {
        case .rows: sql = entity.sql.selectRows
        case .ids: sql = entity.sql.selectIDs
        case .count:
            if whereClause == nil {
                return Query(sql: "SELECT COUNT(*) FROM \(table)", traceSQL: "SELECT COUNT(*) FROM \(table)", bindings: [], intArrays: [])
            }
            sql = "SELECT COUNT( DISTINCT t0.Z_PK) FROM \(table) t0 "
        }
        if compiler.distinct, mode != .count { sql = "SELECT DISTINCT " + sql.dropFirst("SELECT ".count) }
        sql += joinSQL
        if let whereClause { sql += "WHERE \(whereClause) " }
        if !order.isEmpty { sql += "ORDER BY" + order.joined(separator: ",") }
        var trace = sql
        var bindings = compiler.bindings
        if paging, mode != .count, request.fetchLimit > 0 || request.fetchOffset > 0 {
            let limit = request.fetchLimit > 0 ? String(request.fetchLimit) : "-1"
            sql += " LIMIT ?"
            trace += " LIMIT \(limit)"
            bindings.append(.int(Int64(request.fetchLimit > 0 ? request.fetchLimit : -1)))
            if request.fetchOffset > 0 {
                sql += " OFFSET ?"
                trace += " OFFSET \(request.fetchOffset)"
                bindings.append(.int(Int64(request.fetchOffset)))
            }
        }
        return Query(sql: sql, traceSQL: trace, bindings: bindings, intArrays: compiler.intArrays)
    }

    // MARK: Sorting

    /// An attribute through to-one relationships (` t1.ZNAME`). A key path with a collection operator
    /// (`likes.@count`) is refused as Core Data's SQLite store refuses it (usable in predicates only: fatbobman,
    /// 2022; the reason is the one Core Data's SQL generator gives, read from its decompiled code and from SwiftData
    /// logs that hit it): an app sorts by a derived count attribute instead.
    private mutating func sortColumn(_ keyPath: String) throws -> String {
        if keyPath.utf8.contains(UInt8(ascii: "@")) {
            throw ObjectGraphError.invalidOperation(
                "Keypath containing KVC aggregate where there shouldn't be one; failed to handle \(keyPath) (Core Data sorts a SQLite fetch by stored values only: declare a derived attribute, e.g. \(keyPath.replacingOccurrences(of: ".@count", with: "Count")) = \(keyPath), and sort by it)"
            )
        }
        let resolved = try valueColumn(keyPath, alias: "t0", entity: root, sink: .main, allowToMany: false)
        return resolved.sql
    }

    // MARK: Key paths

    /// Where the joins of a key path go: the main query, or a subquery being built.
    enum JoinSink {
        case main
        case subquery
    }

    /// A key path resolved to a column: ` t1.ZNAME`, its type (nil for a to-one key), and the relationship when the
    /// key path ends in one.
    struct Resolved {
        let sql: String
        let type: AttributeType?
        let relationship: RelationshipDescription?
    }

    /// Follows `components` from `alias`: to-one steps join the destination (once per path in the main query); a
    /// to-many step, allowed under ANY, joins the member rows (and makes the select DISTINCT). Returns the alias and
    /// entity reached.
    mutating func follow(
        _ components: ArraySlice<String>, keyPath: String, alias start: String, entity: EntityDescription,
        sink: JoinSink, allowToMany: Bool, subqueryJoins: inout [String]
    ) throws -> (String, EntityDescription) {
        var alias = start
        var current = entity
        var path = ""
        for name in components {
            guard let relationship = current.relationship(name) else {
                throw unknownKeyPath(keyPath, entity: current, component: name, expecting: "a relationship")
            }
            if relationship.isToMany && !allowToMany {
                throw ObjectGraphError.invalidPredicate(
                    "key path '\(keyPath)' of \(root.name) goes through the to-many relationship \(relationship.qualifiedName): use ANY, NONE, @count or an aggregate"
                )
            }
            path = path.isEmpty ? name : path + "." + name
            if sink == .main, let join = joins.first(where: { $0.path == path }) {
                alias = join.alias
                current = relationship.destination
                continue
            }
            let joined = "t\(aliasCount)"
            aliasCount += 1
            let destination = relationship.destination
            let from = alias
            let text: (Bool) -> String
            switch relationship.kind {
            case .manyToOne, .oneToOne, .oneToNil:
                text = { inner in
                    "\(inner ? "JOIN" : "LEFT OUTER JOIN") \(destination.tableName) \(joined) ON \(from).\(relationship.columnName) = \(joined).Z_PK"
                }
            case .oneToMany, .manyToNil:
                text = { inner in
                    "\(inner ? "JOIN" : "LEFT OUTER JOIN") \(destination.tableName) \(joined) ON \(from).Z_PK = \(joined).\(relationship.columnName)"
                }
            case .manyToMany:
                let join = relationship.join
                let middle = "t\(aliasCount)"
                aliasCount += 1
                text = { inner in
                    let kind = inner ? "JOIN" : "LEFT OUTER JOIN"
                    return
                        "\(kind) \(join.tableName) \(middle) ON \(from).Z_PK = \(middle).\(join.sourceColumn) \(kind) \(destination.tableName) \(joined) ON \(middle).\(join.destinationColumn) = \(joined).Z_PK"
                }
            }
            if relationship.isToMany && sink == .main { distinct = true }
            switch sink {
            case .main: joins.append(Join(path: path, alias: joined, sql: text))
            case .subquery: subqueryJoins.append(text(true))
            }
            alias = joined
            current = destination
        }
        return (alias, current)
    }

    /// The column of an attribute, derived attribute or to-one key at `keyPath`.
    mutating func valueColumn(
        _ keyPath: String, alias: String, entity: EntityDescription, sink: JoinSink, allowToMany: Bool
    ) throws -> Resolved {
        var extra: [String] = []
        return try valueColumn(keyPath, alias: alias, entity: entity, sink: sink, allowToMany: allowToMany, subqueryJoins: &extra)
    }

    mutating func valueColumn(
        _ keyPath: String, alias: String, entity: EntityDescription, sink: JoinSink, allowToMany: Bool,
        subqueryJoins: inout [String]
    ) throws -> Resolved {
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let last = components.last, !last.isEmpty else {
            throw unknownKeyPath(keyPath, entity: entity, component: "", expecting: "a property")
        }
        let (reached, target) = try follow(
            components.dropLast(), keyPath: keyPath, alias: alias, entity: entity,
            sink: sink, allowToMany: allowToMany, subqueryJoins: &subqueryJoins)
        if let attribute = target.attribute(last) {
            guard !attribute.isTransient else {
                throw ObjectGraphError.invalidPredicate(
                    "key path '\(keyPath)': \(attribute.qualifiedName) is transient; it has no column to fetch by")
            }
            return Resolved(sql: " \(reached).\(attribute.columnName)", type: attribute.type, relationship: nil)
        }
        if let derived = target.derivedAttribute(last) {
            return Resolved(sql: " \(reached).\(derived.columnName)", type: derived.type, relationship: nil)
        }
        if let relationship = target.relationship(last), !relationship.isToMany {
            return Resolved(sql: " \(reached).\(relationship.columnName)", type: nil, relationship: relationship)
        }
        if let relationship = target.relationship(last), relationship.isToMany {
            throw ObjectGraphError.invalidPredicate(
                "key path '\(keyPath)' ends in the to-many relationship \(relationship.qualifiedName): compare its @count, or use CONTAINS with an object"
            )
        }
        throw unknownKeyPath(keyPath, entity: target, component: last, expecting: "an attribute or relationship")
    }

    func unknownKeyPath(_ keyPath: String, entity: EntityDescription, component: String, expecting: String) -> ObjectGraphError {
        let known = entity.propertyNames.joined(separator: ", ")
        return .invalidPredicate(
            "key path '\(keyPath)' of \(root.name): '\(component)' is not \(expecting) of \(entity.name) (it has: \(known))")
    }
}

extension ObjectModel {
    /// Compiles `request` to SQL without running it, throwing what fetching it would throw: an unknown key path,
    /// a constant of the wrong type for its key path, a sort through a to-many. For tools that check a fetch they
    /// are given before running it (a scenario file).
    public func check(_ request: FetchRequest) throws {
        prepareStatements()
        _ = try QueryCompiler.compile(request, entity: try requireEntity(request.entityName), model: self, mode: .rows)
    }
}
