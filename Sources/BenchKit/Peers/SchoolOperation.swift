import ObjectGraph

/// An operation the hand-written peers (raw SQLite, GRDB) implement, and the phase it stands for: the peers declare
/// each operation by the typed steps of the phase it does the work of (`init(phase:school:)`), matched against the
/// School model's own descriptions, never by scenario or phase names. A phase whose steps are none of these (a copy
/// someone changed) runs objectgraph and sql-replay only.
enum SchoolOperation: Equatable {
    /// A fresh store: `insert-data`, then one save.
    case insert
    /// Every Student, unsorted, faults off; read `name`.
    case fetchAll
    /// Every Class sorted by name, prefetching `students` or not; read `students.name`.
    case walkClasses(prefetch: Bool)
    /// Every Student, unsorted; read `address.name` or `subjects.@first.name` of the first (`first: 1`) or of all.
    case readPath(FaultPath, everyStudent: Bool)
    /// The roots sorted by name, prefetching the path's relationships or not; read the path's names (Student
    /// `class.name`, Student `subjects.name`, Class `students.address.name`).
    case walk(PrefetchPath, prefetch: Bool)
    /// Every Student sorted by name with a batch size; read `name` of all, or of the `first` N.
    case iterate(batchSize: Int, limit: Int?)
    /// Each round in a new context: one Class by `name == $className` (limit 1), then its students walked until
    /// `$studentName` (`read ... until`), or one Student fetched by class and name (limit 1).
    case find(byFetch: Bool)

    /// The operations in words, for the message that refuses a peer a phase.
    static let implemented = [
        "insert (insert-data and save on a fresh store)", "fetch every Student reading name",
        "walk every Class by name reading students.name", "read address.name or subjects.@first.name of the first or every Student",
        "walk Students by name reading class.name or subjects.name, or Classes reading students.address.name",
        "iterate Students by name with a batch size reading name", "find a student in a class, by walking or by one fetch",
    ]

    /// The operation whose work `phase`'s steps do on `school`, or nil.
    init?(phase: DeclaredScenario.Phase, school: School) {
        let steps = phase.steps
        if phase.store == .fresh, steps.count == 2, case .insertData(nil) = steps[0], case .save(mayFail: false) = steps[1] {
            self = .insert
            return
        }
        if case .fixed = phase.rounds, let find = Self.find(steps, phase.variables, school) {
            self = find
            return
        }
        guard steps.count == 2, case let .fetch(fetch) = steps[0], case let .read(paths, first, nil) = steps[1], paths.count == 1,
            fetch.predicate == nil, fetch.limit == 0, fetch.offset == 0, fetch.result == .objects
        else { return nil }
        // A walk reads the same rows whether the fetch returns faults or not (they are fulfilled from the row cache);
        // the other reads are matched with faults off, as the shipped scenarios run them.
        let path = paths[0].components
        func sorted(by name: AttributeDescription) -> Bool {
            fetch.sort.count == 1 && fetch.sort[0].ascending && Self.matches(fetch.sort[0].keyPath.components, [.attribute(name)])
        }
        /// Whether the fetch prefetches `wanted` (true), nothing (false), or something else (nil).
        func prefetches(_ wanted: [Wanted]) -> Bool? {
            if fetch.prefetch.isEmpty { return false }
            return fetch.prefetch.count == 1 && Self.matches(fetch.prefetch[0].components, wanted) ? true : nil
        }
        let operation: SchoolOperation?
        if fetch.entity === school.student && fetch.sort.isEmpty && fetch.prefetch.isEmpty && fetch.batchSize == 0 {
            if Self.matches(path, [.attribute(school.studentName)]) {
                operation = first == nil ? .fetchAll : nil
            } else if first ?? 1 == 1, Self.matches(path, [.relationship(school.studentAddress), .attribute(school.addressName)]) {
                operation = .readPath(.address, everyStudent: first == nil)
            } else if first ?? 1 == 1,
                Self.matches(path, [.relationship(school.studentSubjects), .first, .attribute(school.subjectName)])
            {
                operation = .readPath(.firstSubject, everyStudent: first == nil)
            } else {
                operation = nil
            }
        } else if fetch.entity === school.student && sorted(by: school.studentName) {
            if Self.matches(path, [.attribute(school.studentName)]), fetch.prefetch.isEmpty {
                operation = .iterate(batchSize: fetch.batchSize, limit: first)
            } else if fetch.batchSize != 0 || first != nil {
                operation = nil
            } else if let studentClass = school.studentClass,
                Self.matches(path, [.relationship(studentClass), .attribute(school.className)]),
                let prefetch = prefetches([.relationship(studentClass)])
            {
                operation = .walk(.toOne, prefetch: prefetch)
            } else if Self.matches(path, [.relationship(school.studentSubjects), .attribute(school.subjectName)]),
                let prefetch = prefetches([.relationship(school.studentSubjects)])
            {
                operation = .walk(.manyToMany, prefetch: prefetch)
            } else {
                operation = nil
            }
        } else if fetch.entity === school.schoolClass && sorted(by: school.className) && fetch.batchSize == 0 && first == nil {
            let students = Wanted.students(of: school)
            if Self.matches(path, [students, .attribute(school.studentName)]), let prefetch = prefetches([students]) {
                operation = .walkClasses(prefetch: prefetch)
            } else if Self.matches(path, [students, .relationship(school.studentAddress), .attribute(school.addressName)]),
                let prefetch = prefetches([students, .relationship(school.studentAddress)])
            {
                operation = .walk(.nested, prefetch: prefetch)
            } else {
                operation = nil
            }
        } else {
            operation = nil
        }
        guard let operation else { return nil }
        switch operation {
        case .walk, .walkClasses: break
        default: if fetch.faults { return nil }
        }
        self = operation
    }

    /// `find`: a new context, the class by `$className` (limit 1), then the walk of its students until
    /// `$studentName`, or one fetch of the student (limit 1); the variables are the class's name and a member's.
    private static func find(_ steps: [Step], _ variables: [String: Step.Variable], _ school: School) -> SchoolOperation? {
        guard steps.count == 3, case .newContext = steps[0], case let .fetch(owner) = steps[1], owner.entity === school.schoolClass,
            owner.predicate != nil, owner.limit == 1,
            case let .valueOf(classEntity, className, _, nil)? = variables["className"], classEntity === school.schoolClass,
            className === school.className,
            case let .valueOf(studentEntity, studentName, _, _?)? = variables["studentName"], studentEntity === school.student,
            studentName === school.studentName
        else { return nil }
        switch steps[2] {
        case let .read(paths, nil, until?) where until == "studentName" && paths.count == 1:
            return matches(paths[0].components, [.students(of: school), .attribute(school.studentName)]) ? .find(byFetch: false) : nil
        case let .fetch(member) where member.entity === school.student && member.predicate != nil && member.limit == 1:
            return .find(byFetch: true)
        default:
            return nil
        }
    }

    /// A key path component an operation expects.
    private enum Wanted {
        case attribute(AttributeDescription)
        case relationship(RelationshipDescription)
        /// A relationship a variant keeps by hand, by its key.
        case manual(ManualKey)
        case first

        /// Class.students, or the key a `manual-fk` variant keeps in its place.
        static func students(of school: School) -> Wanted {
            if let students = school.classStudents { return .relationship(students) }
            if let manual = school.manualMembership { return .manual(manual.key) }
            return .first
        }
    }

    private static func matches(_ components: [StepKeyPath.Component], _ wanted: [Wanted]) -> Bool {
        guard components.count == wanted.count else { return false }
        return zip(components, wanted).allSatisfy { component, wanted in
            switch (component, wanted) {
            case let (.attribute(found), .attribute(expected)): return found === expected
            case let (.relationship(found), .relationship(expected)): return found === expected
            case let (.manual(found), .manual(expected)): return found.key == expected
            case (.first, .first): return true
            default: return false
            }
        }
    }

    /// Runs the operation on `school`; `targets` are a find's class and student names, one pair per round.
    func run(on school: SchoolStore, data: SchoolData, targets: [(className: String, studentName: String)]) throws {
        switch self {
        case .insert:
            if data.classNames.isEmpty && !data.addressNames.isEmpty {
                try school.insertAddresses(data)
            } else {
                try school.insertMembership(data)
            }
        case .fetchAll: _ = try school.fetchAllStudents()
        case let .walkClasses(prefetch): _ = try school.walkClasses(prefetch: prefetch)
        case let .readPath(path, everyStudent): _ = try school.readPath(path, everyStudent: everyStudent)
        case let .walk(keyPath, prefetch): _ = try school.walk(keyPath, prefetch: prefetch)
        case let .iterate(batchSize, limit): _ = try school.iterateStudents(batchSize: batchSize, limit: limit)
        case let .find(byFetch):
            for (className, studentName) in targets {
                guard try school.findStudent(className: className, studentName: studentName, byFetch: byFetch) else {
                    throw BenchError.io("find-member did not find \(studentName) in \(className)")
                }
            }
        }
    }
}
