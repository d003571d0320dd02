import Foundation
import ObjectGraph

/// Runs prepared steps on ObjectGraph, holding the phase's context and the last fetch's results; what it read is
/// kept (until `release()`, outside the timed region) so that no teardown is timed.
final class StepExecutor: CounterSource {
    let store: PersistentStore
    private(set) var context: ObjectContext
    private var results: FetchResults?
    private var kept: [Any] = []
    /// A checksum of everything read, so that no read can be optimized away.
    private(set) var checksum = Checksum()
    /// Saves a delete rule or validation refused (with `"save": "may-fail"`).
    private(set) var failedSaves = 0
    /// Told why each of those saves was refused (explain prints it among the phase's statements).
    var refusal: ((ObjectGraphError) -> Void)?
    /// What the last count step counted.
    var lastCount: Int?
    /// What the last count-links step found: the links the phase inserted, and those the store kept.
    var lastLinks: (intended: Int, persisted: Int)?
    /// An injected regression (RELBENCH_INJECT_STATEMENT): one more statement per object a read step reads.
    var extraStatementPerObject = false
    /// The members a fetch prefetched through a key kept by hand, for the reads after it.
    private var manualGroups: (relationship: ManualRelationship, groups: [Value: [ManagedObject]])?
    /// The context's undo manager, once an `undo-manager` step gave it one: the objects the steps inserted, updated or
    /// deleted, held (as NSUndoManager's registrations hold them) until a reset empties it; nil: no undo manager
    /// (Core Data's default on iOS and today's macOS).
    private var undoStack: [ManagedObject]?

    init(store: PersistentStore) {
        self.store = store
        context = store.makeContext()
    }

    func readings() -> CounterReadings {
        CounterReadings(store.counters, objectsRegistered: context.registeredObjectCount)
    }

    /// Drops what the steps kept and starts a new context (outside timed regions).
    func release() {
        kept = []
        results = nil
        manualGroups = nil
        undoStack = nil
        context.reset()
        context = store.makeContext()
    }

    func run(_ steps: [PreparedStep]) throws {
        for step in steps { try run(step, in: context) }
    }

    private func run(_ step: PreparedStep, in context: ObjectContext) throws {
        switch step {
        case let .fetch(request, result, manualPrefetch):
            manualGroups = nil
            switch result {
            case .objects:
                let fetched = try context.fetch(request)
                results = fetched
                kept.append(fetched)
                if let manualPrefetch {
                    let groups = try ManualReads.prefetch(manualPrefetch, of: fetched.array, in: context)
                    manualGroups = (manualPrefetch, groups)
                    kept.append(groups)
                }
            case .ids:
                kept.append(try context.fetchObjectIDs(request))
                results = nil
            case .count:
                let count = try context.count(for: request)
                checksum.add(String(count))
                lastCount = count
            }
        case let .read(readers, first, until, manual):
            guard let results else { return }
            if let (relationship, groups) = manualGroups { manual.use(groups, for: relationship) }
            let end = min(first ?? results.count, results.count)
            // A local sum: an inout class property would check exclusivity for every value read.
            var sum = checksum
            defer { checksum = sum }
            if let until, let reader = readers.first {
                for index in 0..<end where try !reader.find(until, in: results[index], into: &sum) {
                    throw BenchError.invalidInput("a read with 'until' found no member with the value \(until)")
                }
                return
            }
            if extraStatementPerObject {
                for index in 0..<end { _ = try context.count(for: FetchRequest(results[index].entity.name)) }
            }
            if let objects = results.loadedObjects {
                try Self.read(objects, upTo: end, with: readers, into: &sum)
            } else {
                for index in 0..<end {
                    let object = results[index]
                    for reader in readers { try reader.read(object, into: &sum) }
                }
            }
        case let .insert(entity, roots):
            for root in roots {
                let object = try insert(entity, root, in: context)
                for (relationship, targets) in root.links {
                    for target in targets {
                        let destination = context.object(of: target.entity, key: target.key)
                        if relationship.isToMany {
                            try object.add(destination, to: relationship)
                        } else {
                            try object.setObject(destination, for: relationship)
                        }
                    }
                }
                for (relationship, children) in root.children {
                    for child in children {
                        let inserted = try insert(relationship.destination, child, in: context)
                        try object.add(inserted, to: relationship)
                        undoStack?.append(inserted)
                    }
                }
                if let into = root.into {
                    let owner = context.object(of: into.owner.entity, key: into.owner.key)
                    if into.fromMember, let inverse = into.relationship.inverse {
                        try object.setObject(owner, for: inverse)
                    } else {
                        try owner.add(object, to: into.relationship)
                    }
                }
                kept.append(object)
                undoStack?.append(object)
            }
        case let .insertData(data):
            kept.append(try GraphFiller.insert(data, into: context))
        case let .update(attribute, targets):
            for target in targets {
                let object = context.object(of: target.entity, key: target.key)
                try object.setValue(target.value, for: attribute)
                kept.append(object)
                undoStack?.append(object)
            }
        case let .delete(targets):
            for target in targets {
                let object = context.object(of: target.entity, key: target.key)
                try context.delete(object)
                kept.append(object)
                undoStack?.append(object)
            }
        case let .batchInsert(request): kept.append(try context.execute(request))
        case let .batchUpdate(request): kept.append(try context.execute(request))
        case let .batchDelete(request): kept.append(try context.execute(request))
        case let .save(mayFail):
            do {
                try context.save()
            } catch let error as ObjectGraphError where mayFail {
                // A refused save (deny, validation): counted, and the changes rolled back, as an app would.
                checksum.add("save failed: \(error)")
                context.rollback()
                failedSaves += 1
                refusal?(error)
            }
        case .deleteFetched:
            guard let results else { return }
            for index in 0..<results.count { try context.delete(results[index]) }
        case let .link(relationship, pairs, unlink):
            for pair in pairs {
                let source = context.object(of: pair.source.entity, key: pair.source.key)
                let destination = context.object(of: pair.destination.entity, key: pair.destination.key)
                if relationship.isToMany {
                    if unlink { try source.remove(destination, from: relationship) } else { try source.add(destination, to: relationship) }
                } else {
                    try source.setObject(unlink ? nil : destination, for: relationship)
                }
            }
        case .reset:
            // The objects the steps kept belong to the context being reset: an app's importer lets them go too.
            // Core Data's reset empties the undo manager's stack too (Gallagher's import fell to 20 MB with it).
            context.reset()
            results = nil
            kept = []
            if undoStack != nil { undoStack = [] }
        case .letGo:
            // The undo manager, not the steps, holds what it registered: letting go leaves it.
            results = nil
            kept = []
        case .undoManager:
            if undoStack == nil { undoStack = [] }
        case .newContext:
            kept.append(self.context)
            self.context = store.makeContext()
            results = nil
            undoStack = nil
        case let .countLinks(entity, relationship, intended):
            // A new context, as an app re-reading after the save: what the store kept, not what this context holds.
            let fresh = store.makeContext()
            var request = FetchRequest(entity.name)
            request.returnsObjectsAsFaults = false
            request.relationshipKeyPathsForPrefetching = [relationship.name]
            let sources = try fresh.fetch(request).array
            var persisted = 0
            for source in sources { persisted += try source.objects(relationship).count }
            lastLinks = (intended, persisted)
            checksum.add(persisted)
            kept.append(sources)
            kept.append(fresh)
        case let .merge(steps):
            let other = store.makeContext()
            var notifications: [SaveNotification] = []
            other.addSaveObserver { notifications.append($0) }
            for inner in steps { try run(inner, in: other) }
            for notification in notifications { try context.mergeChanges(from: notification) }
            kept.append(other)
            // The list the last fetch filled shows the merged objects too, as an app's fetched results controller
            // does from the merge: the objects it held, then the inserted ones of its entity (registered from their
            // IDs, no SQL), so that the next read reads both.
            if let held = results, let entity = held.first?.entity.name {
                let merged = try notifications.flatMap(\.insertedObjectIDs).filter { $0.entity.name == entity }
                    .map { try context.object(with: $0) }
                results = FetchResults(held.array + merged)
                kept.append(merged)
            }
        }
    }

    /// Reads the first `end` of `objects` with each reader, borrowing objects and readers instead of retaining each
    /// (the arrays hold them for the whole loop): as an app's loop over a fetched array reads, with no more work of
    /// the harness's own than the floor's loop over its rows (callgrind, query fetch-all at 10,000: the loop's retains
    /// and releases of each object and reader were 80 instructions a row).
    @inline(__always)
    private static func read(_ objects: [ManagedObject], upTo end: Int, with readers: [KeyPathReader], into sum: inout Checksum) throws {
        try objects.withUnsafeBufferPointer { objects in
            guard end > 0, let base = objects.baseAddress else { return }
            try readers.withUnsafeBufferPointer { readers in
                try UnsafeRawPointer(base).withMemoryRebound(to: Unmanaged<ManagedObject>.self, capacity: end) { objects in
                    if readers.count == 1 {
                        let reader = Unmanaged.passUnretained(readers[0])
                        for index in 0..<end {
                            try objects[index]._withUnsafeGuaranteedRef { object in
                                try reader._withUnsafeGuaranteedRef { try $0.readInline(object, into: &sum) }
                            }
                        }
                        return
                    }
                    for index in 0..<end {
                        try objects[index]._withUnsafeGuaranteedRef { object in
                            for reader in readers { try reader.read(object, into: &sum) }
                        }
                    }
                }
            }
        }
    }

    private func insert(_ entity: EntityDescription, _ new: PreparedStep.NewObject, in context: ObjectContext) throws -> ManagedObject {
        let object = try context.insert(entity)
        for (attribute, value) in new.values { try object.setValue(value, for: attribute) }
        return object
    }
}

extension CounterReadings {
    /// The readings of an ObjectGraph store's counters, with the objects one of its contexts holds.
    init(_ counters: Counters, objectsRegistered: Int) {
        self.init()
        statements = counters.statements
        fetchRequests = counters.fetchRequests
        objectFaults = counters.objectFaults
        relationshipFaults = counters.relationshipFaults
        rowsRead = counters.rowsRead
        cacheHits = counters.cacheHits
        cacheMisses = counters.cacheMisses
        self.objectsRegistered = objectsRegistered
    }
}
