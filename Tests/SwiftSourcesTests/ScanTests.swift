#if SwiftSources
import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import BenchKit
@testable import SwiftSources

/// `bench scan` on a fixture app of SwiftUI and UIKit screens over a SwiftData model and a Core Data one: every fetch
/// site listed, exactly the N+1s flagged with file and line and the edit in the site's own API, and nothing left once
/// the edits are applied (the second fixture is the same app with them).
@Suite(.serialized) struct ScanTests {
    static let app = Fixtures.path("TravelApp")
    static let fixed = Fixtures.path("TravelAppFixed")

    /// Every site of the app: file:line, API, entity.
    static let sites = [
        "CoreDataScreens/AuthorsViewController.swift:11 NSFetchedResultsController Author",
        "CoreDataScreens/BookListView.swift:6 @FetchRequest Book",
        "CoreDataScreens/LibraryStore.swift:11 NSFetchRequest Book",
        "CoreDataScreens/LibraryStore.swift:25 by identifier Loan",
        "CoreDataScreens/LibraryStore.swift:31 NSFetchRequest Genre",
        "CoreDataScreens/LoansView.swift:6 @FetchRequest Loan",
        "SwiftDataScreens/DestinationsView.swift:12 @Query Destination",
        "SwiftDataScreens/ExpenseReport.swift:9 FetchDescriptor Expense",
        "SwiftDataScreens/ExpenseReport.swift:18 FetchDescriptor Trip",
        "SwiftDataScreens/SearchView.swift:6 @Query Trip",
        "SwiftDataScreens/TagCloudView.swift:15 FetchDescriptor Tag",
        "SwiftDataScreens/TravelerListView.swift:6 @Query Traveler",
        "SwiftDataScreens/TripDetailView.swift:10 by identifier Trip",
        "SwiftDataScreens/TripListView.swift:6 @Query Trip",
    ]

    static func scan(_ path: String) throws -> ScanResult {
        let swiftData = try ModelSource.load(path: path).makeModel()
        let coreData = try XcodeModel.load(path: path + "/Library.xcdatamodeld").makeModel()
        return try FetchScanner.scan(path: path, models: ScanModels(swiftData: swiftData, coreData: coreData))
    }

    @Test func everySiteIsReadWithWhatItFetchesAndReads() throws {
        let result = try Self.scan(Self.app)
        #expect(result.sites.map { "\($0.location) \($0.api.rawValue) \($0.entity)" } == Self.sites)
        func site(_ location: String) throws -> FetchSite {
            try #require(result.sites.first { $0.location.hasSuffix("/" + location) })
        }
        // A @Query and the row view it passes each trip to (one level deep), through a computed property.
        let trips = try site("TripListView.swift:6")
        #expect(trips.sort == ["-startDate"] && trips.rowsRead == 20 && trips.isSwiftData)
        #expect(trips.reads.map(\.keyPath) == ["name", "destination.name"])
        #expect(trips.reads.allSatisfy { $0.rowView == "TripRow" })
        // #Predicate forms, translated; NSPredicate's %@ as a variable with a value of the data.
        #expect(try site("ExpenseReport.swift:9").predicate == "(amount >= 0) AND (note != \"\")")
        #expect(try site("ExpenseReport.swift:18").result == "count")
        let search = try site("SearchView.swift:6")
        #expect(search.predicate == "name CONTAINS[cd] $v1" && search.variables["v1"] == ["word": .string("Trip.name")])
        let books = try site("LibraryStore.swift:11")
        #expect(books.predicate == "author.name == $v1" && books.variables["v1"]?["valueOf"] == .string("Author.name"))
        #expect(books.prefetch == ["genre"] && books.sort == ["-year"] && !books.isSwiftData)
        #expect(try site("LibraryStore.swift:31").batchSize == 100)
        #expect(try site("LoansView.swift:6").predicate == "borrower != nil")
        #expect(try site("TagCloudView.swift:15").limit == 50)
        #expect(try site("DestinationsView.swift:12").prefetch == ["trips"])
        #expect(try site("TravelerListView.swift:6").reads.map(\.keyPath) == ["name", "trips.name"])
        #expect(try site("AuthorsViewController.swift:11").reads.map(\.keyPath) == ["name", "books.@count"])
        // By identifier: one object, its relationships read once.
        let detail = try site("TripDetailView.swift:10")
        #expect(detail.predicate == "SELF == $object" && detail.limit == 1)
        #expect(detail.reads.map(\.keyPath) == ["name", "destination.name", "expenses.note"])
    }

    /// The N+1s, exactly, with the edit in each site's API and the statements it saves, measured; the scenarios it
    /// writes run with bench run --scenarios.
    @Test func scanFlagsExactlyTheNPlusOnesAndTheirEdits() throws {
        let output = Fixtures.temporaryFolder("scan")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Fixtures.bench(["scan", Self.app, "--size", "100", "--output", output.path])
        #expect(result.status == 0, "\(result.error)")
        let flagged = result.output.split(separator: "\n").last { $0.contains("with an N+1") }.map(String.init) ?? ""
        #expect(
            flagged
                == "5 fetch sites with an N+1 of 14: CoreDataScreens/AuthorsViewController.swift:11, CoreDataScreens/BookListView.swift:6, SwiftDataScreens/ExpenseReport.swift:9, SwiftDataScreens/TravelerListView.swift:6, SwiftDataScreens/TripListView.swift:6",
            "\(result.output)")
        for edit in [
            "edit: at CoreDataScreens/AuthorsViewController.swift:11: request.relationshipKeyPathsForPrefetching = [\"books\"]",
            "edit: at SwiftDataScreens/ExpenseReport.swift:9: descriptor.relationshipKeyPathsForPrefetching = [\\.trip]",
            "request.relationshipKeyPathsForPrefetching = [\"author\"]",
            "@FetchRequest(fetchRequest: Self.booksRequest) var books: FetchedResults<Book>",
            "descriptor.relationshipKeyPathsForPrefetching = [\\.trips]",
            "@Query(Self.travelersDescriptor) var travelers: [Traveler]",
            "descriptor.relationshipKeyPathsForPrefetching = [\\.destination]",
        ] {
            #expect(result.output.contains(edit), "\(edit)")
        }
        #expect(result.output.contains("saves 19 statements: 21 as written, 2 with the edit (both measured)"), "\(result.output)")
        #expect(!result.output.contains("still after the edit"))
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files.count == 14 && files.contains("scan-TripListView-6.json"))
        let run = try Fixtures.bench([
            "run", "--scenarios", output.path, "--all", "--profile", "smoke", "--allow-debug", "--no-history", "--quiet",
            "--output", output.appendingPathComponent("run").path,
        ])
        #expect(run.status == 0, "\(run.error)")
        let summary = try String(contentsOf: output.appendingPathComponent("run/summary.csv"), encoding: .utf8)
        #expect(summary.contains("scan-TripListView-6,objectgraph,edit=suggested"), "\(summary.prefix(300))")
    }

    /// With the suggested edits applied, nothing is left to flag.
    @Test func theEditedAppHasNoNPlusOne() throws {
        let result = try Fixtures.bench(["scan", Self.fixed, "--size", "100", "--fail-on-findings"])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.contains("no N+1 in 14 fetch sites"))
    }

    /// A list over a @Query that a real app writes (the rows drawn, a lookup among all rows as the view draws, a loop
    /// in a button's action): at the default 1,000 objects only the to-many counted per row drawn is an N+1. A fetch
    /// read whole is a suggestion that fails no gate, with a fix a @Query can take; a filter over every row as the view
    /// draws reads every row (no batch size helps), and a button's loop is no read of every row. A fetch run without
    /// its predicate (built elsewhere) matches an unknown number of rows: no batch size is suggested on all of them.
    @Test func listsOverAQueryFlagOnlyTheirNPlusOnes() throws {
        let app = Fixtures.path("PantryApp")
        let model = try ModelSource.load(path: app).makeModel()
        let sites = try FetchScanner.scan(path: app, models: ScanModels(swiftData: model, coreData: nil)).sites
        func site(_ file: String) throws -> FetchSite { try #require(sites.first { $0.file == file }) }
        let list = try site("JarListView.swift")
        #expect(list.rowsRead == 20 && list.reads.map(\.keyPath) == ["label"] && !list.reads[0].everyRow)
        let picker = try site("JarPickerView.swift")
        #expect(picker.reads.map { "\($0.keyPath) \($0.everyRow)" } == ["code true", "label false"])
        #expect(picker.steps.compactMap { $0["read"] as? [String] } == [["label"], ["code"]])
        #expect(picker.steps.map { $0["first"] as? Int } == [nil, 20, nil])
        let search = try site("JarSearchView.swift")
        #expect(search.predicateSkipped == "Self.matching(text): it is built elsewhere", "\(search.predicateSkipped ?? "")")
        let shelves = try site("ShelvesView.swift")
        #expect(shelves.rowsRead == 20 && !shelves.reads.contains(where: \.everyRow), "\(shelves.reads)")

        let result = try Fixtures.bench(["scan", app, "--fail-on-findings"])
        #expect(result.status == 1, "\(result.output)\(result.error)")
        #expect(
            result.output.contains(
                "1 fetch site with an N+1 of 4: ShelvesView.swift:6; 1 other site with a suggestion: JarListView.swift:6"),
            "\(result.output)")
        #expect(result.output.contains("reads: label; the first 20 rows (a list draws the rows on screen)"))
        #expect(
            result.output.contains(
                "reads: code, label; label on the first 20 rows (a list draws the rows on screen), code on every row (a filter, map or loop over the results)"
            ))
        #expect(result.output.contains("suggestion: one fetch read 1,000 rows of Jar at once"), "\(result.output)")
        #expect(result.output.contains("a @Query reads every row it matches in one fetch and has no batch size"))
        #expect(!result.output.contains("set fetchBatchSize = 20 on this fetch"), "\(result.output)")
        #expect(result.output.contains("N+1: to-many Shelf.jars faulted per owner only to count it: 20 ×"), "\(result.output)")
        #expect(result.error.contains("1 fetch site with an N+1 (above)"), "\(result.error)")
        // The suggestion alone fails no gate.
        let listOnly = try Fixtures.bench([
            "scan", app + "/JarListView.swift", "--model", app + "/PantryModels.swift", "--fail-on-findings",
        ])
        #expect(listOnly.status == 0, "\(listOnly.output)\(listOnly.error)")
        #expect(
            listOnly.output.contains("ok: no N+1 (1 statement)\n   suggestion: one fetch read 1,000 rows of Jar at once"),
            "\(listOnly.output)")
    }

    /// Sites are named by their path in the folder scanned also when the folder is given as users type it, relative to
    /// the working folder (it was the bare file name then: two `ContentView.swift` could not be told apart).
    @Test func sitesAreNamedByTheirPathInARelativeFolder() throws {
        for folder in ["Tests/SwiftSourcesTests/Fixtures/TravelApp", "./Tests/SwiftSourcesTests/Fixtures/TravelApp/"] {
            let result = try Fixtures.bench(["scan", folder, "--size", "20"])
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.contains("2. CoreDataScreens/BookListView.swift:6  @FetchRequest Book"), "\(folder): \(result.output)")
        }
        // Two classes of one name in two folders (a preview copy), read from a folder named relative to the working one.
        let work = Fixtures.temporaryFolder("relative")
        defer { try? FileManager.default.removeItem(at: work) }
        for folder in ["Models", "Preview"] {
            let url = work.appendingPathComponent("App/\(folder)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try "import SwiftData\n@Model final class Jar { var label = \"\"; init() {} }\n".write(
                to: url.appendingPathComponent("Jar.swift"), atomically: true, encoding: .utf8)
        }
        let schema = try BenchBinary.run(["schema", "App"], in: work)
        #expect(schema.status == 0, "\(schema.error)")
        #expect(schema.output.contains("two @Model classes named Jar (Models/Jar.swift:2, Preview/Jar.swift:2)"), "\(schema.output)")
    }

    /// --counts gives the data the advice runs on; bad input is one line.
    @Test func countsAndBadInput() throws {
        let counted = try Fixtures.bench([
            "scan", Self.app + "/CoreDataScreens", "--model", Self.app + "/Library.xcdatamodeld", "--counts", "Book=300,Author=30",
        ])
        #expect(counted.status == 0, "\(counted.error)")
        #expect(counted.output.contains("with the counts given (Author=30, Book=300)"))
        #expect(counted.output.contains("4 fetch sites") || counted.output.contains("fetch sites"), "\(counted.output)")
        let folder = Fixtures.temporaryFolder("scan-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "x".write(to: folder.appendingPathComponent("held.txt"), atomically: true, encoding: .utf8)
        for arguments in [
            ["scan", "/nonexistent/App"],
            ["scan", Self.app, "--output", folder.path],
            ["scan", Self.app, "--size", "0"],
            ["scan", Self.app, "--counts", "Nope=3"],
            ["scan", folder.path],
        ] {
            let bad = try Fixtures.bench(arguments)
            #expect(bad.status == 64, "\(arguments): \(bad.output) \(bad.error)")
            #expect(bad.error.split(separator: "\n").count == 1 && !bad.error.contains("Fatal"), "\(arguments): \(bad.error)")
        }
    }

    /// Predicates in the forms apps write, translated or said to be run without.
    @Test func predicateForms() throws {
        let folder = Fixtures.temporaryFolder("predicates")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        import SwiftData
        @Model final class Trip {
            var name: String = ""
            var nights: Int = 0
            var destination: Destination?
            var tags: [Tag] = []
            init() {}
        }
        @Model final class Destination { var name: String = ""; var trips: [Trip] = []; init() {} }
        @Model final class Tag { var name: String = ""; init() {} }
        func fetches(context: ModelContext, text: String, minimum: Int, place: Destination) throws {
            _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.nights > 3 || !$0.name.isEmpty }))
            _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { trip in trip.destination?.name == text }))
            _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.tags.contains { $0.name == "beach" } }))
            _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.tags.count >= minimum && $0.destination == nil }))
            _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.name.starts(with: "A") }))
            _ = try context.fetch(FetchDescriptor<Trip>(predicate: #Predicate { $0.nights * 2 > 3 }))
        }
        """.write(to: folder.appendingPathComponent("Model.swift"), atomically: true, encoding: .utf8)
        let model = try ModelSource.load(path: folder.path).makeModel()
        let sites = try FetchScanner.scan(path: folder.path, models: ScanModels(swiftData: model, coreData: nil)).sites
        #expect(
            sites.map { $0.predicate ?? "not run" } == [
                "(nights > 3) OR (NOT (name == \"\"))",
                "destination.name == $v1",
                "ANY tags.name == \"beach\"",
                "(tags.@count >= $v1) AND (destination == nil)",
                "name BEGINSWITH \"A\"",
                "not run",
            ])
        #expect(
            sites[5].predicateSkipped?.contains("is not a comparison RelBench translates") == true, "\(sites[5].predicateSkipped ?? "")")
    }
}
#endif
