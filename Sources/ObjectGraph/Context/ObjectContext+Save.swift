import OrderedCollections

/// Saving: delete rules applied to the graph, validation, then every change written in one transaction.
/// A failed save rolls the transaction back and restores the context: nothing is half-saved.
extension ObjectContext {
    /// Writes every change in one transaction (`BEGIN EXCLUSIVE` ... `COMMIT`). Throws a validation error
    /// (deny rule, missing required value), an optimistic-locking failure or an SQLite error; the store and
    /// the context are then as they were before the call.
    public func save() throws {
        guard hasChanges else { return }
        let undo = SaveUndoLog(context: self)
        saveUndo = undo
        let result: SaveResult
        do {
            try applyDeleteRules()
            saveUndo = nil
            try validateChanges()
            result = try writeChanges()
        } catch {
            saveUndo = nil
            undo.restore(into: self)
            throw error
        }
        applySaved(result)
    }

    // MARK: Delete rules

    /// Applies delete rules as Core Data does at save: cascade (recursively), deny (fails the save while the
    /// relationship has live destinations), nullify (clears the inverse on each destination), no action.
    private func applyDeleteRules() throws {
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
                        reason: "the Deny delete rule refuses the delete while \(live.count) object(s) remain in it (Core Data: NSValidationRelationshipDeniedDeleteError, 1600)")
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
        for object in inserted where !object.isDeleted { try validate(object) }
        for object in updated where !object.isDeleted && !object.isFault { try validate(object) }
    }

    private func validate(_ object: ManagedObject) throws {
        let entity = object.entity
        for attribute in entity.attributes where !attribute.isOptional && object.current(attribute.slot).isNull {
            throw missingValue(object, attribute.name)
        }
        for relationship in entity.relationships where !relationship.isOptional {
            switch object.relations[relationship.index] {
            case let .toOne(destination):
                if destination == nil || destination!.isDeleted { throw missingValue(object, relationship.name) }
            case .unresolved:
                // A to-many still unresolved on an inserted object was never given a member.
                let missing = relationship.isToMany ? object.isInserted : object.current(relationship.slot).isNull
                if missing { throw missingValue(object, relationship.name) }
            case let .toMany(state):
                if let members = state.members, !members.contains(where: { !$0.isDeleted }) {
                    throw missingValue(object, relationship.name)
                }
            }
        }
    }

    private func missingValue(_ object: ManagedObject, _ property: String) -> ObjectGraphError {
        .validation(object: "\(object.entity.name) \(object.objectID)", property: property,
                    reason: "a required value is missing (Core Data: NSValidationMissingMandatoryPropertyError, 1570)")
    }
}
