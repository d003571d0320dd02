import Foundation

/// Saving: delete rules applied to the graph, conflicts with other saves resolved by the merge policy, validation,
/// then every change written. A failed save rolls back and restores the context: nothing is half-saved.
extension ObjectContext {
    /// Writes every change (Core Data's two transactions: primary keys, then rows). Throws a validation error (deny
    /// rule, missing or out-of-range value), a merge or constraint conflict the merge policy leaves unresolved, or
    /// an SQLite error; the store and the context are then as they were before the call. Afterwards the other
    /// contexts of the store hear of the save (and merge it if they merge automatically).
    public func save() throws {
        try checkThread()
        guard hasChanges else { return }
        var undo: SaveUndoLog? = SaveUndoLog(context: self)
        saveUndo = undo
        let result: SaveResult
        do {
            try applyDeleteRules()
            try resolveVersionConflicts()
            let overwritten = try resolveConstraintConflicts()
            saveUndo = nil
            try validateChanges()
            result = try writeChanges(deletingFirst: overwritten)
        } catch {
            saveUndo = nil
            undo?.restore(into: self)
            throw error
        }
        // Let go of the log's copy of the change lists, so that applySaved holds the inserted list alone.
        undo = nil
        guard let notification = applySaved(result, describing: !saveObservers.isEmpty || store.hasListeners(besides: inbox)) else {
            return
        }
        for observer in saveObservers { observer(notification) }
        store.contextDidSave(notification, from: self)
    }

    // MARK: Delete rules

    /// Applies delete rules as Core Data does at save: cascade (recursively), deny (fails the save while the
    /// relationship has live destinations), nullify (clears the inverse on each destination), no action.
    func applyDeleteRules() throws {
        var queue = deleted
        var index = 0
        while index < queue.count {
            let object = queue[index]
            index += 1
            for relationship in object.entity.relationships where relationship.deleteRule == .cascade {
                for destination in try object.relatedObjects(relationship) where !destination.isDeleted {
                    markDeleted(destination)
                    queue.append(destination)
                }
            }
        }
        for object in deleted {
            for relationship in object.entity.relationships where relationship.deleteRule == .deny {
                let live = try object.relatedObjects(relationship).filter { !$0.isDeleted }
                if !live.isEmpty {
                    throw ObjectGraphError.validation(
                        object: "\(object.entity.name) \(object.objectID)", property: relationship.name,
                        reason:
                            "\"Items cannot be deleted from \(relationship.name).\" (NSValidationRelationshipDeniedDeleteError, 1600): the Deny delete rule refuses the delete while \(live.count) object(s) remain in it"
                    )
                }
            }
        }
        for object in deleted {
            for relationship in object.entity.relationships where relationship.deleteRule == .nullify {
                guard let inverse = relationship.inverse else { continue }
                for destination in try object.relatedObjects(relationship) where !destination.isDeleted {
                    if inverse.isToMany {
                        destination.removeRaw(object: object, from: inverse, context: self)
                    } else {
                        if destination.isFault { try fulfilFault(destination) }
                        guard destination.resolvedToOne(inverse, context: self) === object else { continue }
                        willChange(destination)
                        destination.relations[inverse.index] = .toOne(nil)
                    }
                }
            }
        }
    }

    // MARK: Validation

    private func validateChanges() throws {
        try inserted.forEachUnretained { object in
            if !object.isDeleted && object.entity.needsValidation { try validate(object) }
        }
        for object in updated where !object.isDeleted && !object.isFault && object.entity.needsValidation { try validate(object) }
    }

    /// Core Data's checks at save, with its messages (`%{PROPERTY}@ is too long.` and the error codes).
    private func validate(_ object: ManagedObject) throws {
        let entity = object.entity
        func failure(_ property: String, _ message: String, _ code: String, _ detail: String) -> ObjectGraphError {
            .validation(object: "\(entity.name) \(object.objectID)", property: property, reason: "\"\(message)\" (\(code)): \(detail)")
        }
        for attribute in entity.validatedAttributes {
            if object.currentIsNull(attribute.slot) {
                if !attribute.isOptional {
                    throw failure(
                        attribute.name, "\(attribute.name) is a required value.", "NSValidationMissingMandatoryPropertyError, 1570",
                        "it is nil")
                }
                continue
            }
            if attribute.hasValueRules { try validateValue(object.current(attribute.slot), of: attribute, failure: failure) }
        }
        for relationship in entity.validatedRelationships {
            if !relationship.isOptional {
                let missing: Bool
                switch object.relations[relationship.index] {
                case .toOneNil:
                    missing = true
                case let .toOneObject(destination):
                    missing = destination.isDeleted
                case .unresolved:
                    // A to-many still unresolved on an inserted object was never given a member.
                    missing = relationship.isToMany ? object.isInserted : object.currentIsNull(relationship.slot)
                case let .toMany(state):
                    missing = state.members.map { !$0.contains(where: { !$0.isDeleted }) } ?? false
                }
                if missing {
                    throw failure(
                        relationship.name, "\(relationship.name) is a required value.", "NSValidationMissingMandatoryPropertyError, 1570",
                        "the relationship is empty")
                }
            }
            guard relationship.isToMany, relationship.minCount > 0 || relationship.maxCount > 0 else { continue }
            let loaded: MemberList?
            switch object.relations[relationship.index] {
            case let .toMany(state): loaded = state.hasChanges || object.isInserted ? try object.loadedToMany(relationship).members : nil
            case .unresolved: loaded = object.isInserted ? MemberList() : nil
            case .toOneNil, .toOneObject: loaded = nil
            }
            guard let members = loaded else { continue }
            let count = members.filter { !$0.isDeleted }.count
            if count > 0 || !relationship.isOptional, count < relationship.minCount {
                throw failure(
                    relationship.name, "Too few items in \(relationship.name).", "NSValidationRelationshipLacksMinimumCountError, 1580",
                    "\(count) member(s), at least \(relationship.minCount) required")
            }
            if relationship.maxCount > 0, count > relationship.maxCount {
                throw failure(
                    relationship.name, "Too many items in \(relationship.name).", "NSValidationRelationshipExceedsMaximumCountError, 1590",
                    "\(count) member(s), at most \(relationship.maxCount) allowed")
            }
        }
    }

    /// Integer width, min/max value (numbers, dates) or length (strings, data), and the regular expression.
    /// Core Data narrows an out-of-range Integer 16/32 silently when storing it (seen in the wild); ObjectGraph
    /// refuses it instead, with the codes Core Data uses for values beyond a model's maximum and minimum.
    private func validateValue(
        _ value: Value, of attribute: AttributeDescription,
        failure: (String, String, String, String) -> ObjectGraphError
    ) throws {
        let name = attribute.name
        let validation = attribute.validation
        if let range = attribute.type.integerRange, let integer = value.int, !range.contains(integer) {
            let (message, code) =
                integer > range.upperBound
                ? ("\(name) is too large.", "NSValidationNumberTooLargeError, 1610")
                : ("\(name) is too small.", "NSValidationNumberTooSmallError, 1620")
            throw failure(
                name, message, code, "\(integer) does not fit an \(attribute.type.xcodeName) (\(range.lowerBound)...\(range.upperBound))")
        }
        guard !validation.isEmpty else { return }
        switch attribute.type {
        case .int16, .int32, .int64, .decimal, .double, .float:
            guard let number = value.double else { return }
            if let maximum = validation.maximum, number > maximum {
                throw failure(
                    name, "\(name) is too large.", "NSValidationNumberTooLargeError, 1610", "\(value) is above the maximum \(maximum)")
            }
            if let minimum = validation.minimum, number < minimum {
                throw failure(
                    name, "\(name) is too small.", "NSValidationNumberTooSmallError, 1620", "\(value) is below the minimum \(minimum)")
            }
        case .date:
            guard let seconds = value.date?.timeIntervalSinceReferenceDate else { return }
            if let maximum = validation.maximum, seconds > maximum {
                throw failure(
                    name, "\(name) is too late.", "NSValidationDateTooLateError, 1630", "\(value) is after the latest date allowed")
            }
            if let minimum = validation.minimum, seconds < minimum {
                throw failure(
                    name, "\(name) is too soon.", "NSValidationDateTooSoonError, 1640", "\(value) is before the earliest date allowed")
            }
        case .string, .binary, .transformable:
            let length = value.string.map { $0.utf16.count } ?? value.binary?.count ?? 0
            if let maximum = validation.maximum, Double(length) > maximum {
                throw failure(
                    name, "\(name) is too long.", "NSValidationStringTooLongError, 1660",
                    "\(length) characters, at most \(Int(maximum)) allowed")
            }
            if let minimum = validation.minimum, Double(length) < minimum {
                throw failure(
                    name, "\(name) is too short.", "NSValidationStringTooShortError, 1670",
                    "\(length) characters, at least \(Int(minimum)) required")
            }
            if let pattern = validation.pattern, let text = value.string, !NSRegularExpressionCache.matches(text, pattern) {
                throw failure(
                    name, "\(name) is invalid.", "NSValidationStringPatternMatchingError, 1680", "\"\(text)\" does not match /\(pattern)/")
            }
        default:
            break
        }
    }
}
