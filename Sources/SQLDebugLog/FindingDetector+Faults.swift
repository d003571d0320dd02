/// The fault rules: a to-many faulted per owner, objects faulted one by one (through a to-one, as the fetch's own
/// results, or from nowhere the segment fetched), and a walk through a to-many to find one member.
extension FindingDetector {
    /// A relationship a to-many fault's annotation named (`Class.students`), resolved against the model when there
    /// is one, or the name the Z names give.
    struct ToMany {
        /// On the declaring entity when the model knows it (`Account.orders` for a fault of a Customer's orders).
        let owner: String
        let name: String
        let relationship: ModelRelationship?
        let inferred: Bool

        var qualified: String { "\(owner).\(name)" }
    }

    func toMany(_ fingerprint: FingerprintAccumulator, shape: StatementShape, names: inout NameResolver) -> ToMany? {
        if let label = fingerprint.mainLabel(of: .toManyFault) {
            if let relationship = model.relationship(qualified: label) {
                return ToMany(owner: relationship.entity, name: relationship.name, relationship: relationship, inferred: false)
            }
            let parts = label.split(separator: ".", maxSplits: 1).map(String.init)
            if parts.count == 2 { return ToMany(owner: parts[0], name: parts[1], relationship: nil, inferred: false) }
        }
        guard let resolved = names.toManyRelationship(of: shape) else { return nil }
        let parts = resolved.name.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { return nil }
        return ToMany(
            owner: parts[0], name: parts[1], relationship: model.relationship(qualified: resolved.name), inferred: resolved.inferred)
    }

    /// The entity of the members a to-many fault statement lists: the relationship's destination, else its table's.
    func memberEntity(_ toMany: ToMany, shape: StatementShape, names: inout NameResolver) -> String? {
        if let destination = toMany.relationship?.destination { return destination }
        guard let table = shape.joinTable?.memberTable ?? shape.tables.first else { return nil }
        return names.entity(forTable: table).name
    }

    /// Whether faults of `entity` are the delete rules' own work: the segment deleted at least as many rows of its table
    /// (Core Data faults the objects a delete reaches, to apply the delete rules, before it writes the deletes). Not a
    /// read a prefetch could serve.
    func deletes(_ entity: String, atLeast count: Int, names: inout NameResolver) -> Bool {
        guard !segment.deletes.isEmpty, let table = names.table(ofEntity: entity) else { return false }
        return (segment.deletes[table] ?? 0) >= count
    }

    /// A to-many faulted per owner more than the threshold, or faulted for a few owners whose members were then all
    /// faulted one by one (as many faults as the to-many faults listed members): prefetch it from the fetch that
    /// reached the owners (or, where the screen is declared to read only the count, a derived count). A to-many the
    /// delete rules faulted (its owners deleted in the segment) is no finding.
    func toManyFaults(
        _ fingerprint: FingerprintAccumulator, shape: StatementShape, text: String, names: inout NameResolver, pass: inout Pass
    ) {
        let repeats = fingerprint.count(of: .toManyFault)
        guard repeats > 0, let toMany = toMany(fingerprint, shape: shape, names: &names) else { return }
        let destination = memberEntity(toMany, shape: shape, names: &names)
        let memberFaults = destination.map { segment.faultEntities[$0] ?? 0 } ?? 0
        let listed = fingerprint.rows
        let everyMemberRead = memberFaults > 0 && listed > 0 && memberFaults >= listed
        guard repeats > threshold || (everyMemberRead && repeats + memberFaults > threshold) else { return }
        if deletes(toMany.owner, atLeast: repeats, names: &names) {
            // Deleting the owners faulted their to-many (and its members) for the delete rules: delete work.
            if let destination { pass.explained.formUnion(toMany.relationship == nil ? [destination] : model.subtree(destination)) }
            return
        }
        let ownerReach =
            toMany.relationship.flatMap { relationship in
                segment.reach[relationship.entity] ?? model.subtree(relationship.entity).lazy.compactMap { segment.reach[$0] }.first
            }
        let keyPath = ownerReach?.appending(toMany.name).path ?? toMany.name
        let fetchOf = ownerReach?.root ?? toMany.owner
        let subject = FindingSubject.relationship(entity: toMany.owner, name: toMany.name)
        // A derived count the model already keeps for the owners fetched (on their entity or a parent).
        let kept = toMany.relationship?.countedBy?.first { counter in
            model.isKind(fetchOf, of: String(counter.prefix { $0 != "." }))
        }
        if access?.countedOnly.contains("\(fetchOf).\(keyPath)") == true {
            pass.findings.append(
                finding(
                    .countThroughFaults, subject, inferred: toMany.inferred, statement: text, repeats: repeats,
                    after: statements - repeats, summary: "to-many \(toMany.qualified) faulted per owner only to count it",
                    fix: (kept.map { "read the derived \($0) (\(toMany.name).@count) the model already keeps instead" }
                        ?? "add a derived attribute \(toMany.name)Count = \(toMany.name).@count (Integer 64) and read it instead")
                        + ": it comes with each row, no fault (seed 000 III.B)",
                    milliseconds: MillisecondSaving(measured: fingerprint.runTimes.total * 1000, replacement: 0)))
            return
        }
        if let destination { pass.explained.formUnion(toMany.relationship == nil ? [destination] : model.subtree(destination)) }
        let rowsRead = memberFaults > 0 || destination.map { segment.reach[$0]?.path.isEmpty == true } == true
        let fix: String
        if toMany.inferred {
            fix =
                "prefetch this to-many relationship (\(toMany.qualified), name inferred from the Z names) with "
                + "relationshipKeyPathsForPrefetching on the fetch of its owners: one statement for every owner's members"
        } else {
            fix =
                "add relationshipKeyPathsForPrefetching [\"\(keyPath)\"] to the fetch of \(fetchOf): one statement for every owner's members"
        }
        pass.findings.append(
            finding(
                .toManyFaultPerOwner, subject, inferred: toMany.inferred, statement: text, repeats: repeats,
                after: statements - repeats - memberFaults + 1, summary: "to-many fault \(toMany.qualified) per owner",
                fix: fix
                    + (rowsRead
                        ? ", with their rows"
                        : kept.map { "; if the screen shows only how many, the derived \($0) the model already keeps needs none" }
                            ?? "; if the screen shows only how many, a derived \(toMany.name).@count attribute needs none"),
                milliseconds: replacedByOne(fingerprint)))
    }

    /// Object faults of one entity, more than the threshold (with those of its siblings reached the same way).
    func objectFaults(
        _ fingerprint: FingerprintAccumulator, shape: StatementShape, text: String, names: inout NameResolver, pass: inout Pass
    ) {
        let repeats = fingerprint.count(of: .objectFault)
        // Below the threshold a fault counts only with its siblings reached through one to-one (the model's).
        guard repeats > threshold || (repeats > 0 && !model.isEmpty), let table = shape.tables.first else { return }
        let tableEntity = names.entity(forTable: table)
        let entity = fingerprint.mainLabel(of: .objectFault) ?? tableEntity.name
        let inferred = fingerprint.mainLabel(of: .objectFault) == nil && tableEntity.inferred
        guard !pass.explained.contains(entity), !deletes(entity, atLeast: repeats, names: &names) else { return }
        if repeats > threshold, walkToFind(fingerprint, entity: entity, table: table, repeats: repeats, text: text, pass: &pass) {
            return
        }
        // Faults of several sub-entities through one to-one (Order.account to Customers and Staff) are one pattern,
        // which one prefetch of the key path removes.
        let link = ReachMap.toOne(
            to: entity, from: segment.reach.reached.filter { $0.key != entity || !$0.value.path.isEmpty }, model: model
        ).flatMap { $0.relationship.entity == entity ? nil : $0 }
        var linked = repeats
        var members = [entity]
        if let link {
            let key = "\(link.reach.root) \(link.reach.path)"
            guard !pass.prefetchAdvised.contains(key) else { return }
            for other in segment.fingerprints.values where other.id != fingerprint.id && other.count(of: .objectFault) > 0 {
                guard let otherEntity = other.mainLabel(of: .objectFault), otherEntity != entity,
                    ReachMap.toOne(to: otherEntity, from: segment.reach.reached, model: model).map({ "\($0.reach.root) \($0.reach.path)" })
                        == key
                else { continue }
                linked += other.count(of: .objectFault)
                members.append(otherEntity)
            }
            guard linked > threshold else { return }
            pass.prefetchAdvised.insert(key)
            let faulted = model.subtree(link.relationship.destination).filter { name in members.contains(name) }
            let subject: FindingSubject =
                faulted.count > 1 ? .entity(link.relationship.destination, members: faulted) : .entity(entity, members: [])
            pass.findings.append(
                finding(
                    .toOneFaultPerObject, subject, inferred: false, statement: text, repeats: linked, after: statements - linked + 1,
                    summary: "object fault of \(subject) per fetched object",
                    fix: "add relationshipKeyPathsForPrefetching [\"\(link.reach.path)\"] to the fetch of \(link.reach.root): one "
                        + "statement for every \(subject)",
                    milliseconds: replacedByOne(fingerprint)))
            return
        }
        guard repeats > threshold else { return }
        if model.isEmpty, let owner = ownerByColumn(of: table, names: &names) {
            // No model: a fetched entity with a to-one column named after this table (`ZSTUDENT.ZADDRESS`).
            let subject = FindingSubject.entity(entity, members: [])
            pass.findings.append(
                finding(
                    .toOneFaultPerObject, subject, inferred: inferred || owner.inferred, statement: text, repeats: repeats,
                    after: statements - repeats + 1, summary: "object fault of \(entity) per fetched object",
                    fix: "add relationshipKeyPathsForPrefetching [\"\(owner.keyPath)\"] to the fetch of \(owner.entity): one "
                        + "statement for every \(entity)",
                    milliseconds: replacedByOne(fingerprint)))
        } else if segment.reach[entity]?.path.isEmpty == true || (model.isEmpty && fetchedInSegment(table: table)) {
            let idsOnly = fetchedIDsOnly(table: table)
            pass.findings.append(
                finding(
                    .faultedResults, .entity(entity, members: []), inferred: inferred, statement: text, repeats: repeats,
                    after: statements - repeats, summary: "fetched \(entity) objects faulted one by one",
                    fix: idsOnly
                        ? "leave includesPropertyValues on (the default) for the fetch of \(entity): its rows then come with the "
                            + "fetch and the faults fire from the row cache, with no statement"
                        : "fetch the \(entity) objects with their rows (includesPropertyValues, returnsObjectsAsFaults = false) "
                            + "once, in the context that reads them",
                    milliseconds: replacedByOne(fingerprint)))
        } else {
            pass.findings.append(
                finding(
                    .faultsOneByOne, .entity(entity, members: []), inferred: inferred, statement: text, repeats: repeats,
                    after: statements - repeats + 1, summary: "\(entity) objects faulted one by one",
                    fix: "fetch the \(entity) objects the screen needs in one request (SELF IN their IDs) instead of faulting them "
                        + "one by one",
                    milliseconds: replacedByOne(fingerprint)))
        }
    }

    /// Members faulted one by one from few owners' to-many faults, fewer than the members they listed: a search
    /// through the relationship that stopped at what it looked for (a screen reading every member faults them all,
    /// which the to-many rule advises prefetching for).
    private func walkToFind(
        _ fingerprint: FingerprintAccumulator, entity: String, table: String, repeats: Int, text: String, pass: inout Pass
    ) -> Bool {
        var walked = 0
        var listed = 0
        var first: (line: Int, toMany: ToMany)?
        for use in pass.toManys where use.member == entity || (use.toMany.relationship == nil && use.memberTable == table) {
            walked += use.faults
            listed += use.listed
            if use.firstLine < first?.line ?? Int.max { first = (use.firstLine, use.toMany) }
        }
        guard let first, walked <= threshold, repeats > threshold * walked, listed == 0 || repeats < listed else { return false }
        let toMany = first.toMany
        let inverse = toMany.relationship?.inverse.map { "\($0) == owner" } ?? "its owner"
        let ownerReach = segment.reach[toMany.owner]
        let prefetch =
            ownerReach.map {
                "; if every member is read, add relationshipKeyPathsForPrefetching [\"\($0.appending(toMany.name).path)\"] to the fetch of \($0.root) instead"
            }
            ?? ""
        pass.findings.append(
            finding(
                .walkToFind, .relationship(entity: toMany.owner, name: toMany.name), inferred: toMany.inferred, statement: text,
                repeats: repeats, after: statements - repeats, summary: "\(toMany.qualified) walked member by member to find one",
                fix: "fetch \(entity) with a predicate on \(inverse) and the value looked for, fetchLimit = 1: one statement per "
                    + "lookup instead of \(Finding.count(repeats / max(1, walked))) faults (seed 000 III.C, option 2)" + prefetch,
                milliseconds: replacedByOne(fingerprint)))
        return true
    }

    /// Whether a fetch (not a fault) of `table` ran in the segment.
    private func fetchedInSegment(table: String) -> Bool {
        segment.fingerprints.values.contains { other in
            other.count(of: .fetch) > 0 && analyzer.fingerprintShapes[other.id].tables.first == table
                && !analyzer.fingerprintShapes[other.id].isCount
        }
    }

    /// Whether every fetch of `table` in the segment read object IDs only (`SELECT 0, t0.Z_PK FROM ...`).
    private func fetchedIDsOnly(table: String) -> Bool {
        let fetches = segment.fingerprints.values.filter { other in
            other.count(of: .fetch) > 0 && analyzer.fingerprintShapes[other.id].tables.first == table
                && !analyzer.fingerprintShapes[other.id].isCount
        }
        return !fetches.isEmpty && fetches.allSatisfy { analyzer.fingerprintShapes[$0.id].isIDOnly }
    }

    /// Without a model: a fetched entity with a to-one column named after `table`'s (`ZSTUDENT.ZADDRESS` leads to
    /// `ZADDRESS`), the key path being that column's property.
    private func ownerByColumn(of table: String, names: inout NameResolver) -> (entity: String, keyPath: String, inferred: Bool)? {
        guard table.hasPrefix("Z"), !table.hasPrefix("Z_") else { return nil }
        let needle = "t0.\(table)"
        for other in segment.fingerprints.values.sorted(by: { $0.firstLine < $1.firstLine }) where other.count(of: .fetch) > 0 {
            let shape = analyzer.fingerprintShapes[other.id]
            guard let ownerTable = shape.tables.first, ownerTable != table else { continue }
            let text = analyzer.fingerprintTexts[other.id]
            guard let from = text.firstRange(of: " FROM ") else { continue }
            let selectList = text[..<from.lowerBound]
            guard selectList.contains(needle + ",") || selectList.hasSuffix(needle) else { continue }
            let property = names.property(TableColumn(table: ownerTable, column: table))
            let owner = names.entity(forTable: ownerTable)
            let keyPath = String(property.name.split(separator: ".").last ?? "")
            return (owner.name, property.inferred ? keyPath.lowercased() : keyPath, property.inferred || owner.inferred)
        }
        return nil
    }
}
