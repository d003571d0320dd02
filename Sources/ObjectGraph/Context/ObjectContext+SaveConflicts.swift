import OrderedCollections

/// Conflicts a save meets, resolved by the context's merge policy as Core Data's NSMergePolicy does:
/// optimistic-locking conflicts first (rows another context saved since this one read them), then uniqueness
/// constraints. The per-property algorithm is inferred from Apple's NSMergePolicy header and decompiled code:
/// a property changed on both sides takes the store's value (store trump) or the object's (object trump); one
/// changed on one side only takes that side's value; overwrite writes the object whole; rollback drops the
/// object's changes.
extension ObjectContext {
    /// Objects whose rows the shared row cache shows at a newer version than they were read at.
    func resolveVersionConflicts() throws {
        var conflicts: [(ManagedObject, RowSnapshot?)] = []
        for object in updated + deleted where !object.isInserted && object.primaryKey > 0 {
            guard let snapshot = object.snapshot,
                let cached = store.rowCache.snapshot(table: object.entity.rootNumber, primaryKey: object.primaryKey),
                cached !== snapshot, cached.version != snapshot.version
            else { continue }
            conflicts.append((object, cached))
        }
        if !conflicts.isEmpty { try resolve(conflicts) }
    }

    /// Applies the merge policy to objects whose stored rows changed (`newer`) or were deleted (nil).
    /// Returns the objects whose rows are gone from the store (their writes are skipped).
    @discardableResult
    func resolve(_ conflicts: [(ManagedObject, RowSnapshot?)]) throws -> [ManagedObject] {
        if mergePolicy == .error {
            throw ObjectGraphError.mergeConflict(
                conflicts.map { object, newer in
                    let read = object.snapshot?.version ?? 0
                    return newer.map {
                        "\(object.entity.name) \(object.objectID) changed in the store (version \(read) → \($0.version)) since this context read it"
                    }
                        ?? "\(object.entity.name) \(object.objectID) was deleted from the store since this context read it"
                })
        }
        var gone: [ManagedObject] = []
        for (object, newer) in conflicts {
            guard let newer else {
                gone.append(object)
                continue
            }
            if mergePolicy == .rollback {
                if object.isDeleted {
                    deleted.removeAll { $0 === object }
                    object.isDeleted = false
                }
                if object.isUpdated {
                    updated.removeAll { $0 === object }
                    object.isUpdated = false
                }
                object.turnIntoFault(keepSnapshot: false, keepTransients: true)
                continue
            }
            saveUndo?.record(object)
            if object.isFault {
                object.snapshot = newer
                continue
            }
            // Checked for nil just above.
            // swift-format-ignore: NeverForceUnwrap
            let old = object.snapshot!
            let local = object.localValues ?? old.values
            var merged = newer.values
            for slot in merged.indices {
                let changedHere = local[slot] != old[slot]
                let changedThere = newer[slot] != old[slot]
                switch mergePolicy {
                case .overwrite: merged[slot] = local[slot]
                case .mergeByPropertyObjectTrump: if changedHere { merged[slot] = local[slot] }
                case .mergeByPropertyStoreTrump: if changedHere && !changedThere { merged[slot] = local[slot] }
                case .error, .rollback: break
                }
            }
            if mergePolicy != .overwrite {
                // A to-one only resolved from the old row (not set here) follows the store's row.
                for relationship in object.entity.toOneRelationships { object.unresolveToOne(relationship, storedIn: old) }
            }
            object.snapshot = newer
            object.localValues = merged
        }
        return gone
    }

    // MARK: Uniqueness constraints

    /// Checks every inserted or changed object against the entity's uniqueness constraints, among themselves and
    /// against the store (one SELECT per constraint and 100 objects, as Core Data checks before writing), and
    /// resolves what it finds by the merge policy. Returns stored objects to delete before the inserts (overwrite).
    func resolveConstraintConflicts() throws -> [ManagedObject] {
        var problems: [String] = []
        var deleteFirst: [ManagedObject] = []
        for entity in model.entities where !entity.uniquenessConstraints.isEmpty {
            for constraint in entity.uniquenessConstraints {
                let slots = constraint.map { name -> Int in
                    switch entity.propertyNamed(name) {
                    case let .attribute(a)?: return a.slot
                    case let .derived(d)?: return d.slot
                    case let .relationship(r)?: return r.slot
                    // The model compiler refuses a constraint naming no property of the entity.
                    case nil: return -1
                    }
                }
                let relationships = constraint.map { entity.relationship($0) }
                var candidates: [(ManagedObject, [Value])] = []
                for object in inserted + updated where !object.isDeleted && !object.isFault && object.entity.isKind(of: entity) {
                    let key = zip(slots, relationships).map { slot, relationship in
                        relationship.map { keyValue(of: object.resolvedToOne($0, context: self)) } ?? object.current(slot)
                    }
                    if key.contains(where: \.isNull) { continue }
                    if !object.isInserted, let snapshot = object.snapshot, zip(slots, key).allSatisfy({ snapshot[$0.0] == $0.1 }) {
                        continue
                    }
                    candidates.append((object, key))
                }
                guard !candidates.isEmpty else { continue }
                let label = "\(entity.name) [\(constraint.joined(separator: ", "))]"
                // Several objects of this save with the same values.
                var groups = OrderedDictionary<[Value], [ManagedObject]>()
                for (object, key) in candidates { groups[key, default: []].append(object) }
                for (key, objects) in groups where objects.count > 1 {
                    if mergePolicy == .error {
                        problems.append(
                            "\(label) = (\(key.map(\.description).joined(separator: ", "))): \(objects.count) objects of this context")
                        continue
                    }
                    let keeper = objects.filter { !$0.isInserted }.min { $0.primaryKey < $1.primaryKey } ?? objects[0]
                    for other in objects where other !== keeper {
                        if mergePolicy == .mergeByPropertyObjectTrump, other.entity === keeper.entity {
                            copyAttributes(from: other, to: keeper)
                        }
                        markDeleted(other)
                    }
                    groups[key] = [keeper]
                }
                // Stored rows with the same values.
                for (key, existing) in try storedRows(entity: entity, slots: slots, keys: Array(groups.keys)) {
                    guard let object = groups[key]?.first,
                        existing.primaryKey != object.primaryKey || existing.entity.rootNumber != object.entity.rootNumber
                    else { continue }
                    let stored = self.object(existing.entity, primaryKey: existing.primaryKey)
                    if stored.isDeleted || stored.owner !== self {
                        deleteFirst.append(stored)
                        continue
                    }
                    switch mergePolicy {
                    case .error:
                        problems.append(
                            "\(label) = (\(key.map(\.description).joined(separator: ", "))): \(object.objectID) and the stored object \(stored.objectID)"
                        )
                    case .mergeByPropertyObjectTrump:
                        guard stored.entity === object.entity else {
                            problems.append(
                                "\(label): \(object.objectID) and the stored \(stored.objectID) are of different entities; they cannot be merged"
                            )
                            continue
                        }
                        // The stored object survives with the new values; the conflicting object goes (decompiled
                        // _byPropertyObjectTrumpResolveConstraintConflict:).
                        try stored.fire()
                        copyAttributes(from: object, to: stored)
                        try moveRelationships(from: object, to: stored)
                        markDeleted(object)
                    case .mergeByPropertyStoreTrump, .rollback:
                        markDeleted(object)
                    case .overwrite:
                        try stored.fire()
                        markDeleted(stored)
                        deleteFirst.append(stored)
                    }
                }
            }
        }
        if !problems.isEmpty { throw ObjectGraphError.constraintConflict(problems) }
        if !deleteFirst.isEmpty || deleted.contains(where: { $0.isInserted }) { try applyDeleteRules() }
        return deleteFirst
    }

    private func keyValue(of destination: ManagedObject?) -> Value {
        guard let destination else { return .null }
        return destination.primaryKey > 0 ? .int(destination.primaryKey) : .string("temporary \(destination.temporaryNumber)")
    }

    /// The stored rows (entity and primary key) holding each of `keys` in the constraint's columns.
    private func storedRows(
        entity: EntityDescription, slots: [Int], keys: [[Value]]
    ) throws -> [([Value], (entity: EntityDescription, primaryKey: Int64))] {
        let columns = slots.map { entity.columns[$0] }
        var found: [([Value], (entity: EntityDescription, primaryKey: Int64))] = []
        for chunk in stride(from: 0, to: keys.count, by: 100).map({ Array(keys[$0..<min($0 + 100, keys.count)]) }) {
            let one = "(" + columns.map { " t0.\($0.name) = ?" }.joined(separator: " AND ") + ")"
            var condition = "(" + Array(repeating: one, count: chunk.count).joined(separator: " OR ") + ")"
            if let restriction = entity.sql.entityRestriction { condition = "(\(restriction) AND \(condition))" }
            let sql =
                "\(entity.sql.head)t0.Z_PK, " + columns.map { "t0.\($0.name)" }.joined(separator: ", ")
                + " FROM \(entity.tableName) t0 WHERE \(condition) "
            let statement = try self.statement(sql)
            var index: Int32 = 1
            for key in chunk {
                for value in key {
                    statement.bind(value, at: index)
                    index += 1
                }
            }
            try query(statement, .constraintCheck) { row in
                let number = entity.isInHierarchy ? Int(row.int64(0)) : entity.number
                let concrete = model.entity(number: number) ?? entity
                let key = columns.enumerated().map { offset, column in row.value(Int32(offset + 2), as: column.attributeType) }
                found.append((key, (concrete, row.int64(1))))
            }
        }
        return found
    }

    private func copyAttributes(from source: ManagedObject, to target: ManagedObject) {
        willChange(target)
        for attribute in target.entity.storedAttributes {
            let value = source.current(attribute.slot)
            if source.isInserted || source.snapshot.map({ $0[attribute.slot] != value }) == true {
                target.setCurrent(attribute.slot, value)
            }
        }
    }

    private func moveRelationships(from source: ManagedObject, to target: ManagedObject) throws {
        for relationship in source.entity.relationships {
            if relationship.isToMany {
                guard case let .toMany(state) = source.relations[relationship.index], let members = state.members else { continue }
                for member in members.elements where !member.isDeleted { try target.add(member, to: relationship) }
            } else if case let .toOneObject(destination) = source.relations[relationship.index], !destination.isDeleted {
                try target.setObject(destination, for: relationship)
            }
        }
    }
}
