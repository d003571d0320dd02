import Foundation
import ObjectGraph
import Testing

@testable import BenchKit

/// Work that grows with a model grows linearly (issue 41, item 7): the growth exponent of the work done, counted as
/// heap allocations (every allocation this thread makes, SQLite's and Foundation's included; in a debug build, where
/// this runs, a loop over an array allocates once per element, so the count follows the loops too) and bytes allocated, on
/// three sizes of an inheritance chain and of a model of many entities. Counts, not times: exact on any machine.
/// (Before: `bench schema` and `bench lint` on a chain of depth d were O(d³); the model work of `bench explain
/// --model` on n entities O(n²).)
@Suite struct GrowthTests {
    /// The exponent a doubling may show: n log n doubles to 2.2× at these sizes, n² to 4×.
    static let limit = 1.25

    /// `bench schema` and `bench lint` read a model through `ModelFile`: XML, compile, schema, findings.
    @Test func schemaAndLintOfAnInheritanceChainGrowLinearlyWithItsDepth() throws {
        try Self.expectLinear("a chain of depth d (ModelFile: schema and lint)", sizes: [150, 300, 600]) { depth in
            let path = try Self.write(Self.chain(depth: depth), name: "Chain")
            let file = try ModelFile(path: path)
            #expect(file.schemaSQL.count >= 1)
        }
    }

    @Test func schemaLintAndTheGeneratedSuiteOfManyEntitiesGrowLinearly() throws {
        try Self.expectLinear("n entities in a ring (ModelFile and GeneratedSuite.scenario)", sizes: [100, 200, 400]) { count in
            let path = try Self.write(Self.ring(count), name: "Ring")
            _ = try ModelFile(path: path)
            _ = try GeneratedSuite.scenario(modelPath: path)
        }
    }

    /// `bench explain --model` runs the generated suite (about ten phases per entity) twice: the work grows linearly.
    /// Before, each prepared phase (one delete per entity) opened a new connection, which parses the schema of every
    /// entity's table, a quadratic term small at these sizes beside the linear work: the old way's allocations show
    /// exponents 1.12 and 1.16 (bytes 1.06, 1.16), this way's 1.07 and 1.06 (bytes 0.97, 1.00); hence a limit of 1.12.
    @Test func explainingTheGeneratedSuiteOfManyEntitiesGrowsLinearly() throws {
        try Self.expectLinear("n entities in a ring (bench explain --model)", sizes: [20, 40, 80], limit: 1.12) { count in
            let path = try Self.write(Self.ring(count), name: "Ring")
            let scenario = try GeneratedSuite.scenario(modelPath: path)
            var lines = 0
            var explanation = Explanation(scenario: scenario, strategy: .objectGraph, variant: scenario.variants[0], size: 5)
            // RELBENCH_GROWTH_REOPEN=1 runs the old way (a new copy per prepared phase), to see this test fail.
            explanation.undoesChanges = ProcessInfo.processInfo.environment["RELBENCH_GROWTH_REOPEN"] == nil
            try explanation.run { _ in lines += 1 }
            #expect(lines > count * 10)
        }
    }

    /// A context (one per phase) costs the same whatever the number of entities: its key tables are made as it
    /// registers objects, not one per entity up front.
    @Test func aContextCostsTheSameWhateverTheModelsEntities() throws {
        guard AllocationCounter.isAvailable else {
            print("GrowthTests: skipped, allocations are not counted on this platform (glibc only)")
            return
        }
        var costs: [Int: UInt64] = [:]
        for count in [100, 800] {
            let model = try XcodeModel.load(path: try Self.write(Self.ring(count), name: "Ring")).makeModel()
            let store = try PersistentStore(model: model, location: .inMemory)
            var made = 0
            let before = AllocationCounter.readThisThread()!.allocations
            for _ in 0..<20 {
                let context = store.makeContext()
                made += context.registeredObjectCount
            }
            costs[count] = AllocationCounter.readThisThread()!.allocations - before
            #expect(made == 0)
        }
        #expect(costs[800]! <= costs[100]! + 20, "allocations of 20 contexts: \(costs)")
    }

    // MARK: Counting

    static func expectLinear(
        _ what: String, sizes: [Int], limit: Double = GrowthTests.limit, sourceLocation: SourceLocation = #_sourceLocation,
        _ work: (Int) throws -> Void
    )
        throws
    {
        guard AllocationCounter.isAvailable else {
            print("GrowthTests: skipped (\(what)), allocations are not counted on this platform (glibc only)")
            return
        }
        try work(sizes[0]) // warms caches made once per process (the XML parser's, Foundation's)
        var allocations: [Double] = []
        var bytes: [Double] = []
        for size in sizes {
            let before = AllocationCounter.readThisThread()!
            try work(size)
            let after = AllocationCounter.readThisThread()!
            allocations.append(Double(after.allocations - before.allocations))
            bytes.append(Double(after.bytes - before.bytes))
        }
        let countExponents = exponents(sizes, allocations)
        let byteExponents = exponents(sizes, bytes)
        print(
            "GrowthTests: \(what) at \(sizes): allocations \(allocations.map { Int($0) }), exponents \(countExponents.map { String(format: "%.2f", $0) }); bytes \(bytes.map { Int($0) }), exponents \(byteExponents.map { String(format: "%.2f", $0) })"
        )
        for exponent in countExponents + byteExponents {
            #expect(exponent <= limit, "\(what): allocations \(allocations), bytes \(bytes) at \(sizes)", sourceLocation: sourceLocation)
        }
    }

    /// log(w₂/w₁) / log(n₂/n₁) for each step of the sizes.
    static func exponents(_ sizes: [Int], _ work: [Double]) -> [Double] {
        zip(zip(sizes, sizes.dropFirst()), zip(work, work.dropFirst())).map { size, counted in
            log(counted.1 / counted.0) / log(Double(size.1) / Double(size.0))
        }
    }

    // MARK: Models

    static func write(_ contents: String, name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-growth-\(UUID().uuidString)")
            .appendingPathComponent("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try contents.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return folder.path
    }

    static func model(_ entities: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(entities.joined(separator: "\n"))
        </model>
        """
    }

    /// E0 ← E1 ← ... ← E(depth-1), each declaring an attribute, a to-one to a Tag and, every tenth, an index; Tag has
    /// the inverse to-many of the root's.
    static func chain(depth: Int) -> String {
        var entities = (0..<depth).map { level in
            let parent = level == 0 ? "" : " parentEntity=\"E\(level - 1)\""
            let index =
                level % 10 == 0
                ? "<fetchIndex name=\"byA\(level)\"><fetchIndexElement property=\"a\(level)\" type=\"Binary\" order=\"ascending\"/></fetchIndex>"
                : ""
            let tag =
                level == 0
                ? "<relationship name=\"tag\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Tag\" inverseName=\"items\" inverseEntity=\"Tag\"/>"
                : ""
            return """
                <entity name="E\(level)" representedClassName="E\(level)"\(parent) syncable="YES">
                <attribute name="a\(level)" optional="YES" attributeType="String"/>\(tag)\(index)
                </entity>
                """
        }
        entities.append(
            """
            <entity name="Tag" representedClassName="Tag" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="E0" inverseName="tag" inverseEntity="E0"/>
            </entity>
            """)
        return model(entities)
    }

    /// scripts/dev/generate_model.py's model: n entities in a ring (a to-one to the next, its inverse to-many), every
    /// tenth with a many-to-many to the one five on.
    static func ring(_ count: Int) -> String {
        func name(_ index: Int) -> String { "Entity" + String(format: "%05d", (index + count) % count) }
        return model(
            (0..<count).map { index in
                var lines = [
                    "<entity name=\"\(name(index))\" representedClassName=\"\(name(index))\" syncable=\"YES\">",
                    "<attribute name=\"title\" optional=\"YES\" attributeType=\"String\"/>",
                    "<attribute name=\"rank\" optional=\"YES\" attributeType=\"Integer 64\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/>",
                    "<attribute name=\"created\" optional=\"YES\" attributeType=\"Date\" usesScalarValueType=\"NO\"/>",
                    "<relationship name=\"next\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"\(name(index + 1))\" inverseName=\"previous\" inverseEntity=\"\(name(index + 1))\"/>",
                    "<relationship name=\"previous\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"\(name(index - 1))\" inverseName=\"next\" inverseEntity=\"\(name(index - 1))\"/>",
                ]
                if index % 10 == 0 {
                    lines.append(
                        "<relationship name=\"peers\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"\(name(index + 5))\" inverseName=\"peerOf\" inverseEntity=\"\(name(index + 5))\"/>"
                    )
                }
                if index % 10 == 5 {
                    lines.append(
                        "<relationship name=\"peerOf\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"\(name(index - 5))\" inverseName=\"peers\" inverseEntity=\"\(name(index - 5))\"/>"
                    )
                }
                return (lines + ["</entity>"]).joined(separator: "\n")
            })
    }
}
