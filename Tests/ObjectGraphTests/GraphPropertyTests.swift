import PropertyBased
import Testing

@testable import ObjectGraph

/// Random sequences of graph edits (many-to-one, many-to-many and one-to-one, from either side, with saves
/// and fresh contexts in between) leave the store holding exactly the graph a plain Swift model predicts.
@Suite struct GraphPropertyTests {
    /// The graph as plain values: per student, its class, subjects and address (indexes).
    private struct Expected: Equatable {
        var classOf: [Int?] = []
        var subjects: [Set<Int>] = []
        var address: [Int?] = []

        mutating func give(address index: Int?, to student: Int) {
            if let index { for other in address.indices where address[other] == index { address[other] = nil } }
            address[student] = index
        }
    }

    /// The live side: objects of the current context, found again by name after a context change.
    private final class Live {
        let store: PersistentStore
        var context: ObjectContext
        var students: [ManagedObject] = []
        var classes: [ManagedObject] = []
        var subjects: [ManagedObject] = []
        var addresses: [ManagedObject] = []

        init(store: PersistentStore) throws {
            self.store = store
            context = store.makeContext()
            for index in 0..<4 {
                classes.append(try make("Class", "C\(index)"))
                subjects.append(try make("Subject", "J\(index)"))
                addresses.append(try make("Address", "A\(index)"))
            }
        }

        func make(_ entity: String, _ name: String) throws -> ManagedObject {
            let object = try context.insert(entity)
            try object.setValue(.string(name), for: "name")
            return object
        }

        /// Saves, then continues in a new context where every object starts as a fault.
        func switchContext() throws {
            try context.save()
            context = store.makeContext()
            func load(_ entity: String) throws -> [ManagedObject] {
                var request = FetchRequest(entity, sortDescriptors: [FetchSort("name")])
                request.includesPropertyValues = false
                return try context.fetch(request).array
            }
            students = try load("Student").sorted { Int(try! $0.string("name")!.dropFirst())! < Int(try! $1.string("name")!.dropFirst())! }
            classes = try load("Class")
            subjects = try load("Subject")
            addresses = try load("Address")
        }
    }

    private static let operation = zip(Gen.int(in: 0...9), Gen.int(in: 0...40), Gen.int(in: 0...40))

    @Test func randomEditsSurviveSaveAndRefetch() async throws {
        await propertyCheck(count: 60, input: Self.operation.array(of: 1...60)) { operations in
            do { try Self.run(operations) } catch { Issue.record("\(error)") }
        }
    }

    private static func run(_ operations: [(Int, Int, Int)]) throws {
        let temporary = try TemporaryStore(seedModel())
        let live = try Live(store: temporary.store)
        var expected = Expected()
        for (kind, a, b) in operations {
            if kind == 0 || live.students.isEmpty {
                live.students.append(try live.make("Student", "S\(live.students.count)"))
                expected.classOf.append(nil)
                expected.subjects.append(Set<Int>())
                expected.address.append(nil)
                continue
            }
            let index = a % live.students.count
            let student = live.students[index]
            switch kind {
            case 1:
                let target = b % 5 == 4 ? nil : b % 4
                try student.setObject(target.map { live.classes[$0] }, for: "class")
                expected.classOf[index] = target
            case 2:
                try student.add(live.subjects[b % 4], to: "subjects")
                expected.subjects[index].insert(b % 4)
            case 3:
                try student.remove(live.subjects[b % 4], from: "subjects")
                expected.subjects[index].remove(b % 4)
            case 4:
                let target = b % 5 == 4 ? nil : b % 4
                try student.setObject(target.map { live.addresses[$0] }, for: "address")
                expected.give(address: target, to: index)
            case 5:
                try live.context.save()
            case 6:
                try live.switchContext()
            case 7:
                try live.classes[b % 4].add(student, to: "students")
                expected.classOf[index] = b % 4
            case 8:
                if let current = expected.classOf[index] {
                    try live.classes[current].remove(student, from: "students")
                    expected.classOf[index] = nil
                }
            default:
                try live.subjects[b % 4].remove(student, from: "students")
                expected.subjects[index].remove(b % 4)
            }
        }
        try live.context.save()
        try temporary.reopen()
        let stored = try read(temporary.store, count: expected.classOf.count)
        #expect(stored == expected)
    }

    /// Reads the graph back from a new context, checking each inverse side against the forward side.
    private static func read(_ store: PersistentStore, count: Int) throws -> Expected {
        let context = store.makeContext()
        func index(_ object: ManagedObject?) throws -> Int? { try object.map { Int(try $0.string("name")!.dropFirst())! } }
        var result = Expected(
            classOf: Array(repeating: nil, count: count), subjects: Array(repeating: [], count: count),
            address: Array(repeating: nil, count: count))
        for student in try context.fetch(FetchRequest("Student")) {
            let i = try index(student)!
            result.classOf[i] = try index(student.object("class"))
            result.subjects[i] = Set(try student.objects("subjects").map { try index($0)! })
            result.address[i] = try index(student.object("address"))
        }
        for schoolClass in try context.fetch(FetchRequest("Class")) {
            let members = Set(try schoolClass.objects("students").map { try index($0)! })
            #expect(members == Set(result.classOf.indices.filter { result.classOf[$0] == (try? index(schoolClass)) }))
            #expect(try schoolClass.int("studentCount") == Int64(members.count))
        }
        for subject in try context.fetch(FetchRequest("Subject")) {
            let members = Set(try subject.objects("students").map { try index($0)! })
            #expect(members == Set(result.subjects.indices.filter { result.subjects[$0].contains(try! index(subject)!) }))
        }
        for address in try context.fetch(FetchRequest("Address")) {
            let owner = try index(address.object("student"))
            #expect(owner == result.address.firstIndex(of: try index(address)))
        }
        return result
    }
}
