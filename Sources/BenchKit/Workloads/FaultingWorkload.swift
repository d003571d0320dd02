/// The seed's fetch counts at size N: `student.address.name` (2 fetches) and `student.subjects.first.name`
/// (3 fetches), for the first student as the seed does, then for every student.
public enum FaultingWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "faulting",
        summary: "fetch students, read student.address.name (to-one strategies) or student.subjects.first.name (to-many) for the first student, then for every student",
        strategies: StrategyID.all([.oneToOne, .oneToNil, .manyToMany, .manyToNil]),
        variants: [],
        parameters: [
            ParameterSpec(name: "subjects", range: 0...1_000_000, integer: true, defaultValue: 0,
                          help: "subjects in the school (0: one per student, so that no subject has two owners)"),
            ParameterSpec(name: "subjectsPerStudent", range: 1...100, integer: true, defaultValue: 1, help: "subjects per student"),
        ],
        phases: ["first", "every"])

    public static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws {
        let toOne = input.strategy.modelling?.isToOne == true
        let school = try input.preparedSchool(toOne ? .address : .subjects) { try $0.insertSchool($1) }
        let path: FaultPath = toOne ? .address : .firstSubject
        try recorder.measure("first", school) { _ = try school.readPath(path, everyStudent: false) }
        school.releaseObjects()
        try recorder.measure("every", school) { _ = try school.readPath(path, everyStudent: true) }
        school.releaseObjects()
    }
}
