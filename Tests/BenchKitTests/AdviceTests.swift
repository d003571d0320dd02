import Foundation
import Testing

@testable import BenchKit

/// The N+1 detector on real traces: the query and prefetch scenarios with prefetching off (flagged, naming the
/// relationship and the key path to prefetch) and on (not flagged), and a declared phase that prefetches what it
/// never reads.
@Suite struct AdviceTests {
    static let catalog = try! ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder)

    static func findings(_ scenario: String, modelling: String? = "many-to-one") throws -> [QueryFinding] {
        var pass = AdvicePass(scenarios: [try catalog.scenario(named: scenario)])
        pass.strategies = [.objectGraph]
        if let modelling { pass.variants = [try VariantFilter("modelling=\(modelling)")] }
        return try pass.run()
    }

    @Test func queryWithoutPrefetchingIsFlaggedWithItsRelationship() throws {
        let found = try Self.findings("query")
        let off = found.filter { $0.variant.description == "modelling=many-to-one;prefetch=off" }
        #expect(off.count == 1)
        let finding = try #require(off.first)
        #expect(finding.phase == "walk" && finding.pattern == .toManyFaultPerOwner && finding.subject == "Class.students")
        #expect(finding.repeats == 20 && finding.statements == 21 && finding.statementsAfter == 2)
        #expect(finding.fingerprint == "SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.ZCLASS = ?")
        #expect(finding.change.contains("relationshipKeyPathsForPrefetching [\"students\"] to the fetch of Class"))
        #expect(found.filter { $0.variant.description == "modelling=many-to-one;prefetch=on" }.isEmpty)
    }

    /// Each scenario at the size its run measured it at: a run's variant filter that only some of them have (query's
    /// modelling, not batch-size's) narrows those, and the others run as they were measured.
    @Test func eachScenarioIsAdvisedAtItsOwnSizeWithTheRunsChoice() throws {
        var pass = AdvicePass(scenarios: [try Self.catalog.scenario(named: "batch-size"), try Self.catalog.scenario(named: "query")])
        pass.strategies = [.objectGraph]
        pass.variants = [try VariantFilter("modelling=many-to-one")]
        pass.sizes = [ScenarioName("query"): 1000, ScenarioName("batch-size"): 60]
        let found = try pass.run()
        #expect(pass.size(of: try Self.catalog.scenario(named: "query")) == 1000)
        let query = found.filter { $0.scenario == ScenarioName("query") }
        #expect(query.map(\.variant.description) == ["modelling=many-to-one;prefetch=off"])
        #expect(query.first?.size == 1000 && query.first?.repeats == 20)
        #expect(found.filter { $0.scenario == ScenarioName("batch-size") }.allSatisfy { $0.size == 60 })
        #expect(found.first?.scenario == ScenarioName("batch-size"), "findings in the order of the scenarios given")
    }

    @Test func prefetchScenarioFindingsNameEachKeyPath() throws {
        let found = try Self.findings("prefetch", modelling: nil)
        func off(_ keyPath: String) -> [QueryFinding] { found.filter { $0.variant.description == "keyPath=\(keyPath);prefetch=off" } }
        #expect(off("to-one").map(\.pattern) == [.toOneFaultPerObject])
        #expect(off("to-one").first?.change.contains("[\"class\"] to the fetch of Student") == true)
        #expect(off("to-many").map(\.subject) == ["Class.students"])
        #expect(off("many-to-many").map(\.subject) == ["Student.subjects"])
        // Nested: the class's students, then each student's address, named from the fetch of Class.
        #expect(off("nested").map(\.pattern) == [.toManyFaultPerOwner, .toOneFaultPerObject])
        #expect(off("nested").last?.change.contains("[\"students.address\"] to the fetch of Class") == true)
        #expect(found.filter { $0.variant.description.hasSuffix("prefetch=on") }.isEmpty)
    }

    @Test func aPrefetchNoReadUsesIsFlagged() throws {
        let text = DeclaredScenarioTests.library
            .replacingOccurrences(
                of: "{\"read\": [\"title\", \"author.name\", \"tags.name\"]}", with: "{\"read\": [\"title\", \"author.name\"]}")
        let scenario = try DeclaredScenarioTests.parse(text)
        var pass = AdvicePass(scenarios: [scenario])
        pass.size = 8
        let found = try pass.run().filter { $0.phase == "list" }
        #expect(found.map(\.pattern) == [.unusedPrefetch])
        #expect(found.first?.subject == "Book.tags" && found.first?.variant.description == "prefetch=on")
        #expect(found.first?.change.hasPrefix("drop \"tags\" from relationshipKeyPathsForPrefetching") == true)
    }

    /// A declared phase that reads only a to-many's count is told to keep a derived count, not to prefetch.
    @Test func countsThroughFaultsAskForADerivedAttribute() throws {
        let found = try Self.findings("chat-list", modelling: nil).filter { $0.phase == "chat-list" }
        #expect(found.map(\.variant.description) == ["count=faults"])
        #expect(found.first?.pattern == .countThroughFaults && found.first?.subject == "Chat.members")
    }

    /// A to-one whose destination is abstract (Order.account: Customers and Staff) is one pattern, prefetched by its
    /// key path; so is a chain of to-ones (OrderLine.order.account); fetching by IDs is left for what no fetch reaches.
    @Test func aToOneChainToAnAbstractDestinationIsAdvisedAsAPrefetch() throws {
        var pass = AdvicePass(scenarios: [try GeneratedSuite.scenario(modelPath: LintTests.shop)])
        pass.size = 60
        let suite = try pass.run()
        let account = suite.filter { $0.phase == "walk-Order.account" }
        #expect(account.map(\.pattern) == [.toOneFaultPerObject])
        #expect(account.first?.subject == "Account (Customer, Staff)")
        #expect(account.first?.change.hasPrefix("add relationshipKeyPathsForPrefetching [\"account\"] to the fetch of Order") == true)
        #expect(account.first.map { $0.statementsAfter == 2 && $0.repeats == $0.statements - 1 } == true)
        #expect(suite.filter { $0.phase.rawValue.hasPrefix("walk-") }.allSatisfy { !$0.change.contains("SELF IN") })
        let chain = try ScenarioFile.parse(
            Data(
                """
                {"name": "lines", "description": "d", "model": "\(LintTests.shop)", "strategies": ["objectgraph"],
                 "data": {"entities": {"Customer": "size", "Staff": "size", "Order": "size", "OrderLine": "2*size"},
                          "relationships": {"Order.lines": {"per": 2}}},
                 "phases": [{"name": "list", "steps": [{"fetch": "OrderLine", "faults": false}, {"read": ["quantity", "order.account.name"]}]}],
                 "sizes": [30], "repetitions": 1, "warmup": 0}
                """.utf8), file: "lines.json")
        var chained = AdvicePass(scenarios: [chain])
        chained.size = 30
        let found = try chained.run()
        #expect(found.map(\.subject) == ["Order", "Account (Customer, Staff)"], "\(found.map(\.line))")
        #expect(found.first?.change.hasPrefix("add relationshipKeyPathsForPrefetching [\"order\"] to the fetch of OrderLine") == true)
        #expect(
            found.last?.change.hasPrefix("add relationshipKeyPathsForPrefetching [\"order.account\"] to the fetch of OrderLine") == true)
    }

    @Test func theMeasuredSavingComesFromTheSiblingVariant() {
        let finding = QueryFinding(
            scenario: "query", strategy: .objectGraph, variant: Variant(parsing: "prefetch=off")!, size: 1000, phase: "walk",
            pattern: .toManyFaultPerOwner, subject: "Class.students", fingerprint: "SELECT", repeats: 20,
            statements: 21, statementsAfter: 2, change: "prefetch")
        func row(_ variant: String, _ statements: Double) -> SummaryRow {
            SummaryRow(
                key: SeriesKey.of("query", .objectGraph, variant, size: 1000, phase: "walk", metric: .sqlStatements),
                summary: SampleSummary([statements]))
        }
        let measured = AdvicePass.attachMeasurements([finding], summary: [row("prefetch=off", 21), row("prefetch=on", 2)])
        #expect(measured.first?.measured == "measured at size 1,000: prefetch=on ran 2 statements against 21")
        #expect(
            measured.first?.line.hasSuffix("(21 → 2 statements); measured at size 1,000: prefetch=on ran 2 statements against 21") == true)
    }
}
