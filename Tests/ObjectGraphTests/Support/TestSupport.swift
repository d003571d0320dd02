import Foundation
@testable import ObjectGraph

/// The seed's model (seed 000): Student with a class (many-to-one), subjects (many-to-many, or many-to-nil
/// when `subjectsInverse` is false) and an address (one-to-one, or one-to-nil).
func seedModel(subjectsInverse: Bool = true, addressInverse: Bool = true) throws -> ObjectModel {
    try ObjectModel([
        Entity(
            "Student",
            [
                .attribute("name", .string, optional: false),
                .toOne("class", "Class", inverse: "students"),
                .toMany("subjects", "Subject", inverse: subjectsInverse ? "students" : nil),
                .toOne("address", "Address", inverse: addressInverse ? "student" : nil, deleteRule: .cascade),
            ]),
        Entity(
            "Class",
            [
                .attribute("name", .string),
                .toMany("students", "Student", inverse: "class"),
                .derived("studentCount", "students.@count"),
            ]),
        Entity(
            "Subject",
            subjectsInverse
                ? [.attribute("name", .string), .toMany("students", "Student", inverse: "subjects")]
                : [.attribute("name", .string)]),
        Entity(
            "Address",
            addressInverse
                ? [.attribute("name", .string), .toOne("student", "Student", inverse: "address")]
                : [.attribute("name", .string)]),
    ])
}

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
