import Testing

@testable import ObjectGraph

/// Saving: the statements of a save, IDs, Z_OPT, all-or-nothing failures, rollback and reset.
@Suite struct SaveTests {
    /// Core Data's two transactions (several independent SQLDebug logs): keys reserved and committed, then the rows;
    /// the first save of a new store checks auto-vacuum; every save ends with `pragma page_count`/`freelist_count`.
    @Test func aSaveIsTwoTransactionsWithReservedKeys() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        temporary.recordSQL()
        let schoolClass = try context.insert("Class")
        try schoolClass.setValue("A", for: "name")
        for index in 0..<2 {
            let student = try context.insert("Student")
            try student.setValue(.string("S\(index)"), for: "name")
            try student.setObject(schoolClass, for: "class")
        }
        #expect(schoolClass.objectID.isTemporary)
        #expect(schoolClass.objectID.uriRepresentation == "x-coredata:///Class/t1")
        try context.save()
        #expect(
            temporary.sql == [
                "BEGIN EXCLUSIVE",
                "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
                "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
                "pragma auto_vacuum",
                "pragma auto_vacuum=2",
                "COMMIT",
                "BEGIN EXCLUSIVE",
                "INSERT INTO ZCLASS(Z_PK, Z_ENT, Z_OPT, ZID, ZNAME, ZSTUDENTCOUNT) VALUES(?, ?, ?, ?, ?, ?)",
                "INSERT INTO ZSTUDENT(Z_PK, Z_ENT, Z_OPT, ZADDRESS, ZCLASS, ZNAME) VALUES(?, ?, ?, ?, ?, ?)",
                "INSERT INTO ZSTUDENT(Z_PK, Z_ENT, Z_OPT, ZADDRESS, ZCLASS, ZNAME) VALUES(?, ?, ?, ?, ?, ?)",
                "COMMIT",
                "pragma page_count",
                "pragma freelist_count",
            ])
        #expect(context.counters[.insert] == 3 && context.counters[.other] == 12)
        #expect(!schoolClass.objectID.isTemporary)
        #expect(schoolClass.objectID.uriRepresentation == "x-coredata://\(temporary.store.identifier)/Class/p1")
        #expect(!context.hasChanges)
        // The derived count came back from the trigger into the saved object.
        #expect(try schoolClass.int("studentCount") == 2)
        #expect(try temporary.store.connection.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Student'") == 2)
    }

    @Test func eachSaveOfARowIncrementsZOPT() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        let student = try context.insert("Student")
        try student.setValue("A", for: "name")
        try context.save()
        let connection = temporary.store.connection
        #expect(try connection.scalarInt("SELECT Z_OPT FROM ZSTUDENT") == 1)
        temporary.recordSQL()
        try student.setValue("B", for: "name")
        try context.save()
        // A save that inserts nothing has no key-reserving transaction (inferred: that transaction exists for new keys).
        #expect(
            temporary.sql == [
                "BEGIN EXCLUSIVE", "UPDATE OR FAIL ZSTUDENT SET ZNAME = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?", "COMMIT",
                "pragma page_count", "pragma freelist_count",
            ])
        #expect(try connection.scalarInt("SELECT Z_OPT FROM ZSTUDENT") == 2)
        // Setting the same value changes nothing: no UPDATE.
        try student.setValue("B", for: "name")
        try context.save()
        #expect(try connection.scalarInt("SELECT Z_OPT FROM ZSTUDENT") == 2)
    }

    @Test func aFailedSaveLeavesStoreAndContextAsTheyWere() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 2)
        // An SQLite failure in the middle of the transaction.
        try temporary.refuse("INSERT", on: "ZSTUDENT")
        let context = temporary.store.makeContext()
        let schoolClass = try #require(try context.fetch(FetchRequest("Class")).first)
        let existing = try schoolClass.objects("students")
        try existing[0].setValue("Renamed", for: "name")
        let good = try context.insert("Student")
        try good.setValue("fine", for: "name")
        try good.setObject(schoolClass, for: "class")
        let bad = try context.insert("Student")
        try bad.setValue("boom", for: "name")
        try bad.setObject(schoolClass, for: "class")
        try context.delete(existing[1])
        #expect {
            try context.save()
        } throws: { error in
            guard case let ObjectGraphError.sqlite(code, message, sql) = error else { return false }
            return code & 0xFF == 19 && message == "refused by test" && sql?.hasPrefix("INSERT INTO ZSTUDENT") == true
        }
        let connection = temporary.store.connection
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM ZSTUDENT") == 2)
        // The keys the first transaction reserved stay used: a failed save leaves a gap in Z_PK, as in Core Data.
        #expect(try connection.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Student'") == 4)
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM ZSTUDENT WHERE ZNAME = 'Renamed'") == 0)
        #expect(good.objectID.isTemporary && bad.objectID.isTemporary)
        #expect(context.insertedObjects.count == 2 && context.deletedObjects.count == 1)
        #expect(try existing[0].string("name") == "Renamed")
        #expect(try schoolClass.objects("students").count == 4)
        #expect(existing[1].isDeleted)
        // Fix the cause and the same context saves.
        try bad.setValue("ok", for: "name")
        try context.save()
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM ZSTUDENT") == 3)
        #expect(try schoolClass.int("studentCount") == 3)
    }

    @Test func requiredValuesAreValidated() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        let student = try context.insert("Student")
        #expect {
            try context.save()
        } throws: { error in
            guard case let ObjectGraphError.validation(object, property, _) = error else { return false }
            return object == "Student <x-coredata:///Student/t1>" && property == "name"
        }
        #expect(context.insertedObjects == [student])
    }

    @Test func anotherContextsSaveIsAMergeConflict() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 1)
        let first = temporary.store.makeContext()
        let second = temporary.store.makeContext()
        let a = try #require(try first.fetch(FetchRequest("Student")).first)
        let b = try #require(try second.fetch(FetchRequest("Student")).first)
        try a.setValue("first", for: "name")
        try b.setValue("second", for: "name")
        try first.save()
        #expect(
            throws: ObjectGraphError.mergeConflict(["Student \(b.objectID) changed in the store (version 1 → 2) since this context read it"]
            )
        ) {
            try second.save()
        }
    }

    /// A save that fails after the rollback merge policy turned a conflicting object into a fault gives the object
    /// back as it was: fired, showing the values it showed (the undo log keeps its snapshot too).
    @Test func aFailedSaveGivesBackAnObjectTheRollbackPolicyFaulted() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 1)
        let context = temporary.store.makeContext()
        context.mergePolicy = .rollback
        let student = try #require(try context.fetch(FetchRequest("Student")).first)
        #expect(try student.string("name") == "Student1")
        let schoolClass = try #require(try student.object("class"))
        // Another context renames the student: its row's version moves on.
        let other = temporary.store.makeContext()
        let elsewhere = try other.existingObject(with: student.objectID)
        try elsewhere.setValue("Elsewhere", for: "name")
        try other.save()
        // Deleting the class nullifies the student's class; a student without a name then fails validation.
        try context.delete(schoolClass)
        _ = try context.insert("Student")
        #expect(throws: ObjectGraphError.self) { try context.save() }
        #expect(!student.isFault && !student.isUpdated)
        #expect(try student.string("name") == "Student1")
        #expect(try student.object("class") === schoolClass)
        #expect(try elsewhere.string("name") == "Elsewhere")
    }

    @Test func rollbackAndReset() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 2)
        let context = temporary.store.makeContext()
        let student = try #require(try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).first)
        try student.setValue("Changed", for: "name")
        let added = try context.insert("Student")
        try added.setValue("New", for: "name")
        try added.setObject(try student.object("class"), for: "class")
        #expect(context.hasChanges)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try student.string("name") == "Student1")
        #expect(try student.object("class")!.objects("students").count == 2)
        #expect(added.context == nil)
        context.reset()
        #expect(context.registeredObjectCount == 0)
        #expect(throws: ObjectGraphError.self) { _ = try student.string("name") }
        #expect(try context.count(for: FetchRequest("Student")) == 2)
    }

    @Test func derivedCountIsReadWithoutAQuery() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 3)
        let context = temporary.store.makeContext()
        var request = FetchRequest("Class", sortDescriptors: [FetchSort("name")])
        request.returnsObjectsAsFaults = false
        let classes = try context.fetch(request).array
        #expect(try classes.map { try $0.int("studentCount") } == [3, 3])
        #expect(context.counters.statements == 1)
        let moved = try classes[0].objects("students")[0]
        try moved.setObject(classes[1], for: "class")
        try context.save()
        #expect(try classes.map { try $0.int("studentCount") } == [2, 4])
        try context.delete(classes[1].objects("students")[0])
        try context.save()
        #expect(try classes[1].int("studentCount") == 3)
    }

    @Test func pendingChangesShowInFetches() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 3)
        let context = temporary.store.makeContext()
        let all = try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).array
        try context.delete(all[0])
        try all[1].setValue("Zed", for: "name")
        let added = try context.insert("Student")
        try added.setValue("Amy", for: "name")
        let names = try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).map { try $0.string("name")! }
        #expect(names == ["Amy", "Student3", "Zed"])
        #expect(try context.count(for: FetchRequest("Student", predicate: Key("name").beginsWith("S"))) == 1)
        var storeOnly = FetchRequest("Student")
        storeOnly.includesPendingChanges = false
        #expect(try context.fetch(storeOnly).count == 3)
    }

    /// Temporary IDs count per entity hierarchy and are never reused in a context, across saves and rollbacks;
    /// the primary keys a save gives follow insertion order within each hierarchy.
    @Test func temporaryNumbersArePerHierarchyAndNeverReused() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        let schoolClass = try context.insert("Class")
        try schoolClass.setValue("A", for: "name")
        var students: [ManagedObject] = []
        for index in 0..<3 {
            let student = try context.insert("Student")
            try student.setValue(.string("S\(index)"), for: "name")
            try student.setObject(schoolClass, for: "class")
            students.append(student)
        }
        #expect(
            students.map(\.objectID.uriRepresentation) == [
                "x-coredata:///Student/t1", "x-coredata:///Student/t2", "x-coredata:///Student/t3",
            ])
        try context.delete(students[1])
        try context.save()
        #expect(students[0].objectID.primaryKey == 1 && students[2].objectID.primaryKey == 3)
        let dropped = try context.insert("Student")
        #expect(dropped.objectID.uriRepresentation == "x-coredata:///Student/t4")
        context.rollback()
        let later = try context.insert("Student")
        try later.setValue("S4", for: "name")
        try later.setObject(schoolClass, for: "class")
        #expect(later.objectID.uriRepresentation == "x-coredata:///Student/t5")
        try context.save()
        #expect(later.objectID.primaryKey == 4)
    }

    /// A many-to-nil member inserted with its owner: a failed save leaves no owner key in the member's values, so
    /// that after it leaves the set the next save stores it with no owner.
    @Test func aFailedSaveLeavesNoHiddenOwnerBehind() throws {
        let temporary = try TemporaryStore(seedModel(subjectsInverse: false))
        try temporary.refuse("INSERT", on: "ZSTUDENT")
        let context = temporary.store.makeContext()
        let subject = try context.insert("Subject")
        try subject.setValue("Maths", for: "name")
        let student = try context.insert("Student")
        try student.setValue("boom", for: "name")
        try student.add(subject, to: "subjects")
        #expect(throws: ObjectGraphError.self) { try context.save() }
        try student.remove(subject, from: "subjects")
        try student.setValue("fine", for: "name")
        try context.save()
        let connection = temporary.store.connection
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM ZSUBJECT WHERE Z3SUBJECTS IS NULL") == 1)
        #expect(try student.objects("subjects").isEmpty)
    }

    /// The same for a saved member with unsaved changes: the owner key a failed save put in its changed values is
    /// taken back, so that after it leaves the set the next save stores it with no owner.
    @Test func aFailedSaveLeavesNoHiddenOwnerInAChangedMember() throws {
        let temporary = try TemporaryStore(seedModel(subjectsInverse: false))
        let setup = temporary.store.makeContext()
        let maths = try setup.insert("Subject")
        try maths.setValue("Maths", for: "name")
        try setup.save()
        try temporary.refuse("UPDATE", on: "ZSUBJECT")
        let context = temporary.store.makeContext()
        let subject = try #require(try context.fetch(FetchRequest("Subject")).first)
        try subject.setValue("boom", for: "name")
        let student = try context.insert("Student")
        try student.setValue("S", for: "name")
        try student.add(subject, to: "subjects")
        #expect(throws: ObjectGraphError.self) { try context.save() }
        try student.remove(subject, from: "subjects")
        try subject.setValue("fine", for: "name")
        try context.save()
        let connection = temporary.store.connection
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM ZSUBJECT WHERE Z3SUBJECTS IS NULL AND ZNAME = 'fine'") == 1)
    }
}
