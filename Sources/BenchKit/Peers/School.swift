import ObjectGraph

/// The School model (Scenarios/models/School.xcdatamodeld) as one variant compiled it: its entities, attributes and
/// relationships, resolved once from the model, and how its three relationships are modelled. What the hand-written
/// peers store and read, and what a phase's typed steps are matched against (`SchoolOperation`).
struct School: Sendable {
    let student: EntityDescription
    let schoolClass: EntityDescription
    let subject: EntityDescription
    let address: EntityDescription
    let studentName: AttributeDescription
    let className: AttributeDescription
    let classUUID: AttributeDescription
    let subjectName: AttributeDescription
    let addressName: AttributeDescription
    /// Class.students; nil where a variant keeps it by hand (`manual-fk`).
    let classStudents: RelationshipDescription?
    /// The key a `manual-fk` variant keeps instead, the class's UUID on the student (`classID`).
    let manualMembership: (key: ManualKey, memberKey: AttributeDescription)?
    /// Student.class, the to-one inverse of Class.students, where the variant keeps one.
    let studentClass: RelationshipDescription?
    let studentSubjects: RelationshipDescription
    let studentAddress: RelationshipDescription
    /// Address.student, where the one-to-one keeps its inverse.
    let addressStudent: RelationshipDescription?
    let modelling: SchoolModelling

    /// The school of `model`; nil when the model is not a variant of the School model (Student, Class, Subject and
    /// Address with their names, Class.students or its key kept by hand, Student.subjects and Student.address).
    init?(model: ObjectModel, manualKeys: [ManualKey]) {
        guard let student = model.entity("Student"), let schoolClass = model.entity("Class"), let subject = model.entity("Subject"),
            let address = model.entity("Address"), let studentName = student.attribute("name"),
            let className = schoolClass.attribute("name"),
            let classUUID = schoolClass.attribute("id"), let subjectName = subject.attribute("name"),
            let addressName = address.attribute("name"), let studentSubjects = student.relationship("subjects"),
            let studentAddress = student.relationship("address")
        else { return nil }
        self.student = student
        self.schoolClass = schoolClass
        self.subject = subject
        self.address = address
        self.studentName = studentName
        self.className = className
        self.classUUID = classUUID
        self.subjectName = subjectName
        self.addressName = addressName
        self.studentSubjects = studentSubjects
        self.studentAddress = studentAddress
        addressStudent = address.relationship("student")
        classStudents = schoolClass.relationship("students")
        studentClass = classStudents?.inverse
        var modelling = SchoolModelling()
        if let students = classStudents {
            manualMembership = nil
            switch students.inverse {
            case nil: modelling.membership = .manyToNil
            case let inverse? where inverse.isToMany: modelling.membership = .manyToMany
            default: modelling.membership = .manyToOne
            }
        } else if let key = manualKeys.first(where: { $0.owner == "Class" && $0.relationship == "students" && $0.memberKey == "classID" }),
            let memberKey = student.attribute(key.memberKey)
        {
            manualMembership = (key, memberKey)
            modelling.membership = .manualFK
        } else {
            return nil
        }
        modelling.subjects = studentSubjects.inverse == nil ? .manyToNil : .manyToMany
        modelling.address = studentAddress.inverse == nil ? .oneToNil : .oneToOne
        self.modelling = modelling
    }
}

/// How the school's three relationships are modelled in a variant of the School model: what the hand-written peers
/// need to store and read the same tables ObjectGraph does.
struct SchoolModelling: Equatable, Sendable {
    enum Membership: Sendable { case manyToOne, manyToMany, manyToNil, manualFK }
    enum Subjects: Sendable { case manyToMany, manyToNil }
    enum Address: Sendable { case oneToOne, oneToNil }

    var membership = Membership.manyToOne
    var subjects = Subjects.manyToMany
    var address = Address.oneToOne
}
