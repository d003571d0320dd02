import Foundation

/// Evaluating a predicate on an object in memory (for unsaved changes), with the store's SQL semantics: a
/// comparison with a NULL value is false, as in SQLite.
extension FetchPredicate {
    public func evaluate(on object: ManagedObject) throws -> Bool {
        switch self {
        case let .comparison(comparison): return try comparison.evaluate(on: object)
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

extension Comparison {
    func evaluate(on object: ManagedObject) throws -> Bool {
        switch modifier {
        case .all:
            throw ObjectGraphError.invalidPredicate("ALL modifier is not implemented (Core Data refuses it too)")
        case .any:
            guard case let .keyPath(keyPath) = lhs else { return try compare(object.evaluate(lhs), object.evaluate(rhs)) }
            let right = try object.evaluate(rhs)
            for value in try object.values(alongToMany: keyPath) where try compare(.value(value), right) { return true }
            return false
        case .direct:
            if op == .contains, lhs.keyPathEndsInToMany(object.entity), case let .keyPath(path) = lhs, case let .object(id) = rhs {
                return try object.members(atKeyPath: path).contains { $0.objectID == id }
            }
            if op == .in, rhs.keyPathEndsInToMany(object.entity), case let .keyPath(path) = rhs, case let .object(id) = lhs {
                return try object.members(atKeyPath: path).contains { $0.objectID == id }
            }
            return try compare(object.evaluate(lhs), object.evaluate(rhs))
        }
    }

    /// The comparison of two evaluated sides (an aggregate side is a list of values).
    private func compare(_ left: Evaluated, _ right: Evaluated) throws -> Bool {
        switch op {
        case .in:
            guard case let .list(items) = right, case let .value(value) = left else { return false }
            return !value.isNull && items.contains { value.sqlEquals($0) }
        case .between:
            guard case let .list(bounds) = right, bounds.count == 2, case let .value(value) = left, !value.isNull else { return false }
            return !(value < bounds[0]) && !(bounds[1] < value)
        default:
            guard case let .value(a) = left, case let .value(b) = right else { return false }
            return compareValues(a, b)
        }
    }

    private func compareValues(_ a: Value, _ b: Value) -> Bool {
        if b.isNull {
            switch op {
            case .equal: return a.isNull
            case .notEqual: return !a.isNull
            default: return false
            }
        }
        if a.isNull { return false }
        var folding: String.CompareOptions = []
        if options.contains(.caseInsensitive) { folding.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { folding.insert(.diacriticInsensitive) }
        let (left, right) = folding.isEmpty ? (a, b) : (a.folded(folding), b.folded(folding))
        switch op {
        case .equal: return left.sqlEquals(right)
        case .notEqual: return !left.sqlEquals(right)
        case .less: return left < right
        case .lessOrEqual: return left < right || left.sqlEquals(right)
        case .greater: return right < left
        case .greaterOrEqual: return right < left || left.sqlEquals(right)
        case .beginsWith, .endsWith, .contains:
            guard let text = a.string, let pattern = b.string else { return false }
            return SQLFunctions.stringSearch(text, pattern, QueryCompiler.searchFlags(op, options))
        case .like:
            guard let text = a.string, let pattern = b.string else { return false }
            return SQLFunctions.like(text, pattern, options: Int64(options.rawValue & 3))
        case .matches:
            guard let text = a.string, let pattern = b.string else { return false }
            return NSRegularExpressionCache.matches(
                SQLFunctions.fold(text, options.contains(.diacriticInsensitive) ? [.diacriticInsensitive] : []),
                pattern, caseInsensitive: options.contains(.caseInsensitive))
        case .in, .between:
            return false
        }
    }
}

/// One side of a comparison, evaluated: a value or a list of values.
enum Evaluated {
    case value(Value)
    case list([Value])
}

extension Value {
    func folded(_ options: String.CompareOptions) -> Value {
        if case let .string(text) = self { return .string(text.folding(options: options, locale: nil)) }
        return self
    }
}

extension ManagedObject {
    /// One side of a comparison for this object: a key path's value (a to-one key as its primary key), a
    /// constant, an object's key, or SELF.
    func evaluate(_ expression: FetchExpression) throws -> Evaluated {
        switch expression {
        case let .keyPath(path):
            if path.utf8.contains(UInt8(ascii: "@")) { return .value(try aggregateValue(atKeyPath: path)) }
            return .value(try value(atKeyPath: path))
        case let .constant(value): return .value(value)
        case let .object(id): return .value(id.isTemporary ? .int(-id.temporaryNumber) : .int(id.primaryKey))
        case .evaluatedObject: return .value(primaryKey > 0 ? .int(primaryKey) : .int(-temporaryNumber))
        case let .aggregate(items):
            return .list(
                try items.map { item -> Value in
                    guard case let .value(value) = try evaluate(item) else { return .null }
                    return value
                })
        case let .variable(name):
            throw ObjectGraphError.invalidPredicate("variable $\(name) has no value; substitute it before fetching")
        }
    }

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

    /// A sort key: a key path's value, or a to-many's `@count`.
    func sortValue(atKeyPath keyPath: String) throws -> Value {
        keyPath.utf8.contains(UInt8(ascii: "@")) ? try aggregateValue(atKeyPath: keyPath) : try value(atKeyPath: keyPath)
    }

    /// The values at a key path that goes through to-many relationships (for ANY): one per member reached.
    func values(alongToMany keyPath: String) throws -> [Value] {
        var objects: [ManagedObject] = [self]
        let components = keyPath.split(separator: ".").map(String.init)
        for name in components.dropLast() {
            var next: [ManagedObject] = []
            for object in objects {
                guard let relationship = object.entity.relationship(name) else {
                    throw ObjectGraphError.invalidPredicate("key path '\(keyPath)': \(object.entity.name) has no relationship '\(name)'")
                }
                if relationship.isToMany {
                    next += try object.objects(relationship)
                } else if let destination = try object.object(relationship) {
                    next.append(destination)
                }
            }
            objects = next
        }
        return try objects.map { try $0.value(atKeyPath: components.last ?? "") }
    }

    /// The members of the to-many at the end of a key path of to-one steps.
    func members(atKeyPath keyPath: String) throws -> [ManagedObject] {
        let components = keyPath.split(separator: ".").map(String.init)
        guard let owner = try object(through: components.dropLast()) else { return [] }
        return Array(try owner.objects(components.last ?? ""))
    }

    /// `<toMany>.@count` and `<toMany>.@sum|@avg|@min|@max.<attribute>` (in any of their spellings).
    func aggregateValue(atKeyPath keyPath: String) throws -> Value {
        var components = keyPath.split(separator: ".").map(String.init)
        guard let position = components.firstIndex(where: { $0.hasPrefix("@") }) else { return try value(atKeyPath: keyPath) }
        let function = components.remove(at: position)
        let attribute = function == "@count" ? nil : components.popLast()
        let members = try self.members(atKeyPath: components.joined(separator: "."))
        if function == "@count" { return .int(Int64(members.count)) }
        let values = try members.compactMap { member -> Double? in try member.value(attribute ?? "").double }
        switch function {
        case "@sum": return .double(values.reduce(0, +))
        case "@avg": return values.isEmpty ? .null : .double(values.reduce(0, +) / Double(values.count))
        case "@min": return values.min().map(Value.double) ?? .null
        case "@max": return values.max().map(Value.double) ?? .null
        default: throw ObjectGraphError.invalidPredicate("key path '\(keyPath)': unknown collection operator \(function)")
        }
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
