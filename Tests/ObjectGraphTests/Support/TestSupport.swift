import Foundation

@testable import ObjectGraph

/// The School model every built-in scenario runs on (Scenarios/models/School.xcdatamodeld, seed 000's school):
/// Student with a class (many-to-one), subjects (many-to-many, or many-to-nil when `subjectsInverse` is false) and
/// an address (one-to-one, or one-to-nil); the tests add Class.studentCount, a derived `students.@count`.
func seedModel(subjectsInverse: Bool = true, addressInverse: Bool = true) throws -> ObjectModel {
    let school = try XcodeModel.load(path: schoolModelPath)
    var entities = school.entities
    for index in entities.indices {
        let entity = entities[index].name
        entities[index].properties = entities[index].properties.compactMap { property in
            switch (entity, property.name) {
            case ("Student", "subjects") where !subjectsInverse, ("Student", "address") where !addressInverse:
                return property.settingInverse(nil)
            case ("Subject", "students") where !subjectsInverse, ("Address", "student") where !addressInverse:
                return nil
            default:
                return property
            }
        }
        if entity == "Class" { entities[index].properties.append(.derived("studentCount", "students.@count")) }
    }
    return try ObjectModel(entities)
}

/// Scenarios/models/School.xcdatamodeld, from this file's place in the repository.
let schoolModelPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Scenarios/models/School.xcdatamodeld").path

/// A store on a new file in a temporary folder, deleted when the value is released.
final class TemporaryStore {
    let directory: URL
    let path: String
    private(set) var store: PersistentStore
    let model: ObjectModel
    private let traceBox = TraceBox()

    init(_ model: ObjectModel, options: StoreOptions = StoreOptions()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("store.sqlite").path
        self.model = model
        store = try PersistentStore(model: model, location: .file(path), options: options)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Closes the store and opens it again (a fresh row cache), as a new process would.
    func reopen(with model: ObjectModel? = nil) throws {
        store = try PersistentStore(model: model ?? self.model, location: .file(path))
        traceBox.lines = []
    }

    /// Records every `CoreData: sql:` line from now on.
    /// Makes SQLite refuse `operation` ("INSERT", "UPDATE") on `table` for rows named 'boom' ("refused by test"):
    /// a failure in the middle of a save's transaction.
    func refuse(_ operation: String, on table: String) throws {
        try store.connection.execute(
            "CREATE TEMP TRIGGER refuse BEFORE \(operation) ON \(table) WHEN NEW.ZNAME = 'boom' BEGIN SELECT RAISE(ABORT, 'refused by test'); END"
        )
    }

    func recordSQL() {
        let box = traceBox
        box.lines = []
        store.sqlTrace = SQLTrace(level: 1) { line in
            if line.hasPrefix("CoreData: sql: ") { box.lines.append(String(line.dropFirst("CoreData: sql: ".count))) }
        }
    }

    var sql: [String] { traceBox.lines }
}

final class TraceBox { var lines: [String] = [] }

/// Inserts the seed's school: `classes` classes of `studentsPerClass` students, each with an address and
/// the subjects at `subjectIndexes(studentIndex)`, saves, and returns the store reopened with a cold cache.
func makeSchool(
    _ temporary: TemporaryStore, classes: Int, studentsPerClass: Int, subjects: Int = 3,
    subjectIndexes: (Int) -> [Int] = { [$0 % 3] }
) throws {
    let context = temporary.store.makeContext()
    let subjectObjects = try (0..<subjects).map { index -> ManagedObject in
        let subject = try context.insert("Subject")
        try subject.setValue(.string("Subject\(index + 1)"), for: "name")
        return subject
    }
    var studentIndex = 0
    for classIndex in 0..<classes {
        let schoolClass = try context.insert("Class")
        try schoolClass.setValue(.string("Class\(classIndex + 1)"), for: "name")
        for _ in 0..<studentsPerClass {
            let student = try context.insert("Student")
            try student.setValue(.string("Student\(studentIndex + 1)"), for: "name")
            try student.setObject(schoolClass, for: "class")
            let address = try context.insert("Address")
            try address.setValue(.string("Address\(studentIndex + 1)"), for: "name")
            try student.setObject(address, for: "address")
            for index in subjectIndexes(studentIndex) where index < subjects {
                try student.add(subjectObjects[index], to: "subjects")
            }
            studentIndex += 1
        }
    }
    try context.save()
    try temporary.reopen()
}
