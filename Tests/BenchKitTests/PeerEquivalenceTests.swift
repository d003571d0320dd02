import CSQLite
import Foundation
import ObjectGraph
import Testing

@testable import BenchKit

/// The hand-written peers read the data ObjectGraph stored for each modelling of the School model: what each reads
/// back from ObjectGraph's filled store (counts and a checksum of names and memberships) is what the data section
/// made, and what a peer inserts itself lands in the tables ObjectGraph creates.
@Suite struct PeerEquivalenceTests {
    /// A variant of a shipped School scenario, its data at a size, and a store ObjectGraph filled with it.
    struct Fixture {
        let plan: DeclaredScenario.Plan
        let data: SchoolData
        let schema: SchoolSchema
        let template: String
        let folder: String

        init(_ scenario: String, _ variant: String, size: Int) throws {
            let scenario = try ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder).scenario(named: scenario)
            plan = try scenario.declared.plan(for: try #require(scenario.variants.first { $0.description == variant }))
            let graph = plan.generator.make(size: size, seed: 7)
            data = SchoolData(graph: graph)
            schema = try #require(SchoolSchema(model: plan.model, manualKeys: plan.manualKeys))
            folder = try TemporaryFolders.make("peer-test")
            template = (folder as NSString).appendingPathComponent("template.sqlite")
            _ = try GraphFiller.fill(graph, model: plan.model, location: .file(template), options: StoreOptions())
        }

        /// A peer on a copy of the filled store.
        func open(_ strategy: Strategy) throws -> SchoolStore {
            let path = (folder as NSString).appendingPathComponent("\(strategy)-\(UUID().uuidString.prefix(6)).sqlite")
            try TemplateCopies.copy(template, to: path)
            return try peer(strategy, path: path)
        }

        func peer(_ strategy: Strategy, path: String) throws -> SchoolStore {
            strategy == .rawSQLite
                ? try RawSQLiteSchool(schema: schema, location: .file(path))
                : try makeGRDBSchool(schema, location: .file(path), pageCacheKiB: nil, trace: nil)
        }

        func remove() { TemporaryFolders.remove(folder) }
    }

    static let peers: [Strategy] = [.rawSQLite, .grdb]

    @Test(arguments: peers, ["many-to-one", "many-to-nil", "many-to-many", "manual-fk"])
    func everyModellingOfClassMembershipReadsTheSame(strategy: Strategy, modelling: String) throws {
        let fixture = try Fixture("query", "modelling=\(modelling);prefetch=off", size: 200)
        defer { fixture.remove() }
        let data = fixture.data
        var students = Checksum()
        for name in data.studentNames { students.add(name) }
        let school = try fixture.open(strategy)
        #expect(try school.fetchAllStudents() == students)
        #expect(try school.walkClasses(prefetch: false) == students)
        #expect(try school.walkClasses(prefetch: true) == students)
        let member = data.studentsOfClass[2][3]
        #expect(try school.findStudent(className: data.classNames[2], studentName: data.studentNames[member], byFetch: false))
        #expect(try !school.findStudent(className: data.classNames[1], studentName: data.studentNames[member], byFetch: false))
        if modelling == "many-to-one" || modelling == "manual-fk" {
            #expect(try school.findStudent(className: data.classNames[2], studentName: data.studentNames[member], byFetch: true))
        }
    }

    /// The faulting scenario's school: student.subjects.first.name and student.address.name for each modelling.
    @Test(arguments: peers, ["one-to-one", "one-to-nil", "many-to-many", "many-to-nil"])
    func theFaultPathsReadTheSame(strategy: Strategy, modelling: String) throws {
        let fixture = try Fixture("faulting", "modelling=\(modelling)", size: 100)
        defer { fixture.remove() }
        let data = fixture.data
        let toOne = modelling.hasPrefix("one")
        let school = try fixture.open(strategy)
        var expected = Checksum()
        for (index, subjects) in data.subjectsOfStudent.enumerated() {
            // Subjects of their own, in key order: the first member a to-many fault returns.
            expected.add(toOne ? data.addressNames[index] : data.subjectNames[subjects.min()!])
        }
        #expect(try school.readPath(toOne ? .address : .firstSubject, everyStudent: true) == expected)
    }

    /// The prefetch scenario's key paths, with and without prefetching, and the batch-size scenario's screens.
    @Test(arguments: peers)
    func walksAndBatchesReadTheSame(strategy: Strategy) throws {
        let fixture = try Fixture("prefetch", "keyPath=to-one;prefetch=off", size: 150)
        defer { fixture.remove() }
        let data = fixture.data
        var classNames = Checksum()
        var subjects = Checksum()
        var addresses = Checksum()
        var students = Checksum()
        for (index, name) in data.studentNames.enumerated() {
            classNames.add(data.classNames[data.classOfStudent[index]])
            for subject in data.subjectsOfStudent[index] { subjects.add(data.subjectNames[subject]) }
            addresses.add(data.addressNames[index])
            students.add(name)
        }
        let school = try fixture.open(strategy)
        for prefetch in [false, true] {
            #expect(try school.walk(.toOne, prefetch: prefetch) == classNames, "to-one \(prefetch)")
            #expect(try school.walk(.toMany, prefetch: prefetch) == students, "to-many \(prefetch)")
            #expect(try school.walk(.manyToMany, prefetch: prefetch) == subjects, "many-to-many \(prefetch)")
            #expect(try school.walk(.nested, prefetch: prefetch) == addresses, "nested \(prefetch)")
            school.releaseObjects()
        }
        for batch in [0, 7, 50] {
            #expect(try school.iterateStudents(batchSize: batch, limit: nil) == students, "batch \(batch)")
            var firstScreen = Checksum()
            for name in data.studentNames.sorted().prefix(20) { firstScreen.add(name) }
            #expect(try school.iterateStudents(batchSize: batch, limit: 20) == firstScreen, "batch \(batch) screen")
        }
    }

    /// What a peer inserts lands in the tables and indexes ObjectGraph's store has for the modelling, with as many
    /// rows per table as ObjectGraph's save writes.
    @Test(arguments: peers, ["many-to-one", "many-to-nil", "many-to-many", "manual-fk", "one-to-one", "one-to-nil"])
    func peersStoreWhatObjectGraphStores(strategy: Strategy, modelling: String) throws {
        let fixture = try Fixture("insert", "modelling=\(modelling)", size: 100)
        defer { fixture.remove() }
        let path = (fixture.folder as NSString).appendingPathComponent("inserted.sqlite")
        let school = try fixture.peer(strategy, path: path)
        if modelling.hasPrefix("one") { try school.insertAddresses(fixture.data) } else { try school.insertMembership(fixture.data) }
        school.releaseObjects()
        let inserted = try RawConnection(path: path, pageCacheKiB: nil)
        let filled = try RawConnection(path: fixture.template, pageCacheKiB: nil)
        #expect(try tableAndIndexSQL(inserted) == tableAndIndexSQL(filled))
        #expect(try scalar(inserted, "PRAGMA auto_vacuum") == 2)
        for table in try tables(filled) {
            #expect(try scalar(inserted, "SELECT count(*) FROM \(table)") == scalar(filled, "SELECT count(*) FROM \(table)"), "\(table)")
        }
    }

    private func tableAndIndexSQL(_ connection: RawConnection) throws -> [String] {
        let statement = try connection.prepared(
            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'Z_METADATA%' ORDER BY name")
        var rows: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW { rows.append(columnText(statement, 0)) }
        return rows
    }

    private func tables(_ connection: RawConnection) throws -> [String] {
        let statement = try connection.prepared(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE') ORDER BY name"
        )
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
