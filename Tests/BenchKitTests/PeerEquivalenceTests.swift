import Foundation
import Testing
@testable import BenchKit
import CSQLite
import ObjectGraph

/// Every implementation stores the same logical data for each modelling: what each reads back (counts and a
/// checksum of names and memberships) is equal, and the peers' tables are the ones ObjectGraph creates.
@Suite struct PeerEquivalenceTests {
    private let data = SchoolData.make(students: 300, studentsPerClass: 40, subjects: 20, subjectsPerStudent: 3, seed: 7)
    /// Subjects of their own (no subject shared), as the faulting scenario has them: many-to-nil keeps them all.
    private let ownSubjects = SchoolData.make(students: 120, studentsPerClass: 40, subjects: 0, subjectsPerStudent: 2, seed: 9)

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

    private func school(_ strategy: StrategyID, _ relationship: SchoolRelationship, data: SchoolData) throws -> SchoolStore {
        let input = RepetitionInput(strategy: strategy, variant: Variant([]), size: data.studentCount, parameters: [:], seed: 7,
                                    location: .inMemory, options: StoreOptions(), data: { data })
        return try input.openSchool(relationship)
    }

    @Test(arguments: StrategyID.schoolImplementations)
    func theWholeSchoolReadsTheSameEverywhere(implementation: StrategyID.Implementation) throws {
        let expected = expected
        let strategy = StrategyID(implementation, .manyToOne)
        let school = try school(strategy, .membership, data: data)
        try school.insertSchool(data)
        school.releaseObjects()
        #expect(try school.fetchAllStudents() == expected.students, "\(strategy)")
        for prefetch in [false, true] {
            #expect(try school.walkClasses(prefetch: prefetch) == expected.classes, "\(strategy) prefetch \(prefetch)")
            #expect(try school.walk(PrefetchPath.toOne, prefetch: prefetch) == expected.classNames, "\(strategy) to-one \(prefetch)")
            #expect(try school.walk(PrefetchPath.manyToMany, prefetch: prefetch) == expected.subjects, "\(strategy) m2m \(prefetch)")
            #expect(try school.walk(PrefetchPath.nested, prefetch: prefetch) == expected.addresses, "\(strategy) nested \(prefetch)")
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

    @Test(arguments: StrategyID.all([.manyToOne, .manyToMany, .manyToNil, .manualFK]))
    func everyModellingOfClassMembershipReadsTheSame(strategy: StrategyID) throws {
        let expected = expected
        let school = try school(strategy, .membership, data: data)
        try school.insertMembership(data)
        school.releaseObjects()
        #expect(try school.fetchAllStudents() == expected.students)
        #expect(try school.walkClasses(prefetch: false) == expected.classes)
        #expect(try school.walkClasses(prefetch: true) == expected.classes)
        let member = data.studentsOfClass[2][3]
        #expect(try school.findStudent(className: data.classNames[2], studentName: data.studentNames[member], byFetch: false))
        if strategy.modelling! == .manyToOne || strategy.modelling! == .manualFK {
            #expect(try school.findStudent(className: data.classNames[2], studentName: data.studentNames[member], byFetch: true))
        }
    }

    @Test(arguments: StrategyID.all([.oneToOne, .oneToNil]))
    func bothAddressModellingsReadTheSame(strategy: StrategyID) throws {
        let school = try school(strategy, .address, data: data)
        try school.insertAddresses(data)
        school.releaseObjects()
        var addresses = Checksum()
        for name in data.addressNames { addresses.add(name) }
        #expect(try school.readPath(.address, everyStudent: true) == addresses)
        var first = Checksum()
        first.add(data.addressNames[0])
        #expect(try school.readPath(.address, everyStudent: false) == first)
    }

    /// The faulting scenario's school: student.subjects.first.name and student.address.name for each modelling.
    @Test(arguments: StrategyID.all([.manyToMany, .manyToNil, .oneToOne, .oneToNil]))
    func theFaultPathsReadTheSame(strategy: StrategyID) throws {
        let relationship: SchoolRelationship = strategy.modelling!.isToOne ? .address : .subjects
        let school = try school(strategy, relationship, data: ownSubjects)
        try school.insertSchool(ownSubjects)
        school.releaseObjects()
        var expected = Checksum()
        for (index, subjects) in ownSubjects.subjectsOfStudent.enumerated() {
            expected.add(strategy.modelling!.isToOne ? ownSubjects.addressNames[index] : ownSubjects.subjectNames[subjects[0]])
        }
        #expect(try school.readPath(strategy.modelling!.isToOne ? .address : .firstSubject, everyStudent: true) == expected)
    }

    /// The peers create the tables and indexes ObjectGraph's store has for the modelling.
    @Test(arguments: StrategyID.all(Modelling.allCases).filter(\.isPeer))
    func peersStoreTheTablesObjectGraphCreates(strategy: StrategyID) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let relationship: SchoolRelationship = strategy.modelling!.isToOne ? .address : .membership
        var schemas: [[String]] = []
        var vacuum: [Int] = []
        for implementation in [StrategyID.Implementation.objectGraph, strategy.implementation] {
            let path = folder.appendingPathComponent("\(implementation.rawValue).sqlite").path
            let input = RepetitionInput(strategy: StrategyID(implementation, strategy.modelling), variant: Variant([]), size: 10,
                                        parameters: [:], seed: 7, location: .file(path), options: StoreOptions(), data: { data })
            let school = try input.openSchool(relationship)
            school.releaseObjects()
            let reader = try RawConnection(path: path, pageCacheKiB: nil)
            schemas.append(try tableAndIndexSQL(reader))
            vacuum.append(try scalar(reader, "PRAGMA auto_vacuum"))
        }
        #expect(schemas[0] == schemas[1])
        #expect(vacuum == [2, 2])
    }

    private func tableAndIndexSQL(_ connection: RawConnection) throws -> [String] {
        let statement = try connection.prepared("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'Z_METADATA%' ORDER BY name")
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { rows.append(columnText(statement, 0)) }
        return rows
    }

    private func scalar(_ connection: RawConnection, _ sql: String) throws -> Int {
        let statement = try connection.prepared(sql)
        guard sqlite3_step(statement) == SQLITE_ROW else { return -1 }
        return Int(sqlite3_column_int64(statement, 0))
    }
}
