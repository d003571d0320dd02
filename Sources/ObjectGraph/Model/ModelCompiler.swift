/// Turns declarations into descriptions: builds the inheritance hierarchy, numbers entities, resolves
/// destinations and inverses, validates, picks each relationship's storage and lays out each table's columns.
struct ModelCompiler {
    let declarations: [Entity]

    init(_ declarations: [Entity]) { self.declarations = declarations }

    struct Output {
        var entities: [EntityDescription]
        var warnings: [String]
        var joinTables: [JoinTable]
    }

    func compile() throws -> Output {
        let byName = try makeEntities()
        let declarationsByName = Dictionary(uniqueKeysWithValues: declarations.map { ($0.name, $0) })
        let entities = try numberEntities(byName, declarations: declarationsByName)

        var declarers = Declarers()
        for entity in entities {
            guard let declaration = declarationsByName[entity.name] else { continue }
            try declareProperties(declaration, into: entity, declarers: &declarers)
        }
        let declared = entities.flatMap(\.ownRelationships)
        for relationship in declared { try resolve(relationship, entities: byName) }
        var warnings: [String] = []
        for relationship in declared {
            classify(relationship)
            if relationship.inverse == nil { warnings.append(Self.noInverseWarning(relationship)) }
        }
        for entity in entities {
            for derived in entity.ownDerivedAttributes { try resolve(derived) }
        }
        let placement = ColumnLayout.Placement(declared)
        for root in entities where root.parent == nil { ColumnLayout(root: root, placement: placement).layOut() }
        for relationship in declared where relationship.kind == .oneToMany {
            let inverse = relationship.requiredInverse
            relationship.columnName = inverse.columnName
            relationship.slot = inverse.slot
        }
        let joinTables = JoinTableNaming(entities).nameJoinTables()
        for entity in entities { try checkIndexes(entity) }
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

    static func checkName(_ name: String, entity: String, property: String?) throws {
        let valid =
            name.first.map { $0.isLetter || $0 == "_" } == true
            && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && name.allSatisfy(\.isASCII)
        guard valid else {
            throw ObjectGraphError.model(
                entity: entity, property: property,
                reason: "'\(name)' is not a valid name: use ASCII letters, digits and _, starting with a letter")
        }
    }

    // MARK: Entities and the hierarchy

    private func makeEntities() throws -> [String: EntityDescription] {
        var byName: [String: EntityDescription] = [:]
        for declaration in declarations {
            try Self.checkName(declaration.name, entity: declaration.name, property: nil)
            guard byName[declaration.name] == nil else {
                throw ObjectGraphError.model(entity: declaration.name, property: nil, reason: "duplicate entity name")
            }
            byName[declaration.name] = EntityDescription(name: declaration.name, isAbstract: declaration.isAbstract)
        }
        for declaration in declarations {
            guard let parentName = declaration.parent else { continue }
            guard let parent = byName[parentName] else {
                throw ObjectGraphError.model(
                    entity: declaration.name, property: nil,
                    reason: "unknown parent entity '\(parentName)'")
            }
            guard let entity = byName[declaration.name] else { continue }
            entity.parent = parent
            parent.subentities.append(entity)
        }
        // Each entity's walk up its parents stops at one already known to reach a root: every entity is walked over
        // once (a walk from each entity to its root was O(d²) over a chain of depth d).
        var reachesRoot: Set<ObjectIdentifier> = []
        for declaration in declarations {
            guard let entity = byName[declaration.name] else { continue }
            var path: Set<ObjectIdentifier> = []
            var current: EntityDescription? = entity
            while let node = current, !reachesRoot.contains(ObjectIdentifier(node)) {
                guard path.insert(ObjectIdentifier(node)).inserted else {
                    throw ObjectGraphError.model(entity: entity.name, property: nil, reason: "its parent entities form a cycle")
                }
                current = node.parent
            }
            reachesRoot.formUnion(path)
        }
        return byName
    }

    /// Numbers entities as real stores do: roots sorted by name, each followed at once by its sub-entities,
    /// themselves sorted by name, recursively (Bear: SFNoteFile 7, its sub-entities 8-10, SFNoteFileServerData 11).
    /// Names compare by their UTF-8 bytes (inferred: no real pair tells case-sensitive order apart).
    private func numberEntities(_ byName: [String: EntityDescription], declarations: [String: Entity]) throws -> [EntityDescription] {
        var ordered: [EntityDescription] = []
        func visit(_ entity: EntityDescription, root: EntityDescription) {
            entity.number = ordered.count + 1
            entity.root = root
            entity.rootNumber = root === entity ? entity.number : root.number
            entity.tableName = root.tableName
            ordered.append(entity)
            entity.subentities.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            for child in entity.subentities { visit(child, root: root) }
            entity.subtreeMaxNumber = ordered.count
            entity.isInHierarchy = root !== entity || !entity.subentities.isEmpty
        }
        let roots = byName.values.filter { $0.parent == nil }.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        // Table names upper-case entity names: two roots differing only in case would share one table.
        var owners: [String: String] = [:]
        for root in roots {
            if let other = owners.updateValue(root.name, forKey: root.tableName) {
                throw ObjectGraphError.model(
                    entity: root.name, property: nil,
                    reason:
                        "entities \(other) and \(root.name) would both be stored in table \(root.tableName) (Core Data upper-cases entity names); rename one"
                )
            }
        }
        for root in roots { visit(root, root: root) }
        for entity in ordered {
            entity.subtree = ordered[(entity.number - 1)..<entity.subtreeMaxNumber]
            guard let declaration = declarations[entity.name] else { continue }
            entity.fetchIndexes = declaration.fetchIndexes
            entity.uniquenessConstraints = declaration.uniquenessConstraints
        }
        return ordered
    }

    // MARK: Properties

    /// Inherited properties first (the parent is compiled before its sub-entities), then the entity's own,
    /// sorted by name as Core Data keeps them.
    private func declareProperties(_ declaration: Entity, into entity: EntityDescription, declarers: inout Declarers) throws {
        if let parent = entity.parent {
            entity.attributes = parent.attributes
            entity.relationships = parent.relationships
            entity.derivedAttributes = parent.derivedAttributes
        }
        var transientCount = entity.parent?.transientDefaults.count ?? 0
        for property in declaration.properties.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
            try Self.checkName(property.name, entity: entity.name, property: property.name)
            if let origin = declarers.declaring(property.name, for: entity) {
                throw ObjectGraphError.model(
                    entity: entity.name, property: property.name,
                    reason: origin === entity
                        ? "duplicate property name"
                        : "duplicate property name: \(origin.name) already declares it")
            }
            declarers.add(property.name, declaredBy: entity)
            switch property.kind {
            case let .attribute(spec):
                try check(spec, entity: entity, property: property.name)
                let attribute = AttributeDescription(name: property.name, spec: spec, entity: entity)
                if spec.isTransient {
                    attribute.slot = transientCount
                    transientCount += 1
                }
                entity.attributes.append(attribute)
                entity.ownPropertiesByName[property.name] = .attribute(attribute)
            case let .relationship(spec):
                if spec.isToMany, spec.minCount < 0 || spec.maxCount < 0 || (spec.maxCount > 0 && spec.minCount > spec.maxCount) {
                    throw ObjectGraphError.model(
                        entity: entity.name, property: property.name,
                        reason: "minCount \(spec.minCount) and maxCount \(spec.maxCount) do not make a range")
                }
                let relationship = RelationshipDescription(
                    name: property.name, spec: spec, entity: entity,
                    index: entity.relationships.count)
                entity.relationships.append(relationship)
                entity.ownPropertiesByName[property.name] = .relationship(relationship)
            case let .derived(derivation, type):
                let derived = DerivedAttributeDescription(name: property.name, derivation: derivation, type: type, entity: entity)
                entity.derivedAttributes.append(derived)
                entity.ownPropertiesByName[property.name] = .derived(derived)
            }
        }
        // Each list is its parent's followed by what the entity's own properties add (the inherited ones come first):
        // filtering every inherited property again in each entity was O(d²) over an inheritance chain of depth d.
        let parent = entity.parent
        let ownRelationships = entity.ownRelationships
        let ownStored = entity.ownAttributes.filter { !$0.isTransient }
        entity.toManyRelationships = (parent?.toManyRelationships ?? []) + ownRelationships.filter(\.isToMany)
        entity.toOneRelationships = (parent?.toOneRelationships ?? []) + ownRelationships.filter { !$0.isToMany }
        entity.storedAttributes = (parent?.storedAttributes ?? []) + ownStored
        // Int64's range is the column's, so only Integer 16 and 32 need a range check.
        entity.validatedAttributes = (parent?.validatedAttributes ?? []) + ownStored.filter { !$0.isOptional || $0.hasValueRules }
        entity.validatedRelationships =
            (parent?.validatedRelationships ?? [])
            + ownRelationships.filter { !$0.isOptional || ($0.isToMany && ($0.minCount > 0 || $0.maxCount > 0)) }
        entity.transientDefaults =
            (parent?.transientDefaults ?? []) + ContiguousArray(entity.ownAttributes.filter(\.isTransient).map(\.defaultValue))
    }

    /// The entities declaring each property name, in entity-number order (parents first), for the duplicate check:
    /// the ancestor (or the entity itself) that declares a name already is the last declarer numbered at most the
    /// entity's number, found by a binary search; any other ancestor declaring it would have been refused as that
    /// declarer's duplicate. (Looking each name up the whole lineage was O(d²) over a chain.)
    struct Declarers {
        private var byName: [String: [EntityDescription]] = [:]

        mutating func add(_ name: String, declaredBy entity: EntityDescription) { byName[name, default: []].append(entity) }

        func declaring(_ name: String, for entity: EntityDescription) -> EntityDescription? {
            guard let list = byName[name] else { return nil }
            var (low, high) = (0, list.count)
            while low < high {
                let middle = (low + high) / 2
                if list[middle].number <= entity.number { low = middle + 1 } else { high = middle }
            }
            guard low > 0, entity.isKind(of: list[low - 1]) else { return nil }
            return list[low - 1]
        }
    }

    private func check(_ spec: Property.AttributeSpec, entity: EntityDescription, property: String) throws {
        if spec.type == .undefined && !spec.isTransient {
            throw ObjectGraphError.model(
                entity: entity.name, property: property,
                reason: "an attribute of type Undefined must be transient (it has no column type)")
        }
        if let defaultValue = spec.defaultValue, !defaultValue.fits(spec.type) {
            throw ObjectGraphError.model(
                entity: entity.name, property: property,
                reason: "default value \(defaultValue) is not a \(spec.type.xcodeName)")
        }
        if let pattern = spec.validation.pattern, (try? NSRegularExpressionCache.expression(pattern)) == nil {
            throw ObjectGraphError.model(
                entity: entity.name, property: property,
                reason: "regular expression '\(pattern)' does not compile")
        }
    }

    // MARK: Relationships

    private func resolve(_ relationship: RelationshipDescription, entities: [String: EntityDescription]) throws {
        let source = relationship.entity
        guard let destination = entities[relationship.declaredDestinationName] else {
            throw ObjectGraphError.model(
                entity: source.name, property: relationship.name,
                reason: "unknown destination entity '\(relationship.declaredDestinationName)'")
        }
        relationship.resolvedDestination = destination
        guard let inverseName = relationship.declaredInverseName else { return }
        guard let inverse = destination.relationship(inverseName) else {
            throw ObjectGraphError.model(
                entity: source.name, property: relationship.name,
                reason: "inverse '\(inverseName)' is not a relationship of \(destination.name)")
        }
        if inverse === relationship {
            // A reflexive relationship (its own inverse) must point at its own entity or an ancestor of it.
            guard source.isKind(of: destination) else {
                throw ObjectGraphError.model(
                    entity: source.name, property: relationship.name,
                    reason: "a relationship that is its own inverse must have its own entity (\(source.name)) as destination")
            }
            relationship.resolvedInverse = relationship
            return
        }
        // The inverse may point at an ancestor or a descendant of this entity (it is inherited: MagicalRecord's
        // test model declares it on an abstract parent).
        guard let inverseDestination = entities[inverse.declaredDestinationName],
            source.isKind(of: inverseDestination) || inverseDestination.isKind(of: source)
        else {
            throw ObjectGraphError.model(
                entity: source.name, property: relationship.name,
                reason: "inverse \(inverse.qualifiedName) points to \(inverse.declaredDestinationName), not back to \(source.name)")
        }
        guard inverse.declaredInverseName == relationship.name else {
            let other = inverse.declaredInverseName.map { "'\($0)'" } ?? "no inverse"
            throw ObjectGraphError.model(
                entity: source.name, property: relationship.name,
                reason: "inverse pair disagrees: \(inverse.qualifiedName) declares \(other), not '\(relationship.name)'")
        }
        relationship.resolvedInverse = inverse
    }

    private func classify(_ relationship: RelationshipDescription) {
        switch (relationship.isToMany, relationship.inverse?.isToMany) {
        case (false, true?): relationship.kind = .manyToOne
        case (false, false?): relationship.kind = .oneToOne
        case (false, nil): relationship.kind = .oneToNil
        case (true, false?): relationship.kind = .oneToMany
        case (true, true?): relationship.kind = .manyToMany
        case (true, nil): relationship.kind = .manyToNil
        }
    }

    // MARK: Derived attributes

    private func resolve(_ derived: DerivedAttributeDescription) throws {
        let entity = derived.entity
        let parsed = try DerivationParser.parse(derived.derivation, entity: entity, property: derived.name)
        func failure(_ reason: String) -> ObjectGraphError {
            .model(entity: entity.name, property: derived.name, reason: "derivation '\(derived.derivation)': \(reason)")
        }
        var type: AttributeType
        switch parsed {
        case let .count(reference):
            guard let relationship = entity.relationship(reference.name), relationship.isToMany else {
                throw failure("'\(reference.name)' is not a to-many relationship of \(entity.name)")
            }
            derived.relationship = relationship
            type = .int64
        case let .aggregate(function, reference, attributeName):
            guard let relationship = entity.relationship(reference.name), relationship.isToMany else {
                throw failure("'\(reference.name)' is not a to-many relationship of \(entity.name)")
            }
            guard relationship.kind != .manyToMany else {
                throw failure("@\(function.rawValue) over a many-to-many relationship is not supported (Core Data refuses it too)")
            }
            guard let attribute = relationship.destination.attribute(attributeName), !attribute.isTransient else {
                throw failure("'\(attributeName)' is not a stored attribute of \(relationship.destination.name)")
            }
            guard attribute.type.isNumeric || (function != .sum && attribute.type == .date) else {
                throw failure("@\(function.rawValue) needs a number attribute; \(attribute.qualifiedName) is \(attribute.type.xcodeName)")
            }
            derived.relationship = relationship
            derived.sourceAttribute = attribute
            type = function == .sum && attribute.type.isInteger ? .int64 : attribute.type
        case let .toOneKeyPath(reference, attributeName):
            guard let relationship = entity.relationship(reference.name), !relationship.isToMany else {
                throw failure("'\(reference.name)' is not a to-one relationship of \(entity.name)")
            }
            guard let attribute = relationship.destination.attribute(attributeName), !attribute.isTransient else {
                throw failure("'\(attributeName)' is not a stored attribute of \(relationship.destination.name)")
            }
            derived.relationship = relationship
            derived.sourceAttribute = attribute
            type = attribute.type
        case let .ownAttribute(function, attributeName):
            guard let attribute = entity.attribute(attributeName), !attribute.isTransient else {
                throw failure("'\(attributeName)' is not a stored attribute of \(entity.name)")
            }
            if function != .copy, attribute.type != .string {
                throw failure("\(function.rawValue): needs a string attribute; \(attribute.qualifiedName) is \(attribute.type.xcodeName)")
            }
            derived.sourceAttribute = attribute
            type = attribute.type
        case .now:
            type = .date
        }
        if let declared = derived.declaredType {
            let compatible = declared == type || (declared.isNumeric && type.isNumeric)
            guard compatible else {
                throw failure("it yields \(type.xcodeName) values, but the attribute is declared \(declared.xcodeName)")
            }
            type = declared
        }
        derived.kind = parsed
        derived.type = type
        derived.relationship?.derivedAttributes.append(derived)
    }

    // MARK: Indexes and constraints

    private func checkIndexes(_ entity: EntityDescription) throws {
        for index in entity.fetchIndexes {
            guard !index.elements.isEmpty else {
                throw ObjectGraphError.model(entity: entity.name, property: nil, reason: "fetch index '\(index.name)' has no elements")
            }
            for element in index.elements { _ = try indexColumn(element.property, of: entity, what: "fetch index '\(index.name)'") }
        }
        for constraint in entity.uniquenessConstraints {
            guard !constraint.isEmpty else {
                throw ObjectGraphError.model(entity: entity.name, property: nil, reason: "a uniqueness constraint lists no properties")
            }
            for name in constraint {
                _ = try indexColumn(name, of: entity, what: "uniqueness constraint [\(constraint.joined(separator: ", "))]")
            }
        }
    }

    /// The column an index element names: a stored attribute, a derived attribute or a to-one relationship.
    static func indexColumnName(_ name: String, of entity: EntityDescription) -> String? {
        switch entity.propertyNamed(name) {
        case let .attribute(attribute)? where !attribute.isTransient: return attribute.columnName
        case let .derived(derived)?: return derived.columnName
        case let .relationship(relationship)? where !relationship.isToMany: return relationship.columnName
        default: return nil
        }
    }

    private func indexColumn(_ name: String, of entity: EntityDescription, what: String) throws -> String {
        if let column = Self.indexColumnName(name, of: entity) { return column }
        throw ObjectGraphError.model(
            entity: entity.name, property: name,
            reason: "\(what) names '\(name)', which is not a stored attribute or to-one relationship of \(entity.name)")
    }
}
