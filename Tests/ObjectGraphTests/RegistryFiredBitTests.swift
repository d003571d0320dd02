import Testing
@testable import ObjectGraph

/// The fired bit of each registry entry (`RegistryEntry`), which a fetch reads instead of the object: it must say
/// `!isFault` of the registered object through every change of `isFault` (fire, refault, refresh, rollback,
/// reset, delete, a failed save's undo, insert and save), and a prefetch that trusts it must give the same members,
/// not overwriting a fired object's values.
@Suite struct RegistryFiredBitTests {
    /// The entry's bit for `object`, or nil when `object` is not the registered object of its row.
    private func firedBit(_ object: ManagedObject, in context: ObjectContext) -> Bool? {
        guard let entry = context.registry[object.entity.rootNumber, object.primaryKey],
            entry.object.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
        else { return nil }
        return entry.isFired
    }

    /// Entries whose bit differs from their object's `isFault`, and how many entries there are.
    private func entries(of context: ObjectContext) -> (count: Int, outOfStep: Int) {
        var count = 0
        var outOfStep = 0
        for table in context.registry.all {
            table.forEach { entry in
                count += 1
                if entry.isFired == entry.object.takeUnretainedValue().isFault { outOfStep += 1 }
            }
        }
        return (count, outOfStep)
    }

    @Test func firingAndFetchingSetTheBit() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 3)
        let context = temporary.store.makeContext()
        let students = try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).array
        #expect(students.map { firedBit($0, in: context) } == Array(repeating: false, count: 6))
        _ = try students[1].string("name")
        #expect(students.map { firedBit($0, in: context) } == [false, true, false, false, false, false])
        // A fetch of fired rows leaves fired objects as they are and fires the faults, bit included.
        var request = FetchRequest("Student")
        request.returnsObjectsAsFaults = false
        let again = try context.fetch(request).array
        #expect(Set(again.map(ObjectIdentifier.init)) == Set(students.map(ObjectIdentifier.init)))
        #expect(students.allSatisfy { !$0.isFault && firedBit($0, in: context) == true })
        // A to-many fault registers new members as faults: their bits are clear.
        let members = try students[0].objects("subjects")
        #expect(!members.isEmpty)
        #expect(members.allSatisfy { $0.isFault && firedBit($0, in: context) == false })
        #expect(entries(of: context).outOfStep == 0)
    }

    @Test func refaultingRefreshingAndRollbackClearTheBit() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 4)
        let context = temporary.store.makeContext()
        var request = FetchRequest("Student", sortDescriptors: [FetchSort("name")])
        request.returnsObjectsAsFaults = false
        let students = try context.fetch(request).array
        #expect(students.allSatisfy { firedBit($0, in: context) == true })
        context.refresh(students[0])
        #expect(students[0].isFault && firedBit(students[0], in: context) == false)
        _ = try students[0].string("name")
        #expect(firedBit(students[0], in: context) == true)
        context.refresh(students[1], mergeChanges: true)
        #expect(firedBit(students[1], in: context) == !students[1].isFault)
        // A changed object refreshed with its changes merged stays fired.
        try students[2].setValue("Changed", for: "name")
        context.refresh(students[2], mergeChanges: true)
        #expect(firedBit(students[2], in: context) == !students[2].isFault)
        #expect(try students[2].string("name") == "Changed")
        // A rollback turns changed and deleted objects back into faults.
        try students[3].setValue("Changed too", for: "name")
        try context.delete(students[0])
        context.rollback()
        #expect(students[3].isFault && firedBit(students[3], in: context) == false)
        #expect(students[0].isFault && firedBit(students[0], in: context) == false)
        #expect(try students[3].string("name") == "Student4")
        #expect(firedBit(students[3], in: context) == true)
        #expect(entries(of: context).outOfStep == 0)
    }

    @Test func resetDeleteAndInsertKeepTheRegistryInStep() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 3)
        let context = temporary.store.makeContext()
        var request = FetchRequest("Student", sortDescriptors: [FetchSort("name")])
        request.returnsObjectsAsFaults = false
        let before = try context.fetch(request).array
        context.reset()
        #expect(entries(of: context).count == 0)
        #expect(before.allSatisfy { firedBit($0, in: context) == nil && $0.isFault })
        let students = try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).array
        #expect(students.allSatisfy { firedBit($0, in: context) == false })
        // A deleted and saved object leaves the registry; an inserted one enters it fired when saved.
        _ = try students[0].string("name")
        try context.delete(students[0])
        let added = try context.insert("Student")
        try added.setValue("New", for: "name")
        try context.save()
        #expect(firedBit(students[0], in: context) == nil)
        #expect(!added.isFault && firedBit(added, in: context) == true)
        #expect(entries(of: context).outOfStep == 0)
        // A detached object changing state no longer touches the registry.
        before[0].isFault = false
        before[0].isFault = true
        #expect(entries(of: context).outOfStep == 0)
    }

    /// A save that fails after the rollback merge policy turned a conflicting object into a fault gives the object
    /// back fired, and its entry's bit with it.
    @Test func aFailedSavesUndoPutsTheBitBack() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 1)
        let context = temporary.store.makeContext()
        context.mergePolicy = .rollback
        let student = try #require(try context.fetch(FetchRequest("Student")).first)
        #expect(try student.string("name") == "Student1")
        #expect(firedBit(student, in: context) == true)
        let schoolClass = try #require(try student.object("class"))
        let other = temporary.store.makeContext()
        let elsewhere = try other.existingObject(with: student.objectID)
        try elsewhere.setValue("Elsewhere", for: "name")
        try other.save()
        try context.delete(schoolClass)
        _ = try context.insert("Student")
        #expect(throws: ObjectGraphError.self) { try context.save() }
        #expect(!student.isFault && firedBit(student, in: context) == true)
        #expect(entries(of: context).outOfStep == 0)
    }

    /// Prefetching over members fired (one with an unsaved change), faults and members not yet registered: the
    /// same members in the same order, the fired ones untouched, the others fired.
    @Test func aPrefetchTrustsTheBitAndKeepsFiredValues() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 3, studentsPerClass: 5)
        let context = temporary.store.makeContext()
        let student = try #require(context.model.entity("Student"))
        let fired = try [1, 6, 11, 12].map { key in
            let object = context.object(student, primaryKey: Int64(key))
            try object.fire()
            return object
        }
        try fired[1].setValue("Unsaved", for: "name")
        let faults = [2, 7, 15].map { context.object(student, primaryKey: Int64($0)) }
        context.resetCounters()
        var request = FetchRequest("Class", sortDescriptors: [FetchSort("name")])
        request.returnsObjectsAsFaults = false
        request.relationshipKeyPathsForPrefetching = ["students"]
        let classes = try context.fetch(request).array
        #expect(context.counters.selects == 2)
        #expect(context.counters.objectsMaterialized == 3 + 15 - 7, "the classes and the students not registered before")
        for (index, schoolClass) in classes.enumerated() {
            let members = try schoolClass.objects("students")
            #expect(members.map(\.primaryKey) == Array(Int64(index * 5 + 1)...Int64(index * 5 + 5)))
            for member in members { #expect(context.registeredObject(for: member.objectID) === member) }
        }
        #expect(context.counters.selects == 2 && context.counters.relationshipFaults == 0)
        #expect(try fired[1].string("name") == "Unsaved")
        #expect(try fired[0].string("name") == "Student1")
        #expect(faults.allSatisfy { !$0.isFault && firedBit($0, in: context) == true })
        #expect(context.counters.objectFaults == 0)
        #expect(entries(of: context).count == 3 + 15)
        #expect(entries(of: context).outOfStep == 0)
    }
}
