import Foundation
import Testing

@testable import BenchKit

/// The exact counters of every scenario at size 100 (2 classes of 50), from the shipped scenario files.
@Suite struct ScenarioCountersTests {
    static let scenariosFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios").path

    /// Measured counters by "scenario strategy variant phase metric".
    static let measured: [String: Double] = {
        let catalog = try! ScenarioCatalog(folder: scenariosFolder)
        var request = RunRequest(scenarios: catalog.scenarios)
        request.sizes = [100]
        request.repetitions = 1
        request.warmup = 0
        let plan = try! RunPlan(request)
        let samples = try! Runner(request: request, plan: plan, folder: nil, progress: nil).run()
        var values: [String: Double] = [:]
        for sample in samples {
            let key = sample.key
            values["\(key.scenario) \(key.strategy) \(key.variant) \(key.phase) \(key.metric.rawValue)"] = sample.value
        }
        return values
    }()

    private func check(
        _ scenario: String, _ strategy: String, _ variant: String, _ phase: String,
        statements: Int, objectFaults: Int? = nil, relationshipFaults: Int? = nil, rows: Int? = nil,
        registered: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        func value(_ metric: String) -> Double? { Self.measured["\(scenario) \(strategy) \(variant) \(phase) \(metric)"] }
        let label = "\(scenario) \(strategy) \(variant) \(phase)"
        #expect(value("sql_statements") == Double(statements), "\(label)", sourceLocation: sourceLocation)
        if let objectFaults { #expect(value("object_faults") == Double(objectFaults), "\(label)", sourceLocation: sourceLocation) }
        if let relationshipFaults {
            #expect(value("relationship_faults") == Double(relationshipFaults), "\(label)", sourceLocation: sourceLocation)
        }
        if let rows { #expect(value("rows_read") == Double(rows), "\(label)", sourceLocation: sourceLocation) }
        if let registered { #expect(value("objects_registered") == Double(registered), "\(label)", sourceLocation: sourceLocation) }
    }

    /// The floor replays ObjectGraph's statements: its statements and rows equal ObjectGraph's in every phase of
    /// every scenario, by construction.
    @Test func theFloorRunsObjectGraphsStatements() {
        let graph = Self.measured.filter {
            $0.key.contains(" objectgraph ") && ($0.key.hasSuffix(" sql_statements") || $0.key.hasSuffix(" rows_read"))
        }
        #expect(graph.count > 250)
        for (key, value) in graph {
            #expect(Self.measured[key.replacingOccurrences(of: " objectgraph ", with: " sql-replay ")] == value, "\(key)")
        }
    }

    @Test func insert() {
        // Core Data's two transactions: BEGIN, SELECT + UPDATE of Z_PRIMARYKEY for two entities, the new store's
        // auto-vacuum check (2 pragmas), COMMIT; BEGIN, one INSERT per row, COMMIT; then pragma page_count and
        // freelist_count. Rows: the two Z_MAX values and the three pragmas' answers.
        // The raw peer of each modelling writes the same rows in the same two transactions.
        let save = 8 + 2 + 2
        for strategy in ["many-to-one", "many-to-nil", "manual-fk"] {
            check("insert", "objectgraph", "modelling=" + strategy, "insert", statements: save + 2 + 100, rows: 5)
            check("insert", "raw-sqlite", "modelling=" + strategy, "insert", statements: save + 2 + 100, rows: 5)
        }
        check(
            "insert", "objectgraph", "modelling=many-to-many", "insert", statements: save + 2 + 100 + 100, objectFaults: 0, rows: 5,
            registered: 102)
        check("insert", "raw-sqlite", "modelling=many-to-many", "insert", statements: save + 2 + 100 + 100, rows: 5)
        for strategy in ["one-to-one", "one-to-nil"] {
            check("insert", "objectgraph", "modelling=" + strategy, "insert", statements: save + 100 + 100, rows: 5)
            check("insert", "raw-sqlite", "modelling=" + strategy, "insert", statements: save + 100 + 100, rows: 5)
        }
        check("insert", "objectgraph", "modelling=one-to-one", "insert", statements: save + 100 + 100, rows: 5, registered: 200)
        // GRDB: BEGIN, one INSERT per record (and per join row), COMMIT, and its schema introspection of each table
        // it writes; the to-one modellings first read the next free keys (2 statements).
        for strategy in ["many-to-one", "many-to-nil", "manual-fk"] {
            check("insert", "grdb", "modelling=" + strategy, "insert", statements: 2 + 102 + 4)
        }
        check("insert", "grdb", "modelling=many-to-many", "insert", statements: 2 + 202 + 6)
        for strategy in ["one-to-one", "one-to-nil"] {
            check("insert", "grdb", "modelling=" + strategy, "insert", statements: 2 + 2 + 200 + 4)
        }
    }

    @Test func query() {
        for strategy in ["many-to-one", "many-to-nil", "many-to-many"] {
            check(
                "query", "objectgraph", "modelling=\(strategy);prefetch=off", "fetch-all", statements: 1, objectFaults: 0, rows: 100,
                registered: 100)
            // One fetch of the classes, one to-many fault per class; the members' rows are already registered.
            check(
                "query", "objectgraph", "modelling=\(strategy);prefetch=off", "walk", statements: 3, objectFaults: 0, relationshipFaults: 2,
                rows: 102)
            check(
                "query", "objectgraph", "modelling=\(strategy);prefetch=on", "walk", statements: 2, objectFaults: 0, relationshipFaults: 0,
                rows: 102)
        }
        check(
            "query", "objectgraph", "modelling=manual-fk;prefetch=off", "walk", statements: 3, objectFaults: 0, relationshipFaults: 0,
            rows: 102)
        check("query", "objectgraph", "modelling=manual-fk;prefetch=on", "walk", statements: 2, rows: 102)
        // The raw peers read rows directly: one statement per class, or one with prefetching, whatever the modelling.
        for modelling in ["many-to-one", "many-to-many", "many-to-nil", "manual-fk"] {
            check("query", "raw-sqlite", "modelling=\(modelling);prefetch=off", "fetch-all", statements: 1, rows: 100)
            check("query", "raw-sqlite", "modelling=\(modelling);prefetch=off", "walk", statements: 3, rows: 102)
            check("query", "raw-sqlite", "modelling=\(modelling);prefetch=on", "walk", statements: 2, rows: 102)
            // GRDB reads in a transaction: BEGIN, the query or queries, COMMIT, and its own schema queries (on the
            // store ObjectGraph filled it introspects the two tables an association joins: PRAGMA table_xinfo).
            check("query", "grdb", "modelling=\(modelling);prefetch=off", "fetch-all", statements: 5)
        }
        for modelling in ["many-to-one", "many-to-many", "many-to-nil"] {
            check("query", "grdb", "modelling=\(modelling);prefetch=off", "walk", statements: 10)
            check("query", "grdb", "modelling=\(modelling);prefetch=on", "walk", statements: 9)
        }
        check("query", "grdb", "modelling=manual-fk;prefetch=off", "walk", statements: 8)
        check("query", "grdb", "modelling=manual-fk;prefetch=on", "walk", statements: 7)
    }

    @Test func faulting() {
        // Seed 000: student.address.name costs 2 fetches, student.subjects.first.name 3.
        for strategy in ["one-to-one", "one-to-nil"] {
            check(
                "faulting", "objectgraph", "modelling=" + strategy, "first", statements: 2, objectFaults: 1, relationshipFaults: 0,
                rows: 101)
            check(
                "faulting", "objectgraph", "modelling=" + strategy, "every", statements: 101, objectFaults: 100, relationshipFaults: 0,
                rows: 200)
        }
        for strategy in ["many-to-many", "many-to-nil"] {
            check(
                "faulting", "objectgraph", "modelling=" + strategy, "first", statements: 3, objectFaults: 1, relationshipFaults: 1,
                rows: 103)
            check(
                "faulting", "objectgraph", "modelling=" + strategy, "every", statements: 201, objectFaults: 100, relationshipFaults: 100,
                rows: 400)
        }
        // The peers read a student's address or subjects with one statement that returns the rows themselves.
        for modelling in ["one-to-one", "one-to-nil", "many-to-many", "many-to-nil"] {
            let subjects = modelling.hasPrefix("many")
            check("faulting", "raw-sqlite", "modelling=" + modelling, "first", statements: 2, rows: subjects ? 102 : 101)
            check("faulting", "raw-sqlite", "modelling=" + modelling, "every", statements: 101, rows: subjects ? 300 : 200)
            check("faulting", "grdb", "modelling=" + modelling, "first", statements: subjects ? 9 : 8)
            check("faulting", "grdb", "modelling=" + modelling, "every", statements: 105)
        }
    }

    @Test func findMember() {
        // Ten lookups, each: the class, then one statement (fetch) or a to-many fault plus a fault per member looked at.
        check("find-member", "objectgraph", "modelling=many-to-one;option=fetch", "find", statements: 20, objectFaults: 0, rows: 20)
        // The walk faults the members before the one it looks for: where it sits in the class is seeded-random (the
        // targets are the data section's, drawn by the phase's variables), 421 members looked at in all here.
        check(
            "find-member", "objectgraph", "modelling=many-to-one;option=walk", "find", statements: 441, objectFaults: 421,
            relationshipFaults: 10, rows: 1431)
        check("find-member", "objectgraph", "modelling=manual-fk;option=fetch", "find", statements: 20, rows: 20)
        check("find-member", "objectgraph", "modelling=manual-fk;option=walk", "find", statements: 20, rows: 1010)
        for modelling in ["many-to-one", "manual-fk"] {
            check("find-member", "raw-sqlite", "modelling=\(modelling);option=fetch", "find", statements: 20, rows: 20)
            check("find-member", "raw-sqlite", "modelling=\(modelling);option=walk", "find", statements: 20, rows: 1010)
        }
        check("find-member", "grdb", "modelling=many-to-one;option=fetch", "find", statements: 67)
        check("find-member", "grdb", "modelling=many-to-one;option=walk", "find", statements: 64)
        check("find-member", "grdb", "modelling=manual-fk;option=fetch", "find", statements: 66)
        check("find-member", "grdb", "modelling=manual-fk;option=walk", "find", statements: 63)
    }

    @Test func prefetch() {
        // Without prefetching: N+1, with the destinations' faults; with it: one query per key path.
        // The fetch returns faults (Core Data's default): each student's fault fires from the row cache as its class is read.
        check("prefetch", "objectgraph", "keyPath=to-one;prefetch=off", "walk", statements: 3, objectFaults: 102, rows: 102)
        check("prefetch", "objectgraph", "keyPath=to-one;prefetch=on", "walk", statements: 2, objectFaults: 100, rows: 102)
        check("prefetch", "objectgraph", "keyPath=to-many;prefetch=off", "walk", statements: 103, objectFaults: 100, relationshipFaults: 2)
        check("prefetch", "objectgraph", "keyPath=to-many;prefetch=on", "walk", statements: 2, objectFaults: 0, relationshipFaults: 0)
        check(
            "prefetch", "objectgraph", "keyPath=many-to-many;prefetch=off", "walk", statements: 121, objectFaults: 20,
            relationshipFaults: 100, rows: 420)
        check("prefetch", "objectgraph", "keyPath=many-to-many;prefetch=on", "walk", statements: 2, objectFaults: 0, rows: 400)
        check("prefetch", "objectgraph", "keyPath=nested;prefetch=off", "walk", statements: 203, objectFaults: 200, relationshipFaults: 2)
        check("prefetch", "objectgraph", "keyPath=nested;prefetch=on", "walk", statements: 3, objectFaults: 0, rows: 202)
        check("prefetch", "raw-sqlite", "keyPath=to-one;prefetch=off", "walk", statements: 101, rows: 200)
        check("prefetch", "raw-sqlite", "keyPath=many-to-many;prefetch=on", "walk", statements: 2, rows: 400)
        check("prefetch", "raw-sqlite", "keyPath=nested;prefetch=off", "walk", statements: 103, rows: 202)
    }

    @Test func batchSize() {
        // IDs first, then one statement per batch touched; only the last batch stays registered.
        check("batch-size", "objectgraph", "batch=0;access=all", "fetch", statements: 1, rows: 100, registered: 100)
        check("batch-size", "objectgraph", "batch=10;access=first-screen", "fetch", statements: 3, rows: 120, registered: 10)
        check("batch-size", "objectgraph", "batch=10;access=all", "fetch", statements: 11, rows: 200, registered: 10)
        check("batch-size", "objectgraph", "batch=20;access=first-screen", "fetch", statements: 2, rows: 120, registered: 20)
        check("batch-size", "objectgraph", "batch=50;access=all", "fetch", statements: 3, rows: 200, registered: 50)
        check("batch-size", "objectgraph", "batch=1000;access=all", "fetch", statements: 2, rows: 200, registered: 100)
        check("batch-size", "raw-sqlite", "batch=10;access=all", "fetch", statements: 11, rows: 200)
    }

    @Test func dataLoss() {
        // The seed example: 2 subjects and 2 students inserted, then students and their subjects re-read.
        // (Each save: two transactions and the new store's auto-vacuum check, 6 statements more than one transaction.)
        check("data-loss", "objectgraph", "modelling=many-to-nil;duplicates=0", "seed-example", statements: 16 + 2, rows: 9)
        check("data-loss", "objectgraph", "modelling=many-to-many;duplicates=0", "seed-example", statements: 16 + 3 + 2, rows: 10)
        func value(_ strategy: String, _ variant: String, _ metric: String) -> Double? {
            Self.measured["data-loss objectgraph modelling=\(strategy);\(variant) save-and-reread \(metric)"]
        }
        for duplicates in ["0", "0.01", "0.1", "0.5"] {
            #expect(value("many-to-many", "duplicates=\(duplicates)", "links_lost") == 0)
            #expect(value("many-to-many", "duplicates=\(duplicates)", "links_persisted") == 200)
        }
        #expect(Self.measured["data-loss objectgraph modelling=many-to-nil;duplicates=0 seed-example links_lost"] == 1)
        #expect(Self.measured["data-loss objectgraph modelling=many-to-many;duplicates=0 seed-example links_lost"] == 0)
    }
}
