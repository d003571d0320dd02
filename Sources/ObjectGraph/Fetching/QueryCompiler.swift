/// SQL for a fetch request, in the shape of Core Data's: `SELECT 0, t0.Z_PK, t0.Z_OPT, ... FROM ZSTUDENT t0
/// JOIN ZCLASS t1 ON t0.ZCLASS = t1.Z_PK WHERE t1.ZNAME = ? ORDER BY t0.ZNAME LIMIT 20`.
struct QueryCompiler {
    enum Mode { case rows, ids, count }

    struct Query {
        let sql: String
        let bindings: [Value]
    }

    private let root: EntityDescription
    private var joins: [(path: String, alias: String, sql: (Bool) -> String)] = []
    private var innerPaths: Set<String> = []
    private var aliasCount = 1
    private var bindings: [Value] = []

    init(entity: EntityDescription) { root = entity }

    /// The statement for `request` in `mode`; `paging` false leaves LIMIT and OFFSET out.
    static func compile(_ request: FetchRequest, entity: EntityDescription, mode: Mode, paging: Bool = true) throws -> Query {
        var compiler = QueryCompiler(entity: entity)
        if let predicate = request.predicate { compiler.innerPaths = Self.requiredPaths(predicate) }
        let whereClause = try request.predicate.map { try compiler.render($0) }
        var order: [String] = []
        if mode != .count {
            for sort in request.sortDescriptors {
                let column = try compiler.sortColumn(sort.keyPath)
                order.append(sort.ascending ? column : column + " DESC")
            }
        }
        let table = entity.tableName
        let joinSQL = compiler.joins.map { " " + $0.sql(compiler.innerPaths.contains($0.path)) }.joined()
        var sql: String
        switch mode {
        case .rows: sql = entity.sql.selectRows
        case .ids: sql = entity.sql.selectIDs
        case .count:
            if whereClause == nil { return Query(sql: "SELECT COUNT(*) FROM \(table)", bindings: []) }
            sql = compiler.joins.isEmpty ? "SELECT COUNT(*) FROM \(table) t0" : "SELECT COUNT(DISTINCT t0.Z_PK) FROM \(table) t0"
        }
        sql += joinSQL
        if let whereClause { sql += " WHERE " + whereClause }
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if paging, mode != .count {
            if request.fetchLimit > 0 { sql += " LIMIT \(request.fetchLimit)" }
            if request.fetchOffset > 0 { sql += (request.fetchLimit > 0 ? "" : " LIMIT -1") + " OFFSET \(request.fetchOffset)" }
        }
        return Query(sql: sql, bindings: compiler.bindings)
    }

    // MARK: Predicates

    private mutating func render(_ predicate: FetchPredicate) throws -> String {
        switch predicate {
        case let .compare(keyPath, op, value):
            let (column, type) = try valueColumn(keyPath)
            if value.isNull {
                switch op {
                case .equal: return "\(column) IS NULL"
                case .notEqual: return "\(column) IS NOT NULL"
                default: throw ObjectGraphError.invalidOperation("\(keyPath) \(op.rawValue) nil: only == and != compare with nil")
                }
            }
            if let type, !value.fits(type) {
                throw ObjectGraphError.invalidOperation("\(keyPath) holds \(type.rawValue) values; cannot compare it with \(value)")
            }
            bindings.append(type.map { value.normalized(for: $0) } ?? value)
            return "\(column) \(op.sql) ?"
        case let .compareObject(keyPath, equal, object):
            let column = try objectColumn(keyPath, object: object)
            guard let object else { return equal ? "\(column) IS NULL" : "\(column) IS NOT NULL" }
            bindings.append(.int(object.primaryKey))
            return equal ? "(\(column) IS NOT NULL AND \(column) = ?)" : "(\(column) IS NULL OR \(column) <> ?)"
        case let .oneOf(keyPath, values):
            let (column, type) = try valueColumn(keyPath)
            guard !values.isEmpty else { return "0 = 1" }
            bindings += values.map { value in type.map { value.normalized(for: $0) } ?? value }
            return "\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))"
        case let .string(keyPath, op, text, options):
            let (column, type) = try valueColumn(keyPath)
            guard type == .string else { throw ObjectGraphError.invalidOperation("\(keyPath) \(op.rawValue) needs a string attribute") }
            bindings.append(.string(text))
            return "NSCoreDataStringSearch(\(column), ?, \(Self.searchFlags(op, options).rawValue), 0)"
        case let .count(keyPath, op, count):
            bindings.append(.int(Int64(count)))
            return "\(try countSubquery(keyPath)) \(op.sql) ?"
        case let .and(parts):
            guard !parts.isEmpty else { return "1 = 1" }
            return "(" + (try parts.map { try render($0) }).joined(separator: " AND ") + ")"
        case let .or(parts):
            guard !parts.isEmpty else { return "0 = 1" }
            return "(" + (try parts.map { try render($0) }).joined(separator: " OR ") + ")"
        case let .not(part):
            return "NOT (\(try render(part)))"
        case let .constant(value):
            return value ? "1 = 1" : "0 = 1"
        }
    }

    static func searchFlags(_ op: StringOperator, _ options: StringOptions) -> SQLFunctions.StringSearchFlags {
        var flags: SQLFunctions.StringSearchFlags = [.search]
        if options.contains(.caseInsensitive) { flags.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { flags.insert(.diacriticInsensitive) }
        switch op {
        case .beginsWith: flags.insert(.beginsWith)
        case .endsWith: flags.formUnion(.endsWith)
        case .contains: break
        }
        return flags
    }

    /// Key-path prefixes that every match must reach (positive comparisons in top-level conjuncts): their
    /// joins can be inner joins. Everything else is joined with LEFT OUTER JOIN, so a nil relationship does not
    /// drop a row that another branch of an OR would match.
    private static func requiredPaths(_ predicate: FetchPredicate) -> Set<String> {
        var paths = Set<String>()
        var conjuncts = [predicate]
        if case let .and(parts) = predicate { conjuncts = parts }
        for conjunct in conjuncts {
            let keyPath: String
            switch conjunct {
            case let .compare(path, op, value) where !value.isNull && op != .notEqual: keyPath = path
            case let .compareObject(path, true, object?): keyPath = path; _ = object
            case let .oneOf(path, _), let .string(path, _, _, _): keyPath = path
            default: continue
            }
            let components = keyPath.split(separator: ".")
            for length in stride(from: 1, to: components.count, by: 1) {
                paths.insert(components[0..<length].joined(separator: "."))
            }
        }
        return paths
    }

    // MARK: Key paths

    /// Follows the to-one relationships of `components`, joining each once; returns the alias and entity reached.
    private mutating func follow(_ components: ArraySlice<Substring>, keyPath: String) throws -> (String, EntityDescription) {
        var alias = "t0"
        var entity = root
        var path = ""
        for component in components {
            let name = String(component)
            guard let relationship = entity.relationship(name), !relationship.isToMany else {
                throw unknownKeyPath(keyPath, entity: entity, component: name, expecting: "a to-one relationship")
            }
            path = path.isEmpty ? name : path + "." + name
            if let join = joins.first(where: { $0.path == path }) {
                alias = join.alias
            } else {
                let joined = "t\(aliasCount)"
                aliasCount += 1
                let destination = relationship.destination!
                let from = alias
                joins.append((path, joined, { inner in
                    "\(inner ? "JOIN" : "LEFT OUTER JOIN") \(destination.tableName) \(joined) ON \(from).\(relationship.columnName) = \(joined).Z_PK"
                }))
                alias = joined
            }
            entity = relationship.destination
        }
        return (alias, entity)
    }

    /// The column of an attribute, derived attribute or to-one key at `keyPath`, and the attribute type
    /// (nil for a to-one key, compared with primary keys).
    private mutating func valueColumn(_ keyPath: String) throws -> (String, AttributeType?) {
        let components = keyPath.split(separator: ".")
        guard let last = components.last.map(String.init) else { throw unknownKeyPath(keyPath, entity: root, component: "", expecting: "a property") }
        let (alias, entity) = try follow(components.dropLast(), keyPath: keyPath)
        if let attribute = entity.attribute(last) { return ("\(alias).\(attribute.columnName)", attribute.type) }
        if let derived = entity.derivedAttribute(last) { return ("\(alias).\(derived.columnName)", .int64) }
        if let relationship = entity.relationship(last), !relationship.isToMany { return ("\(alias).\(relationship.columnName)", nil) }
        throw unknownKeyPath(keyPath, entity: entity, component: last, expecting: "an attribute or to-one relationship")
    }

    private mutating func objectColumn(_ keyPath: String, object: ManagedObject?) throws -> String {
        let components = keyPath.split(separator: ".")
        let last = String(components.last ?? "")
        let (alias, entity) = try follow(components.dropLast(), keyPath: keyPath)
        guard let relationship = entity.relationship(last), !relationship.isToMany else {
            throw unknownKeyPath(keyPath, entity: entity, component: last, expecting: "a to-one relationship")
        }
        if let object, object.entity !== relationship.destination {
            throw ObjectGraphError.invalidOperation("\(keyPath) holds \(relationship.destination.name) objects, not \(object.entity.name)")
        }
        return "\(alias).\(relationship.columnName)"
    }

    private mutating func sortColumn(_ keyPath: String) throws -> String {
        let (column, _) = try valueColumn(keyPath)
        return column
    }

    /// `(SELECT COUNT(t1.Z_PK) FROM ZSTUDENT t1 WHERE (t0.Z_PK = t1.ZCLASS))`, Core Data's `@count` subquery.
    private mutating func countSubquery(_ keyPath: String) throws -> String {
        let components = keyPath.split(separator: ".")
        let last = String(components.last ?? "")
        let (alias, entity) = try follow(components.dropLast(), keyPath: keyPath)
        guard let relationship = entity.relationship(last), relationship.isToMany else {
            throw unknownKeyPath(keyPath, entity: entity, component: last, expecting: "a to-many relationship")
        }
        let inner = "t\(aliasCount)"
        aliasCount += 1
        if relationship.kind == .manyToMany {
            let join = relationship.joinTable!
            return "(SELECT COUNT(\(inner).\(join.destinationColumn)) FROM \(join.tableName) \(inner) WHERE (\(alias).Z_PK = \(inner).\(join.sourceColumn)))"
        }
        return "(SELECT COUNT(\(inner).Z_PK) FROM \(relationship.destination.tableName) \(inner) WHERE (\(alias).Z_PK = \(inner).\(relationship.columnName)))"
    }

    private func unknownKeyPath(_ keyPath: String, entity: EntityDescription, component: String, expecting: String) -> ObjectGraphError {
        .invalidOperation("key path '\(keyPath)' of \(root.name): '\(component)' is not \(expecting) of \(entity.name)")
    }
}
