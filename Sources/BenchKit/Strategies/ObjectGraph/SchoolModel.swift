import ObjectGraph

/// The relationship of the school a workload exercises.
public enum SchoolRelationship: String, Sendable {
    /// Class has students: many-to-one, many-to-many, many-to-nil or manual-fk.
    case membership
    /// Student has subjects: many-to-many or many-to-nil (the data-loss relationship).
    case subjects
    /// Student has an address: one-to-one or one-to-nil.
    case address
}

/// How each relationship of the school is modelled. The seed's model (Core Data's recommendation: every
/// relationship has an inverse) is the default; a strategy changes the relationship a workload exercises.
public struct SchoolModelling: Equatable, Sendable {
    public enum Membership: Sendable { case manyToOne, manyToMany, manyToNil, manualFK }
    public enum Subjects: Sendable { case manyToMany, manyToNil }
    public enum Address: Sendable { case oneToOne, oneToNil }

    public var membership = Membership.manyToOne
    public var subjects = Subjects.manyToMany
    public var address = Address.oneToOne

    public init() {}

    /// The school with `relationship` modelled as `modelling` says (the others as the seed models them); nil if
    /// the modelling does not apply to that relationship.
    public init?(_ modelling: Modelling, relationship: SchoolRelationship) {
        switch (relationship, modelling) {
        case (.membership, .manyToOne): membership = .manyToOne
        case (.membership, .manyToMany): membership = .manyToMany
        case (.membership, .manyToNil): membership = .manyToNil
        case (.membership, .manualFK): membership = .manualFK
        case (.subjects, .manyToMany): subjects = .manyToMany
        case (.subjects, .manyToNil): subjects = .manyToNil
        case (.address, .oneToOne): address = .oneToOne
        case (.address, .oneToNil): address = .oneToNil
        default: return nil
        }
    }

    /// Student, Class, Subject and Address with the relationships modelled as this value says.
    public func makeModel() throws -> ObjectModel {
        var student: [Property] = [.attribute("name", .string, optional: false)]
        var schoolClass: [Property] = [.attribute("name", .string), .attribute("id", .uuid)]
        var subject: [Property] = [.attribute("name", .string)]
        var address: [Property] = [.attribute("name", .string)]
        switch membership {
        case .manyToOne:
            student.append(.toOne("class", "Class", inverse: "students"))
            schoolClass.append(.toMany("students", "Student", inverse: "class"))
        case .manyToMany:
            student.append(.toMany("classes", "Class", inverse: "students"))
            schoolClass.append(.toMany("students", "Student", inverse: "classes"))
        case .manyToNil:
            schoolClass.append(.toMany("students", "Student", inverse: nil))
        case .manualFK:
            student.append(.attribute("classID", .uuid, indexed: true))
        }
        switch subjects {
        case .manyToMany:
            student.append(.toMany("subjects", "Subject", inverse: "students"))
            subject.append(.toMany("students", "Student", inverse: "subjects"))
        case .manyToNil:
            student.append(.toMany("subjects", "Subject", inverse: nil))
        }
        switch self.address {
        case .oneToOne:
            student.append(.toOne("address", "Address", inverse: "student", deleteRule: .cascade))
            address.append(.toOne("student", "Student", inverse: "address"))
        case .oneToNil:
            student.append(.toOne("address", "Address", inverse: nil, deleteRule: .cascade))
        }
        return try ObjectModel([
            Entity("Student", student), Entity("Class", schoolClass), Entity("Subject", subject), Entity("Address", address),
        ])
    }
}
