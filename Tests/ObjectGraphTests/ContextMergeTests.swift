import Foundation
import Testing

@testable import ObjectGraph

/// Contexts that know about each other: a save's notification, merging it (by hand or automatically), conflicts
/// resolved by each merge policy, uniqueness constraints, and contexts bound to their thread or queue.
@Suite struct ContextMergeTests {
    private func school() throws -> TemporaryStore {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 2)
        return temporary
    }

    @Test func aSaveIsMergedIntoAnotherContextWithoutSQL() throws {
        let temporary = try school()
        let main = temporary.store.makeContext()
        main.automaticallyMergesChangesFromParent = true
        let schoolClass = try #require(try main.fetch(FetchRequest("Class")).first)
        let students = try schoolClass.objects("students")
        let renamed = students[0]
        let removed = students[1]
        #expect(try renamed.string("name") == "Student1")
        let subject = try #require(try removed.objects("subjects").first)
        let address = try #require(try removed.object("address"))

        let background = temporary.store.makeContext()
        var notifications: [SaveNotification] = []
        background.addSaveObserver { notifications.append($0) }
        let backgroundClass = try background.existingObject(with: schoolClass.objectID)
        let added = try background.insert("Student")
        try added.setValue("Student3", for: "name")
        try added.setObject(backgroundClass, for: "class")
        try background.existingObject(with: renamed.objectID).setValue("Renamed", for: "name")
        try background.delete(try background.existingObject(with: removed.objectID))
        main.resetCounters()
        try background.save()

        let notification = try #require(notifications.first)
        #expect(notification.insertedObjectIDs == [added.objectID])
        // The class and the deleted student's subject lost or gained members (their Z_OPT moves, as Core Data's
        // do); the student's address went with it (cascade).
        #expect(Set(notification.updatedObjectIDs) == [renamed.objectID, schoolClass.objectID, subject.objectID])
        #expect(Set(notification.deletedObjectIDs) == [removed.objectID, address.objectID])
        // Merged at once: the renamed student shows the new name from the shared row cache, the deleted one is
        // gone from the context and from the class's students, whose relationship is re-read when touched.
        #expect(try renamed.string("name") == "Renamed")
        #expect(removed.context == nil)
        #expect(main.counters.statements == 0, "\(main.counters)")
        let names = try schoolClass.objects("students").map { try $0.string("name") }
        #expect(names == ["Renamed", "Student3"], "\(names) \(main.counters)")
        #expect(main.counters[.toManyFault] == 1 && main.counters.statements == 1)
        #expect(try schoolClass.int("studentCount") == 2)
    }

    /// A save merged into a context of another store on the same file: each store caches only the rows it read or
    /// wrote (as each Core Data coordinator has its own row cache), so the other store reads the row again. (Its
    /// cache taking over the saving store's row would leave the saving store's cache pointing at that row after
    /// its release.)
    @Test func aSaveMergedAcrossStoresLeavesTheRowInItsOwnCache() throws {
        let temporary = try school()
        let saver = temporary.store.makeContext()
        var notification: SaveNotification?
        saver.addSaveObserver { notification = $0 }
        let student = try #require(try saver.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).first)
        try student.setValue("Renamed", for: "name")
        try saver.save()
        let other = try PersistentStore(model: temporary.model, location: .file(temporary.path))
        let reader = other.makeContext()
        try reader.mergeChanges(from: try #require(notification))
        let table = student.entity.rootNumber
        let key = student.objectID.primaryKey
        let saved = try #require(temporary.store.rowCache.snapshot(table: table, primaryKey: key))
        #expect(saved.cache === temporary.store.rowCache)
        #expect(other.rowCache.snapshot(table: table, primaryKey: key) == nil)
        #expect(try reader.existingObject(with: student.objectID).string("name") == "Renamed")
        #expect(reader.counters.statements == 1, "\(reader.counters)")
    }

    @Test func unsavedChangesSurviveAMerge() throws {
        let temporary = try school()
        let main = temporary.store.makeContext()
        let student = try #require(try main.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).first)
        let other = temporary.store.makeContext()
        var notification: SaveNotification?
        other.addSaveObserver { notification = $0 }
        let theirs = try other.existingObject(with: student.objectID)
        try theirs.setObject(nil, for: "address")
        try other.save()
        try student.setValue("Mine", for: "name")
        try main.mergeChanges(from: try #require(notification))
        #expect(try student.string("name") == "Mine")
        #expect(try student.object("address") == nil)
        try main.save()
        try temporary.reopen()
        let reread = temporary.store.makeContext()
        let saved = try #require(try reread.fetch(FetchRequest("Student", predicate: Key("name") == "Mine")).first)
        #expect(try saved.object("address") == nil)
    }

    /// Two contexts change one student's name and class; the second save meets the first's row.
    private func conflict(_ policy: MergePolicy) throws -> (outcome: String, name: String?, className: String?) {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 1)
        let first = temporary.store.makeContext()
        let second = temporary.store.makeContext()
        second.mergePolicy = policy
        let request = FetchRequest("Student", sortDescriptors: [FetchSort("name")])
        let a = try #require(try first.fetch(request).first)
        let b = try #require(try second.fetch(request).first)
        _ = try b.string("name")
        try a.setValue("First", for: "name")
        try a.address()
        try first.save()
        let otherClass = try #require(try second.fetch(FetchRequest("Class", predicate: Key("name") == "Class2")).first)
        try b.setObject(otherClass, for: "class")
        try b.setValue("Second", for: "name")
        var outcome = "saved"
        do { try second.save() } catch { outcome = "\(error)" }
        try temporary.reopen()
        let check = temporary.store.makeContext()
        let stored = try #require(try check.fetch(request).first)
        return (outcome, try stored.string("name"), try stored.object("class")?.string("name"))
    }

    @Test func eachMergePolicyResolvesAConflict() throws {
        let error = try conflict(.error)
        #expect(error.outcome.hasPrefix("Could not merge changes (NSManagedObjectMergeError, 133020): Student <x-coredata://"))
        #expect(error.name == "First" && error.className == "Class1")
        // Both changed the name: the store's value wins; the class only the second context changed.
        let storeTrump = try conflict(.mergeByPropertyStoreTrump)
        #expect(storeTrump.outcome == "saved" && storeTrump.name == "First" && storeTrump.className == "Class2")
        let objectTrump = try conflict(.mergeByPropertyObjectTrump)
        #expect(objectTrump.outcome == "saved" && objectTrump.name == "Second" && objectTrump.className == "Class2")
        let overwrite = try conflict(.overwrite)
        #expect(overwrite.outcome == "saved" && overwrite.name == "Second" && overwrite.className == "Class2")
        let rollback = try conflict(.rollback)
        #expect(rollback.outcome == "saved" && rollback.name == "First" && rollback.className == "Class1")
    }

    @Test func uniquenessConstraintsPerMergePolicy() throws {
        let model = try ObjectModel([
            Entity("Tag", [.attribute("name", .string), .attribute("color", .string)], uniquenessConstraints: [["name"]])
        ])
        func save(_ policy: MergePolicy) throws -> (String, [String]) {
            let temporary = try TemporaryStore(model)
            let setup = temporary.store.makeContext()
            let existing = try setup.insert("Tag")
            try existing.setValue("swift", for: "name")
            try existing.setValue("orange", for: "color")
            try setup.save()
            let context = temporary.store.makeContext()
            context.mergePolicy = policy
            let duplicate = try context.insert("Tag")
            try duplicate.setValue("swift", for: "name")
            try duplicate.setValue("blue", for: "color")
            var outcome = "saved"
            do { try context.save() } catch { outcome = "\(error)" }
            let check = temporary.store.makeContext()
            let rows = try check.fetch(FetchRequest("Tag")).map {
                "\(try $0.string("name")!) \(try $0.string("color")!) p\($0.objectID.primaryKey)"
            }
            return (outcome, rows)
        }
        let error = try save(.error)
        #expect(
            error.0.hasPrefix(
                "a uniqueness constraint was violated (NSManagedObjectConstraintMergeError, 133021): Tag [name] = (\"swift\"): <x-coredata:///Tag/t1> and the stored object <x-coredata://"
            ))
        #expect(error.1 == ["swift orange p1"])
        // Object trump: the stored row keeps its key and takes the new values; the duplicate goes.
        #expect(try save(.mergeByPropertyObjectTrump) == ("saved", ["swift blue p1"]))
        #expect(try save(.mergeByPropertyStoreTrump) == ("saved", ["swift orange p1"]))
        // Overwrite: the stored row goes, the new object is inserted.
        #expect(try save(.overwrite) == ("saved", ["swift blue p2"]))
    }

    @Test func usingAContextFromAnotherThreadIsReported() throws {
        let temporary = try school()
        let context = temporary.store.makeContext()
        context.concurrencyChecking = .throwError
        let student = try #require(try context.fetch(FetchRequest("Student")).first)
        final class Box: @unchecked Sendable {
            var outcome = ""
            let object: ManagedObject
            init(_ object: ManagedObject) { self.object = object }
        }
        let box = Box(student)
        let done = DispatchSemaphore(value: 0)
        let worker = Thread {
            do {
                _ = try box.object.string("name")
                box.outcome = "read"
            } catch { box.outcome = "\(error)" }
            done.signal()
        }
        worker.start()
        done.wait()
        let outcome = box.outcome
        #expect(
            outcome.hasPrefix(
                "context (confined to the thread that made it) was used from another thread: run the work in context.perform { } or performAndWait { }"
            ))
        #expect(try student.string("name") != nil)
    }

    @Test func queueContextsRunTheirWorkInPerform() throws {
        let temporary = try school()
        let background = temporary.store.makeContext(concurrencyType: .privateQueue)
        background.concurrencyChecking = .throwError
        #expect(throws: ObjectGraphError.self) { _ = try background.fetch(FetchRequest("Student")) }
        let ids: [ObjectID] = try background.performAndWait {
            try background.fetch(FetchRequest("Student")).map(\.objectID)
        }
        #expect(ids.count == 2)
        // Object IDs move between contexts; objects do not.
        let main = temporary.store.makeContext()
        #expect(try ids.map { try main.existingObject(with: $0).string("name") ?? "" }.sorted() == ["Student1", "Student2"])
        let saved = DispatchSemaphore(value: 0)
        background.perform {
            let student = try? background.insert("Student")
            try? student?.setValue("Student3", for: "name")
            try? background.save()
            saved.signal()
        }
        saved.wait()
        #expect(try main.count(for: FetchRequest("Student")) == 3)
    }
}

private extension ManagedObject {
    /// Reads the student's address, so that the object is fired.
    func address() throws { _ = try object("address") }
}
