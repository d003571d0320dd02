/// Seed 000 Figure 7, insert: N students with their relationships, then one save.
public enum InsertWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "insert",
        summary: "insert N students linked to their classes (to-one strategies: to their addresses) and save once",
        strategies: StrategyID.allCases,
        variants: [],
        parameters: [ParameterSpec(name: "studentsPerClass", range: 1...1_000_000, integer: true, defaultValue: 50,
                                   help: "fan-out: students per class")],
        phases: ["insert"])

    public static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws {
        let toOne = input.strategy == .oneToOne || input.strategy == .oneToNil
        let school = try input.openSchool(toOne ? .address : .membership)
        let data = input.data()
        try recorder.measure("insert", school) {
            if toOne { try school.insertAddresses(data) } else { try school.insertMembership(data) }
        }
        school.releaseObjects()
    }
}

/// Seed 000 Figure 7, query: fetch every student, then for every class walk its students and read each name.
public enum QueryWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "query",
        summary: "fetch all students reading each name, then walk every class's to-many set reading each member's name",
        strategies: [.manyToOne, .manyToMany, .manyToNil, .manualFK, .rawSQLite, .grdb],
        variants: [VariantSpec(name: "prefetch", values: .oneOf(["off", "on"]),
                               help: "relationshipKeyPathsForPrefetching = [students] (peers: one query for all members)")],
        parameters: [ParameterSpec(name: "studentsPerClass", range: 1...1_000_000, integer: true, defaultValue: 50,
                                   help: "fan-out: students per class")],
        phases: ["fetch-all", "walk"])

    public static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws {
        let school = try input.preparedSchool(.membership) { try $0.insertMembership($1) }
        try recorder.measure("fetch-all", school) { _ = try school.fetchAllStudents() }
        try recorder.measure("walk", school) { _ = try school.walkClasses(prefetch: input.text("prefetch") == "on") }
        school.releaseObjects()
    }
}

/// The seed's fetch counts at size N: `student.address.name` (2 fetches) and `student.subjects.first.name`
/// (3 fetches), for the first student as the seed does, then for every student.
public enum FaultingWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "faulting",
        summary: "fetch students, read student.address.name (to-one strategies) or student.subjects.first.name (to-many) for the first student, then for every student",
        strategies: [.oneToOne, .oneToNil, .manyToMany, .manyToNil],
        variants: [],
        parameters: [
            ParameterSpec(name: "subjects", range: 0...1_000_000, integer: true, defaultValue: 0,
                          help: "subjects in the school (0: one per student, so that no subject has two owners)"),
            ParameterSpec(name: "subjectsPerStudent", range: 1...100, integer: true, defaultValue: 1, help: "subjects per student"),
        ],
        phases: ["first", "every"])

    public static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws {
        let toOne = input.strategy == .oneToOne || input.strategy == .oneToNil
        let school = try input.preparedSchool(toOne ? .address : .subjects) { try $0.insertSchool($1) }
        let path: FaultPath = toOne ? .address : .firstSubject
        try recorder.measure("first", school) { _ = try school.readPath(path, everyStudent: false) }
        school.releaseObjects()
        try recorder.measure("every", school) { _ = try school.readPath(path, everyStudent: true) }
        school.releaseObjects()
    }
}
