/// Reading and changing relationships, with Core Data's inverse maintenance: changing one side of a
/// relationship that has an inverse changes the other side at once; one-to-nil and many-to-nil relationships
/// touch nothing on the destination.
extension ManagedObject {
    // MARK: Public API

    /// The destination of the to-one relationship called `name` (a fault until touched).
    public func object(_ name: String) throws -> ManagedObject? {
        try object(toOneRelationship(name))
    }

    /// The destination of a to-one relationship; resolving it runs no SQL (the key is in this object's row).
    public func object(_ relationship: RelationshipDescription) throws -> ManagedObject? {
        try check(relationship, toMany: false)
        let context = try requireContext()
        if isFault { try context.fulfilFault(self) }
        return resolvedToOne(relationship, context: context)
    }

    /// Sets the to-one relationship called `name`.
    public func setObject(_ object: ManagedObject?, for name: String) throws {
        try setObject(object, for: toOneRelationship(name))
    }

    /// Sets a to-one relationship and maintains its inverse.
    public func setObject(_ object: ManagedObject?, for relationship: RelationshipDescription) throws {
        try check(relationship, toMany: false)
        if let object { try checkDestination(object, of: relationship) }
        try withContext { context in
            if isFault { try context.fulfilFault(self) }
            try checkNotDeleted(changing: relationship.name)
            try setToOneMaintainingInverse(relationship, object, context: context)
        }
    }

    /// The members of the to-many relationship called `name`, firing the relationship fault if needed.
    public func objects(_ name: String) throws -> RelationshipSet {
        try objects(toManyRelationship(name))
    }

    /// The members of a to-many relationship: one query for the member IDs the first time; each member is
    /// then an object fault of its own.
    public func objects(_ relationship: RelationshipDescription) throws -> RelationshipSet {
        try check(relationship, toMany: true)
        return RelationshipSet(members: try loadedMembers(relationship))
    }

    /// Whether a relationship is still a fault (a to-many not yet fetched, or this whole object a fault).
    public func isRelationshipFault(_ name: String) throws -> Bool {
        let relationship = try toManyOrToOne(name)
        if isFault { return true }
        switch relations[relationship.index] {
        case .unresolved: return relationship.isToMany && !isInserted
        case .toOneNil, .toOneObject: return false
        case let .toMany(state): return state.members == nil
        }
    }

    /// Adds `object` to the to-many relationship called `name`.
    public func add(_ object: ManagedObject, to name: String) throws {
        try add(object, to: toManyRelationship(name))
    }

    /// Adds `object` to a to-many relationship (a no-op if it is a member) and maintains the inverse.
    public func add(_ object: ManagedObject, to relationship: RelationshipDescription) throws {
        try check(relationship, toMany: true)
        try checkDestination(object, of: relationship)
        try checkNotDeleted(changing: relationship.name)
        try withContext { context in
            let state = try loadedToMany(relationship)
            guard state.members?.contains(object) != true else { return }
            let inverse = relationship.resolvedInverse
            if let inverse, !inverse.isToMany {
                if object.isFault { try context.fulfilFault(object) }
                try object.setToOneMaintainingInverse(inverse, self, context: context)
                return
            }
            context.willChange(self)
            context.noteToManyChange(self, relationship)
            state.insert(object, tracking: !isInserted)
            if relationship.isOrdered { state.reordered = true }
            // A reflexive relationship adding its own object already holds it on "both" sides.
            if let inverse, !(inverse === relationship && object === self) {
                object.insertRaw(object: self, into: inverse, context: context)
            }
        }
    }

    /// Removes `object` from the to-many relationship called `name`.
    public func remove(_ object: ManagedObject, from name: String) throws {
        try remove(object, from: toManyRelationship(name))
    }

    /// Removes `object` from a to-many relationship (a no-op if it is not a member) and maintains the inverse.
    public func remove(_ object: ManagedObject, from relationship: RelationshipDescription) throws {
        try check(relationship, toMany: true)
        try checkNotDeleted(changing: relationship.name)
        try withContext { context in
            let state = try loadedToMany(relationship)
            guard state.members?.contains(object) == true else { return }
            let inverse = relationship.resolvedInverse
            if let inverse, !inverse.isToMany {
                if object.isFault { try context.fulfilFault(object) }
                try object.setToOneMaintainingInverse(inverse, nil, context: context)
                return
            }
            context.willChange(self)
            context.noteToManyChange(self, relationship)
            state.remove(object, tracking: !isInserted)
            if relationship.isOrdered { state.reordered = true }
            if let inverse, !(inverse === relationship && object === self) {
                object.removeRaw(object: self, from: inverse, context: context)
            }
        }
    }

    /// Inserts `object` into the ordered to-many relationship called `name` at `index` (moving it there if it is
    /// already a member), maintaining the inverse.
    public func insert(_ object: ManagedObject, at index: Int, into name: String) throws {
        try insert(object, at: index, into: toManyRelationship(name))
    }

    /// Inserts `object` into an ordered to-many relationship at `index` (moving it if it is a member).
    public func insert(_ object: ManagedObject, at index: Int, into relationship: RelationshipDescription) throws {
        try checkOrdered(relationship)
        let state = try loadedToMany(relationship)
        let count = state.members?.count ?? 0
        guard index >= 0, index <= count else {
            throw ObjectGraphError.invalidOperation(
                "index \(index) is out of bounds for \(relationship.qualifiedName), which has \(count) members")
        }
        if let current = state.members?.position(of: object) {
            return try moveObject(at: current, to: Swift.min(index, count - 1), in: relationship)
        }
        try add(object, to: relationship)
        let last = (state.members?.count ?? 0) - 1
        if index != last { try moveObject(at: last, to: index, in: relationship) }
    }

    /// Moves the member of the ordered to-many relationship called `name` at `source` to `destination`.
    public func moveObject(at source: Int, to destination: Int, in name: String) throws {
        try moveObject(at: source, to: destination, in: toManyRelationship(name))
    }

    /// Moves the member of an ordered to-many relationship at `source` to `destination` (its position after the move).
    public func moveObject(at source: Int, to destination: Int, in relationship: RelationshipDescription) throws {
        try checkOrdered(relationship)
        try checkNotDeleted(changing: relationship.name)
        let context = try requireContext()
        let state = try loadedToMany(relationship)
        let count = state.members?.count ?? 0
        guard (0..<count).contains(source), (0..<count).contains(destination) else {
            throw ObjectGraphError.invalidOperation(
                "cannot move \(relationship.qualifiedName)[\(source)] to \(destination): it has \(count) members")
        }
        guard source != destination else { return }
        context.willChange(self)
        context.noteToManyChange(self, relationship)
        state.members?.move(from: source, to: destination)
        state.reordered = true
    }

    /// Removes the member of the ordered to-many relationship called `name` at `index`.
    public func removeObject(at index: Int, from name: String) throws {
        let relationship = try toManyRelationship(name)
        try checkOrdered(relationship)
        let members = try loadedMembers(relationship)
        guard members.indices.contains(index) else {
            throw ObjectGraphError.invalidOperation(
                "index \(index) is out of bounds for \(relationship.qualifiedName), which has \(members.count) members")
        }
        try remove(members[index], from: relationship)
    }

    private func checkOrdered(_ relationship: RelationshipDescription) throws {
        try check(relationship, toMany: true)
        guard relationship.isOrdered else {
            throw ObjectGraphError.invalidOperation(
                "\(relationship.qualifiedName) is not ordered; positions mean nothing in it (use add(_:to:))")
        }
    }

    /// Replaces the members of the to-many relationship called `name`.
    public func setObjects(_ objects: [ManagedObject], for name: String) throws {
        try setObjects(objects, for: toManyRelationship(name))
    }

    /// Replaces the members of a to-many relationship: removes those not in `objects`, adds the others in order.
    public func setObjects(_ objects: [ManagedObject], for relationship: RelationshipDescription) throws {
        let wanted = Set(objects.map(ObjectIdentifier.init))
        for current in try self.objects(relationship) where !wanted.contains(ObjectIdentifier(current)) {
            try remove(current, from: relationship)
        }
        if relationship.isOrdered {
            for (index, object) in objects.enumerated() { try insert(object, at: index, into: relationship) }
        } else {
            for object in objects { try add(object, to: relationship) }
        }
    }

    // MARK: Inverse maintenance

    /// Sets a to-one relationship of a fired object, keeping the inverse side in step.
    func setToOneMaintainingInverse(
        _ relationship: RelationshipDescription, _ newValue: ManagedObject?,
        context: ObjectContext
    ) throws {
        let old = resolvedToOne(relationship, context: context)
        guard old !== newValue else { return }
        context.willChange(self)
        relations[relationship.index] = .toOne(newValue)
        guard let inverse = relationship.resolvedInverse else { return }
        if inverse.isToMany {
            old?.removeRaw(object: self, from: inverse, context: context)
            newValue?.insertRaw(object: self, into: inverse, context: context)
            return
        }
        // One-to-one: the old partner lets go of us, the new partner lets go of its old partner.
        if let old {
            if old.isFault { try context.fulfilFault(old) }
            context.willChange(old)
            old.relations[inverse.index] = .toOne(nil)
        }
        if let newValue {
            if newValue.isFault { try context.fulfilFault(newValue) }
            if let previous = newValue.resolvedToOne(inverse, context: context), previous !== self {
                if previous.isFault { try context.fulfilFault(previous) }
                context.willChange(previous)
                previous.relations[relationship.index] = .toOne(nil)
            }
            context.willChange(newValue)
            newValue.relations[inverse.index] = .toOne(self)
        }
    }

    /// Adds `object` to this object's side of a to-many without firing its fault or touching inverses; the
    /// other side has just gained this object, so it is not yet a member here.
    func insertRaw(object: ManagedObject, into relationship: RelationshipDescription, context: ObjectContext) {
        let tracking = !isInserted
        toManyStateForChange(relationship, context: context)._withUnsafeGuaranteedRef { state in
            state.insert(object, tracking: tracking)
            if relationship.isOrdered { state.reordered = true }
        }
    }

    /// Removes `object` from this object's side of a to-many without firing its fault or touching inverses.
    func removeRaw(object: ManagedObject, from relationship: RelationshipDescription, context: ObjectContext) {
        let tracking = !isInserted
        toManyStateForChange(relationship, context: context)._withUnsafeGuaranteedRef { state in
            if state.members?.contains(object) == false { return }
            state.remove(object, tracking: tracking)
            if relationship.isOrdered { state.reordered = true }
        }
    }

    /// The state of this object's side of `relationship`, made if there is none yet; unretained, since the slot
    /// keeps it and the callers change no slot of this object while they use it.
    private func toManyStateForChange(_ relationship: RelationshipDescription, context: ObjectContext) -> Unmanaged<ToManyState> {
        context.willChange(self)
        context.noteToManyChange(self, relationship)
        if let state = relations.toManyState(at: relationship.index) { return state }
        // An inserted object's set is known (empty); a saved object's set stays a fault with pending changes.
        let state = ToManyState(members: isInserted ? MemberList() : nil)
        relations[relationship.index] = .toMany(state)
        return .passUnretained(state)
    }

    // MARK: Resolution

    /// The to-one destination, resolved from the row's key on first use (no SQL: a fault stands in for it).
    func resolvedToOne(_ relationship: RelationshipDescription, context: ObjectContext) -> ManagedObject? {
        switch relations[relationship.index] {
        case .toOneNil:
            return nil
        case let .toOneObject(object):
            return object
        case .unresolved:
            // An inserted object's destination is only ever set through its slot: unresolved means none (its row's
            // key column may hold a key from a failed save, which means nothing).
            if isInserted {
                relations[relationship.index] = .toOneNil
                return nil
            }
            guard case let .int(key)? = storedValue(slot: relationship.slot), key > 0 else {
                if !isFault { relations[relationship.index] = .toOne(nil) }
                return nil
            }
            var entity = relationship.destination
            if relationship.entitySlot >= 0, case let .int(number)? = storedValue(slot: relationship.entitySlot),
                let concrete = context.model.entity(number: Int(number)), concrete.isKind(of: entity)
            {
                entity = concrete
            }
            let destination = context.object(entity, primaryKey: key)
            if !isFault { relations[relationship.index] = .toOne(destination) }
            return destination
        case .toMany:
            return nil
        }
    }

    /// Turns a resolved to-one back into unresolved when it holds what `old` stored, so that it follows a newer
    /// row; a destination set since (its key differs from `old`'s) stays.
    func unresolveToOne(_ relationship: RelationshipDescription, storedIn old: RowSnapshot?) {
        let slot = relations[relationship.index]
        guard slot.isResolvedToOne else { return }
        let current: Value = slot.destination.map { $0.primaryKey > 0 ? .int($0.primaryKey) : .int(-1) } ?? .null
        let stored = old?[relationship.slot] ?? .null
        if stored == current || (stored.isNull && current.isNull) { relations[relationship.index] = .unresolved }
    }

    /// This object's state for a to-many relationship with its members loaded (firing the fault if needed).
    func loadedToMany(_ relationship: RelationshipDescription) throws -> ToManyState {
        if case let .toMany(state) = relations[relationship.index], state.members != nil { return state }
        try requireContext().fulfilToManyFault(self, relationship)
        guard case let .toMany(state) = relations[relationship.index] else {
            preconditionFailure("a fired to-many fault leaves a loaded state")
        }
        return state
    }

    /// The members of a to-many, its fault fired if need be.
    func loadedMembers(_ relationship: RelationshipDescription) throws -> MemberList {
        guard let members = try loadedToMany(relationship).members else { preconditionFailure("a fired to-many fault has members") }
        return members
    }

    /// The members the relationship has now, for delete propagation: loaded members, or the to-one destination.
    func relatedObjects(_ relationship: RelationshipDescription) throws -> [ManagedObject] {
        if relationship.isToMany { return Array(try loadedMembers(relationship).elements) }
        let context = try requireContext()
        if isFault { try context.fulfilFault(self) }
        return resolvedToOne(relationship, context: context).map { [$0] } ?? []
    }

    // MARK: Argument checks

    private func toOneRelationship(_ name: String) throws -> RelationshipDescription {
        let relationship = try toManyOrToOne(name)
        guard !relationship.isToMany else {
            throw ObjectGraphError.invalidOperation("\(entity.name).\(name) is to-many; use objects(_:), add(_:to:) or remove(_:from:)")
        }
        return relationship
    }

    private func toManyRelationship(_ name: String) throws -> RelationshipDescription {
        let relationship = try toManyOrToOne(name)
        guard relationship.isToMany else {
            throw ObjectGraphError.invalidOperation("\(entity.name).\(name) is to-one; use object(_:) or setObject(_:for:)")
        }
        return relationship
    }

    private func toManyOrToOne(_ name: String) throws -> RelationshipDescription {
        guard case let .relationship(relationship) = try entity.property(name) else {
            throw ObjectGraphError.invalidOperation("\(entity.name).\(name) is an attribute, not a relationship")
        }
        return relationship
    }

    private func check(_ relationship: RelationshipDescription, toMany: Bool) throws {
        guard entity === relationship.declaringEntity || entity.isKind(of: relationship.entity) else {
            throw wrongEntity(relationship.name, of: relationship.entity)
        }
        guard relationship.isToMany == toMany else {
            throw ObjectGraphError.invalidOperation("\(relationship.qualifiedName) is \(relationship.isToMany ? "to-many" : "to-one")")
        }
    }

    private func checkDestination(_ object: ManagedObject, of relationship: RelationshipDescription) throws {
        guard object.entity === relationship.resolvedDestination || object.entity.isKind(of: relationship.destination) else {
            throw ObjectGraphError.invalidOperation(
                "\(relationship.qualifiedName) holds \(relationship.destination.name) objects, not \(object.entity.name)")
        }
        // Compared as references, without retaining either context.
        guard let theirs = object.ownerReference, theirs.toOpaque() == ownerReference?.toOpaque() else {
            throw ObjectGraphError.invalidOperation(
                "cannot relate \(objectID) to \(object.objectID): they are not registered in the same context")
        }
        guard !object.isDeleted else {
            throw ObjectGraphError.invalidOperation("cannot relate \(objectID) to \(object.objectID): it is deleted")
        }
    }
}
