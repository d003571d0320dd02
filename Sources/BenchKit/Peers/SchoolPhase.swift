/// A phase of the School scenarios as the hand-written peers (raw SQLite, GRDB) implement it: the operation a
/// scenario's phase stands for, its parameters read from the phase's declared steps (the prefetch, the batch size,
/// the screen, the key path), so that a peer does the work ObjectGraph's steps do on the same tables and data.
enum SchoolPhase {
    case insert
    case fetchAll
    case walkClasses(prefetch: Bool)
    case readPath(FaultPath, everyStudent: Bool)
    case walk(PrefetchPath, prefetch: Bool)
    case iterate(batchSize: Int, limit: Int?)
    /// Finds a student by name in a class, once per round, by walking `class.students` or by one fetch.
    case find(byFetch: Bool)

    /// The scenarios (and their phases) the peers implement.
    static let implemented = [
        "insert": ["insert"], "query": ["fetch-all", "walk"], "faulting": ["first", "every"],
        "prefetch": ["walk"], "batch-size": ["fetch"], "find-member": ["find"],
    ]

    /// The operation phase `phase` of scenario `scenario` stands for; nil when the peers do not implement it, or the
    /// phase's steps are not the shipped scenario's (a copy someone changed runs objectgraph and sql-replay only).
    init?(scenario: String, phase: DeclaredScenario.Phase) {
        let fetches = phase.steps.compactMap { step -> Step.Fetch? in if case let .fetch(fetch) = step { return fetch } else { return nil }
        }
        let reads = phase.steps.compactMap { step -> (paths: [String], first: Int?, until: String?)? in
            if case let .read(paths, first, until) = step { return (paths.map(\.text), first, until) } else { return nil }
        }
        let prefetch = !(fetches.first?.prefetch.isEmpty ?? true)
        switch (scenario, phase.name) {
        case ("insert", "insert"):
            guard phase.store == .fresh else { return nil }
            self = .insert
        case ("query", "fetch-all"):
            guard fetches.first?.entity.name == "Student", reads.first?.paths == ["name"] else { return nil }
            self = .fetchAll
        case ("query", "walk"):
            guard fetches.first?.entity.name == "Class", reads.first?.paths == ["students.name"] else { return nil }
            self = .walkClasses(prefetch: prefetch)
        case ("faulting", "first"), ("faulting", "every"):
            guard let path = reads.first?.paths.first, fetches.first?.entity.name == "Student" else { return nil }
            switch path {
            case "address.name": self = .readPath(.address, everyStudent: phase.name == "every")
            case "subjects.@first.name": self = .readPath(.firstSubject, everyStudent: phase.name == "every")
            default: return nil
            }
        case ("prefetch", "walk"):
            guard let path = reads.first?.paths.first else { return nil }
            let keyPaths: [String: PrefetchPath] = [
                "class.name": .toOne, "students.name": .toMany, "subjects.name": .manyToMany,
                "students.address.name": .nested,
            ]
            guard let keyPath = keyPaths[path] else { return nil }
            self = .walk(keyPath, prefetch: prefetch)
        case ("batch-size", "fetch"):
            guard let fetch = fetches.first, fetch.entity.name == "Student", let read = reads.first, read.paths == ["name"] else {
                return nil
            }
            self = .iterate(batchSize: fetch.batchSize, limit: read.first)
        case ("find-member", "find"):
            guard case .fixed = phase.rounds else { return nil }
            self = .find(byFetch: fetches.contains { $0.entity.name == "Student" })
        default:
            return nil
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
