import Testing
@testable import ObjectGraph

/// The paged key tables behind the registry and the row cache, and the to-many fault that reads its members' keys
/// before registering them: the same objects, in the same order, whatever the cache hints ask for.
@Suite struct RegistryTests {
    @Test func slotsFilledAcrossPagesReadBackAndCount() {
        let table = PKTable<Int>()
        let keys: [Int64] = [1, 2, 1023, 1024, 1025, 5000, 70_000]
        table.prefetch(9_999_999) // no page yet: a hint that does nothing
        for key in keys {
            let slot = table.slot(key)
            #expect(slot.pointee == nil)
            table.fill(slot, with: Int(key) * 10)
            table.prefetch(key)
        }
        #expect(table.count == keys.count)
        for key in keys { #expect(table[key] == Int(key) * 10) }
        #expect(table[3] == nil && table[70_001] == nil && table[0] == nil && table[-5] == nil)
        #expect(table.slot(5000).pointee == 50_000, "a slot asked for again is the one filled")
        table[1024] = nil
        #expect(table.count == keys.count - 1 && table[1024] == nil)
    }

    @Test func aToManyFaultRegistersTheFetchedObjectsInRowOrder() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 3, studentsPerClass: 20)
        let context = temporary.store.makeContext()
        var request = FetchRequest("Student")
        request.returnsObjectsAsFaults = false
        let students = try context.fetch(request).array
        let classes = try context.fetch(FetchRequest("Class", sortDescriptors: [FetchSort("name")])).array
        context.resetCounters()
        for (index, schoolClass) in classes.enumerated() {
            let members = try schoolClass.objects("students")
            // Every member is the object the fetch registered (uniquing), in key order, and iterating (with its
            // cache hints) meets the same objects as subscripting.
            let expected = students[(index * 20)..<(index * 20 + 20)]
            #expect(members.count == 20)
            #expect(zip(members, expected).allSatisfy { $0 === $1 })
            #expect(Array(members).map(ObjectIdentifier.init) == members.indices.map { ObjectIdentifier(members[$0]) })
            #expect(try members.map { try $0.string("name") } == expected.map { try $0.string("name") })
        }
        #expect(context.counters.relationshipFaults == 3)
        #expect(context.counters.statements == 3)
        #expect(context.counters.objectFaults == 0)
        #expect(context.registeredObjectCount == students.count + classes.count)
    }

    @Test func aToManyFaultOverRegisteredAndNewMembersKeepsEachInItsPlace() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 12)
        let context = temporary.store.makeContext()
        let schoolClass = try #require(try context.fetch(FetchRequest("Class")).first)
        // Every third student registered (and fired) before the fault; the rest are not.
        let student = try #require(context.model.entity("Student"))
        let early = try stride(from: 1, through: 12, by: 3).map { key in
            let object = context.object(student, primaryKey: Int64(key))
            try object.fire()
            return object
        }
        context.resetCounters()
        let members = try schoolClass.objects("students")
        #expect(members.map(\.primaryKey) == Array(1...12))
        for (index, member) in members.enumerated() {
            if index % 3 == 0 {
                #expect(member === early[index / 3] && !member.isFault, "member \(index + 1) is the object registered before")
            } else {
                #expect(member.isFault && context.registeredObject(for: member.objectID) === member)
            }
        }
        #expect(context.counters.objectsMaterialized == 8, "only the members not registered are new objects")
        #expect(try members.map { try $0.string("name") } == (1...12).map { "Student\($0)" })
        #expect(context.registeredObjectCount == 13)
    }

    @Test func membersNotYetRegisteredBecomeFaultsOfTheirOwn() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 12)
        let context = temporary.store.makeContext()
        let schoolClass = try #require(try context.fetch(FetchRequest("Class")).first)
        let members = try schoolClass.objects("students")
        #expect(members.count == 12 && members.allSatisfy { $0.isFault })
        #expect(try members.map { try $0.string("name") } == (1...12).map { "Student\($0)" })
        #expect(context.counters.objectFaults == 12)
        #expect(context.counters.cacheMisses == 12)
        // A second fault of the same owner's relationship in another context meets the registered objects there.
        let other = temporary.store.makeContext()
        let again = try other.object(with: schoolClass.objectID).objects("students")
        #expect(again.count == 12 && zip(again, members).allSatisfy { $0 !== $1 && $0.objectID == $1.objectID })
    }
}
