import Foundation
import Testing

@testable import BenchKit

/// The peers declare each operation by the typed steps of the phase it stands for: every phase of every shipped
/// scenario they run maps to its operation, whatever the scenario and phase are called, and a phase whose steps do
/// other work maps to none.
@Suite struct SchoolOperationTests {
    static func operations(_ scenario: Scenario) throws -> [String: [SchoolOperation?]] {
        var found: [String: [SchoolOperation?]] = [:]
        for variant in scenario.variants {
            let plan = try scenario.declared.plan(for: variant)
            let school = try #require(School(model: plan.model, manualKeys: plan.manualKeys))
            found[variant.description] = plan.phases.map { SchoolOperation(phase: $0, school: school) }
        }
        return found
    }

    @Test func everyShippedPeerPhaseIsItsOperation() throws {
        let catalog = try ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder)
        func of(_ name: String) throws -> [String: [SchoolOperation?]] { try Self.operations(try catalog.scenario(named: name)) }
        #expect(try of("insert").values.allSatisfy { $0 == [.insert] })
        let query = try of("query")
        #expect(query["modelling=manual-fk;prefetch=on"] == [.fetchAll, .walkClasses(prefetch: true)])
        #expect(query["modelling=many-to-nil;prefetch=off"] == [.fetchAll, .walkClasses(prefetch: false)])
        let faulting = try of("faulting")
        #expect(faulting["modelling=one-to-nil"] == [.readPath(.address, everyStudent: false), .readPath(.address, everyStudent: true)])
        #expect(
            faulting["modelling=many-to-many"] == [
                .readPath(.firstSubject, everyStudent: false), .readPath(.firstSubject, everyStudent: true),
            ])
        let prefetch = try of("prefetch")
        #expect(prefetch["keyPath=to-one;prefetch=on"] == [.walk(.toOne, prefetch: true)])
        #expect(prefetch["keyPath=to-many;prefetch=off"] == [.walkClasses(prefetch: false)])
        #expect(prefetch["keyPath=many-to-many;prefetch=on"] == [.walk(.manyToMany, prefetch: true)])
        #expect(prefetch["keyPath=nested;prefetch=off"] == [.walk(.nested, prefetch: false)])
        let batch = try of("batch-size")
        #expect(batch["batch=20;access=first-screen"] == [.iterate(batchSize: 20, limit: 20)])
        #expect(batch["batch=0;access=all"] == [.iterate(batchSize: 0, limit: nil)])
        let find = try of("find-member")
        #expect(find["modelling=manual-fk;option=walk"] == [.find(byFetch: false)])
        #expect(find["modelling=many-to-one;option=fetch"] == [.find(byFetch: true)])
    }

    /// Renamed, a scenario still runs on the peers; with a phase's work changed (no sort), it does not.
    @Test func theStepsDecideNotTheNames() throws {
        let path = (ScenarioCountersTests.scenariosFolder as NSString).appendingPathComponent("query.json")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let folder = try TemporaryFolders.make("operation-test")
        defer { TemporaryFolders.remove(folder) }
        func load(_ text: String) throws -> Scenario {
            let copy = (folder as NSString).appendingPathComponent("copy.json")
            try text.replacingOccurrences(of: "\"models/", with: "\"\(ScenarioCountersTests.scenariosFolder)/models/")
                .write(toFile: copy, atomically: true, encoding: .utf8)
            return try ScenarioFile.load(copy)
        }
        let renamed = try load(
            text.replacingOccurrences(of: "\"name\": \"query\"", with: "\"name\": \"my-screens\"")
                .replacingOccurrences(of: "\"name\": \"walk\"", with: "\"name\": \"class-list\""))
        #expect(renamed.name == "my-screens")
        try PeerSupport.check(renamed)
        #expect(try Self.operations(renamed)["modelling=many-to-one;prefetch=on"] == [.fetchAll, .walkClasses(prefetch: true)])
        let unsorted = try load(
            text.replacingOccurrences(of: "\"fetch\": \"Class\", \"sort\": [\"name\"], ", with: "\"fetch\": \"Class\", "))
        #expect(throws: BenchError.self) { try PeerSupport.check(unsorted) }
    }
}
