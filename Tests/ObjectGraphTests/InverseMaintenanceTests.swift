import Testing

@testable import ObjectGraph

/// Setting one side of a relationship with an inverse changes the other side at once; relationships without
/// an inverse touch nothing on the destination.
@Suite struct InverseMaintenanceTests {
    private func names(_ set: RelationshipSet) throws -> [String] { try set.map { try $0.string("name") ?? "" } }

    private func named(_ context: ObjectContext, _ entity: String, _ name: String) throws -> ManagedObject {
        let object = try context.insert(entity)
        try object.setValue(.string(name), for: "name")
        return object
    }

    @Test func manyToOne() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        let a = try named(context, "Class", "A")
        let b = try named(context, "Class", "B")
        let s1 = try named(context, "Student", "S1")
        let s2 = try named(context, "Student", "S2")
        try s1.setObject(a, for: "class")
        try a.add(s2, to: "students")
        #expect(try names(a.objects("students")) == ["S1", "S2"])
        #expect(try s2.object("class") === a)
        try s1.setObject(b, for: "class")
        #expect(try names(a.objects("students")) == ["S2"])
        #expect(try names(b.objects("students")) == ["S1"])
        try b.remove(s1, from: "students")
        #expect(try s1.object("class") == nil)
        try context.save()

        // The same moves on saved objects whose to-many sides are still faults: no SQL until fired.
        try temporary.reopen()
        let fresh = temporary.store.makeContext()
        let classes = try fresh.fetch(FetchRequest("Class", sortDescriptors: [FetchSort("name")])).array
        let students = try fresh.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).array
        fresh.resetCounters()
        try students[1].setObject(classes[1], for: "class")
        #expect(fresh.counters.statements == 0)
        #expect(try classes[0].isRelationshipFault("students"))
        #expect(try names(classes[0].objects("students")) == [])
        #expect(try names(classes[1].objects("students")) == ["S2"])
        try fresh.save()
        try temporary.reopen()
        let check = temporary.store.makeContext()
        let saved = try check.fetch(FetchRequest("Class", sortDescriptors: [FetchSort("name")])).array
        #expect(try names(saved[0].objects("students")) == [])
        #expect(try names(saved[1].objects("students")) == ["S2"])
        #expect(try saved[1].int("studentCount") == 1)
    }

    @Test func manyToMany() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        let math = try named(context, "Subject", "Math")
        let art = try named(context, "Subject", "Art")
        let s1 = try named(context, "Student", "S1")
        let s2 = try named(context, "Student", "S2")
        try s1.add(math, to: "subjects")
        try art.add(s1, to: "students")
        try s2.add(math, to: "subjects")
        #expect(try names(math.objects("students")) == ["S1", "S2"])
        #expect(try names(s1.objects("subjects")) == ["Math", "Art"])
        try math.remove(s1, from: "students")
        #expect(try names(s1.objects("subjects")) == ["Art"])
        try context.save()
        try temporary.reopen()
        let fresh = temporary.store.makeContext()
        let subjects = try fresh.fetch(FetchRequest("Subject", sortDescriptors: [FetchSort("name")])).array
        #expect(try names(subjects[0].objects("students")) == ["S1"])
        #expect(try names(subjects[1].objects("students")) == ["S2"])
    }

    @Test func oneToOne() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        let s1 = try named(context, "Student", "S1")
        let s2 = try named(context, "Student", "S2")
        let home = try named(context, "Address", "Home")
        try s1.setObject(home, for: "address")
        #expect(try home.object("student") === s1)
        try s2.setObject(home, for: "address")
        #expect(try s1.object("address") == nil)
        #expect(try home.object("student") === s2)
        try home.setObject(nil, for: "student")
        #expect(try s2.object("address") == nil)
        try home.setObject(s1, for: "student")
        try context.save()
        // Both rows hold the key.
        let connection = temporary.store.connection
        #expect(try connection.scalarInt("SELECT ZADDRESS FROM ZSTUDENT WHERE ZNAME = 'S1'") == home.objectID.primaryKey)
        #expect(try connection.scalarInt("SELECT ZSTUDENT FROM ZADDRESS") == s1.objectID.primaryKey)
    }

    @Test func relationshipsWithoutInverseTouchNothingOnTheDestination() throws {
        let temporary = try TemporaryStore(seedModel(subjectsInverse: false, addressInverse: false))
        let context = temporary.store.makeContext()
        let math = try named(context, "Subject", "Math")
        let home = try named(context, "Address", "Home")
        let s1 = try named(context, "Student", "S1")
        try s1.add(math, to: "subjects")
        try s1.setObject(home, for: "address")
        #expect(!math.isUpdated && !home.isUpdated)
        #expect(math.entity.relationship("students") == nil)
        try context.save()
        #expect(try temporary.store.connection.scalarInt("SELECT Z3SUBJECTS FROM ZSUBJECT") == s1.objectID.primaryKey)
    }

    @Test func wrongArgumentsAreErrorsNotCrashes() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        let student = try named(context, "Student", "S")
        let subject = try named(context, "Subject", "X")
        #expect(throws: ObjectGraphError.invalidOperation("Student.class holds Class objects, not Subject")) {
            try student.setObject(subject, for: "class")
        }
        #expect(throws: ObjectGraphError.invalidOperation("entity Student has no property 'age' (it has: address, class, name, subjects)"))
        {
            _ = try student.value("age")
        }
        #expect(throws: ObjectGraphError.invalidOperation("cannot store integer 3 in Student.name, which holds String values")) {
            try student.setValue(3, for: "name")
        }
        #expect(throws: ObjectGraphError.invalidOperation("Student.subjects is to-many; use objects(_:), add(_:to:) or remove(_:from:)")) {
            _ = try student.object("subjects")
        }
        let other = temporary.store.makeContext()
        let foreign = try other.insert("Class")
        #expect(throws: ObjectGraphError.self) { try student.setObject(foreign, for: "class") }
        #expect(throws: ObjectGraphError.self) { _ = try context.insert("Teacher") }
    }

    /// An entity with more relationships than an object holds inline (three): every slot keeps its own
    /// destination through changes, a save and a fresh read, and a sub-entity uses its parent's slots.
    @Test func relationshipsPastTheInlineSlots() throws {
        let model = try ObjectModel([
            Entity(
                "Hub",
                [
                    .attribute("name", .string),
                    .toOne("first", "Leaf", inverse: nil), .toOne("second", "Leaf", inverse: nil),
                    .toOne("third", "Leaf", inverse: nil), .toOne("fourth", "Leaf", inverse: nil),
                    .toMany("leaves", "Leaf", inverse: "hub"),
                ]),
            Entity("BigHub", parent: "Hub", [.toOne("fifth", "Leaf", inverse: nil)]),
            Entity("Leaf", [.attribute("name", .string), .toOne("hub", "Hub", inverse: "leaves")]),
        ])
        let temporary = try TemporaryStore(model)
        let context = temporary.store.makeContext()
        let hub = try named(context, "BigHub", "H")
        // Made before any slot is set, so that both start from the entity's shared unresolved slots.
        let otherHub = try named(context, "BigHub", "O")
        let slots = ["first", "second", "third", "fourth", "fifth"]
        var leaves: [ManagedObject] = []
        for slot in slots {
            let leaf = try named(context, "Leaf", slot)
            try hub.setObject(leaf, for: slot)
            leaves.append(leaf)
        }
        try hub.add(leaves[3], to: "leaves")
        try hub.setObject(nil, for: "second")
        #expect(try slots.map { try hub.object($0)?.string("name") ?? "-" } == ["first", "-", "third", "fourth", "fifth"])
        #expect(try leaves[3].object("hub") === hub)
        #expect(try slots.map { try otherHub.object($0)?.string("name") ?? "-" } == ["-", "-", "-", "-", "-"])
        #expect(try otherHub.objects("leaves").isEmpty)
        try context.save()
        let fresh = temporary.store.makeContext()
        let reread = try #require(try fresh.fetch(FetchRequest("BigHub", predicate: Key("name") == "H")).first)
        #expect(try slots.map { try reread.object($0)?.string("name") ?? "-" } == ["first", "-", "third", "fourth", "fifth"])
        #expect(try names(reread.objects("leaves")) == ["fourth"])
    }

    /// An object is a 72-byte allocation (an 80-byte malloc chunk) whatever the number of its relationships:
    /// three relationship slots inline, or two and a buffer for the rest. (Memory at 1,000,000 objects follows
    /// this size; glibc's malloc_usable_size reports the chunk less its 8-byte header.)
    @Test func anObjectIsOneEightyByteChunk() throws {
        #if os(Linux)
        let model = try ObjectModel([
            Entity("Narrow", [.attribute("name", .string), .toOne("only", "Wide", inverse: nil)]),
            Entity("Wide", (1...5).map { .toOne("link\($0)", "Narrow", inverse: nil) }),
        ])
        let temporary = try TemporaryStore(model)
        let context = temporary.store.makeContext()
        let narrow = try context.insert("Narrow")
        let wide = try context.insert("Wide")
        try wide.setObject(narrow, for: "link5")
        for object in [narrow, wide] {
            #expect(malloc_usable_size(Unmanaged.passUnretained(object).toOpaque()) == 72)
        }
        #expect(ManagedObject.instanceBytes == 72)
        #expect(try wide.object("link5") === narrow)
        #endif
    }

    /// What prefetching asks for is what the instances take: a row is `RowSnapshot.instanceBytes(_:)` of its shape
    /// bytes (rounded up to malloc's 16-byte granule at most).
    @Test func aRowIsTheSizePrefetchingAsksFor() throws {
        #if os(Linux)
        let model = try ObjectModel([Entity("Narrow", [.attribute("name", .string), .attribute("age", .int64)])])
        let context = try TemporaryStore(model).store.makeContext()
        let object = try context.insert("Narrow")
        let row = try #require(object.localRow)
        let expected = RowSnapshot.instanceBytes(object.entity.rowShape)
        let usable = malloc_usable_size(Unmanaged.passUnretained(row).toOpaque())
        #expect(usable >= expected && usable < expected + 16)
        #endif
    }
}

#if os(Linux)
/// glibc's usable size of a malloc'd block (its chunk less the 8-byte header); Glibc's module map leaves out malloc.h.
@_silgen_name("malloc_usable_size")
private func malloc_usable_size(_ pointer: UnsafeMutableRawPointer) -> Int
#endif
