/// Lays out the table of one root entity and the rows of every entity in its hierarchy.
///
/// Column names are made unique across the whole table (Core Data's mapping generator): the first entity, in
/// entity-number order, to use a name keeps it and later ones get `1`, `2`, ... (Bear's `ZHEIGHT`, `ZHEIGHT1`;
/// Notes' `ZTITLE`, `ZTITLE1`, `ZTITLE2`). Each entity's main columns are its attributes (derived ones included)
/// sorted by name, then its keys sorted by name (to-one foreign keys and the hidden owner columns of many-to-nil
/// relationships). Order columns (`Z_FOK_`) and foreign entity keys (`Z<n>_<NAME>`) are named after every main
/// column and placed after them in the table (Photos' `Z_FOK_PARENTFOLDER` follows all sub-entities' integers).
/// A row is its ancestors' columns followed by the entity's own (main, order, entity keys), so a sub-entity's
/// slots extend its parent's.
struct ColumnLayout {
    let root: EntityDescription
    let placement: Placement

    /// The relationships whose columns go on an entity other than their own, grouped once by that entity: a
    /// many-to-nil's hidden owner column on its destination, an ordered to-many's order column on its members.
    /// (Each entity scanning every relationship of the model for its own was O(entities × relationships): 24× the work
    /// for 4× the entities of a generated model.)
    struct Placement {
        fileprivate var hiddenOwners: [ObjectIdentifier: [RelationshipDescription]] = [:]
        fileprivate var ordered: [ObjectIdentifier: [RelationshipDescription]] = [:]

        init(_ declared: [RelationshipDescription]) {
            for relationship in declared {
                if relationship.kind == .manyToNil {
                    hiddenOwners[ObjectIdentifier(relationship.destination), default: []].append(relationship)
                }
                guard relationship.isOrdered else { continue }
                if relationship.kind == .oneToMany {
                    ordered[ObjectIdentifier(relationship.requiredInverse.entity), default: []].append(relationship)
                } else if relationship.kind == .manyToNil {
                    ordered[ObjectIdentifier(relationship.destination), default: []].append(relationship)
                }
            }
        }
    }

    private struct Own {
        var main: [Column] = []
        var extra: [Column] = []
    }

    func layOut() {
        var namer = UniqueNamer(reserved: ["Z_PK", "Z_ENT", "Z_OPT"])
        var own: [ObjectIdentifier: Own] = [:]
        for entity in root.subtree {
            own[ObjectIdentifier(entity)] = Own(main: mainColumns(of: entity, namer: &namer))
        }
        for entity in root.subtree {
            own[ObjectIdentifier(entity), default: Own()].extra = extraColumns(of: entity, namer: &namer)
        }
        var table: [Column] = []
        let owned = root.subtree.map { own[ObjectIdentifier($0), default: Own()] }
        for columns in owned { table += columns.main }
        for columns in owned { table += columns.extra.filter { if case .order = $0.kind { return true } else { return false } } }
        for columns in owned { table += columns.extra.filter { if case .foreignEntity = $0.kind { return true } else { return false } } }
        root.tableColumns = table

        for entity in root.subtree {
            let inherited = entity.parent?.columnCount ?? 0
            let mine = own[ObjectIdentifier(entity), default: Own()]
            let ownColumns = mine.main + mine.extra
            for (offset, column) in ownColumns.enumerated() {
                let slot = inherited + offset
                switch column.kind {
                case let .attribute(attribute): attribute.slot = slot
                case let .derived(derived): derived.slot = slot
                case let .foreignKey(relationship), let .hiddenOwner(relationship): relationship.slot = slot
                case let .order(relationship): relationship.orderSlot = slot
                case let .foreignEntity(relationship): relationship.entitySlot = slot
                }
            }
            entity.inheritedColumnCount = inherited
            entity.ownColumns = ownColumns
            entity.columnCount = inherited + ownColumns.count
        }
    }

    /// Makes the entity's row layout from its parent's (made first: entities are numbered parents first) and its own
    /// columns: `columns`, `defaultRow`, `rowShape`, and the columns only a save writes.
    static func materializeRow(_ entity: EntityDescription) {
        var columns = entity.parent?.columns ?? []
        var defaults = entity.parent?.defaultRow ?? []
        columns.reserveCapacity(entity.columnCount)
        defaults.reserveCapacity(entity.columnCount)
        for column in entity.ownColumns {
            switch column.kind {
            case let .attribute(attribute): defaults.append(attribute.defaultValue)
            case let .derived(derived): defaults.append(initialValue(of: derived))
            case .foreignKey, .hiddenOwner, .order, .foreignEntity: defaults.append(.null)
            }
            columns.append(column)
        }
        entity.columns = columns
        entity.defaultRow = defaults
        entity.rowShapeOwner = RowShape.Owner(tableNumber: entity.rootNumber, types: columns.map(\.attributeType), defaults: defaults)
        for column in entity.ownColumns {
            if case let .attribute(attribute) = column.kind { attribute.payloadWord = entity.rowShape.columns[attribute.slot].word }
        }
        entity.hiddenOwnerRelationships = columns.compactMap { if case let .hiddenOwner(r) = $0.kind { return r } else { return nil } }
        entity.orderedInverseRelationships = columns.compactMap { if case let .order(r) = $0.kind { return r } else { return nil } }
        entity.saveComputedSlots = columns.indices.filter {
            switch columns[$0].kind {
            case .hiddenOwner, .order: return true
            default: return false
            }
        }
    }

    /// Attributes sorted by name, then keys sorted by name. A many-to-nil relationship gets a "virtual" to-one on
    /// its destination named "<source entity number><name>" (Core Data's _addVirtualToOneForToMany), so
    /// Student (3).subjects puts Z3SUBJECTS on ZSUBJECT.
    private func mainColumns(of entity: EntityDescription, namer: inout UniqueNamer) -> [Column] {
        enum Item { case attribute(AttributeDescription), derived(DerivedAttributeDescription) }
        var items: [(String, Item)] = entity.ownStoredAttributes.map { ($0.name, .attribute($0)) }
        items += entity.ownDerivedAttributes.map { ($0.name, .derived($0)) }
        items.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        var columns: [Column] = []
        for (_, item) in items {
            switch item {
            case let .attribute(attribute):
                attribute.columnName = namer.unique("Z" + attribute.name.uppercased())
                columns.append(Column(name: attribute.columnName, sqlType: attribute.type.sqlType, kind: .attribute(attribute)))
            case let .derived(derived):
                derived.columnName = namer.unique("Z" + derived.name.uppercased())
                columns.append(Column(name: derived.columnName, sqlType: derived.type.sqlType, kind: .derived(derived)))
            }
        }
        enum Key { case toOne(RelationshipDescription), hidden(RelationshipDescription) }
        var keys: [(String, Key)] = entity.ownToOneRelationships.map { ($0.name, .toOne($0)) }
        keys += (placement.hiddenOwners[ObjectIdentifier(entity)] ?? []).map { (Self.virtualName($0), .hidden($0)) }
        keys.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        for (name, key) in keys {
            switch key {
            case let .toOne(relationship):
                relationship.columnName = namer.unique("Z" + name.uppercased())
                columns.append(Column(name: relationship.columnName, sqlType: "INTEGER", kind: .foreignKey(relationship)))
            case let .hidden(relationship):
                relationship.columnName = namer.unique("Z" + name.uppercased())
                columns.append(Column(name: relationship.columnName, sqlType: "INTEGER", kind: .hiddenOwner(relationship)))
            }
        }
        return columns
    }

    /// Order columns of ordered to-many relationships whose members are this entity's rows (`Z_FOK_<INVERSE>`,
    /// named after the to-one this entity declares, or `Z_FOK_<n><NAME>` for a many-to-nil: inferred, no real
    /// store seen), sorted by name; then foreign entity keys of this entity's to-ones whose destination has
    /// sub-entities (decompiled NSSQLForeignEntityKey: `Z<destination number>_<NAME>`; no real store seen).
    private func extraColumns(of entity: EntityDescription, namer: inout UniqueNamer) -> [Column] {
        var ordered = (placement.ordered[ObjectIdentifier(entity)] ?? []).map { relationship in
            (relationship.kind == .oneToMany ? relationship.requiredInverse.name : Self.virtualName(relationship), relationship)
        }
        ordered.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        var columns: [Column] = []
        for (name, relationship) in ordered {
            relationship.orderColumnName = namer.unique("Z_FOK_" + name.uppercased())
            columns.append(Column(name: relationship.orderColumnName, sqlType: "INTEGER", kind: .order(relationship)))
        }
        for relationship in entity.ownToOneRelationships where !relationship.destination.subentities.isEmpty {
            relationship.entityColumnName = namer.unique("Z\(relationship.destination.number)_\(relationship.name.uppercased())")
            columns.append(Column(name: relationship.entityColumnName, sqlType: "INTEGER", kind: .foreignEntity(relationship)))
        }
        return columns
    }

    /// The name of the virtual to-one a many-to-nil relationship puts on its destination: `3subjects`.
    static func virtualName(_ relationship: RelationshipDescription) -> String {
        "\(relationship.entity.number)\(relationship.name)"
    }

    /// The value a derived column holds before its first save: counts and integer sums start at 0.
    static func initialValue(of derived: DerivedAttributeDescription) -> Value {
        switch derived.kind {
        case .count: return .int(0)
        case .aggregate(.sum, _, _): return derived.type.isInteger ? .int(0) : .double(0)
        default: return .null
        }
    }
}

/// Hands out names, appending 1, 2, ... to a name already taken (Core Data's `uniqueNameWithBase:`).
struct UniqueNamer {
    private var used: Set<String>

    init(reserved: Set<String> = []) { used = reserved }

    mutating func unique(_ base: String) -> String {
        if used.insert(base).inserted { return base }
        var suffix = 1
        while !used.insert(base + String(suffix)).inserted { suffix += 1 }
        return base + String(suffix)
    }
}
