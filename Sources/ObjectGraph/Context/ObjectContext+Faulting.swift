import CPrefetch
import Foundation

/// Faults: object faults fulfilled from the row cache or with one SELECT, to-many faults with one query for
/// the member IDs, and the materialization of fetched rows into registered objects.
extension ObjectContext {
    /// Fires an object fault: from the object's snapshot or the row cache (a hit, no SQL), else one
    /// `SELECT ... WHERE  t0.Z_PK = ?  LIMIT 1` (a miss).
    func fulfilFault(_ object: ManagedObject) throws {
        guard object.isFault else { return }
        counters.objectFaults &+= 1
        store.counters.objectFaults &+= 1
        if let snapshot = object.snapshot ?? store.rowCache.snapshot(table: object.entity.rootNumber, primaryKey: object.primaryKey) {
            counters.cacheHits &+= 1
            store.counters.cacheHits &+= 1
            fill(object, from: snapshot)
            return
        }
        counters.cacheMisses &+= 1
        store.counters.cacheMisses &+= 1
        let entity = object.entity
        let start = store.sqlTrace == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        let statement = try self.statement(entity.sql.fault)
        statement.bind(object.primaryKey, at: 1)
        var found: RowSnapshot?
        let rows = try query(statement, .objectFault, subject: entity.name) { row in found = snapshot(entity, from: row) }
        if let trace = store.sqlTrace, trace.exact { traceFetchTotal(since: start, rows: rows) }
        guard let found else {
            throw ObjectGraphError.invalidOperation(
                "could not fulfil a fault for \(object.objectID): its row no longer exists in the store")
        }
        fill(object, from: found)
        if let trace = store.sqlTrace {
            trace.annotation("fault fulfilled from database for : \(trace.objectID(object.objectID))")
        }
    }

    @inline(__always)
    private func fill(_ object: ManagedObject, from snapshot: RowSnapshot) {
        object.snapshot = snapshot
        object.isFault = false
    }

    /// Fires a to-many fault: one query for the member IDs (in order for an ordered relationship); each member is
    /// registered as a fault of its own.
    func fulfilToManyFault(_ owner: ManagedObject, _ relationship: RelationshipDescription) throws {
        let state: ToManyState
        if case let .toMany(existing) = owner.relations[relationship.index] {
            if existing.members != nil { return }
            state = existing
        } else {
            state = ToManyState(members: nil)
        }
        var stored = MemberList()
        if owner.primaryKey > 0 {
            counters.relationshipFaults &+= 1
            store.counters.relationshipFaults &+= 1
            let destination = relationship.destination
            let table = destination.rootNumber
            let hierarchy = destination.isInHierarchy
            let orderColumn: Int32? = relationship.kind == .manyToMany && relationship.join.orderColumn != nil ? 2 : nil
            var members = faultMembers
            faultMembers = []
            var entityNumbers: [Int64] = []
            var orders: [Int64] = []
            let statement = try self.statement(relationship.sql.toManyFault)
            statement.bind(owner.primaryKey, at: 1)
            // The rows' keys first, then the members: each row asks its member's registry slot into the cache, the
            // object of the row `lead` rows before it (whose slot is in by now) and the shown row of the one `lead`
            // before that (whose object is in), so that registering the members and reading them meet them cached.
            // Members' keys come in no useful order, so each member was a miss on its slot, its object and its row
            // (callgrind's simulated caches at 100,000 students: 4.1 misses of a 1 MiB cache a member against the
            // floor's 0.3), and the faulting walk took 47 ms, 3.7 times its floor (1.8 at 10,000); with hints one
            // row ahead, 22 ms, 1.7 times. A row of this query takes about 120 ns (the floor's walk at 100,000),
            // less than a miss to memory once the objects outgrow the last-level cache: at 1,000,000 students the
            // walk was 1.68-1.76 times its floor against 1.22 at 1,000 with the hints one row ahead; `lead` rows
            // ahead, 1.42-1.43 (interleaved runs of 3 repetitions; 1.26-1.29 at 100,000, as before).
            // Each row keeps its slot's address, so that the second pass reads slots without walking the registry's
            // pages again (callgrind, the walk at 10,000: three page walks a member were 30 instructions).
            let lead = 4
            let rows = try query(statement, .toManyFault, subject: relationship.qualifiedName) { row in
                let key = row.int64(1)
                let slot = key > 0 ? registry.slot(table, key) : nil
                if let slot { relbench_prefetch_for_read(slot) }
                let index = members.count
                if index >= lead, let entry = members[index - lead].slot?.pointee { Prefetch.object(entry.object) }
                if index >= 2 * lead, let entry = members[index - 2 * lead].slot?.pointee { Prefetch.shownRow(of: entry.object) }
                members.append(FaultMember(key: key, slot: slot))
                if hierarchy { entityNumbers.append(row.int64(0)) }
                if let orderColumn { orders.append(row.int64(orderColumn)) }
            }
            let count = members.count
            stored = members.withUnsafeBufferPointer { members in
                // The objects and rows the query's rows had no later row to ask for.
                for index in Swift.max(0, count - lead)..<count {
                    if let entry = members[index].slot?.pointee { Prefetch.object(entry.object) }
                }
                return MemberList(count: count) { index in
                    let ahead = index + lead
                    if ahead < count, ahead >= count - 2 * lead, let entry = members[ahead].slot?.pointee {
                        Prefetch.shownRow(of: entry.object)
                    }
                    let member = members[index]
                    if let registered = member.slot?.pointee { return registered.object.takeUnretainedValue() }
                    let entity = hierarchy ? (model.entity(number: Int(entityNumbers[index])) ?? destination) : destination
                    guard let slot = member.slot else { return object(entity, primaryKey: member.key) }
                    return registerFault(of: entity, primaryKey: member.key, in: slot)
                }
            }
            members.removeAll(keepingCapacity: true)
            faultMembers = members
            if orderColumn != nil {
                var orderKeys: [ObjectIdentifier: Int64] = [:]
                for (member, order) in zip(stored, orders) { orderKeys[ObjectIdentifier(member)] = order }
                state.joinOrderKeys = orderKeys
            }
            if let trace = store.sqlTrace {
                trace.annotation(
                    "to-many relationship fault \"\(relationship.name)\" for objectID \(trace.objectID(owner.objectID)) fulfilled from database.  Got \(rows) rows"
                )
            }
        }
        state.fulfil(with: stored)
        owner.relations[relationship.index] = .toMany(state)
    }

    /// The snapshot for the current row of `row` (columns: head, Z_PK, Z_OPT, then the entity's row in order):
    /// the cached one when its version matches, else a new one put in the row cache.
    @inline(__always)
    func snapshot(_ entity: EntityDescription, from row: SQLiteStatement) -> RowSnapshot {
        snapshot(entity, primaryKey: row.int64(1), from: row, positions: nil)
    }

    /// `positions` gives each slot's result column when the row was selected for another entity of the hierarchy
    /// (nil: the entity's own row follows Z_OPT).
    @inline(__always)
    private func snapshot(_ entity: EntityDescription, primaryKey: Int64, from row: SQLiteStatement, positions: [Int32]?) -> RowSnapshot {
        let version = row.int64(2)
        // The cache borrowed, not retained: the store holds it (callgrind, fetch-all at 10,000: a retain and a
        // release of the cache were 20 instructions a row).
        return Unmanaged.passUnretained(store.rowCache)._withUnsafeGuaranteedRef { cache in
            cache.snapshot(table: entity.rootNumber, primaryKey: primaryKey, version: version) {
                let shape = entity.rowShape
                return RowSnapshot.makeRead(shape, primaryKey: primaryKey, version: version) { snapshot in
                    let slots = snapshot.slots
                    if let positions {
                        for slot in 0..<shape.count { row.read(positions[slot], as: shape.columns[slot], into: slots, slot: slot) }
                    } else {
                        for slot in 0..<shape.count { row.read(Int32(slot + 3), as: shape.columns[slot], into: slots, slot: slot) }
                    }
                }
            }
        }
    }

    /// The registered object for a fetched row of `entity` (its sub-entities' rows too: the head column names
    /// their entity), created if needed; a fault keeps the snapshot so that firing it is a row-cache hit (Core
    /// Data's returnsObjectsAsFaults).
    ///
    /// An object already registered and fired is returned as it is, without looking at the row (Core Data does
    /// not overwrite the values of registered objects on a fetch): the row's columns are not even read.
    @inline(__always)
    func materialize(_ entity: EntityDescription, from row: SQLiteStatement, asFault: Bool) -> ManagedObject {
        // Entities outside a hierarchy take no detour through the head column (profiled: the shared path cost
        // fetch-all 2% more instructions in retains of the entity and the positions).
        if entity.isInHierarchy { return materializeInHierarchy(entity, from: row, asFault: asFault) }
        return materialize(concrete: entity, from: row, positions: nil, asFault: asFault)
    }

    /// For a prefetch: the registered object of the row, unretained and untouched, when its registry entry says it
    /// is fired (`owned` false: the caller retains it before anything can release it); else the row's object as
    /// `materialize` gives it, retained for the caller (`owned` true).
    @inline(__always)
    func materializeMember(_ entity: EntityDescription, from row: SQLiteStatement) -> (reference: Unmanaged<ManagedObject>, owned: Bool) {
        let primaryKey = row.int64(1)
        if primaryKey > 0, let entry = registry.slot(entity.rootNumber, primaryKey).pointee, entry.isFired {
            return (entry.object, false)
        }
        return (Unmanaged.passRetained(materialize(entity, from: row, asFault: false)), true)
    }

    @inline(never)
    private func materializeInHierarchy(_ entity: EntityDescription, from row: SQLiteStatement, asFault: Bool) -> ManagedObject {
        let concrete = model.entity(number: Int(row.int64(0))) ?? entity
        return materialize(concrete: concrete, from: row, positions: entity.sql.rowPositions[concrete.number], asFault: asFault)
    }

    @inline(__always)
    private func materialize(concrete: EntityDescription, from row: SQLiteStatement, positions: [Int32]?, asFault: Bool) -> ManagedObject {
        let primaryKey = row.int64(1)
        guard primaryKey > 0 else {
            // No row of a Core Data store has a key below 1: such a row's object is not registered.
            counters.objectsMaterialized &+= 1
            store.counters.objectsMaterialized &+= 1
            let snapshot = snapshot(concrete, primaryKey: primaryKey, from: row, positions: positions)
            let object = ManagedObject(faultOf: concrete, primaryKey: primaryKey, snapshot: snapshot, owner: self)
            if !asFault { object.faultFlag = false }
            return object
        }
        // One walk of the registry's pages for the lookup and the registration.
        let table = concrete.rootNumber
        let registration = registry.slot(table, primaryKey)
        if let entry = registration.pointee {
            // A fired object is returned from its entry's bit, without a load of the object (`RegistryEntry`).
            let existing = entry.object.takeUnretainedValue()
            if entry.isFired { return existing }
            existing.snapshot = snapshot(concrete, primaryKey: primaryKey, from: row, positions: positions)
            if !asFault {
                existing.faultFlag = false
                registration.pointee = RegistryEntry(entry.object, fired: true)
            }
            return existing
        }
        // The snapshot handed straight to the object: bound to a name first, it was retained for the object and
        // released after the registration (callgrind, fetch-all at 10,000: 20 instructions a row).
        let object = ManagedObject(
            faultOf: concrete, primaryKey: primaryKey,
            snapshot: snapshot(concrete, primaryKey: primaryKey, from: row, positions: positions), owner: self, fired: !asFault)
        registry.fill(table, registration, with: RegistryEntry(Unmanaged.passUnretained(object), fired: !asFault))
        counters.objectsMaterialized &+= 1
        store.counters.objectsMaterialized &+= 1
        return object
    }
}
