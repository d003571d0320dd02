import Foundation
import ObjectGraph

/// The migration itself: OLD's rows copied into NEW's tables as lightweight migration's inferred mapping moves them.
extension MigrationDryRun {
    typealias Member = ModelMigration.Member

    /// The inferred mapping: each NEW entity's OLD one, and each NEW property's OLD one, matched as `ModelMigration`
    /// matches them (a renaming identifier, else the name).
    struct Mapping {
        let before: ModelMigration.Version
        let after: ModelMigration.Version
        private var oldByNew: [ObjectIdentifier: EntityDescription] = [:]

        init(before: ModelMigration.Version, after: ModelMigration.Version) {
            self.before = before
            self.after = after
            var oldByID: [String: EntityDescription] = [:]
            for entity in before.model.entities { oldByID[before.id(entity)] = entity }
            for entity in after.model.entities { oldByNew[ObjectIdentifier(entity)] = oldByID[after.id(entity)] }
        }

        func oldEntity(for entity: EntityDescription) -> EntityDescription? { oldByNew[ObjectIdentifier(entity)] }

        func newEntity(for old: EntityDescription) -> EntityDescription? {
            after.model.entities.first { oldEntity(for: $0) === old }
        }

        /// The OLD member of `previous` (or its parents) that `member` of the NEW entity maps to.
        func oldMember(_ member: Member, in previous: EntityDescription) -> Member? {
            let id = after.id(member.name, of: member.declaring)
            return Member.all(of: previous).first { before.id($0.name, of: $0.declaring) == id }
        }

        /// Why lightweight migration cannot infer this mapping at all (then the store does not open after the update,
        /// whatever its rows), or nil: a type it cannot convert, an attribute become a relationship or the other way,
        /// two hierarchies merged into one table.
        var refusal: String? {
            var reasons: [String] = []
            var rootsByNewRoot: [String: Set<String>] = [:]
            for entity in after.model.entities {
                guard let previous = oldEntity(for: entity) else { continue }
                let newRoot = ModelLint.lineage(entity).last ?? entity
                rootsByNewRoot[newRoot.tableName, default: []].insert(previous.tableName)
                for member in Member.all(of: entity) where member.declaring === entity {
                    switch (member, oldMember(member, in: previous)) {
                    case let (.attribute(now), .attribute(was)?) where was.type != now.type && !ModelMigration.widens(was.type, now.type):
                        reasons.append("\(member.qualifiedName) changes type from \(was.type.xcodeName) to \(now.type.xcodeName)")
                    case (.attribute, .relationship?), (.relationship, .attribute?):
                        reasons.append("\(member.qualifiedName) changes between an attribute and a relationship")
                    default: break
                    }
                }
            }
            for (table, sources) in rootsByNewRoot.sorted(by: { $0.key < $1.key }) where sources.count > 1 {
                reasons.append("\(ModelLint.series(sources.sorted(), "and")) would merge into \(table)")
            }
            guard !reasons.isEmpty else { return nil }
            return
                "lightweight migration cannot infer this mapping (\(reasons.joined(separator: "; "))), so no row was migrated: Core Data refuses to open the store after the update whatever its rows"
        }
    }

    /// Copies every row of OLD's entities from `store` into NEW's schema in `database`: the columns NEW maps from OLD's,
    /// the others their default or NULL. What is dropped (rows of removed entities) is a warning; rows whose Z_ENT is
    /// no entity of OLD are a finding.
    static func migrate(
        _ store: ReadOnlyStore, into database: ScratchDatabase, mapping: Mapping, numbers: [String: Int]
    ) throws
        -> (warnings: [String], findings: [ModelLint.Finding])
    {
        // The constraints are checked by counting duplicates, and the derived attributes' triggers call functions
        // only ObjectGraph's connection has: the copy gets neither.
        for statement in mapping.after.model.schemaSQL where !statement.hasPrefix("CREATE TRIGGER") {
            try database.execute(
                statement.replacingOccurrences(of: "CREATE UNIQUE INDEX", with: "CREATE INDEX") + ";", "creating the newer model's tables")
        }
        try database.execute("ATTACH DATABASE '\(store.copyPath.replacingOccurrences(of: "'", with: "''"))' AS old", "reading the copy")
        var warnings: [String] = []
        var findings: [ModelLint.Finding] = []
        let known = Set(numbers.values)
        let oldModel = mapping.before.model
        for root in oldModel.entities where root.superentity == nil {
            for row in try database.rows("SELECT Z_ENT, count(*), group_concat(Z_PK) FROM old.\(root.tableName) GROUP BY Z_ENT") {
                guard let number = row[0]?.integer, let count = row[1]?.integer, count > 0 else { continue }
                let name = numbers.first { $0.value == number }?.key
                if !known.contains(number) || name.flatMap(oldModel.entity)?.isAbstract == true {
                    let keys = exampleKeys(row[2])
                    findings.append(
                        ModelLint.Finding(
                            rule: .migrationDataUnknownEntityRows, subject: root.tableName,
                            message:
                                "\(formatCount(count)) rows have Z_ENT \(number), \(name.map { "the abstract entity \($0), which has no rows of its own" } ?? "no entity of the older model (its Z_PRIMARYKEY has no such number)"); Core Data cannot map them (Z_PK \(keys)).",
                            fix: "check that the store is of the older version given with --against; remove the rows if they are left over."
                        ))
                } else if let name, let old = oldModel.entity(name), mapping.newEntity(for: old) == nil {
                    warnings.append(
                        "\(formatCount(count)) \(name) rows are dropped: the newer model has no \(name) (lightweight migration drops them without an error)"
                    )
                }
            }
        }
        for entity in mapping.after.model.entities where !entity.isAbstract {
            guard let previous = mapping.oldEntity(for: entity), !previous.isAbstract, let number = numbers[previous.name] else { continue }
            let columns = columnMap(entity, previous, mapping: mapping, numbers: numbers)
            let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.column)
            let values = ["o.Z_PK", String(entity.number), "o.Z_OPT"] + columns.map(\.value)
            try database.execute(
                "INSERT INTO \(entity.tableName) (\(names.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM old.\(previous.tableName) o WHERE o.Z_ENT = \(number)",
                "migrating the \(entity.name) rows")
        }
        for entity in mapping.after.model.entities {
            guard let previous = mapping.oldEntity(for: entity) else { continue }
            for relationship in entity.relationships where relationship.entity === entity {
                guard let join = relationship.joinTable, join.isPrimarySide,
                    case let .relationship(was)? = mapping.oldMember(.relationship(relationship), in: previous), let oldJoin = was.joinTable
                else { continue }
                try database.execute(
                    "INSERT OR IGNORE INTO \(join.tableName) (\(join.sourceColumn), \(join.destinationColumn)) SELECT \(oldJoin.sourceColumn), \(oldJoin.destinationColumn) FROM old.\(oldJoin.tableName)",
                    "migrating the links of \(relationship.qualifiedName)")
            }
        }
        return (warnings, findings)
    }

    /// The NEW row's columns and the SQL expression of each over the OLD row `o`: mapped attributes and to-one keys
    /// (with their destination's Z_ENT renumbered), the hidden owner and order columns other entities' to-manys keep on
    /// it, and the defaults of attributes OLD lacks.
    static func columnMap(
        _ entity: EntityDescription, _ previous: EntityDescription, mapping: Mapping, numbers: [String: Int]
    )
        -> [(column: String, value: String)]
    {
        var columns: [(column: String, value: String)] = []
        func add(_ column: String, _ value: String) {
            if !column.isEmpty && !columns.contains(where: { $0.column == column }) { columns.append((column, value)) }
        }
        for member in Member.all(of: entity) {
            let old = mapping.oldMember(member, in: previous)
            switch (member, old) {
            case let (.attribute(now), .attribute(was)?):
                add(now.columnName, "o.\(was.columnName)")
            case let (.attribute(now), nil) where !now.defaultValue.isNull:
                add(now.columnName, sqlLiteral(now.defaultValue))
            case let (.relationship(now), .relationship(was)?) where !now.isToMany && !was.isToMany:
                add(now.columnName, "o.\(was.columnName)")
                if !now.entityColumnName.isEmpty { add(now.entityColumnName, renumbered(was, mapping: mapping, numbers: numbers)) }
            default:
                break
            }
        }
        // The columns of to-manys stored on this row: many-to-nil's hidden owner, an ordered to-many's order.
        for source in mapping.after.model.entities {
            guard let oldSource = mapping.oldEntity(for: source) else { continue }
            for relationship in source.relationships
            where relationship.entity === source && relationship.isToMany && relationship.joinTable == nil
                && entity.isKind(of: relationship.destination)
            {
                guard case let .relationship(was)? = mapping.oldMember(.relationship(relationship), in: oldSource), was.isToMany,
                    was.joinTable == nil, previous.isKind(of: was.destination)
                else { continue }
                if relationship.inverse == nil { add(relationship.columnName, "o.\(was.columnName)") }
                if !relationship.orderColumnName.isEmpty && !was.orderColumnName.isEmpty {
                    add(relationship.orderColumnName, "o.\(was.orderColumnName)")
                }
            }
        }
        return columns
    }

    /// The NEW Z_ENT of a to-one's destination row: OLD's store number mapped to the matched NEW entity's.
    private static func renumbered(_ was: RelationshipDescription, mapping: Mapping, numbers: [String: Int]) -> String {
        let destinations = was.destination.subtree.compactMap { old -> (Int, Int)? in
            guard let number = numbers[old.name], let now = mapping.newEntity(for: old) else { return nil }
            return (number, now.number)
        }
        guard !was.entityColumnName.isEmpty else {
            return destinations.first.map { "CASE WHEN o.\(was.columnName) IS NULL THEN NULL ELSE \($0.1) END" } ?? "NULL"
        }
        let cases = destinations.map { "WHEN \($0.0) THEN \($0.1)" }.joined(separator: " ")
        return cases.isEmpty ? "NULL" : "CASE o.\(was.entityColumnName) \(cases) END"
    }

    /// A default value as an SQL literal, stored as Core Data stores it (dates as seconds since 2001).
    static func sqlLiteral(_ value: Value) -> String {
        func text(_ string: String) -> String { "'" + string.replacingOccurrences(of: "'", with: "''") + "'" }
        switch value {
        case .null: return "NULL"
        case let .int(v): return String(v)
        case let .bool(v): return v ? "1" : "0"
        case let .double(v): return v.isFinite ? String(v) : "NULL"
        case let .date(v): return String(v.timeIntervalSinceReferenceDate)
        case let .string(v): return text(v)
        case let .uuid(v): return "X'" + withUnsafeBytes(of: v.uuid) { $0.map { String(format: "%02X", $0) }.joined() } + "'"
        case let .binary(v): return "X'" + v.map { String(format: "%02X", $0) }.joined() + "'"
        case let .decimal(v): return text(v.description)
        case let .url(v): return text(v.absoluteString)
        }
    }

    /// Up to `examples` primary keys of a `group_concat(Z_PK)`, in order, as `1, 2, 3, 4, 5`.
    static func exampleKeys(_ keys: StoredValue?) -> String {
        allKeys(keys).prefix(examples).map(String.init).joined(separator: ", ")
    }

    /// Every primary key of a `group_concat(Z_PK)`, in order.
    static func allKeys(_ keys: StoredValue?) -> [Int] {
        switch keys {
        case let .text(text)?: return text.split(separator: ",").compactMap { Int($0) }.sorted()
        case let .integer(key)?: return [key]
        default: return []
        }
    }
}
