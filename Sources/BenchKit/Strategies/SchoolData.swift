import Foundation

/// The logical data the hand-written peers store and read: students in classes, with subjects and an address each,
/// taken from the graph a School scenario's data section generates (outside any timed region).
public struct SchoolData: Sendable {
    public let studentNames: [String]
    public let classNames: [String]
    public let classIDs: [UUID]
    /// The class of each student (index into `classNames`).
    public let classOfStudent: [Int]
    public let addressNames: [String]
    public let subjectNames: [String]
    /// The subjects of each student (indexes into `subjectNames`), without repeats.
    public let subjectsOfStudent: [[Int]]

    public var studentCount: Int { studentNames.count }


    init(studentNames: [String], classNames: [String], classIDs: [UUID], classOfStudent: [Int], addressNames: [String],
         subjectNames: [String], subjectsOfStudent: [[Int]]) {
        self.studentNames = studentNames
        self.classNames = classNames
        self.classIDs = classIDs
        self.classOfStudent = classOfStudent
        self.addressNames = addressNames
        self.subjectNames = subjectNames
        self.subjectsOfStudent = subjectsOfStudent
    }

    /// The school a data section made for a variant of the School model, for the hand-written peers: the same names,
    /// classes, addresses and subjects ObjectGraph stores (student i's address at `addressNames[i]`).
    init(graph: GraphData) {
        let model = graph.model
        func objects(_ name: String) -> GraphData.Objects? { model.entity(name).flatMap { graph.objects[$0.number] } }
        func strings(_ entity: String, _ attribute: String) -> [String] {
            objects(entity)?.columns.first { $0.attribute.name == attribute }?.values.map { $0.string ?? "" } ?? []
        }
        let students = objects("Student")?.count ?? 0
        var classOfStudent = [Int](repeating: 0, count: students)
        var addressOfStudent = [Int](repeating: 0, count: students)
        var subjectsOfStudent = [[Int]](repeating: [], count: students)
        for edges in graph.edges {
            for (source, targets) in edges.ordered {
                switch (edges.source.name, edges.relationship) {
                case ("Class", "students"):
                    for target in targets { classOfStudent[target.index] = source.index }
                case ("Student", "class"), ("Student", "classes"), ("Student", "students"):
                    if let target = targets.first { classOfStudent[source.index] = target.index }
                case ("Student", "address"):
                    if let target = targets.first { addressOfStudent[source.index] = target.index }
                case ("Student", "subjects"):
                    subjectsOfStudent[source.index] = targets.map(\.index)
                default:
                    break
                }
            }
        }
        let addresses = strings("Address", "name")
        self.init(studentNames: strings("Student", "name"), classNames: strings("Class", "name"),
                  classIDs: objects("Class")?.columns.first { $0.attribute.name == "id" }?.values.map { value in
                      if case let .uuid(id) = value { return id } else { return UUID() }
                  } ?? [],
                  classOfStudent: objects("Class") == nil ? [] : classOfStudent,
                  addressNames: addresses.isEmpty ? [] : addressOfStudent.map { addresses[$0] },
                  subjectNames: strings("Subject", "name"), subjectsOfStudent: subjectsOfStudent)
    }

    /// The students of each class, in student order.
    public var studentsOfClass: [[Int]] {
        var members = Array(repeating: [Int](), count: classNames.count)
        for (student, schoolClass) in classOfStudent.enumerated() { members[schoolClass].append(student) }
        return members
    }

}

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same data on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A value in 0..<1.
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

extension UUID {
    init<R: RandomNumberGenerator>(randomUsing random: inout R) {
        var bytes = (random.next(), random.next())
        self = withUnsafeBytes(of: &bytes) { raw in
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[0..<16])) }
            return UUID(uuid: uuid)
        }
    }
}
