/// relationshipKeyPathsForPrefetching off and on, for a to-one, a to-many, a many-to-many and a nested key path.
public enum PrefetchWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "prefetch",
        summary: "fetch the root objects and read the names along a key path, prefetching it or not",
        strategies: StrategyID.all([.manyToOne]),
        variants: [
            VariantSpec(name: "keyPath", values: .oneOf(PrefetchPath.allCases.map(\.rawValue)),
                        help: "to-one: student.class; to-many: class.students; many-to-many: student.subjects; nested: class.students.address"),
            VariantSpec(name: "prefetch", values: .oneOf(["off", "on"]), help: "relationshipKeyPathsForPrefetching"),
        ],
        parameters: [
            ParameterSpec(name: "studentsPerClass", range: 1...1_000_000, integer: true, defaultValue: 50, help: "fan-out: students per class"),
            ParameterSpec(name: "subjects", range: 1...1_000_000, integer: true, defaultValue: 20, help: "subjects in the school"),
            ParameterSpec(name: "subjectsPerStudent", range: 0...100, integer: true, defaultValue: 3, help: "subjects per student"),
        ],
        phases: ["walk"])

    public static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws {
        let school = try input.preparedSchool(.membership) { try $0.insertSchool($1) }
        guard let keyPath = PrefetchPath(rawValue: input.text("keyPath")) else {
            throw BenchError.invalidInput("prefetch needs a keyPath variant")
        }
        let prefetch = input.text("prefetch") == "on"
        try recorder.measure("walk", school) { _ = try school.walk(keyPath, prefetch: prefetch) }
        school.releaseObjects()
    }
}
