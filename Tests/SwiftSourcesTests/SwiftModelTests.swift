import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import BenchKit

#if SwiftSources
@testable import SwiftSources
#endif

/// The folder of this target's fixtures, and the bench binary built beside the tests.
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// `bench` with `arguments`, run in the repository (`BenchBinary.run`).
    static func bench(_ arguments: [String]) throws -> BenchBinary.Result { try BenchBinary.run(arguments) }

    static func temporaryFolder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("relbench-\(name)-\(UUID().uuidString.prefix(8))")
    }
}

/// Without the SwiftSources trait, a Swift path and `bench scan` are one line saying how to build the feature.
@Suite struct WithoutTheFeatureTests {
    @Test(.enabled(if: !ModelSource.readsSwiftSources, "skipped: this build reads Swift sources (the SwiftSources trait)"))
    func aSwiftPathOrAScanSaysHowToBuildTheFeature() throws {
        for arguments in [
            ["schema", Fixtures.path("TripsModel")], ["scan", Fixtures.path("TravelApp")],
            ["lint", Fixtures.path("TripsModel/SchemaV2.swift")],
        ] {
            let result = try Fixtures.bench(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
            #expect(result.error.contains("swift build -c release --traits SwiftSources"), "\(result.error)")
            #expect(!result.error.contains("Fatal error"))
        }
        // An Xcode model still reads as before.
        #expect(try Fixtures.bench(["schema", Fixtures.path("Trips.xcdatamodeld")]).status == 0)
    }
}

#if SwiftSources
/// SwiftData `@Model` sources read as models: every construct, versions, and the commands on them.
@Suite struct SwiftModelTests {
    static let swift = Fixtures.path("TripsModel")
    static let xcode = Fixtures.path("Trips.xcdatamodeld")

    /// The fixture uses every construct the reader knows; the same model written by hand as an Xcode model makes the
    /// same store, statement for statement.
    @Test func aSwiftDataModelAndTheSameModelWrittenInXcodeGiveIdenticalDDL() throws {
        let fromSwift = try ModelFile(path: Self.swift)
        let fromXcode = try ModelFile(path: Self.xcode)
        #expect(fromSwift.schemaSQL == fromXcode.schemaSQL)
        #expect(fromSwift.schemaSQL.count == 24)
        // bench schema prints the same DDL for both, the Swift one with its inferences as notes.
        let swift = try Fixtures.bench(["schema", Self.swift])
        let xcode = try Fixtures.bench(["schema", Self.xcode])
        #expect(swift.status == 0 && xcode.status == 0, "\(swift.error) \(xcode.error)")
        let ddl = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("-- note:") } }
        #expect(ddl(swift.output) == ddl(xcode.output))
        for inference in [
            "Trip.location: Codable struct Location stored as a composite attribute", "enum TripStatus stored as its String raw value",
            "enum Transport with associated values stored as its Codable encoding", "Trip.isExpanded: .ephemeral",
            "Trip.cachedSummary: @Transient, not stored", "Traveler.trips ↔ Trip.travelers: inverse inferred",
            "Traveler.mentor ↔ Traveler.mentees: inverse inferred", "#Index gives fetch indexes Z_Trip_startDate, Z_Trip_name_endDate",
            "migration plan TripsMigrationPlan", "TripsSchemaV1 → TripsSchemaV2 lightweight", "persistent history tracking",
            "non-optional array relationships read as optional",
        ] {
            #expect(swift.output.contains(inference), "\(inference)")
        }
    }

    @Test func everyConstructIsReadAsCoreDataStoresIt() throws {
        let model = try ModelSource.load(path: Self.swift)
        let compiled = try model.makeModel()
        let trip = try #require(compiled.entity("Trip"))
        #expect(trip.attribute("code")?.type == .string)
        #expect(trip.attribute("nights")?.type == .int16)
        #expect(trip.attribute("travelerCount")?.type == .int32)
        #expect(trip.attribute("bookingNumber")?.type == .int64 && trip.attribute("bookingNumber")?.isOptional == true)
        #expect(trip.attribute("budget")?.type == .decimal)
        #expect(trip.attribute("rating")?.type == .float)
        #expect(trip.attribute("website")?.type == .uri)
        #expect(trip.attribute("externalID")?.type == .uuid)
        #expect(trip.attribute("priority")?.type == .int64 && trip.attribute("priority")?.defaultValue == .int(1))
        #expect(trip.attribute("status")?.defaultValue == .string("planned"))
        #expect(trip.attribute("notes")?.defaultValue == .string(""))
        #expect(trip.attribute("color")?.valueTransformerName == "ColorValueTransformer")
        #expect(trip.attribute("isExpanded")?.isTransient == true)
        #expect(trip.attribute("cachedSummary") == nil && trip.attribute("summary") == nil)
        #expect(trip.attribute("location_latitude")?.type == .double && trip.attribute("location_label")?.isOptional == true)
        #expect(trip.relationship("expenses")?.deleteRule == .cascade)
        #expect(trip.relationship("travelers")?.deleteRule == .deny)
        #expect(trip.relationship("travelers")?.minCount == 1 && trip.relationship("travelers")?.maxCount == 8)
        #expect(trip.relationship("photos")?.deleteRule == .noAction)
        #expect(trip.relationship("destination")?.inverse?.name == "trips")
        #expect(trip.relationship("tags")?.inverse == nil)
        #expect(trip.uniquenessConstraints == [["code"], ["name", "startDate"]])
        #expect(compiled.entity("BusinessTrip")?.superentity?.name == "Trip")
        #expect(model.renamingIdentifiers["Trip.name"] == "title")
        #expect(model.versions == ["TripsSchemaV1", "TripsSchemaV2"])
        #expect(model.version == "TripsSchemaV2" && model.isCurrentVersion)
    }

    /// `bench lint --against` a VersionedSchema: what lightweight migration from it cannot infer, the renamed
    /// property (originalName) followed, and a version that does not exist refused with the versions there are.
    @Test func lintAgainstAnEarlierVersionedSchema() throws {
        let result = try Fixtures.bench(["lint", Self.swift, "--against", "TripsSchemaV1"])
        #expect(result.status == 1, "\(result.error)")
        // `problem [migration-...] Trip.code: ...`: the subject between the rule id and the first colon.
        let subjects = result.output.split(separator: "\n").filter { $0.contains(" [migration-") }.map {
            String($0.drop { $0 != "]" }.dropFirst(2).prefix { $0 != ":" })
        }
        #expect(subjects == ["Trip", "Trip.code", "Trip.location_latitude", "Trip.location_longitude"], "\(result.output)")
        #expect(!result.output.contains("Trip.name"), "the renamed property is followed through originalName")
        #expect(try Fixtures.bench(["lint", Self.swift, "--against", "1.0.0"]).output == result.output)
        let missing = try Fixtures.bench(["lint", Self.swift, "--against", "TripsSchemaV9"])
        #expect(missing.status == 64)
        #expect(missing.error.contains("its versions are TripsSchemaV1, TripsSchemaV2"))
    }

    /// The generated suite runs on a SwiftData model, explain traces it, and --shape-from reads a store of it.
    @Test func runExplainAndShapeFromWorkOnASwiftDataModel() throws {
        let folder = Fixtures.temporaryFolder("swift-model")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let run = try Fixtures.bench([
            "run", "--model", Self.swift, "--profile", "smoke", "--allow-debug", "--no-history", "--quiet",
            "--output", folder.appendingPathComponent("run").path,
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("run/summary.csv").path))
        let explain = try Fixtures.bench(["explain", "--model", Self.swift, "--phase", "walk-Trip.destination", "--size", "5"])
        #expect(explain.status == 0, "\(explain.error)")
        #expect(explain.output.contains("FROM ZTRIP t0"))
        // A store made from the model (as an app's default.store is), its shape read back.
        let suite = try GeneratedSuite.scenario(modelPath: Self.swift)
        let plan = try suite.declared.plan(for: suite.variants[0])
        let store = folder.appendingPathComponent("default.store").path
        _ = try GraphFiller.fill(plan.generator.make(size: 30, seed: 7), model: plan.model, location: .file(store), options: StoreOptions())
        let shaped = try Fixtures.bench(["explain", "--model", Self.swift, "--shape-from", store, "--phase", "fetch-Trip"])
        #expect(shaped.status == 0, "\(shaped.error)")
        #expect(shaped.output.contains("default.store"), "\(shaped.output.prefix(400))")
    }

    /// A real SwiftData store's layout, reproduced from sources written the same way (sergd2005/ResourcesManager's
    /// default.store: `@Attribute(.unique) var name`, `let id = UUID()`, `var count: Int = 1`, two pairs of
    /// relationships declared on both sides with no inverse named).
    @Test func inversesAreInferredAsARealStoresModelCacheShows() throws {
        let folder = Fixtures.temporaryFolder("real-layout")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        import SwiftData
        @Model final class Item {
            @Attribute(.unique) var name: String
            var craftingRecipe: CraftingRecipe?
            init(name: String) { self.name = name }
        }
        @Model final class Component {
            let id = UUID()
            var count: Int = 1
            var item: Item?
            var craftingRecipe: CraftingRecipe?
            init() {}
        }
        @Model final class CraftingRecipe {
            var requiredComponents: [Component] = []
            var producedItemCount = "1"
            var producedItem: Item?
            init() {}
        }
        """.write(to: folder.appendingPathComponent("Items.swift"), atomically: true, encoding: .utf8)
        let schema = try ModelFile(path: folder.path).schemaSQL
        // The store's own DDL (its history tables left out), in its order.
        #expect(
            schema.prefix(8) == [
                "CREATE TABLE ZCOMPONENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOUNT INTEGER, ZCRAFTINGRECIPE INTEGER, ZITEM INTEGER, ZID BLOB )",
                "CREATE INDEX ZCOMPONENT_ZCRAFTINGRECIPE_INDEX ON ZCOMPONENT (ZCRAFTINGRECIPE)",
                "CREATE INDEX ZCOMPONENT_ZITEM_INDEX ON ZCOMPONENT (ZITEM)",
                "CREATE TABLE ZCRAFTINGRECIPE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPRODUCEDITEM INTEGER, ZPRODUCEDITEMCOUNT VARCHAR )",
                "CREATE INDEX ZCRAFTINGRECIPE_ZPRODUCEDITEM_INDEX ON ZCRAFTINGRECIPE (ZPRODUCEDITEM)",
                "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCRAFTINGRECIPE INTEGER, ZNAME VARCHAR )",
                "CREATE INDEX ZITEM_ZCRAFTINGRECIPE_INDEX ON ZITEM (ZCRAFTINGRECIPE)",
                "CREATE UNIQUE INDEX Z_Item_UNIQUE_name ON ZITEM (ZNAME COLLATE BINARY ASC)",
            ])
    }

    /// A property written without a type whose initial value makes an empty collection by its type (`[Shelf]()`,
    /// `Set<String>()`) has that type: a relationship with the inverse the other side names, not a skipped property
    /// (which left the other side a to-many without inverse, and lint a false many-to-nil loss).
    @Test func anEmptyCollectionMadeByItsTypeHasThatType() throws {
        let folder = Fixtures.temporaryFolder("collection-initializer")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        import SwiftData
        @Model final class Jar {
            var label = ""
            @Relationship(inverse: \\Shelf.jars) var shelves = [Shelf]()
            var notes = [String]()
            init() {}
        }
        @Model final class Shelf {
            var title = ""
            @Relationship var jars: [Jar] = []
            var tags = Set<String>()
            var sizes = [String: Int]()
            init() {}
        }
        """.write(to: folder.appendingPathComponent("Pantry.swift"), atomically: true, encoding: .utf8)
        let model = try ModelSource.load(path: folder.path)
        #expect(!model.notes.contains { $0.contains("no type written") }, "\(model.notes)")
        let compiled = try model.makeModel()
        let jar = try #require(compiled.entity("Jar"))
        #expect(jar.relationship("shelves")?.isToMany == true && jar.relationship("shelves")?.inverse?.name == "jars")
        #expect(jar.attribute("notes")?.type == .transformable)
        let shelf = try #require(compiled.entity("Shelf"))
        #expect(shelf.attribute("tags")?.type == .transformable && shelf.attribute("sizes")?.type == .transformable)
        let lint = try Fixtures.bench(["lint", folder.path])
        #expect(lint.status == 0 && !lint.output.contains("many-to-nil"), "\(lint.output)\(lint.error)")
    }

    /// Sources that are not a model are one line each, and the reader never crashes on text that is not Swift.
    @Test func badSourcesAreOneLineAndGarbageDoesNotCrash() throws {
        let folder = Fixtures.temporaryFolder("bad-sources")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "struct NotAModel {}".write(to: folder.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        let none = try Fixtures.bench(["schema", folder.path])
        #expect(none.status == 64 && none.error.contains("no @Model class"), "\(none.error)")
        let missing = try Fixtures.bench(["schema", folder.appendingPathComponent("Missing.swift").path])
        #expect(missing.status == 64 && missing.error.split(separator: "\n").count == 1, "\(missing.error)")
        var generator = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let pieces = [
                "@Model", "class", "var", ":", "[", "]", "?", "=", "{", "}", "(", ")", "#Unique<", ">", "\\.", "x", "Int",
                "@Relationship(inverse: \\X.y)", "\n", "enum", "struct", "\u{FFFD}",
            ]
            let text = (0..<60).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: " ")
            try text.write(to: folder.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
            do {
                let model = try ModelSource.load(path: folder.path)
                _ = try? model.makeModel()
            } catch is BenchError {
                continue
            } catch {
                Issue.record("round \(round): \(error)")
            }
        }
    }
}
#endif
