import ObjectGraph

extension ModelLint {
    /// What NSPersistentCloudKitContainer refuses in the entities a model syncs with CloudKit: it stops loading the
    /// store with an error listing them, so the app neither syncs nor opens its data. The rules are Apple's
    /// (non-optional attributes need a default; no unique constraints, ordered relationships or Deny rules; every
    /// relationship optional and with an inverse).
    /// A property a synced entity inherits is checked too (a configuration may list a sub-entity and not its
    /// parent), each once, under the entity that declares it.
    static func cloudKitFindings(_ model: ObjectModel, synced: [String]) -> [Finding] {
        var findings: [Finding] = []
        var seen = Set<String>()
        func refuse(_ subject: String, _ id: LintRule, _ rule: String, _ fix: String) {
            guard seen.insert(subject + "\u{0}" + id.rawValue).inserted else { return }
            findings.append(
                Finding(
                    rule: id, subject: subject,
                    message: "used with CloudKit, which \(rule): NSPersistentCloudKitContainer refuses to load the store.",
                    fix: fix))
        }
        // Each synced entity's own attributes and those of its ancestors not yet looked at: an inherited attribute is
        // its declaring entity's (its subject says so), looked at once however many synced entities inherit it.
        var looked: Set<ObjectIdentifier> = []
        for name in synced {
            guard let entity = model.entity(name) else { continue }
            var declaring: [EntityDescription] = []
            for member in sequence(first: entity, next: \.superentity) {
                guard looked.insert(ObjectIdentifier(member)).inserted else { break }
                declaring.append(member)
            }
            for attribute in declaring.reversed().flatMap(\.ownAttributes) where !attribute.isTransient {
                if !attribute.isOptional && attribute.defaultValue == .null {
                    refuse(
                        attribute.qualifiedName, .cloudKitRequiredAttribute,
                        "requires every attribute to be optional or to have a default value",
                        "make \(attribute.name) optional, or give it a default value.")
                }
            }
            if !entity.uniquenessConstraints.isEmpty {
                // Named after the highest ancestor declaring the same constraints.
                let owner = lineage(entity).last { $0.uniquenessConstraints == entity.uniquenessConstraints } ?? entity
                refuse(
                    owner.name, .cloudKitUniqueConstraint, "does not support unique constraints",
                    "remove the constraint (\(entity.uniquenessConstraints.map { $0.joined(separator: ", ") }.joined(separator: "; "))) and deduplicate after each import instead."
                )
            }
            for relationship in declaring.reversed().flatMap(\.ownRelationships) {
                let name = relationship.qualifiedName
                if relationship.isOrdered {
                    refuse(
                        name, .cloudKitOrderedRelationship, "does not support ordered relationships",
                        "drop Ordered and sort by an attribute you set (a position, a date).")
                }
                if relationship.inverse == nil {
                    refuse(
                        name, .cloudKitMissingInverse, "requires every relationship to have an inverse",
                        "add an inverse relationship on \(relationship.destination.name).")
                }
                if !relationship.isOptional {
                    refuse(
                        name, .cloudKitRequiredRelationship, "requires every relationship to be optional",
                        "make \(relationship.name) optional and check it in code.")
                }
                if relationship.deleteRule == .deny {
                    refuse(
                        name, .cloudKitDenyRule, "does not support the Deny delete rule",
                        "use Nullify or Cascade, and refuse the delete in code.")
                }
            }
        }
        return findings
    }
}
