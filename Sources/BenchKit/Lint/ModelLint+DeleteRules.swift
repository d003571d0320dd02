import ObjectGraph

extension ModelLint {
    /// The shortest chain of delete rules that stops deleting an object of `entity`: its own (or inherited) Deny
    /// relationships, or Cascade rules down to an object with a Deny rule (`Account.orders`, `Order.lines`,
    /// `OrderLine.product`), sub-entities of a destination included. Nil when nothing stops it.
    package static func denyChain(deleting entity: EntityDescription) -> [RelationshipDescription]? {
        var queue: [(entity: EntityDescription, chain: [RelationshipDescription])] = [(entity, [])]
        var seen: Set<String> = [entity.name]
        var next = 0
        while next < queue.count {
            let (current, chain) = queue[next]
            next += 1
            let rules = current.relationships.sorted { $0.qualifiedName < $1.qualifiedName }
            if let deny = rules.first(where: { $0.deleteRule == .deny && !sparesCascadedParts($0, along: chain.last) }) {
                return chain + [deny]
            }
            for relationship in rules where relationship.deleteRule == .cascade {
                for destination in relationship.destination.subtree where seen.insert(destination.name).inserted {
                    queue.append((destination, chain + [relationship]))
                }
            }
        }
        return nil
    }

    /// Whether `deny` is a to-one whose inverse cascades: its object is a part its destination deletes with itself
    /// (CareKit's `OCKCDScheduleElement.task` Deny for `OCKCDTaskBase.scheduleElements` Cascade, `OCKCDPersonName.contact`
    /// and `.patient` for `OCKCDContact.name` and `OCKCDPatient.name`). Reached through that Cascade (`link`), it holds
    /// the object that cascaded, which the same save deletes, and Core Data's Deny rule refuses a delete only while a
    /// destination is live (ObjectGraph's save filters deleted destinations the same way); reached through another
    /// owner's Cascade, it refuses only a part two owners share, which a part its owner cascades is not meant to be.
    static func sparesCascadedParts(_ deny: RelationshipDescription, along link: RelationshipDescription?) -> Bool {
        guard link != nil, !deny.isToMany, let inverse = deny.inverse else { return false }
        return inverse.deleteRule == .cascade
    }

    /// `Account.orders → Order.lines → OrderLine.product Deny`.
    package static func chainText(_ chain: [RelationshipDescription]) -> String {
        chain.map(\.qualifiedName).joined(separator: " → ") + " Deny"
    }

    /// A Deny rule that Cascade rules reach: the deletes it stops beyond its own entity's, and the chain from the
    /// first of them.
    static func denyChainFindings(_ model: ObjectModel) -> [Finding] {
        var stopped: [ObjectIdentifier: [(entity: EntityDescription, chain: [RelationshipDescription])]] = [:]
        var denies: [ObjectIdentifier: RelationshipDescription] = [:]
        for entity in model.entities where !entity.isAbstract {
            guard let chain = denyChain(deleting: entity), chain.count > 1, let deny = chain.last else { continue }
            stopped[ObjectIdentifier(deny), default: []].append((entity, chain))
            denies[ObjectIdentifier(deny)] = deny
        }
        return denies.values.sorted { $0.qualifiedName < $1.qualifiedName }.map { deny in
            let reached = stopped[ObjectIdentifier(deny)] ?? []
            let longest = reached.max { ($0.chain.count, $1.entity.name) < ($1.chain.count, $0.entity.name) }?.chain ?? []
            let member = deny.entity.name
            let names = reached.map { withArticle($0.entity.name) }
            let own = deny.entity.subtree.filter { !$0.isAbstract }.map { withArticle($0.name) }
            return Finding(
                rule: .denyReachedByCascade, subject: deny.qualifiedName,
                message:
                    "Cascade rules reach this Deny rule (\(chainText(longest))): deleting \(series(names)) cascades into \(plural(member)), and \(withArticle(member)) with \(deny.isToMany ? deny.name : withArticle(deny.name)) cannot be deleted, so each of those saves fails (NSValidationRelationshipDeniedDeleteError, 1600), as deleting \(series(own)) itself does.",
                fix:
                    deny.inverse.map { inverse in
                        "if \(withArticle(deny.destination.name)) that has \(plural(member)) must not be deleted, put Deny on \(inverse.qualifiedName) and Nullify on \(deny.qualifiedName); otherwise make \(deny.qualifiedName) Nullify, or set each \(member)'s \(deny.name) to nil before deleting."
                    } ?? "make \(deny.qualifiedName) Nullify, or set each \(member)'s \(deny.name) to nil before deleting."
            )
        }
    }

    /// `a Customer, a Staff or an Order` (or with `and`).
    static func series(_ items: [String], _ conjunction: String = "or") -> String {
        listed(items, conjunction)
    }
}
