import Foundation

/// A validated, compiled model: entities numbered, relationships resolved, tables and columns named.
///
/// Descriptions (entities, attributes, relationships) belong to their model and are valid while it lives;
/// stores, contexts and object IDs keep their model alive.
public final class ObjectModel: @unchecked Sendable {
    /// Entities in entity-number order (roots by name, each followed by its sub-entities): `entities[i].number == i + 1`.
    public let entities: [EntityDescription]
    /// What Xcode would warn about this model (relationships without an inverse), in its words.
    public let warnings: [String]
    /// A canonical text of the model, stored in Z_METADATA so that a store refuses another model.
    public let canonicalDescription: String
    /// A stable hash of `canonicalDescription`.
    public let versionHash: String
    /// A hash per entity (Core Data's NSStoreModelVersionHashes), to say which entities differ.
    public let entityVersionHashes: [String: String]
    /// The entities whose objects a save inserts, in the order it inserts them: an entity whose derived `@count`
    /// counts another entity's rows comes before it; otherwise by entity number. Abstract entities are left out.
    let saveOrder: [EntityDescription]
    /// Many-to-many join tables, one per relationship pair.
    let joinTables: [JoinTable]
    /// Whether any relationship is many-to-nil (a save then computes hidden owner columns).
    let hasManyToNil: Bool
    /// Whether any to-many is ordered (a save then writes order columns).
    let hasOrdered: Bool
    private let entitiesByName: [String: EntityDescription]

    /// Compiles and validates `entities`; throws a model error naming the entity and property at fault.
    public init(_ declarations: [Entity]) throws {
        let compiled = try ModelCompiler(declarations).compile()
        entities = compiled.entities
        warnings = compiled.warnings
        joinTables = compiled.joinTables
        let relationships = compiled.entities.flatMap(\.ownRelationships)
        hasManyToNil = relationships.contains { $0.kind == .manyToNil }
        hasOrdered = relationships.contains(where: \.isOrdered)
        saveOrder = Self.saveOrder(compiled.entities)
        entitiesByName = Dictionary(uniqueKeysWithValues: compiled.entities.map { ($0.name, $0) })
        canonicalDescription = Self.canonicalDescription(of: compiled.entities)
        versionHash = fnv1a64Hex(canonicalDescription)
        entityVersionHashes = Dictionary(
            uniqueKeysWithValues: compiled.entities.map {
                ($0.name, fnv1a64Hex(Self.canonicalDescription(of: [$0])))
            })
        for entity in entities {
            entity.unresolvedRelations = RelationSlots(unresolved: entity.relationships.count)
            entity.relationsOverflow = entity.relationships.count > RelationSlots.inlineCount
            // The parent's, then the entity's own (entities come parents first).
            let parent = entity.parent
            entity.toOneColumns =
                (parent?.toOneColumns ?? [])
                + entity.toOneRelationships[(parent?.toOneRelationships.count ?? 0)...].map {
                    ToOneColumn(index: $0.index, slot: $0.slot, entitySlot: $0.entitySlot)
                }
            entity.toManyIndices =
                (parent?.toManyIndices ?? []) + entity.toManyRelationships[(parent?.toManyRelationships.count ?? 0)...].map(\.index)
        }
    }

    /// Makes every entity's row layout (`ColumnLayout.materializeRow`) and statement text (`EntitySQL`,
    /// `RelationshipSQL`) the first time a store opens on the model, not when it compiles: what no store opens on
    /// (`bench schema`, `bench lint`) never pays for what grows with the square of a hierarchy's depth (each entity of a
    /// chain of depth d has a row of up to d columns and selects all d: 862 MB at depth 800 before).
    func prepareStatements() {
        statementsLock.lock()
        defer { statementsLock.unlock() }
        guard !statementsPrepared else { return }
        for entity in entities {
            ColumnLayout.materializeRow(entity)
            entity.insertOrder = Self.insertOrder(entity)
        }
        for entity in entities { entity.sql = EntitySQL(entity: entity) }
        for relationship in entities.flatMap(\.ownRelationships) { relationship.sql = RelationshipSQL(relationship) }
        statementsPrepared = true
    }

    private let statementsLock = NSLock()
    private var statementsPrepared = false

    /// The entity called `name`, if any.
    public func entity(_ name: String) -> EntityDescription? { entitiesByName[name] }

    /// The entity numbered `number`, if any.
    package func entity(number: Int) -> EntityDescription? {
        number >= 1 && number <= entities.count ? entities[number - 1] : nil
    }

    /// The entity called `name`, or an error that lists the model's entities.
    func requireEntity(_ name: String) throws -> EntityDescription {
        if let entity = entitiesByName[name] { return entity }
        let known = entities.map(\.name).joined(separator: ", ")
        throw ObjectGraphError.invalidOperation("the model has no entity '\(name)' (it has: \(known))")
    }

    /// The DDL that creates this model's store, statement by statement, as Core Data writes it.
    public var schemaSQL: [String] { SchemaBuilder(model: self).statements }

    /// The model as text, one line per property, in a fixed order: equal text means an equal store layout.
    static func canonicalDescription(of entities: [EntityDescription]) -> String {
        var lines: [String] = []
        for entity in entities {
            lines.append(
                "entity \(entity.number) \(entity.name) \(entity.tableName) parent=\(entity.parent?.name ?? "-") abstract=\(entity.isAbstract)"
            )
            for attribute in entity.ownAttributes {
                let validation =
                    attribute.validation.isEmpty
                    ? ""
                    : " validation=\(attribute.validation.minimum.map { String($0) } ?? "-"),\(attribute.validation.maximum.map { String($0) } ?? "-"),\(attribute.validation.pattern ?? "-")"
                lines.append(
                    "  attribute \(attribute.name) \(attribute.type.rawValue) optional=\(attribute.isOptional) default=\(attribute.defaultValue) indexed=\(attribute.isIndexed) transient=\(attribute.isTransient) column=\(attribute.columnName)\(validation)"
                )
            }
            for derived in entity.ownDerivedAttributes {
                lines.append("  derived \(derived.name) \(derived.derivation) \(derived.type.rawValue) column=\(derived.columnName)")
            }
            for relationship in entity.ownRelationships {
                lines.append(
                    "  relationship \(relationship.name) -> \(relationship.destination.name) \(relationship.kind.rawValue) inverse=\(relationship.inverse?.name ?? "-") optional=\(relationship.isOptional) delete=\(relationship.deleteRule.rawValue) ordered=\(relationship.isOrdered) count=\(relationship.minCount)...\(relationship.maxCount) column=\(relationship.columnName) join=\(relationship.joinTable?.tableName ?? "-")"
                )
            }
            for index in entity.fetchIndexes {
                lines.append(
                    "  index \(index.name) " + index.elements.map { "\($0.property)\($0.ascending ? "" : " desc")" }.joined(separator: ","))
            }
            for constraint in entity.uniquenessConstraints { lines.append("  unique " + constraint.joined(separator: ",")) }
        }
        return lines.joined(separator: "\n")
    }

    /// Column slots in INSERT order, by (write rank, slot): the parent's order (entities are numbered parents first)
    /// merged with the entity's own columns, which follow the inherited ones. (Sorting every entity's columns was
    /// O(d² log d) over an inheritance chain.)
    static func insertOrder(_ entity: EntityDescription) -> [Int] {
        let inherited = entity.parent?.insertOrder ?? []
        let own = (entity.inheritedColumnCount..<entity.columns.count).sorted {
            (entity.columns[$0].writeRank, $0) < (entity.columns[$1].writeRank, $1)
        }
        var order: [Int] = []
        order.reserveCapacity(inherited.count + own.count)
        var (i, j) = (0, 0)
        while i < inherited.count || j < own.count {
            if j == own.count
                || (i < inherited.count && entity.columns[inherited[i]].writeRank <= entity.columns[own[j]].writeRank)
            {
                order.append(inherited[i])
                i += 1
            } else {
                order.append(own[j])
                j += 1
            }
        }
        return order
    }

    /// Entities ordered so that owners of derived counts come before the entities they count (the owner's row
    /// then exists when a member's row fires the count trigger); ties and cycles fall back to entity number: the
    /// ready entity of the lowest number goes first, or, when none is ready (a cycle), the unplaced one of the lowest
    /// number. Kahn's algorithm over a heap of ready entities, O((entities + edges) log entities): picking the first
    /// ready entity by scanning them all was O(entities²).
    static func saveOrder(_ entities: [EntityDescription]) -> [EntityDescription] {
        var mustFollow: [Int: Set<Int>] = [:]
        for entity in entities {
            for derived in entity.ownDerivedAttributes {
                guard let relationship = derived.relationship, relationship.isToMany, relationship.kind != .manyToMany else { continue }
                for owner in entity.subtree {
                    for member in relationship.destination.subtree where member.number != owner.number {
                        mustFollow[member.number, default: []].insert(owner.number)
                    }
                }
            }
        }
        var waiting = [Int](repeating: 0, count: entities.count + 1)
        var followers: [Int: [Int]] = [:]
        for (member, owners) in mustFollow {
            waiting[member] = owners.count
            for owner in owners { followers[owner, default: []].append(member) }
        }
        var ready = MinHeap(entities.map(\.number).filter { waiting[$0] == 0 })
        var placed = [Bool](repeating: false, count: entities.count + 1)
        var ordered: [EntityDescription] = []
        var lowestUnplaced = 1
        while ordered.count < entities.count {
            var next = ready.pop()
            while let number = next, placed[number] { next = ready.pop() }
            let number: Int
            if let popped = next {
                number = popped
            } else {
                while placed[lowestUnplaced] { lowestUnplaced += 1 }
                number = lowestUnplaced
            }
            placed[number] = true
            ordered.append(entities[number - 1])
            for member in followers[number] ?? [] {
                waiting[member] -= 1
                if waiting[member] == 0 && !placed[member] { ready.push(member) }
            }
        }
        return ordered.filter { !$0.isAbstract }
    }
}

/// A binary min-heap of entity numbers.
struct MinHeap {
    private var items: [Int] = []

    init(_ numbers: [Int]) { for number in numbers { push(number) } }

    mutating func push(_ number: Int) {
        items.append(number)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Int? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < items.count && items[left] < items[smallest] { smallest = left }
                if right < items.count && items[right] < items[smallest] { smallest = right }
                if smallest == parent { break }
                items.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }
}

/// FNV-1a, 64 bits, as 16 hex digits: a stable hash that does not change between runs or platforms.
func fnv1a64Hex(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
