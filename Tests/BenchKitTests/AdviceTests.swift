import Foundation
import SQLDebugLog
import Testing

@testable import BenchKit

/// The N+1 detector on real traces: the query and prefetch scenarios with prefetching off (flagged, naming the
/// relationship and the key path to prefetch) and on (not flagged), and a declared phase that prefetches what it
/// never reads.
@Suite struct AdviceTests {
    static let catalog = try! ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder)

    static func findings(_ scenario: String, modelling: String? = "many-to-one") throws -> [AdviceFinding] {
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
        #expect(finding.phase == "walk" && finding.finding.rule == .toManyFaultPerOwner)
        #expect(finding.finding.subject == .relationship(entity: "Class", name: "students"))
        #expect(finding.finding.repeats == 20 && finding.finding.statements == 21 && finding.finding.statementsAfter == 2)
        #expect(finding.finding.statement == "SELECT ?, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.ZCLASS = ?")
        #expect(finding.finding.fix.contains("relationshipKeyPathsForPrefetching [\"students\"] to the fetch of Class"))
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
        #expect(query.first?.size == 1000 && query.first?.finding.repeats == 20)
        #expect(found.filter { $0.scenario == ScenarioName("batch-size") }.allSatisfy { $0.size == 60 })
        #expect(found.first?.scenario == ScenarioName("batch-size"), "findings in the order of the scenarios given")
    }

    @Test func prefetchScenarioFindingsNameEachKeyPath() throws {
        let found = try Self.findings("prefetch", modelling: nil)
        func off(_ keyPath: String) -> [AdviceFinding] { found.filter { $0.variant.description == "keyPath=\(keyPath);prefetch=off" } }
        #expect(off("to-one").map(\.finding.rule) == [.toOneFaultPerObject])
        #expect(off("to-one").first?.finding.fix.contains("[\"class\"] to the fetch of Student") == true)
        #expect(off("to-many").map(\.finding.subject) == [.relationship(entity: "Class", name: "students")])
        #expect(off("many-to-many").map(\.finding.subject) == [.relationship(entity: "Student", name: "subjects")])
        // Nested: the class's students, then each student's address, named from the fetch of Class.
        #expect(off("nested").map(\.finding.rule) == [.toManyFaultPerOwner, .toOneFaultPerObject])
        #expect(off("nested").last?.finding.fix.contains("[\"students.address\"] to the fetch of Class") == true)
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
        #expect(found.map(\.finding.rule) == [.unusedPrefetch])
        #expect(found.first?.finding.subject == .keyPath(entity: "Book", path: "tags") && found.first?.variant.description == "prefetch=on")
        #expect(found.first?.finding.fix.hasPrefix("drop \"tags\" from relationshipKeyPathsForPrefetching") == true)
    }

    /// A declared phase that reads only a to-many's count is told to keep a derived count, not to prefetch.
    @Test func countsThroughFaultsAskForADerivedAttribute() throws {
        let found = try Self.findings("chat-list", modelling: nil).filter { $0.phase == "chat-list" }
        #expect(found.map(\.variant.description) == ["count=faults"])
        #expect(
            found.first?.finding.rule == .countThroughFaults
                && found.first?.finding.subject == .relationship(entity: "Chat", name: "members"))
    }

    /// A to-one whose destination is abstract (Order.account: Customers and Staff) is one pattern, prefetched by its
    /// key path; so is a chain of to-ones (OrderLine.order.account); fetching by IDs is left for what no fetch reaches.
    @Test func aToOneChainToAnAbstractDestinationIsAdvisedAsAPrefetch() throws {
        // The generated suite's walk-Order.account is a reference (not advised); explain shows its findings, and the
        // same screen written as a user's scenario is advised.
        let orders = try ScenarioFile.parse(
            Data(
                """
                {"name": "orders", "description": "d", "model": "\(LintTests.shop)", "strategies": ["objectgraph"],
                 "data": {"entities": {"Customer": "size", "Staff": "size", "Order": "size"}, "relationships": {"Order.account": {}}},
                 "phases": [{"name": "list", "steps": [{"fetch": "Order", "faults": false}, {"read": ["note", "account.name"]}]}],
                 "sizes": [30], "repetitions": 1, "warmup": 0}
                """.utf8), file: "orders.json")
        var pass = AdvicePass(scenarios: [orders])
        pass.size = 30
        let account = try pass.run()
        #expect(account.map(\.finding.rule) == [.toOneFaultPerObject])
        #expect(account.first?.finding.subject == .entity("Account", members: ["Customer", "Staff"]))
        #expect(account.first?.finding.fix.hasPrefix("add relationshipKeyPathsForPrefetching [\"account\"] to the fetch of Order") == true)
        #expect(account.first.map { $0.finding.statementsAfter == 2 && $0.finding.repeats == $0.finding.statements - 1 } == true)
        #expect(account.allSatisfy { !$0.finding.fix.contains("SELF IN") })
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
        #expect(
            found.map(\.finding.subject) == [.entity("Order", members: []), .entity("Account", members: ["Customer", "Staff"])],
            "\(found.map(\.line))")
        #expect(found.first?.finding.fix.hasPrefix("add relationshipKeyPathsForPrefetching [\"order\"] to the fetch of OrderLine") == true)
        #expect(
            found.last?.finding.fix.hasPrefix("add relationshipKeyPathsForPrefetching [\"order.account\"] to the fetch of OrderLine")
                == true)
    }

    @Test func theMeasuredSavingComesFromTheSiblingVariant() {
        let finding = AdviceFinding(
            scenario: "query", strategy: .objectGraph, variant: Variant(parsing: "prefetch=off")!, size: 1000,
            finding: Finding(
                rule: .toManyFaultPerOwner, subject: .relationship(entity: "Class", name: "students"), segment: "walk",
                statement: "SELECT", repeats: 20, statements: 21, statementsAfter: 2, summary: "to-many fault Class.students per owner",
                fix: "prefetch"))
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
