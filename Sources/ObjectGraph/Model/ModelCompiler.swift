/// Turns declarations into descriptions: numbers entities, resolves destinations and inverses, validates,
/// picks each relationship's storage and lays out each table's columns.
struct ModelCompiler {
    let declarations: [Entity]

    init(_ declarations: [Entity]) { self.declarations = declarations }

    struct Output {
        var entities: [EntityDescription]
        var warnings: [String]
        var joinTables: [JoinTable]
    }

    func compile() throws -> Output {
        guard !declarations.isEmpty else {
            throw ObjectGraphError.model(entity: "(model)", property: nil, reason: "the model declares no entities")
        }
        var seen = Set<String>()
        for declaration in declarations {
            try Self.checkName(declaration.name, entity: declaration.name, property: nil)
            guard seen.insert(declaration.name).inserted else {
                throw ObjectGraphError.model(entity: declaration.name, property: nil, reason: "duplicate entity name")
            }
        }
        // Core Data numbers entities from 1; the order of sorted names is an inference (coredata-facts §1).
        let sorted = declarations.sorted { $0.name < $1.name }
        let entities = sorted.map { EntityDescription(name: $0.name) }
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        for (index, entity) in entities.enumerated() { entity.number = index + 1 }

        for (declaration, entity) in zip(sorted, entities) {
            try declareProperties(declaration, into: entity)
        }
        for entity in entities {
            for relationship in entity.relationships {
                try resolve(relationship, entities: byName)
            }
        }
        var warnings: [String] = []
        for entity in entities {
            for relationship in entity.relationships {
                try classify(relationship)
                if relationship.inverse == nil { warnings.append(Self.noInverseWarning(relationship)) }
            }
            for derived in entity.derivedAttributes { try resolve(derived) }
        }
        for entity in entities {
            let hidden = entities.flatMap(\.relationships).filter { $0.kind == .manyToNil && $0.destination === entity }
            layOutColumns(entity, hiddenOwners: hidden)
        }
        for relationship in entities.flatMap(\.relationships) where relationship.kind == .oneToMany {
            relationship.columnName = relationship.inverse!.columnName
            relationship.slot = relationship.inverse!.slot
        }
        let joinTables = nameJoinTables(entities)
        return Output(entities: entities, warnings: warnings, joinTables: joinTables)
    }

    /// The warning Xcode prints for a relationship without an inverse (coredata-facts §2).
    static func noInverseWarning(_ relationship: RelationshipDescription) -> String {
        if relationship.isToMany {
            return "\(relationship.qualifiedName) does not have an inverse; this is an advanced setting "
                + "(no object can be in multiple destinations for a specific relationship)"
        }
        return "\(relationship.qualifiedName) should have an inverse"
    }

    private static func checkName(_ name: String, entity: String, property: String?) throws {
        let valid = name.first.map { $0.isLetter } == true && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            && name.allSatisfy(\.isASCII)
        guard valid else {
            throw ObjectGraphError.model(entity: entity, property: property,
                                         reason: "'\(name)' is not a valid name: use ASCII letters, digits and _, starting with a letter")
        }
    }

    private func declareProperties(_ declaration: Entity, into entity: EntityDescription) throws {
        // Core Data keeps an entity's properties sorted by name; so do the columns and the SQL.
        for property in declaration.properties.sorted(by: { $0.name < $1.name }) {
            try Self.checkName(property.name, entity: entity.name, property: property.name)
            guard entity.propertiesByName[property.name] == nil else {
                throw ObjectGraphError.model(entity: entity.name, property: property.name, reason: "duplicate property name")
            }
            switch property.kind {
            case let .attribute(type, isOptional, defaultValue, isIndexed):
                if let defaultValue, !defaultValue.fits(type) {
                    throw ObjectGraphError.model(entity: entity.name, property: property.name,
                                                 reason: "default value \(defaultValue) is not a \(type.rawValue)")
                }
                let attribute = AttributeDescription(name: property.name, type: type, isOptional: isOptional,
                                                     defaultValue: defaultValue?.normalized(for: type) ?? .null,
                                                     isIndexed: isIndexed, entity: entity)
                entity.attributes.append(attribute)
                entity.propertiesByName[property.name] = .attribute(attribute)
            case let .relationship(destination, isToMany, inverse, isOptional, deleteRule):
                let relationship = RelationshipDescription(
                    name: property.name, isToMany: isToMany, isOptional: isOptional, deleteRule: deleteRule,
                    entity: entity, index: entity.relationships.count, destinationName: destination, inverseName: inverse)
                entity.relationships.append(relationship)
                entity.propertiesByName[property.name] = .relationship(relationship)
            case let .derived(derivation):
                let derived = DerivedAttributeDescription(name: property.name, derivation: derivation, entity: entity)
                entity.derivedAttributes.append(derived)
                entity.propertiesByName[property.name] = .derived(derived)
            }
        }
        entity.toManyRelationships = entity.relationships.filter(\.isToMany)
        entity.toOneRelationships = entity.relationships.filter { !$0.isToMany }
    }

    private func resolve(_ relationship: RelationshipDescription, entities: [String: EntityDescription]) throws {
        let entityName = relationship.entity.name
        guard let destination = entities[relationship.declaredDestinationName] else {
            throw ObjectGraphError.model(entity: entityName, property: relationship.name,
                                         reason: "unknown destination entity '\(relationship.declaredDestinationName)'")
        }
        relationship.destination = destination
        guard let inverseName = relationship.declaredInverseName else { return }
        guard let inverse = destination.relationship(inverseName) else {
            throw ObjectGraphError.model(entity: entityName, property: relationship.name,
                                         reason: "inverse '\(inverseName)' is not a relationship of \(destination.name)")
        }
        guard inverse !== relationship else {
            throw ObjectGraphError.model(entity: entityName, property: relationship.name,
                                         reason: "a relationship cannot be its own inverse; declare a second relationship")
        }
        guard inverse.declaredDestinationName == entityName else {
            throw ObjectGraphError.model(entity: entityName, property: relationship.name,
                                         reason: "inverse \(inverse.qualifiedName) points to \(inverse.declaredDestinationName), not back to \(entityName)")
        }
        guard inverse.declaredInverseName == relationship.name else {
            let other = inverse.declaredInverseName.map { "'\($0)'" } ?? "no inverse"
            throw ObjectGraphError.model(entity: entityName, property: relationship.name,
                                         reason: "inverse pair disagrees: \(inverse.qualifiedName) declares \(other), not '\(relationship.name)'")
        }
        relationship.inverse = inverse
    }

    private func classify(_ relationship: RelationshipDescription) throws {
        switch (relationship.isToMany, relationship.inverse?.isToMany) {
        case (false, true?): relationship.kind = .manyToOne
        case (false, false?): relationship.kind = .oneToOne
        case (false, nil): relationship.kind = .oneToNil
        case (true, false?): relationship.kind = .oneToMany
        case (true, true?): relationship.kind = .manyToMany
        case (true, nil): relationship.kind = .manyToNil
        }
    }

    private func resolve(_ derived: DerivedAttributeDescription) throws {
        let entity = derived.entity
        let suffix = ".@count"
        guard derived.derivation.hasSuffix(suffix) else {
            throw ObjectGraphError.model(entity: entity.name, property: derived.name,
                                         reason: "derivation '\(derived.derivation)' is not supported; use '<toManyRelationship>.@count'")
        }
        let relationshipName = String(derived.derivation.dropLast(suffix.count))
        guard let relationship = entity.relationship(relationshipName), relationship.isToMany else {
            throw ObjectGraphError.model(entity: entity.name, property: derived.name,
                                         reason: "derivation '\(derived.derivation)' must count a to-many relationship of \(entity.name)")
        }
        derived.relationship = relationship
        relationship.derivedCounts.append(derived)
    }

    /// The row layout, which is also the SELECT order: after Z_PK and Z_OPT, attributes (derived ones included)
    /// sorted by name, then foreign keys sorted by relationship name. A clash after upper-casing gets a number.
    private func layOutColumns(_ entity: EntityDescription, hiddenOwners: [RelationshipDescription]) {
        var used: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        func unique(_ base: String) -> String {
            if used.insert(base).inserted { return base }
            var suffix = 1
            while !used.insert(base + String(suffix)).inserted { suffix += 1 }
            return base + String(suffix)
        }
        enum Item { case attribute(AttributeDescription), derived(DerivedAttributeDescription) }
        var items: [(String, Item)] = entity.attributes.map { ($0.name, .attribute($0)) }
        items += entity.derivedAttributes.map { ($0.name, .derived($0)) }
        items.sort { $0.0 < $1.0 }
        for (_, item) in items {
            switch item {
            case let .attribute(attribute):
                attribute.columnName = unique("Z" + attribute.name.uppercased())
                attribute.slot = entity.columns.count
                entity.columns.append(Column(name: attribute.columnName, sqlType: attribute.type.sqlType, kind: .attribute(attribute)))
                entity.defaultRow.append(attribute.defaultValue)
            case let .derived(derived):
                derived.columnName = unique("Z" + derived.name.uppercased())
                derived.slot = entity.columns.count
                entity.columns.append(Column(name: derived.columnName, sqlType: "INTEGER", kind: .derived(derived)))
                entity.defaultRow.append(.int(0))
            }
        }
        // Foreign keys after the attributes, sorted by relationship name. A many-to-nil relationship gets a
        // "virtual" to-one on its destination named "<source entity number><name>" (Core Data's
        // _addVirtualToOneForToMany), so Student (entity 3).subjects puts Z3SUBJECTS on ZSUBJECT.
        enum Key { case toOne(RelationshipDescription), hidden(RelationshipDescription) }
        var keys: [(String, Key)] = entity.toOneRelationships.map { ($0.name, .toOne($0)) }
        keys += hiddenOwners.map { ("\($0.entity.number)\($0.name)", .hidden($0)) }
        keys.sort { $0.0 < $1.0 }
        for (name, key) in keys {
            switch key {
            case let .toOne(relationship):
                relationship.columnName = unique("Z" + name.uppercased())
                relationship.slot = entity.columns.count
                entity.columns.append(Column(name: relationship.columnName, sqlType: "INTEGER", kind: .foreignKey(relationship)))
            case let .hidden(relationship):
                relationship.columnName = unique("Z" + name.uppercased())
                relationship.slot = entity.columns.count
                entity.columns.append(Column(name: relationship.columnName, sqlType: "INTEGER", kind: .hiddenOwner(relationship)))
            }
            entity.defaultRow.append(.null)
        }
        let hidden = hiddenOwners.sorted { ($0.entity.number, $0.name) < ($1.entity.number, $1.name) }
        entity.hiddenOwnerRelationships = hidden
    }

    /// Names the join table of every many-to-many pair after the side whose entity name sorts first
    /// (relationship name breaks a tie), as in Bear's `Z_5TAGS (Z_5NOTES, Z_13TAGS)` (coredata-facts §1).
    private func nameJoinTables(_ entities: [EntityDescription]) -> [JoinTable] {
        var tables: [JoinTable] = []
        for entity in entities {
            for relationship in entity.relationships where relationship.kind == .manyToMany {
                let inverse = relationship.inverse!
                let isPrimary = (entity.name, relationship.name) < (inverse.entity.name, inverse.name)
                guard isPrimary else { continue }
                let table = "Z_\(entity.number)\(relationship.name.uppercased())"
                let sourceColumn = "Z_\(entity.number)\(inverse.name.uppercased())"
                var destinationColumn = "Z_\(relationship.destination.number)\(relationship.name.uppercased())"
                if destinationColumn == sourceColumn { destinationColumn += "1" }
                let primary = JoinTable(tableName: table, sourceColumn: sourceColumn, destinationColumn: destinationColumn, isPrimarySide: true)
                relationship.joinTable = primary
                inverse.joinTable = JoinTable(tableName: table, sourceColumn: destinationColumn, destinationColumn: sourceColumn, isPrimarySide: false)
                tables.append(primary)
            }
        }
        return tables
    }

    /// The model as text, one line per property, in a fixed order: equal text means an equal store layout.
    static func canonicalDescription(of entities: [EntityDescription]) -> String {
        var lines: [String] = []
        for entity in entities {
            lines.append("entity \(entity.number) \(entity.name) \(entity.tableName)")
            for attribute in entity.attributes {
                lines.append("  attribute \(attribute.name) \(attribute.type.rawValue) optional=\(attribute.isOptional) default=\(attribute.defaultValue) indexed=\(attribute.isIndexed) column=\(attribute.columnName)")
            }
            for derived in entity.derivedAttributes {
                lines.append("  derived \(derived.name) \(derived.derivation) column=\(derived.columnName)")
            }
            for relationship in entity.relationships {
                lines.append("  relationship \(relationship.name) -> \(relationship.destination.name) \(relationship.kind.rawValue) inverse=\(relationship.inverse?.name ?? "-") optional=\(relationship.isOptional) delete=\(relationship.deleteRule.rawValue) column=\(relationship.columnName) join=\(relationship.joinTable?.tableName ?? "-")")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Entities ordered so that owners of derived counts come before the entities they count (owner rows must
    /// exist when member rows fire the count triggers); ties and cycles fall back to entity number.
    static func saveOrder(_ entities: [EntityDescription]) -> [EntityDescription] {
        var mustFollow: [Int: Set<Int>] = [:]
        for entity in entities {
            for derived in entity.derivedAttributes where derived.relationship.kind != .manyToMany {
                let member = derived.relationship.destination.number
                if member != entity.number { mustFollow[member, default: []].insert(entity.number) }
            }
        }
        var ordered: [EntityDescription] = []
        var placed = Set<Int>()
        while ordered.count < entities.count {
            let ready = entities.first { !placed.contains($0.number) && mustFollow[$0.number, default: []].isSubset(of: placed) }
                ?? entities.first { !placed.contains($0.number) }!
            ordered.append(ready)
            placed.insert(ready.number)
        }
        return ordered
    }
}
