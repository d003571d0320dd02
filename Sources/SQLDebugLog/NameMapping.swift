/// How a model's entities and relationships are stored: tables and columns to entity and property names,
/// built by the caller from an Xcode model (`ZSTUDENT` is `Student`, `ZSTUDENT.ZCLASS` is `Student.class`,
/// join table `Z_2STUDENTS` is `Class.students`), with the columns that have an index.
///
/// Without a mapping, names come from the log's own annotations where they say them (the entity in an object
/// URI, the relationship of a to-many fault, a prefetch key path), else from the Z names, upper-case
/// (`ZSTUDENT` gives `STUDENT`): `LogAnalysis.namesInferred` then says so.
public struct NameMapping: Sendable, Equatable, Codable {
    /// Table name to entity name (`ZSTUDENT`: `Student`).
    public var entities: [String: String]
    /// Table name to column name to property name (`ZSTUDENT`: [`ZCLASS`: `class`]).
    public var properties: [String: [String: String]]
    /// Join table name to the to-many relationship it stores (`Z_2STUDENTS`: `Class.students`).
    public var joinTables: [String: String]
    /// A join table and the column holding the owner's key to the relationship read through it: a many-to-many
    /// stores both directions in one table (`Z_3SUBJECTS.Z_3STUDENTS`: `Student.subjects`).
    public var joinTableDirections: [TableColumn: String]
    /// To-many relationships stored as a foreign key on the member table: the member table and its key column
    /// to the owner's relationship (`ZSTUDENT.ZCLASS`: `Class.students`).
    public var toManyByForeignKey: [TableColumn: String]
    /// Indexed columns per table (the first column of each index). Nil: unknown, no unindexed-column findings
    /// except those SQLite's query plan shows.
    public var indexedColumns: [String: Set<String>]?
    /// Each entity's parent (`Customer`: `Account`); roots are absent.
    public var parents: [String: String]
    /// Every relationship, keyed by the entity that declares it and its name (`Class.students`): what the findings
    /// follow to name a key path from a fetch and the sub-entities a to-one reaches.
    public var relationships: [String: ModelRelationship]
    /// Entity numbers (Z_ENT) to entity names: which entity a fetch of a shared table asked for (`t0.Z_ENT = 2`).
    public var entityNumbers: [Int: String]

    public init(
        entities: [String: String] = [:], properties: [String: [String: String]] = [:],
        joinTables: [String: String] = [:], joinTableDirections: [TableColumn: String] = [:],
        toManyByForeignKey: [TableColumn: String] = [:], indexedColumns: [String: Set<String>]? = nil,
        parents: [String: String] = [:], relationships: [String: ModelRelationship] = [:], entityNumbers: [Int: String] = [:]
    ) {
        self.entities = entities
        self.properties = properties
        self.joinTables = joinTables
        self.joinTableDirections = joinTableDirections
        self.toManyByForeignKey = toManyByForeignKey
        self.indexedColumns = indexedColumns
        self.parents = parents
        self.relationships = relationships
        self.entityNumbers = entityNumbers
    }

    /// Every entity the mapping names: roots (`entities`' values), and the sub-entities `parents` lists.
    public var entityNames: Set<String> { Set(entities.values).union(parents.keys) }
}

/// A relationship as the findings need it: where it points, whether it is to-many, and its inverse.
public struct ModelRelationship: Sendable, Equatable, Codable {
    /// The entity that declares it.
    public var entity: String
    public var name: String
    public var destination: String
    public var isToMany: Bool
    public var inverse: String?
    /// The derived attributes that keep its count (`Customer.orderCount` for `Account.orders`), when it is a to-many
    /// some entity counts: a count read through faults is then advised to read them, not to add one.
    public var countedBy: [String]?

    public init(entity: String, name: String, destination: String, isToMany: Bool, inverse: String?, countedBy: [String]? = nil) {
        self.entity = entity
        self.name = name
        self.destination = destination
        self.isToMany = isToMany
        self.inverse = inverse
        self.countedBy = countedBy
    }

    /// `Class.students`.
    public var qualifiedName: String { "\(entity).\(name)" }
}

/// A name and whether it was inferred from a Z name rather than given or logged.
public struct ResolvedName: Sendable, Equatable, Codable, CustomStringConvertible {
    public var name: String
    public var inferred: Bool

    public init(name: String, inferred: Bool) {
        self.name = name
        self.inferred = inferred
    }

    public var description: String { name }
}

/// A table and one of its columns (`ZSTUDENT`, `ZCLASS`).
public struct TableColumn: Hashable, Sendable, Codable, CustomStringConvertible {
    public var table: String
    public var column: String

    public init(table: String, column: String) {
        self.table = table
        self.column = column
    }

    public var description: String { "\(table).\(column)" }
}

/// Resolves Z names: the caller's mapping first, then what the log's annotations taught, then the Z name itself.
struct NameResolver: Sendable {
    var mapping: NameMapping?
    private(set) var learnedEntities: [String: String] = [:]
    private(set) var learnedToMany: [TableColumn: String] = [:]
    private(set) var learnedJoinTables: [String: String] = [:]
    /// A join table read through one of its columns (a reflexive many-to-many stores both directions in one table).
    private(set) var learnedJoinDirections: [TableColumn: String] = [:]
    private(set) var usedInference = false

    init(mapping: NameMapping?) {
        self.mapping = mapping
    }

    /// Learns that `table` stores `entity` (from an object URI or `on entity 'X'`), when the names agree.
    mutating func learn(table: String, entity: String) {
        guard learnedEntities[table] == nil, !entity.isEmpty else { return }
        if table.uppercased() == "Z" + entity.uppercased() { learnedEntities[table] = entity }
    }

    /// Entity names already learned (profiled: upper-casing the name of every fault's URI cost 1% of a read).
    private var learnedNames = Set<String>()

    /// Learns an entity name the log spells (an object URI): its table is `Z` + the name upper-cased.
    mutating func learn(entity: String) {
        // `utf8.count < 200` implies `count < 200` without walking the characters (profiled: 1% of reading a log).
        guard !entity.isEmpty, entity.utf8.count < 200 || entity.count < 200, !learnedNames.contains(entity), learnedNames.count < 10_000
        else { return }
        learnedNames.insert(entity)
        let table = "Z" + entity.uppercased()
        if learnedEntities[table] == nil { learnedEntities[table] = entity }
    }

    mutating func learn(toMany relationship: String, ownerEntity: String?, shape: StatementShape) {
        // Nothing to learn once its table and column are known: no name is made (a screen faults one to-many again and
        // again).
        let learnsJoin =
            shape.joinTable.map { join in
                learnedJoinTables[join.table] == nil
                    || learnedJoinDirections[TableColumn(table: join.table, column: join.ownerColumn)] == nil
            } ?? false
        guard learnsJoin || shape.ownerColumn.map({ learnedToMany[$0] == nil }) == true else { return }
        let owner = ownerEntity ?? shape.tables.first.map { Self.inferredEntity($0) } ?? "?"
        let qualified = "\(owner).\(relationship)"
        if let join = shape.joinTable {
            if learnedJoinTables[join.table] == nil { learnedJoinTables[join.table] = qualified }
            let direction = TableColumn(table: join.table, column: join.ownerColumn)
            if learnedJoinDirections[direction] == nil { learnedJoinDirections[direction] = qualified }
        }
        if let column = shape.ownerColumn, learnedToMany[column] == nil { learnedToMany[column] = qualified }
    }

    /// The table an entity's rows are in: its root entity's (from the mapping), else `Z` and its name upper-cased.
    func table(ofEntity entity: String) -> String? {
        var root = entity
        var steps = 0
        while let parent = mapping?.parents[root], steps < 64 {
            root = parent
            steps += 1
        }
        if let table = mapping?.entities.first(where: { $0.value == root })?.key { return table }
        if let table = learnedEntities.first(where: { $0.value == root })?.key { return table }
        return "Z" + root.uppercased()
    }

    /// The entity a fetch read, when the model or the log names it (never inferred, never noted as inferred): what
    /// the key paths of findings start from.
    func knownFetchedEntity(_ shape: StatementShape) -> String? {
        if let number = shape.entityNumber, let name = mapping?.entityNumbers[number] { return name }
        guard let table = shape.tables.first else { return nil }
        return mapping?.entities[table] ?? learnedEntities[table]
    }

    /// The entity a fetch asked for: the one its `Z_ENT` restriction names (a sub-entity in a shared table), else its
    /// table's.
    mutating func fetchedEntity(_ shape: StatementShape) -> ResolvedName? {
        if let number = shape.entityNumber, let name = mapping?.entityNumbers[number] { return ResolvedName(name: name, inferred: false) }
        return shape.tables.first.map { entity(forTable: $0) }
    }

    mutating func entity(forTable table: String) -> ResolvedName {
        if let name = mapping?.entities[table] { return ResolvedName(name: name, inferred: false) }
        if let name = learnedEntities[table] { return ResolvedName(name: name, inferred: false) }
        usedInference = true
        return ResolvedName(name: Self.inferredEntity(table), inferred: true)
    }

    /// `ZSTUDENT.ZCLASS` as `Student.class` (or `STUDENT.CLASS` inferred).
    mutating func property(_ column: TableColumn) -> ResolvedName {
        let entity = entity(forTable: column.table)
        if let name = mapping?.properties[column.table]?[column.column] {
            return ResolvedName(name: "\(entity.name).\(name)", inferred: entity.inferred)
        }
        usedInference = true
        return ResolvedName(name: "\(entity.name).\(Self.inferredProperty(column.column))", inferred: true)
    }

    /// The to-many relationship a to-many fault statement reads, from its join table or foreign key, as
    /// `Owner.relationship`. Inferred: a join table `Z_2STUDENTS` read through `Z_2CLASSES` is `ENTITY2.STUDENTS`;
    /// a key `ZSTUDENT.ZCLASS` gives `CLASS.<inverse of STUDENT.CLASS>`; a hidden owner column `Z2STUDENTS` (a
    /// to-many without inverse) gives `ENTITY2.STUDENTS`.
    mutating func toManyRelationship(of shape: StatementShape) -> ResolvedName? {
        if let join = shape.joinTable {
            let direction = TableColumn(table: join.table, column: join.ownerColumn)
            if let name = mapping?.joinTableDirections[direction] ?? learnedJoinDirections[direction] ?? mapping?.joinTables[join.table]
                ?? learnedJoinTables[join.table]
            {
                return ResolvedName(name: name, inferred: false)
            }
            usedInference = true
            return ResolvedName(
                name: "\(Self.entityNumberName(join.ownerColumn)).\(Self.inferredProperty(join.memberColumn))", inferred: true)
        }
        if let column = shape.ownerColumn {
            if let name = mapping?.toManyByForeignKey[column] ?? learnedToMany[column] { return ResolvedName(name: name, inferred: false) }
            usedInference = true
            let digits = column.column.dropFirst().prefix { $0.isNumber }
            if column.column.hasPrefix("Z"), !digits.isEmpty, !column.column.hasPrefix("Z_") {
                return ResolvedName(name: "ENTITY\(digits).\(Self.inferredProperty(column.column))", inferred: true)
            }
            let member = entity(forTable: column.table).name
            let owner = Self.inferredProperty(column.column)
            return ResolvedName(name: "\(owner).<inverse of \(member).\(owner)>", inferred: true)
        }
        return nil
    }

    /// A table's name for listing: an entity, or for a join table (`Z_2STUDENTS`) the relationship it stores.
    mutating func tableName(_ table: String) -> ResolvedName {
        guard Self.isJoinTable(table) else { return entity(forTable: table) }
        if let name = mapping?.joinTables[table] ?? learnedJoinTables[table] { return ResolvedName(name: name, inferred: false) }
        usedInference = true
        return ResolvedName(name: "\(Self.entityNumberName(table)).\(Self.inferredProperty(table))", inferred: true)
    }

    /// `Z_2STUDENTS`: `Z_`, an entity number, a relationship name.
    static func isJoinTable(_ table: String) -> Bool {
        table.hasPrefix("Z_") && table.dropFirst(2).first?.isNumber == true
    }

    /// `Z_2CLASSES` → `ENTITY2`.
    static func entityNumberName(_ column: String) -> String {
        let digits = column.drop { !$0.isNumber }.prefix { $0.isNumber }
        return digits.isEmpty ? "?" : "ENTITY\(digits)"
    }

    func isIndexed(_ column: TableColumn) -> Bool? {
        guard let indexed = mapping?.indexedColumns else { return nil }
        if column.column == "Z_PK" { return true }
        guard let columns = indexed[column.table] else { return nil }
        return columns.contains(column.column)
    }

    /// `ZSTUDENT` → `STUDENT`; `Z_2STUDENTS` → `STUDENTS`.
    static func inferredEntity(_ table: String) -> String {
        var name = Substring(table)
        if name.hasPrefix("Z_") {
            name = name.dropFirst(2)
            while let first = name.first, first.isNumber { name = name.dropFirst() }
            return String(name)
        }
        if name.hasPrefix("Z") { name = name.dropFirst() }
        return String(name)
    }

    /// `ZCLASS` → `CLASS`; `Z_2CLASSES` → `CLASSES`; `Z2STUDENTS` → `STUDENTS`.
    static func inferredProperty(_ column: String) -> String {
        var name = Substring(column)
        if name.hasPrefix("Z") { name = name.dropFirst() }
        if name.hasPrefix("_") { name = name.dropFirst() }
        while let first = name.first, first.isNumber { name = name.dropFirst() }
        if name.hasPrefix("_") { name = name.dropFirst() }
        return String(name)
    }
}
