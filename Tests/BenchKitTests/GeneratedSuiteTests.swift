import Foundation
import ObjectGraph
import Testing

@testable import BenchKit

/// The suite `bench run --model` generates, like with like: every phase says what it covers, the three ways of
/// counting read the same owners, `--counts` sizes each entity, memory columns say what they measure, the notes
/// and the page say which deletes a Deny rule refused and why, and the advice runs at the size run.
@Suite(.serialized) struct GeneratedSuiteTests {
    static let shop = LintTests.shop

    private func output() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("relbench-suite-\(UUID().uuidString)")
    }

    private func medians(_ folder: URL) throws -> [String: Double] {
        let rows = try SummaryFile.load(folder.appendingPathComponent("summary.csv").path).rows
        var values: [String: Double] = [:]
        for row in rows where row.key.strategy == .objectGraph {
            values["\(row.key.size) \(row.key.phase) \(row.key.metric.rawValue)"] = row.summary?.median
        }
        return values
    }

    /// The data section the suite builds typed is written back (for `bench scan`'s scenario files) as the reader
    /// reads it: parsed again, it writes the same JSON and makes the same data.
    @Test func theDataSectionRoundTripsThroughItsJSON() throws {
        for options in [GeneratedSuite.Options(), GeneratedSuite.Options(counts: ["Customer": 30])] {
            let suite = try GeneratedSuite.scenario(modelPath: Self.shop, options: options)
            let plan = suite.declared.first
            let json = try JSONSerialization.data(withJSONObject: plan.generator.spec.jsonObject, options: [.sortedKeys])
            let parsed = try DataSpec.parse(try JSONDecoder().decode(JSONValue.self, from: json)) { BenchError.invalidInput($0) }
            #expect(try JSONSerialization.data(withJSONObject: parsed.jsonObject, options: [.sortedKeys]) == json)
            let again = DataGenerator(spec: parsed, model: plan.model, declared: plan.entities, manualKeys: [])
            #expect(again.make(size: 50, seed: 3).edges.map(\.targets) == plan.generator.make(size: 50, seed: 3).edges.map(\.targets))
        }
    }

    @Test func everyPhaseSaysWhatItCovers() throws {
        let suite = try GeneratedSuite.scenario(modelPath: Self.shop)
        #expect(suite.phaseDescriptions.map(\.name) == suite.phaseNames)
        let described = Dictionary(uniqueKeysWithValues: suite.phaseDescriptions.map { ($0.name.rawValue, $0.description) })
        #expect(
            described["walk-Order.account"]
                == "the first 100 Orders (fetchLimit 100, all when fewer), reading account.createdAt of each through faults")
        #expect(
            described["count-Customer.orders-fetch"]
                == "one count request for each of the same owners as the faults, the first 100 Customers (fetchLimit 100, all when fewer): countForFetchRequest of Order where account == $owner"
        )
        #expect(
            described["find-Order.orderID"]?.hasPrefix("10 lookups of one Order by orderID (a fetch of orderID == value, fetchLimit 1")
                == true)
        #expect(described["fetch-Customer"] == "every Customer (size rows) in one fetch, faults off, reading createdAt")
    }

    /// At 40 Customers all of them, at 150 the first 100: each way of counting covers as many owners as the faults.
    @Test func theThreeWaysOfCountingCoverTheSameOwnersAndDeniedDeletesAreExplained() throws {
        let folder = output()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandLineTests.bench([
            "run", "--model", Self.shop, "--sizes", "40,150", "--repetitions", "1", "--warmup", "0", "--output", folder.path,
            "--allow-debug", "--no-history", "--quiet",
        ])
        #expect(result.status == 0, "\(result.error)")
        let values = try medians(folder)
        for (size, owners) in [(40, 40.0), (150, 100.0)] {
            for relationship in ["Customer.orders", "Staff.orders", "Order.lines", "Product.lines"] {
                #expect(values["\(size) count-\(relationship)-faults relationship_faults"] == owners, "\(size) \(relationship)")
                #expect(values["\(size) count-\(relationship)-fetch sql_statements"] == owners, "\(size) \(relationship)")
                #expect(values["\(size) count-\(relationship)-fetch fetch_requests"] == owners, "\(size) \(relationship)")
            }
            #expect(values["\(size) count-Customer.orders-derived rows_read"] == owners)
            #expect(values["\(size) walk-Order.account-prefetch sql_statements"] == 2)
            #expect(values["\(size) find-Order.orderID sql_statements"] == 10)
            #expect(values["\(size) find-Order.orderID rows_read"] == 10)
            #expect(values["\(size) sorted-Order.placedAt rows_read"] == 20)
            #expect(values["\(size) fetch-Customer rows_read"] == Double(size))
        }
        // The Deny chain refuses four deletes of six, each note naming the chain and the explain line that shows it.
        let notes = result.output.split(separator: "\n").filter { $0.hasPrefix("note: model-Shop delete-") && $0.contains("n=150") }
        #expect(notes.count == 4, "\(result.output)")
        #expect(
            notes.contains {
                $0
                    == "note: model-Shop delete-Customer n=150: its save was refused and rolled back (Account.orders → Order.lines → OrderLine.product Deny: deleting a Customer cascades into OrderLines, and an OrderLine with a product cannot be deleted), so the phase times the attempt, not a delete (bench explain --model \(Self.shop) --size 150 --phase delete-Customer shows the refusal)"
            })
        #expect(notes.contains { $0.contains("delete-OrderLine n=150: its save was refused and rolled back (OrderLine.product is Deny: ") })
        let report = try String(contentsOf: folder.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(report.contains("Note: model-Shop delete-Staff n=150: its save was refused and rolled back (Account.orders → Order.lines"))
        #expect(report.contains("process peak (MiB)") && report.contains("What each phase covers"))
        let summary = try String(contentsOf: folder.appendingPathComponent("summary.txt"), encoding: .utf8)
        #expect(summary.contains("process peak MiB") && summary.contains(SummaryTable.memoryLegend))
        #expect(summary.contains("\n  count-Customer.orders-derived: the same owners as the faults, the first 100 Customers"))
        // The advice ran at the size run, 150, not at a fixed 1,000.
        #expect(result.output.contains("at the size run, 150 (bench advise"), "\(result.output)")
        let advice = try AdviceReport.decode(Data(contentsOf: folder.appendingPathComponent("advice.json")), file: "advice.json")
        #expect(advice.allSatisfy { $0.size == 150 })
        // The suite's walks without prefetching, counts through faults and batch sizes are references of comparisons,
        // not what the app does: never advised (issue 36 item 6).
        #expect(advice.allSatisfy { !["walk-", "count-", "batch-"].contains(where: $0.phase.rawValue.hasPrefix) }, "\(advice.map(\.line))")
    }

    @Test func countsSizeEachEntityAndTheOthersFollowTheRelationships() throws {
        let model = try XcodeModel.load(path: Self.shop).makeModel()
        let resolved = GeneratedSuite.resolvedCounts(model, given: ["Customer": 30, "Order": 120])
        #expect(
            resolved.mapValues(\.count) == [
                "Customer": 30, "Order": 120, "OrderLine": 120, "Staff": 30, "Product": 120, "Address": 30, "Delivery": 120,
            ])
        // Staff is reached only through its parent (Order.account reaches every Account): it takes its given sibling's
        // count, with a warning, and the orders go to the Customers given, 4 each, as 120 over 30 asks.
        #expect(resolved["Staff"]?.origin == "as Customer, its sibling under Account")
        #expect(
            resolved["Staff"]?.warning
                == "Staff takes its count from its sibling Customer (Order.account reaches every Account); give Staff=N in --counts if that is not what you mean"
        )
        #expect(resolved.filter { $0.value.warning != nil }.keys.sorted() == ["Staff"])
        let suite = try GeneratedSuite.scenario(
            modelPath: Self.shop, options: GeneratedSuite.Options(counts: ["Customer": 30, "Order": 120]))
        let plan = suite.declared.first
        let data = plan.generator.make(size: 120, seed: 42)
        let account = try #require(data.edges.first { $0.relationship == "account" })
        var perOwner: [ObjectRef: Int] = [:]
        for targets in account.targets.values { for target in targets { perOwner[target, default: 0] += 1 } }
        let customer = try #require(plan.model.entity("Customer"))
        #expect(perOwner.keys.allSatisfy { $0.entity == customer.number }, "every order's account is a Customer")
        #expect(perOwner.values.reduce(0, +) == 120)
        #expect(resolved["OrderLine"]?.origin == "as Order, through Order.lines")
        #expect(resolved["Address"]?.origin == "as Customer, through Customer.address")
        #expect(resolved["Delivery"]?.origin == "no relationship reaches it: the largest count given")
        let folder = output()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandLineTests.bench([
            "run", "--model", Self.shop, "--counts", "Customer=30,Order=120", "--repetitions", "1", "--warmup", "0",
            "--strategies", "objectgraph", "--output", folder.path, "--allow-debug", "--no-history", "--no-advice",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output.contains(
                "counts: Address 30 (as Customer, through Customer.address), Customer 30 (given), Delivery 120 (no relationship reaches it: the largest count given), Order 120 (given), OrderLine 120 (as Order, through Order.lines), Product 120 (as OrderLine, through OrderLine.product), Staff 30 (as Customer, its sibling under Account)\n"
                    + "members per owner (the data's mean): Account.orders 4.0 per Customer, none per Staff; Order.lines 0.9; Product.lines 0.9\n"
                    + "warning: Staff takes its count from its sibling Customer (Order.account reaches every Account); give Staff=N in --counts if that is not what you mean\n"
                    + "warning: Order.account draws from Customer only, so that 120 Orders over 30 Customers stay 4.0 each: Staff gets no Order; give Staff=N and more Orders in --counts for them to have some\n"
            ), "\(result.output)")
        let values = try medians(folder)
        #expect(values["120 fetch-Customer rows_read"] == 30)
        #expect(values["120 fetch-Order rows_read"] == 120)
        #expect(values["120 fetch-Staff rows_read"] == 30)
        #expect(values["120 count-Customer.orders-fetch sql_statements"] == 30)
        #expect(values.keys.allSatisfy { $0.hasPrefix("120 ") })
        let info = try RunInfo.load(folder.appendingPathComponent("run.json").path)
        guard case let .generated(_, options)? = info.scenarioOrigins?["model-Shop"] else {
            Issue.record("run.json records no generated origin")
            return
        }
        #expect(options.counts == ["Customer": 30, "Order": 120])
        let explain = try CommandLineTests.bench([
            "explain", "--model", Self.shop, "--counts", "Customer=30,Order=120", "--phase", "fetch-Order", "--max-lines", "0",
        ])
        #expect(explain.status == 0 && explain.output.contains("explain model-Shop: strategy objectgraph, no variant, size 120"))
        #expect(explain.output.contains("rows_read=120"), "\(explain.output)")
        let abstract = try CommandLineTests.bench(["run", "--model", Self.shop, "--counts", "Account=5", "--allow-debug"])
        #expect(
            abstract.status == 64
                && abstract.error == "bench: error: --counts: 'Account' is abstract; give counts of its sub-entities (Customer, Staff)\n")
        let unknown = try CommandLineTests.bench(["run", "--model", Self.shop, "--counts", "Custmer=5", "--allow-debug"])
        #expect(
            unknown.error
                == "bench: error: --counts: the model has no entity 'Custmer' (did you mean 'Customer'?); its entities are Customer, Staff, Address, Delivery, Order, OrderLine, Product\n"
        )
    }

    @Test func helpSpeaksOfTheModelInUse() throws {
        let help = try CommandLineTests.bench(["explain", "--help"])
        #expect(!help.output.lowercased().contains("student"), "\(help.output)")
        #expect(help.output.contains("--counts") && help.output.contains("--shape-from"))
        let lint = try CommandLineTests.bench(["lint", "--help"])
        #expect(lint.output.contains("--against <against>") && lint.output.contains("lightweight migration"))
    }
}
