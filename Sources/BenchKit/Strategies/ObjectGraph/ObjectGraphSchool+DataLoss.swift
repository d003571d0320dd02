import ObjectGraph

/// The data-loss operations: memberships written through Student.subjects, then read back from a new context.
extension ObjectGraphSchool {
    public func insertMemberships(studentCount: Int, subjectCount: Int, memberships: [[Int]]) throws {
        var subjects: [ManagedObject] = []
        subjects.reserveCapacity(subjectCount)
        for index in 0..<subjectCount {
            let object = try context.insert(subject)
            try object.setValue(.string("Subject\(index + 1)"), for: subjectName)
            subjects.append(object)
        }
        var students: [ManagedObject] = []
        students.reserveCapacity(studentCount)
        for index in 0..<studentCount {
            let object = try context.insert(student)
            try object.setValue(.string("Student\(index + 1)"), for: studentName)
            try object.setObjects(memberships[index].map { subjects[$0] }, for: studentSubjects)
            students.append(object)
        }
        try context.save()
        kept.append(subjects)
        kept.append(students)
    }

    public func countSubjectLinks() throws -> Int {
        let fresh = store.makeContext()
        var request = FetchRequest("Student")
        request.returnsObjectsAsFaults = false
        request.relationshipKeyPathsForPrefetching = ["subjects"]
        let students = try fresh.fetch(request).array
        var links = 0
        for object in students { links += try object.objects(studentSubjects).count }
        kept.append(students)
        kept.append(fresh)
        return links
    }
}
