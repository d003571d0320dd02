/// Seed 000 §III.C: find a student by name in a class of N students. Option 1 walks `class.students` (one
/// to-many fault, then an object fault per member looked at); option 2 is one fetch with a limit of 1.
public enum FindMemberWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "find-member",
        summary: "find a student by name in a class of N students: walk class.students, or one fetch with fetchLimit 1",
        strategies: StrategyID.all([.manyToOne, .manualFK]),
        variants: [VariantSpec(name: "option", values: .oneOf(["walk", "fetch"]),
                               help: "walk: seed option 1; fetch: seed option 2")],
        parameters: [ParameterSpec(name: "lookups", range: 1...1000, integer: true, defaultValue: 10,
                                   help: "lookups per repetition, each in its own class")],
        phases: ["find"])

    /// `lookups` classes of `size` students each.
    public static func makeData(size: Int, parameters: [String: Double], seed: UInt64) -> SchoolData {
        SchoolData.make(students: size * Int(parameters["lookups"] ?? 10), studentsPerClass: size, subjects: 0,
                        subjectsPerStudent: 0, seed: seed)
    }

    public static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws {
        let school = try input.preparedSchool(.membership) { try $0.insertMembership($1) }
        let data = input.data()
        // One target per class: a member picked at random (seeded), so a walk looks at half a class on average.
        var random = SplitMix64(seed: input.seed ^ 0xF1D)
        let members = data.studentsOfClass
        let targets = (0..<input.parameter("lookups")).map { lookup -> (String, String) in
            let classIndex = lookup % members.count
            let member = members[classIndex][Int(random.next() % UInt64(members[classIndex].count))]
            return (data.classNames[classIndex], data.studentNames[member])
        }
        let byFetch = input.text("option") == "fetch"
        try recorder.measure("find", school) {
            for (className, studentName) in targets {
                guard try school.findStudent(className: className, studentName: studentName, byFetch: byFetch) else {
                    throw BenchError.invalidInput("find-member did not find \(studentName) in \(className)")
                }
            }
        }
        school.releaseObjects()
    }
}
