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
        let toOne = input.strategy.modelling?.isToOne == true
        let school = try input.openSchool(toOne ? .address : .membership)
        let data = input.data()
        try recorder.measure("insert", school) {
            if toOne { try school.insertAddresses(data) } else { try school.insertMembership(data) }
        }
        school.releaseObjects()
    }
}
