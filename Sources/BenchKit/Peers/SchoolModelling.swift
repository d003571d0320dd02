import ObjectGraph

/// How the school's three relationships are modelled in a variant of the School model, read off the compiled model:
/// what the hand-written peers need to store and read the same tables ObjectGraph does.
struct SchoolModelling: Equatable, Sendable {
    enum Membership: Sendable { case manyToOne, manyToMany, manyToNil, manualFK }
    enum Subjects: Sendable { case manyToMany, manyToNil }
    enum Address: Sendable { case oneToOne, oneToNil }

    var membership = Membership.manyToOne
    var subjects = Subjects.manyToMany
    var address = Address.oneToOne

    /// The modelling of `model`, a variant of Scenarios/models/School.xcdatamodeld; nil when it is not the school
    /// (Student, Class, Subject and Address with Class.students, Student.subjects and Student.address).
    init?(model: ObjectModel, manualKeys: [ManualKey]) {
        guard let student = model.entity("Student"), let schoolClass = model.entity("Class"), model.entity("Subject") != nil,
            model.entity("Address") != nil, let subjects = student.relationship("subjects"), let address = student.relationship("address")
        else { return nil }
        if let students = schoolClass.relationship("students") {
            switch students.inverse {
            case nil: membership = .manyToNil
            case let inverse? where inverse.isToMany: membership = .manyToMany
            default: membership = .manyToOne
            }
        } else if manualKeys.contains(where: { $0.owner == "Class" && $0.relationship == "students" && $0.memberKey == "classID" }) {
            membership = .manualFK
        } else {
            return nil
        }
        self.subjects = subjects.inverse == nil ? .manyToNil : .manyToMany
        self.address = address.inverse == nil ? .oneToNil : .oneToOne
    }
}
