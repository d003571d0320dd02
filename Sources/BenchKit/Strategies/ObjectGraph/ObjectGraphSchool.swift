import Foundation
import ObjectGraph

/// The school on ObjectGraph, modelled as a strategy says. Property handles are looked up once, as Core Data's
/// generated accessors would be.
public final class ObjectGraphSchool: SchoolStore {
    public let modelling: SchoolModelling
    public let store: PersistentStore
    var context: ObjectContext
    /// Objects the last operations made or read, alive until `releaseObjects()` (held as `Any`: casting an
    /// array to AnyObject would bridge it to NSArray, element by element, inside the timed region).
    var kept: [Any] = []
    /// An injected regression (RELBENCH_INJECT_STATEMENT): one more statement per class walked.
    var extraStatementPerOwner = false

    let student: EntityDescription
    let schoolClass: EntityDescription
    let subject: EntityDescription
    let address: EntityDescription
    let studentName: AttributeDescription
    let className: AttributeDescription
    let classID: AttributeDescription
    let subjectName: AttributeDescription
    let addressName: AttributeDescription
    let studentClass: RelationshipDescription?
    let studentClasses: RelationshipDescription?
    let classStudents: RelationshipDescription?
    let studentClassID: AttributeDescription?
    let studentSubjects: RelationshipDescription
    let studentAddress: RelationshipDescription

    public init(modelling: SchoolModelling, location: StoreLocation, options: StoreOptions = StoreOptions()) throws {
        self.modelling = modelling
        let model = try modelling.makeModel()
        store = try PersistentStore(model: model, location: location, options: options)
        context = store.makeContext()
        student = model.entity("Student")!
        schoolClass = model.entity("Class")!
        subject = model.entity("Subject")!
        address = model.entity("Address")!
        studentName = student.attribute("name")!
        className = schoolClass.attribute("name")!
        classID = schoolClass.attribute("id")!
        subjectName = subject.attribute("name")!
        addressName = address.attribute("name")!
        studentClass = student.relationship("class")
        studentClasses = student.relationship("classes")
        classStudents = schoolClass.relationship("students")
        studentClassID = student.attribute("classID")
        studentSubjects = student.relationship("subjects")!
        studentAddress = student.relationship("address")!
    }

    public func readings() -> CounterReadings {
        CounterReadings(store.counters, objectsRegistered: context.registeredObjectCount)
    }

    public func releaseObjects() {
        kept = []
        context.reset()
        context = store.makeContext()
    }

    // MARK: Inserts

    public func insertMembership(_ data: SchoolData) throws {
        let classes = try insertClasses(data)
        var students: [ManagedObject] = []
        students.reserveCapacity(data.studentCount)
        for (index, name) in data.studentNames.enumerated() {
            let object = try context.insert(student)
            try object.setValue(.string(name), for: studentName)
            try link(object, toClass: data.classOfStudent[index], classes: classes, data: data)
            students.append(object)
        }
        try context.save()
        kept = [classes, students]
    }

    public func insertAddresses(_ data: SchoolData) throws {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(2 * data.studentCount)
        for (index, name) in data.studentNames.enumerated() {
            let object = try context.insert(student)
            try object.setValue(.string(name), for: studentName)
            let home = try context.insert(address)
            try home.setValue(.string(data.addressNames[index]), for: addressName)
            try object.setObject(home, for: studentAddress)
            objects.append(object)
            objects.append(home)
        }
        try context.save()
        kept = [objects]
    }

    public func insertSchool(_ data: SchoolData) throws {
        let classes = try insertClasses(data)
        var subjects: [ManagedObject] = []
        for name in data.subjectNames {
            let object = try context.insert(subject)
            try object.setValue(.string(name), for: subjectName)
            subjects.append(object)
        }
        var objects: [ManagedObject] = []
        for (index, name) in data.studentNames.enumerated() {
            let object = try context.insert(student)
            try object.setValue(.string(name), for: studentName)
            try link(object, toClass: data.classOfStudent[index], classes: classes, data: data)
            for subjectIndex in data.subjectsOfStudent[index] {
                try object.add(subjects[subjectIndex], to: studentSubjects)
            }
            let home = try context.insert(address)
            try home.setValue(.string(data.addressNames[index]), for: addressName)
            try object.setObject(home, for: studentAddress)
            objects.append(object)
        }
        try context.save()
        kept = [classes, subjects, objects]
    }

    private func insertClasses(_ data: SchoolData) throws -> [ManagedObject] {
        var classes: [ManagedObject] = []
        classes.reserveCapacity(data.classNames.count)
        for (index, name) in data.classNames.enumerated() {
            let object = try context.insert(schoolClass)
            try object.setValue(.string(name), for: className)
            try object.setValue(.uuid(data.classIDs[index]), for: classID)
            classes.append(object)
        }
        return classes
    }

    private func link(_ object: ManagedObject, toClass index: Int, classes: [ManagedObject], data: SchoolData) throws {
        switch modelling.membership {
        case .manyToOne: try object.setObject(classes[index], for: studentClass!)
        case .manyToMany: try object.add(classes[index], to: studentClasses!)
        case .manyToNil: try classes[index].add(object, to: classStudents!)
        case .manualFK: try object.setValue(.uuid(data.classIDs[index]), for: studentClassID!)
        }
    }
}

extension CounterReadings {
    /// The readings of an ObjectGraph store's counters, with the objects one of its contexts holds.
    init(_ counters: Counters, objectsRegistered: Int) {
        self.init()
        statements = counters.statements
        fetchRequests = counters.fetchRequests
        objectFaults = counters.objectFaults
        relationshipFaults = counters.relationshipFaults
        rowsRead = counters.rowsRead
        cacheHits = counters.cacheHits
        cacheMisses = counters.cacheMisses
        self.objectsRegistered = objectsRegistered
    }
}
