/// Seed 000 §III.C: find a student by name in a class of N students. Option 1 walks `class.students` (one
/// to-many fault, then an object fault per member looked at); option 2 is one fetch with a limit of 1.
public enum FindMemberWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "find-member",
        summary: "find a student by name in a class of N students: walk class.students, or one fetch with fetchLimit 1",
        strategies: [.manyToOne, .manualFK, .rawSQLite, .grdb],
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

/// relationshipKeyPathsForPrefetching off and on, for a to-one, a to-many, a many-to-many and a nested key path.
public enum PrefetchWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "prefetch",
        summary: "fetch the root objects and read the names along a key path, prefetching it or not",
        strategies: [.manyToOne, .rawSQLite, .grdb],
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
        try recorder.measure("walk", school) { _ = try school.walk(keyPath, prefetch: input.text("prefetch") == "on") }
        school.releaseObjects()
    }
}

/// fetchBatchSize against access patterns: the first screen of rows, or every row.
public enum BatchSizeWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "batch-size",
        summary: "fetch students by name with a fetchBatchSize, then read the first screen or every name",
        strategies: [.manyToOne, .rawSQLite, .grdb],
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
