import Foundation

/// The logical data every strategy stores: students in classes, with subjects and an address each.
///
/// Built from the size, the parameters and the seed alone, outside any timed region, so that every strategy of
/// a repetition gets the same data.
public struct SchoolData: Sendable {
    public let studentNames: [String]
    public let classNames: [String]
    public let classIDs: [UUID]
    /// The class of each student (index into `classNames`).
    public let classOfStudent: [Int]
    public let addressNames: [String]
    public let subjectNames: [String]
    /// The subjects of each student (indexes into `subjectNames`), without repeats.
    public let subjectsOfStudent: [[Int]]

    public var studentCount: Int { studentNames.count }

    /// `students` students in classes of `studentsPerClass` (assigned at random, every class full but the
    /// last), each with an address and `subjectsPerStudent` distinct subjects drawn from `subjects`; with
    /// `subjects` 0, each student gets subjects of its own.
    public static func make(students: Int, studentsPerClass: Int, subjects: Int, subjectsPerStudent: Int,
                            seed: UInt64) -> SchoolData {
        var random = SplitMix64(seed: seed)
        let classCount = max(1, (students + studentsPerClass - 1) / studentsPerClass)
        var slots = (0..<students).map { $0 / studentsPerClass }
        slots.shuffle(using: &random)
        let ownSubjects = subjects == 0
        let subjectCount = ownSubjects ? students * subjectsPerStudent : subjects
        let perStudent = min(subjectsPerStudent, subjectCount)
        var subjectsOfStudent: [[Int]] = []
        subjectsOfStudent.reserveCapacity(students)
        for student in 0..<students {
            if ownSubjects {
                subjectsOfStudent.append(Array((student * perStudent)..<((student + 1) * perStudent)))
                continue
            }
            var chosen: [Int] = []
            while chosen.count < perStudent {
                let subject = Int(random.next() % UInt64(subjectCount))
                if !chosen.contains(subject) { chosen.append(subject) }
            }
            subjectsOfStudent.append(chosen)
        }
        return SchoolData(
            studentNames: (0..<students).map { "Student \(padded($0 + 1))" },
            classNames: (0..<classCount).map { "Class \(padded($0 + 1))" },
            classIDs: (0..<classCount).map { _ in UUID(randomUsing: &random) },
            classOfStudent: slots,
            addressNames: (0..<students).map { "Address \(padded($0 + 1))" },
            subjectNames: (0..<subjectCount).map { "Subject \(padded($0 + 1))" },
            subjectsOfStudent: subjectsOfStudent)
    }

    /// The students of each class, in student order.
    public var studentsOfClass: [[Int]] {
        var members = Array(repeating: [Int](), count: classNames.count)
        for (student, schoolClass) in classOfStudent.enumerated() { members[schoolClass].append(student) }
        return members
    }

    private static func padded(_ number: Int) -> String {
        let digits = String(number)
        return digits.count >= 7 ? digits : String(repeating: "0", count: 7 - digits.count) + digits
    }
}

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same data on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A value in 0..<1.
    public mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

extension UUID {
    init<R: RandomNumberGenerator>(randomUsing random: inout R) {
        var bytes = (random.next(), random.next())
        self = withUnsafeBytes(of: &bytes) { raw in
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[0..<16])) }
            return UUID(uuid: uuid)
        }
    }
}
