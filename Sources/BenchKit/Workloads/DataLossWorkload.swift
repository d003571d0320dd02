import ObjectGraph

/// The many-to-nil data loss (seed 000 §II.B): first the seed's exact example, then random memberships where a
/// subject joins several students with a given probability, saved and re-read in a fresh context.
public enum DataLossWorkload: Workload {
    public static let spec = WorkloadSpec(
        name: "data-loss",
        summary: "write memberships through Student.subjects, re-read them in a fresh context, count the links lost",
        strategies: [.manyToNil, .manyToMany],
        variants: [VariantSpec(name: "duplicates", values: .numbers(0...1),
                               help: "probability that a membership reuses a subject another student already has")],
        parameters: [ParameterSpec(name: "subjectsPerStudent", range: 1...100, integer: true, defaultValue: 2,
                                   help: "memberships per student")],
        phases: ["seed-example", "save-and-reread"])

    /// Memberships of `students` students, `perStudent` each: with probability `duplicates` a membership reuses a
    /// subject some earlier student has, otherwise it is a subject of its own.
    public static func memberships(students: Int, perStudent: Int, duplicates: Double, seed: UInt64) -> (subjects: Int, memberships: [[Int]]) {
        var random = SplitMix64(seed: seed)
        var subjectCount = 0
        var memberships: [[Int]] = []
        memberships.reserveCapacity(students)
        for _ in 0..<students {
            var chosen: [Int] = []
            for _ in 0..<perStudent {
                if subjectCount > 0, random.nextUnit() < duplicates {
                    let reused = Int(random.next() % UInt64(subjectCount))
                    if !chosen.contains(reused) {
                        chosen.append(reused)
                        continue
                    }
                }
                chosen.append(subjectCount)
                subjectCount += 1
            }
            memberships.append(chosen)
        }
        return (subjectCount, memberships)
    }

    public static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws {
        // Seed 000 §II.B exactly: student1 has subject1, student2 has subject1 and subject2.
        let example = try input.openSchool(.subjects)
        try measure("seed-example", example, recorder: recorder, students: 2, subjects: 2, memberships: [[0], [0, 1]])
        example.releaseObjects()

        let generated = memberships(students: input.size, perStudent: input.parameter("subjectsPerStudent"),
                                    duplicates: input.variant["duplicates"]?.number ?? 0, seed: input.seed ^ 0xDA7A)
        let school = try input.openSchool(.subjects, at: "data")
        try measure("save-and-reread", school, recorder: recorder, students: input.size, subjects: generated.subjects,
                    memberships: generated.memberships)
        school.releaseObjects()
    }

    private static func measure(_ phase: String, _ school: SchoolStore, recorder: PhaseRecorder,
                                students: Int, subjects: Int, memberships: [[Int]]) throws {
        let intended = memberships.reduce(0) { $0 + $1.count }
        let persisted = try recorder.measure(phase, school) { () -> Int in
            try school.insertMemberships(studentCount: students, subjectCount: subjects, memberships: memberships)
            return try school.countSubjectLinks()
        }
        recorder.record(phase, .linksIntended, Double(intended))
        recorder.record(phase, .linksPersisted, Double(persisted))
        recorder.record(phase, .linksLost, Double(intended - persisted))
        recorder.record(phase, .lossRate, intended == 0 ? 0 : Double(intended - persisted) / Double(intended))
    }
}
