/// fetchBatchSize against access patterns: the first screen of rows, or every row.
public enum BatchSizeWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "batch-size",
        summary: "fetch students by name with a fetchBatchSize, then read the first screen or every name",
        strategies: StrategyID.all([.manyToOne]),
        variants: [
            VariantSpec(name: "batch", values: .integers(0...1_000_000), help: "fetchBatchSize; 0 fetches every row at once"),
            VariantSpec(name: "access", values: .oneOf(["first-screen", "all"]), help: "read the first screen of rows, or all"),
        ],
        parameters: [ParameterSpec(name: "screen", range: 1...1_000_000, integer: true, defaultValue: 20,
                                   help: "rows on the first screen")],
        phases: ["fetch"])

    public static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws {
        let school = try input.preparedSchool(.membership) { try $0.insertMembership($1) }
        guard let batch = input.variant["batch"]?.number else { throw BenchError.invalidInput("batch-size needs a batch variant") }
        let limit = input.text("access") == "all" ? nil : input.parameter("screen")
        try recorder.measure("fetch", school) { _ = try school.iterateStudents(batchSize: Int(batch), limit: limit) }
        school.releaseObjects()
    }
}
