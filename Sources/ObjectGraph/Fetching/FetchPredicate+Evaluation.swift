/// Evaluating a predicate on an object in memory (for unsaved changes), with the store's SQL semantics:
/// a comparison with a NULL value is false, as in SQLite.
extension FetchPredicate {
    func evaluate(on object: ManagedObject) throws -> Bool {
        switch self {
        case let .compare(keyPath, op, value):
            let current = try object.value(atKeyPath: keyPath)
            if value.isNull {
                switch op {
                case .equal: return current.isNull
                case .notEqual: return !current.isNull
                default: return false
                }
            }
            return !current.isNull && op.holds(current, value)
        case let .compareObject(keyPath, equal, other):
            let current = try object.object(atKeyPath: keyPath)
            guard let other else { return equal ? current == nil : current != nil }
            guard let current else { return false }
            return equal ? current === other : current !== other
        case let .oneOf(keyPath, values):
            let current = try object.value(atKeyPath: keyPath)
            return !current.isNull && values.contains { current.sqlEquals($0) }
        case let .string(keyPath, op, text, options):
            guard let current = try object.value(atKeyPath: keyPath).string else { return false }
            return SQLFunctions.stringSearch(current, text, QueryCompiler.searchFlags(op, options))
        case let .count(keyPath, op, count):
            let components = keyPath.split(separator: ".").map(String.init)
            guard let owner = try object.object(through: components.dropLast()) else { return op.holds(.int(0), .int(Int64(count))) }
            let members = try owner.objects(components.last ?? "")
            return op.holds(.int(Int64(members.count)), .int(Int64(count)))
        case let .and(parts):
            for part in parts where !(try part.evaluate(on: object)) { return false }
            return true
        case let .or(parts):
            for part in parts where try part.evaluate(on: object) { return true }
            return false
        case let .not(part):
            return !(try part.evaluate(on: object))
        case let .constant(value):
            return value
        }
    }
}

extension ManagedObject {
    /// The value at a key path through to-one relationships: an attribute, a derived attribute, or a to-one
    /// relationship's key (`.int(primary key)`, `.null` when unset); `.null` when a relationship on the way is nil.
    func value(atKeyPath keyPath: String) throws -> Value {
        let components = keyPath.split(separator: ".").map(String.init)
        guard let target = try object(through: components.dropLast()), let last = components.last else { return .null }
        if let relationship = target.entity.relationship(last), !relationship.isToMany {
            guard let destination = try target.object(relationship) else { return .null }
            return destination.primaryKey > 0 ? .int(destination.primaryKey) : .int(-destination.temporaryNumber)
        }
        return try target.value(last)
    }

    /// The object at a key path of to-one relationships.
    func object(atKeyPath keyPath: String) throws -> ManagedObject? {
        try object(through: keyPath.split(separator: ".").map(String.init)[...])
    }

    func object(through components: ArraySlice<String>) throws -> ManagedObject? {
        var current: ManagedObject? = self
        for component in components {
            guard let object = current else { return nil }
            current = try object.object(component)
        }
        return current
    }
}
