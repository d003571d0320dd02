import Foundation
import Testing
@testable import BenchKit
import ObjectGraph

/// Every strategy stores the same logical data: what each reads back (counts and a checksum of names and
/// memberships) is equal.
@Suite struct PeerEquivalenceTests {
    private let data = SchoolData.make(students: 300, studentsPerClass: 40, subjects: 20, subjectsPerStudent: 3, seed: 7)

    /// What the data says every walk must read.
    private var expected: (students: Checksum, classes: Checksum, subjects: Checksum, addresses: Checksum, classNames: Checksum) {
        var students = Checksum(), subjects = Checksum(), addresses = Checksum(), classNames = Checksum()
        for (index, name) in data.studentNames.enumerated() {
            students.add(name)
            for subject in data.subjectsOfStudent[index] { subjects.add(data.subjectNames[subject]) }
            addresses.add(data.addressNames[index])
            classNames.add(data.classNames[data.classOfStudent[index]])
        }
        return (students, students, subjects, addresses, classNames)
    }

    private func schools(_ relationship: SchoolRelationship, strategies: [StrategyID]) throws -> [(StrategyID, SchoolStore)] {
        try strategies.map { strategy in
            let input = RepetitionInput(strategy: strategy, variant: Variant([]), size: data.studentCount, parameters: [:], seed: 7,
                                        location: .inMemory, options: StoreOptions(), data: { data })
            return (strategy, try input.openSchool(relationship))
        }
    }

    @Test func theWholeSchoolReadsTheSameEverywhere() throws {
        let expected = expected
        for (strategy, school) in try schools(.membership, strategies: [.manyToOne, .rawSQLite, .grdb]) {
            try school.insertSchool(data)
            school.releaseObjects()
            #expect(try school.fetchAllStudents() == expected.students, "\(strategy)")
            for prefetch in [false, true] {
                #expect(try school.walkClasses(prefetch: prefetch) == expected.classes, "\(strategy) prefetch \(prefetch)")
                #expect(try school.walk(.toOne, prefetch: prefetch) == expected.classNames, "\(strategy) to-one \(prefetch)")
                #expect(try school.walk(.manyToMany, prefetch: prefetch) == expected.subjects, "\(strategy) m2m \(prefetch)")
                #expect(try school.walk(.nested, prefetch: prefetch) == expected.addresses, "\(strategy) nested \(prefetch)")
                school.releaseObjects()
            }
            for batch in [0, 7, 50] {
                #expect(try school.iterateStudents(batchSize: batch, limit: nil) == expected.students, "\(strategy) batch \(batch)")
                var firstScreen = Checksum()
                for name in data.studentNames.sorted().prefix(20) { firstScreen.add(name) }
                #expect(try school.iterateStudents(batchSize: batch, limit: 20) == firstScreen, "\(strategy) batch \(batch) screen")
                school.releaseObjects()
            }
            let member = data.studentsOfClass[1][5]
            for byFetch in [false, true] {
                #expect(try school.findStudent(className: data.classNames[1], studentName: data.studentNames[member], byFetch: byFetch))
                #expect(try !school.findStudent(className: data.classNames[0], studentName: data.studentNames[member], byFetch: byFetch))
            }
        }
    }

    @Test func everyModellingOfClassMembershipReadsTheSame() throws {
        let expected = expected
        let strategies: [StrategyID] = [.manyToOne, .manyToMany, .manyToNil, .manualFK, .rawSQLite, .grdb]
        for (strategy, school) in try schools(.membership, strategies: strategies) {
            try school.insertMembership(data)
            school.releaseObjects()
            #expect(try school.fetchAllStudents() == expected.students, "\(strategy)")
            #expect(try school.walkClasses(prefetch: false) == expected.classes, "\(strategy)")
            #expect(try school.walkClasses(prefetch: true) == expected.classes, "\(strategy)")
        }
    }

    @Test func bothAddressModellingsReadTheSame() throws {
        for (strategy, school) in try schools(.address, strategies: [.oneToOne, .oneToNil]) {
            try school.insertAddresses(data)
            school.releaseObjects()
            var addresses = Checksum()
            for name in data.addressNames { addresses.add(name) }
            #expect(try school.readPath(.address, everyStudent: true) == addresses, "\(strategy)")
        }
    }
}
