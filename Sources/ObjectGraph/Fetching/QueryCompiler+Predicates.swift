import Foundation

/// Predicates as Core Data's SQLite store writes them (decompiled NSSQLSimpleWhereIntermediate and real logs):
/// a column is written with a leading space (` t0.ZAGE > ?`), compounds as `( a AND  b)`, `@count` as a
/// correlated subquery `(SELECT COUNT(t1.Z_PK) FROM ZA t1 WHERE (t0.Z_PK = t1.ZITEM) ) > ?`, string operators as
/// calls of Core Data's SQL functions (`NSCoreDataStringSearch( t0.ZTITLE, ?, 385, 0)`).
extension QueryCompiler {
    mutating func render(_ predicate: FetchPredicate, required: Bool) throws -> String {
        switch predicate {
        case let .comparison(comparison):
            return try render(comparison, required: required)
        case let .and(parts):
            guard !parts.isEmpty else { return " 1 = 1" }
            if parts.count == 1 { return try render(parts[0], required: required) }
            return "(" + (try parts.map { try render($0, required: required) }).joined(separator: " AND ") + ")"
        case let .or(parts):
            guard !parts.isEmpty else { return " 0 = 1" }
            if parts.count == 1 { return try render(parts[0], required: required) }
            return "(" + (try parts.map { try render($0, required: false) }).joined(separator: " OR ") + ")"
        case let .not(part):
            return " NOT ( \(try render(part, required: false)))"
        case let .constant(value):
            return value ? " 1 = 1" : " 0 = 1"
        }
    }

    /// Key-path prefixes every match must reach (positive comparisons in top-level conjuncts, and ANY over a
    /// to-many there): their joins can be inner joins. Everything else is joined with LEFT OUTER JOIN, so that a
    /// nil relationship does not drop a row another branch of an OR would match.
    func requiredPaths(_ predicate: FetchPredicate) -> Set<String> {
        var paths = Set<String>()
        var conjuncts = [predicate]
        if case let .and(parts) = predicate { conjuncts = parts }
        for conjunct in conjuncts {
            guard case let .comparison(comparison) = conjunct, case let .keyPath(keyPath) = comparison.lhs,
                !keyPath.utf8.contains(UInt8(ascii: "@"))
            else { continue }
            if case .constant(.null) = comparison.rhs { continue }
            if comparison.op == .notEqual { continue }
            let components = keyPath.split(separator: ".").map(String.init)
            for length in stride(from: 1, to: components.count, by: 1) {
                paths.insert(components[0..<length].joined(separator: "."))
            }
        }
        return paths
    }

    // MARK: Comparisons

    private mutating func render(_ comparison: Comparison, required: Bool) throws -> String {
        if comparison.modifier == .all {
            throw ObjectGraphError.invalidPredicate(
                "ALL modifier is not implemented (Core Data refuses it too): rewrite '\(FetchPredicate.comparison(comparison))' as NONE with the opposite comparison, or SUBQUERY(...).@count == 0"
            )
        }
        // Built only for a message: formatting every comparison cost a fetch by UUID 10% more instructions (callgrind).
        let text = { FetchPredicate.comparison(comparison).description }
        if comparison.op == .contains, comparison.lhs.keyPathEndsInToMany(root) {
            return try membership(of: comparison.rhs, in: comparison.lhs, text: text())
        }
        if comparison.op == .in, comparison.rhs.keyPathEndsInToMany(root) {
            return try membership(of: comparison.lhs, in: comparison.rhs, text: text())
        }
        // `ANY following == %@` (a to-many compared with one object): membership, as `%@ IN following`.
        if comparison.op == .equal, comparison.modifier == .any, comparison.lhs.keyPathEndsInToMany(root) {
            return try membership(of: comparison.rhs, in: comparison.lhs, text: text())
        }
        if comparison.modifier == .any, case let .keyPath(keyPath) = comparison.lhs, crossesToMany(keyPath) {
            if required && innerPaths.contains(firstToManyPrefix(keyPath)) {
                return try renderDirect(comparison, allowToMany: true)
            }
            return try existsSubquery(comparison, keyPath: keyPath)
        }
        return try renderDirect(comparison, allowToMany: false)
    }

    /// Whether a key path (of an ANY comparison) goes through a to-many relationship.
    private func crossesToMany(_ keyPath: String) -> Bool {
        var entity = root
        for name in keyPath.split(separator: ".").dropLast().map(String.init) {
            guard let relationship = entity.relationship(name) else { return false }
            if relationship.isToMany { return true }
            entity = relationship.destination
        }
        return false
    }

    private func firstToManyPrefix(_ keyPath: String) -> String {
        var entity = root
        var path: [String] = []
        for name in keyPath.split(separator: ".").map(String.init) {
            guard let relationship = entity.relationship(name) else { break }
            path.append(name)
            if relationship.isToMany { break }
            entity = relationship.destination
        }
        return path.joined(separator: ".")
    }

    private struct Operand {
        var sql: String
        var type: AttributeType?
        var relationship: RelationshipDescription?
        var isColumn: Bool
        var constant: FetchExpression?
    }

    private mutating func operand(
        _ expression: FetchExpression, allowToMany: Bool, alias: String = "t0",
        entity: EntityDescription? = nil, subqueryJoins: inout [String], sink: JoinSink = .main
    ) throws -> Operand {
        switch expression {
        case let .keyPath(keyPath):
            if keyPath.utf8.contains(UInt8(ascii: "@")) {
                let aggregate = try aggregate(keyPath, alias: alias, entity: entity ?? root)
                return Operand(sql: aggregate.sql, type: aggregate.type, relationship: nil, isColumn: true, constant: nil)
            }
            let resolved = try valueColumn(
                keyPath, alias: alias, entity: entity ?? root, sink: sink, allowToMany: allowToMany,
                subqueryJoins: &subqueryJoins)
            return Operand(sql: resolved.sql, type: resolved.type, relationship: resolved.relationship, isColumn: true, constant: nil)
        case .evaluatedObject:
            return Operand(sql: " \(alias).Z_PK", type: nil, relationship: nil, isColumn: true, constant: nil)
        case .variable(let name):
            throw ObjectGraphError.invalidPredicate("variable $\(name) has no value; substitute it before fetching")
        default:
            return Operand(sql: "?", type: nil, relationship: nil, isColumn: false, constant: expression)
        }
    }

    private mutating func renderDirect(
        _ comparison: Comparison, allowToMany: Bool, alias: String = "t0",
        entity: EntityDescription? = nil, subqueryJoins: inout [String], sink: JoinSink = .main
    ) throws -> String {
        let lhs = try operand(
            comparison.lhs, allowToMany: allowToMany, alias: alias, entity: entity, subqueryJoins: &subqueryJoins, sink: sink)
        let rhs = try operand(
            comparison.rhs, allowToMany: allowToMany, alias: alias, entity: entity, subqueryJoins: &subqueryJoins, sink: sink)
        return try sql(comparison, lhs, rhs)
    }

    private mutating func renderDirect(_ comparison: Comparison, allowToMany: Bool) throws -> String {
        var ignored: [String] = []
        return try renderDirect(comparison, allowToMany: allowToMany, subqueryJoins: &ignored)
    }

    private mutating func sql(_ comparison: Comparison, _ lhs: Operand, _ rhs: Operand) throws -> String {
        let op = comparison.op
        // Built only for a message: formatting every comparison cost a fetch by UUID 10% more instructions (callgrind).
        let text = { FetchPredicate.comparison(comparison).description }
        guard lhs.isColumn || rhs.isColumn else {
            throw ObjectGraphError.invalidPredicate("'\(text())' compares two constants; one side must be a key path")
        }
        if lhs.isColumn && rhs.isColumn && !(op == .equal || op == .notEqual) && lhs.relationship == nil {
            if !(comparison.lhs.isAggregateKeyPath || comparison.rhs.isAggregateKeyPath) {
                throw ObjectGraphError.invalidPredicate(
                    "'\(text())' compares two key paths, which Core Data cannot turn into SQL (LHS and RHS both keypaths)")
            }
        }
        let (column, constantSide, constantOnLeft) = lhs.isColumn ? (lhs, rhs, false) : (rhs, lhs, true)
        switch op {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            if case .constant(.null)? = constantSide.constant {
                switch op {
                case .equal: return "\(column.sql) IS NULL"
                case .notEqual: return "\(column.sql) IS NOT NULL"
                default:
                    throw ObjectGraphError.invalidPredicate("'\(text())': illegal comparison with NULL (only == and != compare with nil)")
                }
            }
            if column.relationship != nil || (column.type == nil && constantSide.constant != nil) {
                try bindObject(constantSide.constant, keyPath: text())
                guard op == .equal || op == .notEqual else {
                    throw ObjectGraphError.invalidPredicate("'\(text())': objects compare with == and != only")
                }
                return op == .equal ? "(\(column.sql) IS NOT NULL AND \(column.sql) = ?)" : "(\(column.sql) IS NULL OR \(column.sql) <> ?)"
            }
            if !rhs.isColumn || !lhs.isColumn, let constant = constantSide.constant { try bind(constant, for: column.type, in: text()) }
            let sqlOp = op == .equal ? "=" : op == .notEqual ? "<>" : op.rawValue
            if !comparison.options.subtracting(.normalized).isEmpty, column.type == .string {
                let flags =
                    (comparison.options.contains(.caseInsensitive) ? 1 : 0) | (comparison.options.contains(.diacriticInsensitive) ? 2 : 0)
                let call =
                    constantOnLeft
                    ? " NSCoreDataStringCompare(?,\(column.sql), 0, \(flags))" : " NSCoreDataStringCompare(\(column.sql), ?, 0, \(flags))"
                return "\(call) \(sqlOp) 0"
            }
            if lhs.isColumn && rhs.isColumn {
                return "\(lhs.sql) \(sqlOp) \(rhs.sql.hasPrefix(" ") ? String(rhs.sql.dropFirst()) : rhs.sql)"
            }
            return constantOnLeft ? "? \(sqlOp) \(column.sql)" : "\(column.sql) \(sqlOp) ?"
        case .between:
            guard case let .aggregate(bounds)? = constantSide.constant, bounds.count == 2,
                case let .constant(low) = bounds[0], case let .constant(high) = bounds[1]
            else {
                throw ObjectGraphError.invalidPredicate("'\(text())': BETWEEN needs two bounds, {low, high}")
            }
            try bind(.constant(low), for: column.type, in: text())
            try bind(.constant(high), for: column.type, in: text())
            return "(\(column.sql) BETWEEN ? AND ?)"
        case .in:
            guard !constantOnLeft, case let .aggregate(items)? = constantSide.constant else {
                throw ObjectGraphError.invalidPredicate("'\(text())': IN needs a collection, {a, b} or an array argument")
            }
            guard !items.isEmpty else { return " 0 = 1" }
            var integers = ContiguousArray<Int64>()
            let allIntegers = items.allSatisfy { item in
                switch item {
                case let .constant(.int(v)):
                    integers.append(v)
                    return column.type?.isInteger ?? true
                case let .object(id):
                    integers.append(id.primaryKey)
                    return column.type == nil
                default: return false
                }
            }
            if allIntegers, intArrays.count < 3 {
                let table = intArrays.count + 1
                intArrays.append((table, integers))
                return "\(column.sql) IN (SELECT * FROM _Z_intarray\(table)) "
            }
            for item in items { try bind(item, for: column.type, in: text()) }
            return "\(column.sql) IN (\(Array(repeating: "?", count: items.count).joined(separator: ", ")))"
        case .beginsWith, .endsWith, .contains:
            guard column.type == .string, !constantOnLeft else {
                throw ObjectGraphError.invalidPredicate("'\(text())': \(op.rawValue) needs a string attribute on the left")
            }
            guard let constant = constantSide.constant else {
                throw ObjectGraphError.invalidPredicate("'\(text())': \(op.rawValue) compares a string attribute with a constant")
            }
            try bind(constant, for: .string, in: text())
            if op == .beginsWith, comparison.options == [.normalized], case let .constant(.string(prefix))? = constantSide.constant {
                // Core Data compares ranges for BEGINSWITH[n]: lhs >= prefix AND lhs < prefix with its last character + 1.
                bindings.append(.string(Self.upperBound(prefix)))
                return "(\(column.sql) >= ? AND \(column.sql) < ?)"
            }
            return
                " NSCoreDataStringSearch(\(column.sql), ?, \(Self.searchFlags(op, comparison.options).rawValue), \(comparison.options.contains(.localeSensitive) ? 1 : 0))"
        case .like, .matches:
            guard column.type == .string, !constantOnLeft else {
                throw ObjectGraphError.invalidPredicate("'\(text())': \(op.rawValue) needs a string attribute on the left")
            }
            guard let constant = constantSide.constant else {
                throw ObjectGraphError.invalidPredicate("'\(text())': \(op.rawValue) compares a string attribute with a constant")
            }
            try bind(constant, for: .string, in: text())
            let options =
                (comparison.options.contains(.caseInsensitive) ? 1 : 0) | (comparison.options.contains(.diacriticInsensitive) ? 2 : 0)
            return " \(op == .like ? "NSCoreDataLike" : "NSCoreDataMatches")(\(column.sql), ?, \(options) )"
        }
    }

    /// `object IN toMany` / `toMany CONTAINS object`: ` t0.Z_PK IN (SELECT ZPOST FROM ZCOMMENT WHERE Z_PK = ?) `
    /// (decompiled `_generateSQLForConst:inToMany:`), or through the join table for a many-to-many.
    private mutating func membership(
        of constant: FetchExpression, in collection: FetchExpression, text: @autoclosure () -> String
    ) throws -> String {
        guard case let .keyPath(keyPath) = collection, case let .object(id) = constant else {
            throw ObjectGraphError.invalidPredicate("'\(text())': membership in a to-many relationship needs an object")
        }
        let components = keyPath.split(separator: ".").map(String.init)
        var ignored: [String] = []
        let (alias, entity) = try follow(
            components.dropLast(), keyPath: keyPath, alias: "t0", entity: root, sink: .main, allowToMany: false, subqueryJoins: &ignored)
        guard let relationship = entity.relationship(components.last ?? ""), relationship.isToMany else {
            throw ObjectGraphError.invalidPredicate("'\(text())': '\(keyPath)' is not a to-many relationship of \(entity.name)")
        }
        bindings.append(.int(id.primaryKey))
        if relationship.kind == .manyToMany {
            let join = relationship.join
            return " \(alias).Z_PK IN (SELECT \(join.sourceColumn) FROM \(join.tableName) WHERE \(join.destinationColumn) = ?) "
        }
        return " \(alias).Z_PK IN (SELECT \(relationship.columnName) FROM \(relationship.destination.tableName) WHERE Z_PK = ?) "
    }

    /// ANY over a to-many outside the top-level conjuncts (under OR or NOT): a correlated EXISTS subquery, so that
    /// NOT ANY means none. Core Data joins and reads DISTINCT rows instead (which under NOT keeps a row some member
    /// fails to match); ObjectGraph keeps NSPredicate's meaning there.
    private mutating func existsSubquery(_ comparison: Comparison, keyPath: String) throws -> String {
        let components = keyPath.split(separator: ".").map(String.init)
        var index = 0
        var entity = root
        var prefix: [String] = []
        while index < components.count, let relationship = entity.relationship(components[index]), !relationship.isToMany {
            prefix.append(components[index])
            entity = relationship.destination
            index += 1
        }
        var ignored: [String] = []
        let (outer, owner) = try follow(
            prefix[...], keyPath: keyPath, alias: "t0", entity: root, sink: .main, allowToMany: false, subqueryJoins: &ignored)
        guard index < components.count, let relationship = owner.relationship(components[index]) else {
            throw unknownKeyPath(keyPath, entity: owner, component: components.last ?? "", expecting: "a to-many relationship")
        }
        let member = "t\(aliasCount)"
        aliasCount += 1
        var from: String
        switch relationship.kind {
        case .manyToMany:
            let join = relationship.join
            let middle = "t\(aliasCount)"
            aliasCount += 1
            from =
                "FROM \(join.tableName) \(middle) JOIN \(relationship.destination.tableName) \(member) ON \(middle).\(join.destinationColumn) = \(member).Z_PK WHERE \(middle).\(join.sourceColumn) = \(outer).Z_PK"
        default:
            from = "FROM \(relationship.destination.tableName) \(member) WHERE \(member).\(relationship.columnName) = \(outer).Z_PK"
        }
        var rest = comparison
        rest.modifier = .direct
        rest.lhs = .keyPath(components[(index + 1)...].joined(separator: "."))
        var joinsInside: [String] = []
        let condition = try renderDirect(
            rest, allowToMany: true, alias: member, entity: relationship.destination,
            subqueryJoins: &joinsInside, sink: .subquery)
        if !joinsInside.isEmpty, let whereIndex = from.range(of: " WHERE ") {
            from =
                String(from[..<whereIndex.lowerBound]) + " " + joinsInside.joined(separator: " ") + String(from[whereIndex.lowerBound...])
        }
        return " EXISTS (SELECT 1 \(from) AND\(condition))"
    }

    // MARK: Aggregates

    /// `<toMany>.@count` and `<toMany>.@sum|@avg|@min|@max.<attribute>` (also `@sum.<toMany>.<attribute>` and
    /// `<toMany>.<attribute>.@sum`) as correlated subqueries; `@sum` is SQLite's `total(`, as Core Data writes it.
    mutating func aggregate(_ keyPath: String, alias: String, entity: EntityDescription) throws -> (sql: String, type: AttributeType) {
        var components = keyPath.split(separator: ".").map(String.init)
        let operators = ["@count", "@sum", "@avg", "@min", "@max"]
        guard let position = components.firstIndex(where: { operators.contains($0) }) else {
            throw ObjectGraphError.invalidPredicate(
                "key path '\(keyPath)': unknown collection operator (use @count, @sum, @avg, @min or @max)")
        }
        let function = components.remove(at: position)
        var attributeName = ""
        if function != "@count" {
            guard components.count >= 2 else {
                throw ObjectGraphError.invalidPredicate("key path '\(keyPath)': \(function) needs a to-many relationship and an attribute")
            }
            attributeName = components.removeLast()
        } else if position != components.count {
            throw ObjectGraphError.invalidPredicate("key path '\(keyPath)': @count ends a key path (items.@count)")
        }
        var ignored: [String] = []
        let (owner, ownerEntity) = try follow(
            components.dropLast(), keyPath: keyPath, alias: alias, entity: entity, sink: .main,
            allowToMany: false, subqueryJoins: &ignored)
        guard let name = components.last, let relationship = ownerEntity.relationship(name), relationship.isToMany else {
            throw ObjectGraphError.invalidPredicate(
                "key path '\(keyPath)': '\(components.last ?? "")' is not a to-many relationship of \(ownerEntity.name)")
        }
        let inner = "t\(aliasCount)"
        aliasCount += 1
        if function == "@count" {
            if relationship.kind == .manyToMany {
                let join = relationship.join
                return (
                    "(SELECT COUNT(\(inner).\(join.destinationColumn)) FROM \(join.tableName) \(inner) WHERE (\(owner).Z_PK = \(inner).\(join.sourceColumn)) )",
                    .int64
                )
            }
            return (
                "(SELECT COUNT(\(inner).Z_PK) FROM \(relationship.destination.tableName) \(inner) WHERE (\(owner).Z_PK = \(inner).\(relationship.columnName)) )",
                .int64
            )
        }
        guard let attribute = relationship.destination.attribute(attributeName), !attribute.isTransient else {
            throw ObjectGraphError.invalidPredicate(
                "key path '\(keyPath)': '\(attributeName)' is not a stored attribute of \(relationship.destination.name)")
        }
        guard let sqlFunction = ["@sum": "total", "@avg": "avg", "@min": "min", "@max": "max"][function] else {
            throw ObjectGraphError.invalidPredicate("key path '\(keyPath)': \(function) is none of @count, @sum, @avg, @min and @max")
        }
        let type: AttributeType = function == "@sum" || function == "@avg" ? .double : attribute.type
        if relationship.kind == .manyToMany {
            let join = relationship.join
            let member = "t\(aliasCount)"
            aliasCount += 1
            return (
                "(SELECT \(sqlFunction)( \(member).\(attribute.columnName)) FROM \(join.tableName) \(inner) JOIN \(relationship.destination.tableName) \(member) ON \(inner).\(join.destinationColumn) = \(member).Z_PK WHERE (\(owner).Z_PK = \(inner).\(join.sourceColumn)) )",
                type
            )
        }
        return (
            "(SELECT \(sqlFunction)( \(inner).\(attribute.columnName)) FROM \(relationship.destination.tableName) \(inner) WHERE (\(owner).Z_PK = \(inner).\(relationship.columnName)) )",
            type
        )
    }

    // MARK: Bindings

    private mutating func bind(_ expression: FetchExpression, for type: AttributeType?, in text: @autoclosure () -> String) throws {
        switch expression {
        case let .constant(value):
            if let type, !value.isNull {
                let numericMix = type.isNumeric && (value.double != nil) && value.string == nil
                guard value.fits(type) || numericMix || (type == .date && value.double != nil) else {
                    throw ObjectGraphError.invalidPredicate(
                        "'\(text())': the key path holds \(type.xcodeName) values; cannot compare it with \(value.kindName) \(value)")
                }
                if type == .date, case let .double(seconds) = value {
                    bindings.append(.date(Date(timeIntervalSinceReferenceDate: seconds)))
                    return
                }
                bindings.append(value.fits(type) ? value.normalized(for: type) : value)
            } else {
                bindings.append(value)
            }
        case let .object(id):
            bindings.append(.int(id.primaryKey))
        default:
            throw ObjectGraphError.invalidPredicate("'\(text())': a constant, an object or a variable's value is needed here")
        }
    }

    private mutating func bindObject(_ expression: FetchExpression?, keyPath text: @autoclosure () -> String) throws {
        switch expression {
        case let .object(id)?: bindings.append(.int(id.primaryKey))
        case let .constant(.int(key))?: bindings.append(.int(key))
        default: throw ObjectGraphError.invalidPredicate("'\(text())': a relationship compares with an object (or nil)")
        }
    }

    /// Core Data's flags for NSCoreDataStringSearch (CFStringCompareFlags): BEGINSWITH anchored (8), ENDSWITH
    /// anchored backwards (12), `[c]` 0x101, `[d]` 0x180, `[l]` 0x120.
    static func searchFlags(_ op: PredicateOperator, _ options: StringOptions) -> SQLFunctions.StringSearchFlags {
        var flags: SQLFunctions.StringSearchFlags = []
        if options.contains(.caseInsensitive) { flags.formUnion([.caseInsensitive, .widthInsensitive]) }
        if options.contains(.diacriticInsensitive) { flags.formUnion([.diacriticInsensitive, .widthInsensitive]) }
        if options.contains(.localeSensitive) { flags.formUnion([.localized, .widthInsensitive]) }
        switch op {
        case .beginsWith: flags.formUnion(.beginsWith)
        case .endsWith: flags.formUnion(.endsWith)
        default: break
        }
        return flags
    }

    /// The smallest string greater than every string starting with `prefix`: its last character plus one.
    static func upperBound(_ prefix: String) -> String {
        guard let last = prefix.unicodeScalars.last, let next = Unicode.Scalar(last.value + 1) else { return prefix + "\u{10FFFF}" }
        return String(prefix.unicodeScalars.dropLast()) + String(next)
    }
}

extension FetchExpression {
    var isAggregateKeyPath: Bool {
        if case let .keyPath(path) = self { return path.utf8.contains(UInt8(ascii: "@")) }
        return false
    }

    func keyPathEndsInToMany(_ entity: EntityDescription) -> Bool {
        guard case let .keyPath(path) = self else { return false }
        var current = entity
        let components = path.split(separator: ".").map(String.init)
        for (index, name) in components.enumerated() {
            guard let relationship = current.relationship(name) else { return false }
            if index == components.count - 1 { return relationship.isToMany }
            current = relationship.destination
        }
        return false
    }
}
