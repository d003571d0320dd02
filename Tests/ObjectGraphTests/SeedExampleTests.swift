import Testing

@testable import ObjectGraph

/// The fetch counts and the data loss of seed 000, asserted exactly.
@Suite struct SeedExampleTests {
    @Test func toOneAccessCostsTwoFetches() throws {
        // Seed 000 §II.A: fetch a student, read student.address.name: two fetches.
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 3)
        let context = temporary.store.makeContext()
        temporary.recordSQL()
        var request = FetchRequest("Student")
        request.returnsObjectsAsFaults = false
        let student = try #require(try context.fetch(request).first)
        let name = try student.object("address")?.string("name")
        #expect(name == "Address1")
        #expect(context.counters.selects == 2)
        #expect(context.counters[.fetch] == 1)
        #expect(context.counters[.objectFault] == 1)
        #expect(
            temporary.sql == [
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZADDRESS, t0.ZCLASS FROM ZSTUDENT t0",
                "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZSTUDENT FROM ZADDRESS t0 WHERE t0.Z_PK = ? LIMIT 1",
            ])
    }

    @Test func toManyFirstCostsThreeFetches() throws {
        // Seed 000 §II.B: fetch a student, read student.subjects.first.name: three fetches.
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 3, subjectIndexes: { [$0 % 3, ($0 + 1) % 3] })
        let context = temporary.store.makeContext()
        temporary.recordSQL()
        var request = FetchRequest("Student")
        request.returnsObjectsAsFaults = false
        let student = try #require(try context.fetch(request).first)
        let first = try #require(try student.objects("subjects").first)
        #expect(try first.string("name") == "Subject1")
        #expect(context.counters.selects == 3)
        #expect(context.counters.relationshipFaults == 1)
        #expect(context.counters.objectFaults == 1)
        #expect(
            temporary.sql[1]
                == "SELECT 0, t0.Z_PK FROM Z_3SUBJECTS t1 JOIN ZSUBJECT t0 ON t0.Z_PK = t1.Z_4SUBJECTS WHERE t1.Z_3STUDENTS = ?")
    }

    @Test func dataLossOfManyToNil() throws {
        // Seed 000 §II.B: subject1 in student1.subjects and student2.subjects; after save and a refetch in a
        // new context, student1 has lost it.
        let model = try seedModel(subjectsInverse: false)
        #expect(
            model.warnings.contains(
                "Student.subjects does not have an inverse; this is an advanced setting (no object can be in multiple destinations for a specific relationship)"
            ))
        let temporary = try TemporaryStore(model)
        try saveSeedSection2B(in: temporary.store.makeContext())

        let fresh = temporary.store.makeContext()
        var request = FetchRequest("Student", sortDescriptors: [FetchSort("name")])
        request.returnsObjectsAsFaults = false
        let students = try fresh.fetch(request).array
        #expect(try students[0].string("name") == "Student1")
        #expect(try students[0].objects("subjects").isEmpty)
        #expect(try students[1].objects("subjects").map { try $0.string("name") } == ["Subject1", "Subject2"])
    }

    @Test func manyToManyKeepsEveryMembership() throws {
        let temporary = try TemporaryStore(seedModel(subjectsInverse: true))
        try saveSeedSection2B(in: temporary.store.makeContext())

        let fresh = temporary.store.makeContext()
        let students = try fresh.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).array
        #expect(try students[0].objects("subjects").map { try $0.string("name") } == ["Subject1"])
        #expect(try students[1].objects("subjects").map { try $0.string("name") } == ["Subject1", "Subject2"])
    }

    /// Seed 000 §II.B's graph: Student1 takes Subject1; Student2 takes Subject1 and Subject2.
    private func saveSeedSection2B(in context: ObjectContext) throws {
        let subject1 = try context.insert("Subject")
        try subject1.setValue("Subject1", for: "name")
        let subject2 = try context.insert("Subject")
        try subject2.setValue("Subject2", for: "name")
        let student1 = try context.insert("Student")
        try student1.setValue("Student1", for: "name")
        try student1.setObjects([subject1], for: "subjects")
        let student2 = try context.insert("Student")
        try student2.setValue("Student2", for: "name")
        try student2.setObjects([subject1, subject2], for: "subjects")
        try context.save()
    }
}
