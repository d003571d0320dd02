import ObjectGraph

/// What migration does to the stored rows of each entity through its parents: the properties and uniqueness
/// constraints it inherits, and the table it moves to when it moves under or out of a parent.
extension ModelMigration {
    typealias Pairs = [(old: EntityDescription, new: EntityDescription)]

    /// An entity whose rows move to another table: under a parent of another hierarchy, or out of its hierarchy.
    struct Move {
        /// The NEW entity's name.
        let entity: String
        /// The NEW root whose table the rows move into.
        let newRoot: String
        /// "Customer moves under Account, a new parent: its rows move from ZCUSTOMER into ZACCOUNT".
        let clause: String

        /// The line `bench lint --against` prints for a move migration infers.
        var note: String {
            "\(entity): \(clause); lightweight migration infers this (an entity may move under a new parent or out of a hierarchy) and renumbers the rows' Z_ENT."
        }
    }

    /// Every matched entity whose parent changed so that its rows change table (its sub-entities move with it).
    static func hierarchyMoves(_ matched: Pairs, before: Version, after: Version) -> [Move] {
        var moves: [Move] = []
        for (previous, entity) in matched {
            let oldRoot = ModelLint.lineage(previous).last ?? previous
            let newRoot = ModelLint.lineage(entity).last ?? entity
            guard before.id(oldRoot) != after.id(newRoot),
                previous.superentity.map({ before.id($0) }) != entity.superentity.map({ after.id($0) })
            else { continue }
            let carried = entity.subtree.dropFirst().filter { sub in matched.contains { $0.new === sub } }.map(\.name)
            let with = carried.isEmpty ? "" : " (with \(ModelLint.series(carried, "and")))"
            let clause: String
            if let parent = entity.superentity {
                let isNew = !matched.contains { $0.new === parent }
                clause =
                    "\(entity.name)\(with) moves under \(parent.name)\(isNew ? ", a new parent" : ""): its rows move from \(previous.tableName) into \(entity.tableName)"
            } else {
                clause =
                    "\(entity.name)\(with) leaves \(previous.superentity?.name ?? "its parent")'s hierarchy: its rows move from \(previous.tableName) into a table of its own, \(entity.tableName)"
            }
            moves.append(Move(entity: entity.name, newRoot: newRoot.name, clause: clause))
        }
        return moves
    }

    /// The required attributes and relationships that stored rows lack after migration, one finding per property:
    /// those the entity declares, and those it inherits from a parent (a new one included) that its OLD rows had not.
    static func addedMemberFindings(_ matched: Pairs, moves: [Move], before: Version, after: Version) -> [ModelLint.Finding] {
        var order: [String] = []
        var groups: [String: (member: Member, entities: [EntityDescription])] = [:]
        for (previous, entity) in matched where !previous.isAbstract {
            let oldIDs = Set(Member.all(of: previous).map { before.id($0.name, of: $0.declaring) })
            for member in Member.all(of: entity) where !oldIDs.contains(after.id(member.name, of: member.declaring)) {
                let key = member.qualifiedName
                if groups[key] == nil {
                    order.append(key)
                    groups[key] = (member, [])
                }
                groups[key]?.entities.append(entity)
            }
        }
        var findings: [ModelLint.Finding] = []
        for key in order {
            guard let (member, entities) = groups[key] else { continue }
            let own = entities.count == 1 && entities[0] === member.declaring
            let names = entities.map(\.name)
            let inherited = own ? "" : ", and \(ModelLint.series(names, "and")) inherit\(names.count == 1 ? "s" : "") it"
            let moved = moves.filter { names.contains($0.entity) }.map(\.clause)
            let context = moved.isEmpty ? "" : " (" + moved.joined(separator: "; ") + ")"
            switch member {
            case let .attribute(attribute) where !attribute.isOptional && attribute.defaultValue.isNull:
                let rows = own ? "the rows already stored" : "the \(ModelLint.series(names, "and")) rows already stored"
                findings.append(
                    ModelLint.Finding(
                        rule: .migrationRequiredAttributeAdded, subject: attribute.qualifiedName,
                        message:
                            "added as required without a default value\(inherited): \(rows)\(context) have none, and lightweight migration cannot infer one.",
                        fix: "give it a default value, or make it optional."))
            case let .relationship(relationship) where !relationship.isOptional:
                let stored = ModelLint.series(names.map(ModelLint.plural), "and")
                findings.append(
                    ModelLint.Finding(
                        rule: .migrationRequiredRelationshipAdded, subject: relationship.qualifiedName,
                        message:
                            "added as required\(inherited): the \(stored) already stored\(context) have no \(relationship.name), so each fails validation at its next save.",
                        fix: "make it optional, or set it on every stored \(ModelLint.series(names, "and")) in a custom migration stage."))
            default: break
            }
        }
        return findings
    }

    /// An entity's uniqueness constraints with those of its parents (a sub-entity's rows are held to them too), each
    /// as the sorted identifiers of its properties.
    static func effectiveConstraints(_ entity: EntityDescription, _ version: Version) -> Set<[String]> {
        var result = Set<[String]>()
        for ancestor in ModelLint.lineage(entity) {
            let members = Member.all(of: ancestor)
            for constraint in ancestor.uniquenessConstraints {
                result.insert(
                    constraint.map { name in
                        version.id(name, of: members.first { $0.name == name }?.declaring ?? ancestor)
                    }.sorted())
            }
        }
        return result
    }

    /// Changed uniqueness constraints, inherited ones included, said once: on the topmost entity of a hierarchy whose
    /// change its matched sub-entities share.
    static func constraintFindings(_ matched: Pairs, before: Version, after: Version) -> [ModelLint.Finding] {
        var changes: [ObjectIdentifier: (old: Set<[String]>, new: Set<[String]>)] = [:]
        for (previous, entity) in matched {
            changes[ObjectIdentifier(entity)] = (effectiveConstraints(previous, before), effectiveConstraints(entity, after))
        }
        func diff(_ change: (old: Set<[String]>, new: Set<[String]>)) -> [Set<[String]>] {
            [change.new.subtracting(change.old), change.old.subtracting(change.new)]
        }
        func sharesParentChange(_ entity: EntityDescription) -> Bool {
            guard let change = changes[ObjectIdentifier(entity)], let parent = entity.superentity,
                let parentChange = changes[ObjectIdentifier(parent)]
            else { return false }
            return diff(parentChange) == diff(change)
        }
        var findings: [ModelLint.Finding] = []
        for (_, entity) in matched {
            guard let change = changes[ObjectIdentifier(entity)], change.old != change.new, !sharesParentChange(entity) else { continue }
            let sharing = entity.subtree.dropFirst().filter(sharesParentChange).map(\.name)
            func text(_ constraints: Set<[String]>) -> String {
                constraints.isEmpty ? "none" : constraints.map { "(" + $0.joined(separator: ", ") + ")" }.sorted().joined(separator: ", ")
            }
            let text =
                "uniqueness constraints change from \(text(change.old)) to \(text(change.new))"
                + (sharing.isEmpty ? "" : " (for \(ModelLint.series(sharing, "and")) too, which inherit them)")
            findings.append(
                change.new.isSubset(of: change.old)
                    ? ModelLint.Finding(
                        rule: .migrationConstraintDropped, subject: entity.name,
                        message:
                            "\(text): migration drops the unique index, and the duplicates it kept out can be saved from now on, without an error.",
                        fix: "keep the constraint if the values must stay unique (an app merging by it relies on it).")
                    : ModelLint.Finding(
                        rule: .migrationConstraintAdded, subject: entity.name,
                        message:
                            "\(text): the migration fails on rows that already share values (NSMigrationConstraintViolationError, 134111), and the store does not open.",
                        fix:
                            "remove the duplicates before migrating (a staged migration's first stage), or keep the constraints as they were."
                    ))
        }
        return findings
    }
}
