import Foundation

/// The logical data the hand-written peers store and read: students in classes, with subjects and an address each,
/// taken from the graph a School scenario's data section generates (outside any timed region).
package struct SchoolData: Sendable {
    package let studentNames: [String]
    package let classNames: [String]
    package let classIDs: [UUID]
    /// The class of each student (index into `classNames`).
    package let classOfStudent: [Int]
    package let addressNames: [String]
    package let subjectNames: [String]
    /// The subjects of each student (indexes into `subjectNames`), without repeats.
    package let subjectsOfStudent: [[Int]]

    package var studentCount: Int { studentNames.count }

    init(
        studentNames: [String], classNames: [String], classIDs: [UUID], classOfStudent: [Int], addressNames: [String],
        subjectNames: [String], subjectsOfStudent: [[Int]]
    ) {
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
        self.init(
            studentNames: strings("Student", "name"), classNames: strings("Class", "name"),
            classIDs: objects("Class")?.columns.first { $0.attribute.name == "id" }?.values.map { value in
                if case let .uuid(id) = value { return id } else { return UUID() }
            } ?? [],
            classOfStudent: objects("Class") == nil ? [] : classOfStudent,
            addressNames: addresses.isEmpty ? [] : addressOfStudent.map { addresses[$0] },
            subjectNames: strings("Subject", "name"), subjectsOfStudent: subjectsOfStudent)
    }

    /// The students of each class, in student order.
    package var studentsOfClass: [[Int]] {
        var members = Array(repeating: [Int](), count: classNames.count)
        for (student, schoolClass) in classOfStudent.enumerated() { members[schoolClass].append(student) }
        return members
    }

}
