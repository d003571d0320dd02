/// Seed 000 Figure 7, query: fetch every student, then for every class walk its students and read each name.
public enum QueryWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "query",
        summary: "fetch all students reading each name, then walk every class's to-many set reading each member's name",
        strategies: StrategyID.all([.manyToOne, .manyToMany, .manyToNil, .manualFK]),
        variants: [VariantSpec(name: "prefetch", values: .oneOf(["off", "on"]),
                               help: "relationshipKeyPathsForPrefetching = [students] (peers: one query for all members)")],
        parameters: [ParameterSpec(name: "studentsPerClass", range: 1...1_000_000, integer: true, defaultValue: 50,
                                   help: "fan-out: students per class")],
        phases: ["fetch-all", "walk"])

    public static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws {
        let school = try input.preparedSchool(.membership) { try $0.insertMembership($1) }
        let prefetch = input.text("prefetch") == "on"
        try recorder.measure("fetch-all", school) { _ = try school.fetchAllStudents() }
        try recorder.measure("walk", school) { _ = try school.walkClasses(prefetch: prefetch) }
        school.releaseObjects()
    }
}
