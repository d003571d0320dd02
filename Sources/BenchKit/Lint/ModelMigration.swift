import ObjectGraph

/// `bench lint NEW --against OLD`: what Core Data's lightweight migration from OLD to NEW cannot infer, or will lose.
/// Entities and properties are matched as the inferred mapping matches them: a renaming identifier (Xcode's
/// `elementID`) in NEW names the OLD one's canonical name (its own renaming identifier, else its name); what no NEW
/// one names is removed, its data dropped without an error (Apple, "Migrating your data model automatically";
/// jeffreybergier/CoreDataMigrationTests for a broken chain of identifiers).
package enum ModelMigration {
    /// One version: the compiled model and its renaming identifiers.
    struct Version {
        let model: ObjectModel
        let renaming: [String: String]
        /// What the user sets to rename: `renaming identifier (elementID)` in an Xcode model, `originalName` in
        /// SwiftData sources.
        var term = "renaming identifier (elementID)"

        func id(_ entity: EntityDescription) -> String { renaming[entity.name] ?? entity.name }
        func id(_ property: String, of declaring: EntityDescription) -> String { renaming["\(declaring.name).\(property)"] ?? property }
    }

    /// A stored attribute or relationship, as migration compares them.
    enum Member {
        case attribute(AttributeDescription)
        case relationship(RelationshipDescription)

        var name: String {
            switch self {
            case let .attribute(attribute): return attribute.name
            case let .relationship(relationship): return relationship.name
            }
        }

        var declaring: EntityDescription {
            switch self {
            case let .attribute(attribute): return attribute.entity
            case let .relationship(relationship): return relationship.entity
            }
        }

        var qualifiedName: String { "\(declaring.name).\(name)" }

        /// Its own and inherited stored attributes and relationships.
        static func all(of entity: EntityDescription) -> [Member] {
            entity.attributes.filter { !$0.isTransient }.map(Member.attribute) + entity.relationships.map(Member.relationship)
        }
    }

    /// What `bench lint NEW --against OLD` says: the findings, and the changes lightweight migration infers that the
    /// user should know of (an entity whose rows move to another table), one line each.
    package struct Report {
        package var findings: [ModelLint.Finding]
        package var notes: [String]
    }

    /// Every change of `new` against `old` that lightweight migration cannot infer or that loses data, by subject.
    package static func findings(old: XcodeModel, new: XcodeModel) throws -> [ModelLint.Finding] {
        try report(old: old, new: new).findings
    }

    /// The findings of `new` against `old`, by subject, and the hierarchy changes migration infers.
    package static func report(old: XcodeModel, new: XcodeModel) throws -> Report {
        let term =
            ModelSource.isSwiftSources(new.path)
            ? "@Attribute(originalName:) or @Relationship(originalName:)" : "renaming identifier (elementID)"
        let before = Version(model: try old.makeModel(), renaming: old.renamingIdentifiers, term: term)
        let after = Version(model: try new.makeModel(), renaming: new.renamingIdentifiers, term: term)
        var findings: [ModelLint.Finding] = []
        var oldByID: [String: EntityDescription] = [:]
        for entity in before.model.entities { oldByID[before.id(entity)] = entity }
        var matched: [(old: EntityDescription, new: EntityDescription)] = []
        for entity in after.model.entities {
            if let previous = oldByID[after.id(entity)] {
                matched.append((previous, entity))
            } else if let identifier = after.renaming[entity.name] {
                findings.append(
                    brokenRename(
                        entity.name, identifier, before.model.entity(identifier).map { before.id($0) }, kind: "entity", term: after.term))
            }
        }
        // Nothing in common: most likely not two versions of one model (another app's, another file), which the removals
        // below would not say. It comes first.
        var unrelated: [ModelLint.Finding] = []
        if matched.isEmpty && !before.model.entities.isEmpty && !after.model.entities.isEmpty {
            unrelated.append(
                ModelLint.Finding(
                    rule: .migrationUnrelatedModels, subject: "model",
                    message:
                        "no entity of the model matches one of the older model by name or renaming identifier: they look like two unrelated models, and a migration between them drops every row.",
                    fix:
                        "check that --against names an older version of this model; if every entity was renamed, set each one's renaming identifier to its old name."
                ))
        }
        let matchedOld = Set(matched.map { ObjectIdentifier($0.old) })
        let matchedNew = Set(matched.map { ObjectIdentifier($0.new) })
        let added = after.model.entities.filter { !matchedNew.contains(ObjectIdentifier($0)) }
        // The added entities by their own attributes' names, looked up once each rather than compared with every one.
        var addedByNames: [Set<String>: EntityDescription] = [:]
        for candidate in added.reversed() { addedByNames[Set(candidate.ownAttributes.map(\.name))] = candidate }
        // An abstract entity has no rows of its own: its sub-entities' rows and properties are checked one by one.
        for entity in before.model.entities where !matchedOld.contains(ObjectIdentifier(entity)) && !entity.isAbstract {
            let names = Set(entity.ownAttributes.map(\.name))
            let twin = names.isEmpty ? nil : addedByNames[names]
            findings.append(
                ModelLint.Finding(
                    rule: .migrationEntityRemoved, subject: entity.name,
                    message:
                        "removed\(twin.map { " (\($0.name), added, has its attributes: a rename?)" } ?? ""): lightweight migration drops every \(entity.name) row of \(entity.tableName) without an error.",
                    fix: twin.map {
                        "if \($0.name) is \(entity.name) renamed, set \($0.name)'s \(after.term) to '\(before.id(entity))'."
                    }
                        ?? "keep the entity, or copy its rows elsewhere before migrating (a staged or custom migration)."))
        }
        let moves = hierarchyMoves(matched, before: before, after: after)
        for (previous, entity) in matched {
            findings += memberFindings(previous, entity, matched: matched, matchedOld: matchedOld, before: before, after: after)
        }
        findings += addedMemberFindings(matched, moves: moves, before: before, after: after)
        findings += constraintFindings(matched, before: before, after: after)
        for root in after.model.entities where root.superentity == nil {
            let tables = Set(matched.filter { $0.new.isKind(of: root) }.map { (ModelLint.lineage($0.old).last ?? $0.old).name })
            guard tables.count > 1 else { continue }
            findings.append(
                ModelLint.Finding(
                    rule: .migrationHierarchiesMerged, subject: root.name,
                    message:
                        "\(ModelLint.series(tables.sorted(), "and")) had tables of their own and now share \(root.tableName): lightweight migration cannot merge two hierarchies into one table (\"Cannot merge multiple root entity source tables into one destination entity root table\").",
                    fix: "keep their hierarchies apart in this version, or migrate with a mapping model."))
        }
        let merged = Set(findings.map(\.subject))
        return Report(
            findings: unrelated + findings.sorted { ($0.subject, $0.message) < ($1.subject, $1.message) },
            notes: moves.filter { move in
                !merged.contains(move.newRoot) && !findings.contains { $0.message.contains(move.clause) }
            }.map(\.note))
    }

    /// The changes of an entity's attributes and relationships declared on its OLD version: removed (from every
    /// stored row that had it), renamed without a matching identifier, or changed. A property moved to a parent or
    /// to the sub-entities is kept where the NEW entity or its sub-entities still have it.
    static func memberFindings(
        _ previous: EntityDescription, _ entity: EntityDescription, matched: [(old: EntityDescription, new: EntityDescription)],
        matchedOld: Set<ObjectIdentifier>, before: Version, after: Version
    ) -> [ModelLint.Finding] {
        var findings: [ModelLint.Finding] = []
        let newMembers = Member.all(of: entity)
        func newID(_ member: Member) -> String { after.id(member.name, of: member.declaring) }
        let oldMembers = Member.all(of: previous)
        let oldIDs = Set(oldMembers.map { before.id($0.name, of: $0.declaring) })
        let unmatchedNew = newMembers.filter { $0.declaring === entity && !oldIDs.contains(newID($0)) }
        // Its own properties, and those of a removed parent it inherited (each entity's rows keep them, or lose them).
        for member in oldMembers where member.declaring === previous || !matchedOld.contains(ObjectIdentifier(member.declaring)) {
            let id = before.id(member.name, of: member.declaring)
            guard let counterpart = newMembers.first(where: { newID($0) == id }) else {
                // Moved down: an abstract entity's property now declared by each sub-entity keeps every stored value.
                let stored = matched.filter { !$0.old.isAbstract && $0.old.isKind(of: previous) }
                if previous.isAbstract && !stored.isEmpty
                    && stored.allSatisfy({ pair in Member.all(of: pair.new).contains { newID($0) == id } })
                {
                    continue
                }
                let twin = unmatchedNew.first { sameKind($0, member) }
                let broken = unmatchedNew.first { after.renaming[$0.qualifiedName] == member.name && id != member.name }
                let what =
                    if case .attribute = member { "the column \(columnName(member)) and every value in it" } else { "every link it holds" }
                findings.append(
                    ModelLint.Finding(
                        rule: .migrationPropertyRemoved, subject: "\(previous.name).\(member.name)",
                        message:
                            "removed\(twin.map { " (\($0.name), added, is \(kindText($0)) as it was: a rename without a \(after.term)?)" } ?? ""): lightweight migration drops \(what) without an error."
                            + (broken.map {
                                " \($0.qualifiedName)'s \(after.term) '\(member.name)' is its old name, but the migration matches \(member.name) by its own, '\(id)'."
                            } ?? ""),
                        fix: (broken ?? twin).map {
                            "if \($0.name) is \(member.name) renamed, set \($0.qualifiedName)'s \(after.term) to '\(id)'."
                        }
                            ?? "keep it, or copy its values elsewhere before migrating (a staged or custom migration)."))
                continue
            }
            findings += changes(member, counterpart, in: entity, before: before, after: after)
        }
        for member in unmatchedNew {
            if let identifier = after.renaming[member.qualifiedName], !oldMembers.contains(where: { $0.name == identifier }) {
                findings.append(brokenRename(member.qualifiedName, identifier, nil, kind: "property", term: after.term))
            }
        }
        return findings
    }

    /// What changed between an OLD member and the NEW one it maps to.
    static func changes(_ old: Member, _ new: Member, in entity: EntityDescription, before: Version, after: Version) -> [ModelLint.Finding]
    {
        let subject = "\(entity.name).\(new.name)"
        func finding(_ rule: LintRule, _ message: String, _ fix: String) -> ModelLint.Finding {
            ModelLint.Finding(rule: rule, subject: subject, message: message, fix: fix)
        }
        switch (old, new) {
        case let (.attribute(was), .attribute(now)):
            var found: [ModelLint.Finding] = []
            if was.type != now.type && !widens(was.type, now.type) {
                found.append(
                    finding(
                        .migrationTypeChange,
                        "type changes from \(was.type.xcodeName) to \(now.type.xcodeName): lightweight migration converts only wider numbers (Integer 16 to 32 or 64, Float to Double), so Core Data cannot infer the mapping and the store does not open.",
                        "keep the type and add a new attribute, copying the values in a custom migration stage."))
            }
            if was.isOptional && !now.isOptional && now.defaultValue.isNull {
                found.append(
                    finding(
                        .migrationAttributeNowRequired,
                        "optional becomes required without a default value: lightweight migration cannot infer a value for the rows that have none.",
                        "give it a default value (the migration then fills it in), or keep it optional."))
            }
            return found
        case let (.relationship(was), .relationship(now)):
            var found: [ModelLint.Finding] = []
            if was.isToMany && !now.isToMany {
                found.append(
                    finding(
                        .migrationToManyBecomesToOne,
                        "to-many becomes to-one: an owner's members beyond one are lost, and whether lightweight migration infers it is not documented.",
                        "keep it to-many, or move the members in a custom migration stage."))
            }
            if before.id(was.destination) != after.id(now.destination) {
                found.append(
                    finding(
                        .migrationDestinationChange,
                        "its destination changes from \(was.destination.name) to \(now.destination.name): its links cannot be mapped and are lost.",
                        "keep the destination and add a new relationship, linking it in a custom migration stage."))
            }
            if was.isOptional && !now.isOptional {
                found.append(
                    finding(
                        .migrationRelationshipNowRequired,
                        "optional becomes required: the stored \(ModelLint.plural(entity.name)) without \(withArticle(now.name)) are migrated as they are and fail validation at their next save.",
                        "keep it optional, or set it on every \(entity.name) in a custom migration stage."))
            }
            return found
        default:
            return [
                finding(
                    .migrationKindChange,
                    "changes from \(kindText(old)) to \(kindText(new)): lightweight migration cannot map one to the other.",
                    "keep the \(kindText(old)) and add the \(kindText(new)) under a new name.")
            ]
        }
    }

    /// Integer 16 to 32 or 64, 32 to 64, Float to Double, Boolean to an integer: the widenings Core Data's migrator
    /// treats as the same column (decompiled `_attributeTypeIsSchemaEqual:`, notes A.7).
    static func widens(_ from: AttributeType, _ to: AttributeType) -> Bool {
        switch (from, to) {
        case (.int16, .int32), (.int16, .int64), (.int32, .int64), (.float, .double), (.bool, .int16), (.bool, .int32), (.bool, .int64):
            return true
        default:
            return false
        }
    }

    private static func sameKind(_ a: Member, _ b: Member) -> Bool {
        switch (a, b) {
        case let (.attribute(x), .attribute(y)): return x.type == y.type
        case let (.relationship(x), .relationship(y)): return x.isToMany == y.isToMany && x.destination.name == y.destination.name
        default: return false
        }
    }

    private static func kindText(_ member: Member) -> String {
        switch member {
        case let .attribute(attribute): return "an attribute of type \(attribute.type.xcodeName)"
        case let .relationship(relationship):
            return "a \(relationship.isToMany ? "to-many" : "to-one") relationship to \(relationship.destination.name)"
        }
    }

    private static func columnName(_ member: Member) -> String {
        if case let .attribute(attribute) = member { return attribute.columnName }
        return ""
    }

    /// A NEW entity or property whose renaming identifier names nothing in OLD: treated as new, what it meant to keep
    /// is dropped.
    private static func brokenRename(
        _ subject: String, _ identifier: String, _ canonical: String?, kind: String, term: String
    ) -> ModelLint.Finding {
        ModelLint.Finding(
            rule: .migrationBrokenRename, subject: subject,
            message:
                "its \(term) '\(identifier)' names no \(kind) of the older version"
                + (canonical.map { " by its canonical name ('\(identifier)' is now identified as '\($0)')" } ?? "")
                + ": migration treats it as new, and the data it was to keep is dropped.",
            fix: "set it to the older \(kind)'s \(term), or to its name when it has none.")
    }
}
