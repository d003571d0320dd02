import Foundation
import ObjectGraph
import Testing

/// README.md's "ObjectGraph as a library" example, kept compiling and correct.
@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleRunsAsDescribed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let model = try ObjectModel([
            Entity(
                "Student",
                [
                    .attribute("name", .string, optional: false),
                    .toOne("class", "Class", inverse: "students"),
                ]),
            Entity(
                "Class",
                [
                    .attribute("name", .string),
                    .toMany("students", "Student", inverse: "class"),
                    .derived("studentCount", "students.@count"),
                ]),
        ])
        #expect(model.warnings.isEmpty)
        let store = try PersistentStore(model: model, location: .file(folder.appendingPathComponent("school.sqlite").path))
        var trace: [String] = []
        store.sqlTrace = SQLTrace(level: 2) { trace.append($0) }
        let context = store.makeContext()
        let maths = try context.insert("Class")
        try maths.setValue("Maths", for: "name")
        let ada = try context.insert("Student")
        try ada.setValue("Ada", for: "name")
        try ada.setObject(maths, for: "class")
        #expect(try maths.objects("students").map { try $0.string("name") } == ["Ada"])
        try context.save()

        var request = FetchRequest(
            "Student", predicate: try FetchPredicate(format: "class.name == %@", "Maths"),
            sortDescriptors: [FetchSort("name")])
        request.fetchBatchSize = 20
        request.relationshipKeyPathsForPrefetching = ["class"]
        store.resetCounters()
        trace = []
        let students = try store.makeContext().fetch(request)
        #expect(students.count == 1)
        #expect(try students[0].string("name") == "Ada")
        #expect(try students[0].object("class")?.int("studentCount") == 1)
        #expect(trace.filter { $0.hasPrefix("CoreData: sql: ") }.count == 3, "\(trace.joined(separator: "\n"))")
        #expect(store.counters.statements == 3 && store.counters.fetchRequests == 1 && store.counters.objectFaults == 1)
    }
}
