import Testing

@testable import ObjectGraph

/// Object and to-many faults, the row cache and uniquing, with counts asserted exactly.
@Suite struct FaultingTests {
    /// Seed 000 §III.C: finding a student by name in a class of `n` students.
    @Test(arguments: [1, 10, 50])
    func findMemberOption1WalksTheRelationship(n: Int) throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: n)
        let context = temporary.store.makeContext()
        var request = FetchRequest("Class", predicate: Key("name") == "Class2")
        request.returnsObjectsAsFaults = false
        let schoolClass = try #require(try context.fetch(request).first)
        context.resetCounters()
        // The last student of the class: every member is touched.
        let target = "Student\(2 * n)"
        let found = try schoolClass.objects("students").first { try $0.string("name") == target }
        #expect(found != nil)
        #expect(context.counters.relationshipFaults == 1)
        #expect(context.counters[.toManyFault] == 1)
        #expect(context.counters.objectFaults == n)
        #expect(context.counters[.objectFault] == n)
        #expect(context.counters.selects == 1 + n)
    }

    /// A set's members lent one by one are its iterator's, in its order, each firing as it is read: the same
    /// statements and faults as the loop over the iterator; an error from the body ends the loop.
    @Test func membersLentAreTheIteratorsInOrder() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 20)
        let context = temporary.store.makeContext()
        var request = FetchRequest("Class", predicate: Key("name") == "Class2")
        request.returnsObjectsAsFaults = false
        let schoolClass = try #require(try context.fetch(request).first)
        context.resetCounters()
        let students = try schoolClass.objects("students")
        var lent: [String?] = []
        try students.forEachUnretained { lent.append(try $0.string("name")) }
        #expect(lent == (try students.map { try $0.string("name") }))
        #expect(lent.count == 20)
        #expect(context.counters.relationshipFaults == 1)
        #expect(context.counters.objectFaults == 20)
        #expect(context.counters.selects == 1 + 20)
        var visited = 0
        #expect(throws: ObjectGraphError.self) {
            try students.forEachUnretained { _ in
                visited += 1
                if visited == 3 { throw ObjectGraphError.invalidOperation("stop") }
            }
        }
        #expect(visited == 3)
        var none = 0
        try (try context.insert("Class")).objects("students").forEachUnretained { _ in none += 1 }
        #expect(none == 0)
    }

    @Test func findMemberOption2IsOneStatement() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 50)
        let context = temporary.store.makeContext()
        var classRequest = FetchRequest("Class", predicate: Key("name") == "Class2")
        classRequest.returnsObjectsAsFaults = false
        let schoolClass = try #require(try context.fetch(classRequest).first)
        context.resetCounters()
        temporary.recordSQL()
        var request = FetchRequest("Student", predicate: Key("class") == schoolClass && Key("name") == "Student100")
        request.returnsObjectsAsFaults = false
        request.fetchLimit = 1
        let found = try #require(try context.fetch(request).first)
        #expect(try found.string("name") == "Student100")
        #expect(context.counters.statements == 1)
        #expect(context.counters.objectFaults == 0)
        #expect(
            temporary.sql == [
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZADDRESS, t0.ZCLASS FROM ZSTUDENT t0 WHERE ((t0.ZCLASS IS NOT NULL AND t0.ZCLASS = ?) AND t0.ZNAME = ?) LIMIT 1"
            ])
    }

    @Test func faultsFromAFetchAreFulfilledFromTheRowCache() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 5)
        let context = temporary.store.makeContext()
        let students = try context.fetch(FetchRequest("Student")).array // returnsObjectsAsFaults: true
        #expect(students.allSatisfy { $0.isFault })
        for student in students { _ = try student.string("name") }
        #expect(context.counters.statements == 1)
        #expect(context.counters.objectFaults == 5)
        #expect(context.counters.cacheHits == 5)
        #expect(context.counters.cacheMisses == 0)

        // A second context shares the store's row cache while the first holds the rows.
        let second = temporary.store.makeContext()
        let ids = try second.fetchObjectIDs(FetchRequest("Student"))
        second.resetCounters()
        for id in ids { _ = try second.object(with: id).string("name") }
        #expect(second.counters.statements == 0)
        #expect(second.counters.cacheHits == 5)
    }

    @Test func withoutPropertyValuesEachFaultRunsSQL() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 4)
        let context = temporary.store.makeContext()
        temporary.recordSQL()
        var request = FetchRequest("Student")
        request.includesPropertyValues = false
        let students = try context.fetch(request).array
        for student in students { _ = try student.string("name") }
        #expect(temporary.sql.first == "SELECT 0, t0.Z_PK FROM ZSTUDENT t0")
        #expect(context.counters[.fetch] == 1)
        #expect(context.counters[.objectFault] == 4)
        #expect(context.counters.cacheMisses == 4)
        #expect(context.counters.rowsRead == 8)
    }

    @Test func uniquingGivesOneObjectPerRow() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 3)
        let context = temporary.store.makeContext()
        let first = try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).array
        let second = try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).array
        #expect(zip(first, second).allSatisfy { $0 === $1 })
        let schoolClass = try #require(try first[0].object("class"))
        let members = try schoolClass.objects("students")
        #expect(Set(members.map(ObjectIdentifier.init)) == Set(first.map(ObjectIdentifier.init)))
        #expect(try context.object(with: first[1].objectID) === first[1])
        #expect(context.counters.objectsMaterialized == 4)
    }

    @Test func releasedObjectsLeaveTheContextAndTheRowCache() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 10)
        let context = temporary.store.makeContext()
        do {
            let students = try context.fetch(FetchRequest("Student")).array
            #expect(students.count == 10)
            #expect(context.registeredObjectCount == 10)
            #expect(temporary.store.cachedRowCount == 10)
        }
        #expect(context.registeredObjectCount == 0)
        #expect(temporary.store.cachedRowCount == 0)
    }

    @Test func aDeletedRowCannotBeFulfilled() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 2)
        let reader = temporary.store.makeContext()
        var request = FetchRequest("Student")
        request.includesPropertyValues = false
        let student = try #require(try reader.fetch(request).first)
        let writer = temporary.store.makeContext()
        try writer.delete(writer.existingObject(with: student.objectID))
        try writer.save()
        #expect(throws: ObjectGraphError.self) { try student.string("name") }
    }
}

/// relationshipKeyPathsForPrefetching: N+1 statements become 2, or 3 for a nested key path.
@Suite struct PrefetchTests {
    private func fetch(_ temporary: TemporaryStore, _ entity: String, prefetch: [String]) throws -> (ObjectContext, [ManagedObject]) {
        let context = temporary.store.makeContext()
        var request = FetchRequest(entity, sortDescriptors: [FetchSort("name")])
        request.returnsObjectsAsFaults = false
        request.relationshipKeyPathsForPrefetching = prefetch
        return (context, try context.fetch(request).array)
    }

    @Test(arguments: [false, true])
    func toOne(prefetch: Bool) throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 5)
        temporary.recordSQL()
        let (context, students) = try fetch(temporary, "Student", prefetch: prefetch ? ["address"] : [])
        for student in students { _ = try student.object("address")?.string("name") }
        #expect(context.counters.selects == (prefetch ? 2 : 11))
        if prefetch {
            #expect(
                temporary.sql[1]
                    == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZSTUDENT FROM ZADDRESS t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0)")
            #expect(context.counters[.prefetch] == 1)
        }
    }

    @Test(arguments: [false, true])
    func toMany(prefetch: Bool) throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 4, studentsPerClass: 5)
        temporary.recordSQL()
        let (context, classes) = try fetch(temporary, "Class", prefetch: prefetch ? ["students"] : [])
        var names: [String] = []
        for schoolClass in classes {
            for student in try schoolClass.objects("students") { names.append(try student.string("name") ?? "") }
        }
        #expect(names.count == 20)
        // Without prefetching: 1 fetch + 4 to-many faults + 20 object faults.
        #expect(context.counters.selects == (prefetch ? 2 : 25))
        #expect(context.counters.relationshipFaults == (prefetch ? 0 : 4))
        if prefetch {
            #expect(
                temporary.sql[1]
                    == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZADDRESS, t0.ZCLASS FROM ZSTUDENT t0 WHERE t0.ZCLASS IN (SELECT * FROM _Z_intarray0) ORDER BY t0.ZCLASS"
            )
        }
    }

    @Test(arguments: [false, true])
    func manyToMany(prefetch: Bool) throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 6, subjectIndexes: { [$0 % 3, ($0 + 1) % 3] })
        temporary.recordSQL()
        let (context, students) = try fetch(temporary, "Student", prefetch: prefetch ? ["subjects"] : [])
        var memberships = 0
        for student in students { memberships += try student.objects("subjects").count }
        #expect(memberships == 12)
        #expect(context.counters.selects == (prefetch ? 2 : 7))
        if prefetch {
            #expect(
                temporary.sql[1]
                    == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t1.Z_3STUDENTS FROM ZSUBJECT t0 JOIN Z_3SUBJECTS t1 ON t0.Z_PK = t1.Z_4SUBJECTS WHERE t1.Z_3STUDENTS IN (SELECT * FROM _Z_intarray0) ORDER BY t1.Z_3STUDENTS"
            )
        }
    }

    @Test func manyToNil() throws {
        let temporary = try TemporaryStore(seedModel(subjectsInverse: false))
        try makeSchool(temporary, classes: 1, studentsPerClass: 3, subjects: 6, subjectIndexes: { [2 * $0, 2 * $0 + 1] })
        temporary.recordSQL()
        let (context, students) = try fetch(temporary, "Student", prefetch: ["subjects"])
        let names = try students.map { try $0.objects("subjects").map { try $0.string("name") ?? "" } }
        #expect(names == [["Subject1", "Subject2"], ["Subject3", "Subject4"], ["Subject5", "Subject6"]])
        #expect(context.counters.selects == 2)
        #expect(
            temporary.sql[1]
                == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.Z3SUBJECTS FROM ZSUBJECT t0 WHERE t0.Z3SUBJECTS IN (SELECT * FROM _Z_intarray0) ORDER BY t0.Z3SUBJECTS"
        )
    }

    @Test(arguments: [false, true])
    func nestedKeyPath(prefetch: Bool) throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 3, studentsPerClass: 4)
        let (context, classes) = try fetch(temporary, "Class", prefetch: prefetch ? ["students.address"] : [])
        var addresses = 0
        for schoolClass in classes {
            for student in try schoolClass.objects("students") where try student.object("address")?.string("name") != nil {
                addresses += 1
            }
        }
        #expect(addresses == 12)
        // Without: 1 + 3 to-many faults + 12 student faults + 12 address faults.
        #expect(context.counters.selects == (prefetch ? 3 : 28))
    }

    @Test func unknownKeyPathIsAnError() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 1)
        #expect(throws: ObjectGraphError.invalidOperation("prefetch key path 'students.teacher': Student has no relationship 'teacher'")) {
            _ = try fetch(temporary, "Class", prefetch: ["students.teacher"])
        }
    }
}

/// fetchBatchSize: the IDs first, then each batch when first touched.
@Suite struct BatchFetchTests {
    @Test func batchesOfTwentyOverAThousandRows() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 10, studentsPerClass: 100)
        let context = temporary.store.makeContext()
        temporary.recordSQL()
        var request = FetchRequest("Student", sortDescriptors: [FetchSort("name")])
        request.fetchBatchSize = 20
        request.returnsObjectsAsFaults = false
        let students = try context.fetch(request)
        #expect(students.count == 1000)
        for index in 0..<20 { _ = try students[index].string("name") }
        #expect(context.counters.statements == 2)
        #expect(
            temporary.sql == [
                "SELECT 0, t0.Z_PK FROM ZSTUDENT t0 ORDER BY t0.ZNAME",
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZADDRESS, t0.ZCLASS FROM ZSTUDENT t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray0) LIMIT 20",
            ])
        var names: [String] = []
        for student in students { names.append(try student.string("name") ?? "") }
        #expect(context.counters.statements == 51)
        #expect(context.counters[.batch] == 50)
        #expect(context.counters.objectFaults == 0)
        #expect(names == names.sorted())
        #expect(context.counters.fetchRequests == 1)
    }

    @Test func onlyTheCurrentBatchStaysRegistered() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 100)
        let context = temporary.store.makeContext()
        var request = FetchRequest("Student")
        request.fetchBatchSize = 50
        let students = try context.fetch(request)
        for student in students { _ = try student.string("name") }
        #expect(context.registeredObjectCount == 50)
        #expect(temporary.store.cachedRowCount == 50)
    }

    @Test func batchesWithPrefetching() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 50)
        let context = temporary.store.makeContext()
        var request = FetchRequest("Student")
        request.fetchBatchSize = 25
        request.relationshipKeyPathsForPrefetching = ["class"]
        for student in try context.fetch(request) { _ = try student.object("class")?.string("name") }
        // IDs, then per batch the batch and its prefetch; a batch whose class is still registered and fired
        // (held by the batch before) prefetches nothing: batches 1 and 3 start a new class.
        #expect(context.counters[.fetch] == 1)
        #expect(context.counters[.batch] == 4)
        #expect(context.counters[.prefetch] == 2)
        #expect(context.counters[.objectFault] == 0)
    }
}
