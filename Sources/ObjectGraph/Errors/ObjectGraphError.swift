/// The one error type ObjectGraph throws.
///
/// SQLite failures carry the result code, SQLite's message and the SQL that failed; the other cases name
/// the entity, property or object concerned and say what to do.
public enum ObjectGraphError: Error, Equatable, CustomStringConvertible {
    /// SQLite refused a statement.
    case sqlite(code: Int32, message: String, sql: String?)
    /// The model is inconsistent: an unknown destination, a duplicate name, an inverse that does not point back.
    case model(entity: String, property: String?, reason: String)
    /// A save was refused by validation (deny rule, missing or out-of-range value); nothing was written.
    case validation(object: String, property: String, reason: String)
    /// An Xcode model file could not be read: the path, and what was wrong and where.
    case xcodeModel(path: String, reason: String)
    /// The store on disk was created with another model.
    case modelMismatch(path: String, reason: String)
    /// Another context saved the row since this context read it, and the merge policy did not resolve it.
    case optimisticLockingFailure(object: String)
    /// Rows changed since they were read, under the error merge policy: Core Data's NSManagedObjectMergeError
    /// (133020, "Could not merge changes."), one line per conflicting object.
    case mergeConflict([String])
    /// A uniqueness constraint was violated, under the error merge policy: Core Data's
    /// NSManagedObjectConstraintMergeError (133021), naming the entity, the constraint and the values.
    case constraintConflict([String])
    /// A context or one of its objects was used from a thread it does not belong to.
    case wrongThread(String)
    /// A predicate format string did not parse, or a predicate cannot run on the entity.
    case invalidPredicate(String)
    /// The caller asked for something the API cannot do: an unknown property, a value of the wrong type,
    /// an object from another context.
    case invalidOperation(String)

    public var description: String {
        switch self {
        case let .sqlite(code, message, sql):
            let name = String(cString: sqliteErrorName(code))
            if let sql { return "SQLite error \(code) (\(name)): \(message) - while executing `\(sql)`" }
            return "SQLite error \(code) (\(name)): \(message)"
        case let .model(entity, property, reason):
            if let property { return "model error in \(entity).\(property): \(reason)" }
            return "model error in entity \(entity): \(reason)"
        case let .validation(object, property, reason):
            return "validation failed for \(object).\(property): \(reason); the save was rolled back"
        case let .xcodeModel(path, reason):
            return "cannot read the Xcode model \(path): \(reason)"
        case let .modelMismatch(path, reason):
            return
                "the store at \(path) was created with a different model (\(reason)); open it with its own model or delete the file to start afresh"
        case let .optimisticLockingFailure(object):
            return "optimistic locking failure: \(object) was changed by another context since it was read; refresh it and save again"
        case let .mergeConflict(objects):
            return "Could not merge changes (NSManagedObjectMergeError, 133020): " + objects.joined(separator: "; ")
                + "; refresh the objects, or set the context's mergePolicy, and save again"
        case let .constraintConflict(conflicts):
            return "a uniqueness constraint was violated (NSManagedObjectConstraintMergeError, 133021): "
                + conflicts.joined(separator: "; ")
                + "; change the values, or set the context's mergePolicy to merge them"
        case let .wrongThread(message), let .invalidPredicate(message), let .invalidOperation(message):
            return message
        }
    }
}
