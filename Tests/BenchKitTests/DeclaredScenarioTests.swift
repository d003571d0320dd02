import Foundation
import ObjectGraph
import Testing

@testable import BenchKit

/// Scenario files that declare their own model, data and phases: parsing and its messages, the data generator,
/// every step kind's counters, the SQL replay against ObjectGraph.
@Suite struct DeclaredScenarioTests {
    /// A library: authors write books (Cascade), books have tags (many-to-many) and an optional series (to-one
    /// without inverse); Author.bookCount is derived.
    static let library = """
        {"name": "library", "description": "a test library",
         "model": {"entities": [
           {"name": "Author", "attributes": [{"name": "name", "type": "String", "optional": true},
                                             {"name": "bookCount", "type": "Integer 64", "derived": true, "derivation": "books.@count", "optional": true}],
            "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "author", "deleteRule": "Cascade", "optional": true}]},
           {"name": "Book", "attributes": [{"name": "title", "type": "String", "optional": true}, {"name": "year", "type": "Integer 16", "optional": true}],
            "relationships": [{"name": "author", "destination": "Author", "inverse": "books", "maxCount": 1, "optional": true},
                              {"name": "tags", "destination": "Tag", "toMany": true, "inverse": "books", "optional": true},
                              {"name": "series", "destination": "Series", "maxCount": 1, "optional": true}]},
           {"name": "Tag", "attributes": [{"name": "name", "type": "String", "optional": true}],
            "relationships": [{"name": "books", "destination": "Book", "toMany": true, "inverse": "tags", "optional": true}]},
           {"name": "Series", "attributes": [{"name": "name", "type": "String", "optional": true}]}
         ]},
         "data": {"entities": {"Author": "size", "Book": "3*size", "Tag": 5, "Series": 4},
                  "relationships": {"Book.author": {}, "Book.tags": {"per": 2}, "Book.series": {"fill": 0.5}},
                  "attributes": {"Book.title": {"words": [2, 4]}, "Book.year": {"integer": [1990, 2020]}}},
         "variants": [{"name": "prefetch", "values": ["off", "on"]}],
         "phases": [
           {"name": "list", "store": "prepared", "steps": [
             {"fetch": "Book", "sort": ["title"], "limit": 10, "faults": false,
              "prefetch": {"variant": "prefetch", "off": [], "on": ["author", "tags"]}},
             {"read": ["title", "author.name", "tags.name"]}]},
           {"name": "count", "store": "continued", "steps": [{"count": "Book", "predicate": "year >= 2000"}]},
           {"name": "edit", "store": "continued", "steps": [
             {"insert": "Book", "count": 3}, {"update": "Book.title", "share": 0.1}, {"link": "Book.tags", "count": 2},
             {"save": true}]},
           {"name": "remove", "store": "prepared", "steps": [{"delete": "Author", "share": 0.25}, {"save": true}]},
           {"name": "batch", "store": "prepared", "steps": [
             {"batch-update": "Book", "predicate": "year < 2000", "set": {"year": 2000}},
             {"batch-delete": "Series"}, {"batch-insert": "Tag", "count": 4}]},
           {"name": "merge", "store": "prepared", "steps": [
             {"fetch": "Author", "faults": false}, {"merge": [{"insert": "Author", "count": 2}, {"save": true}]}, {"read": ["name"]}]},
           {"name": "import", "store": "fresh", "steps": [{"insert-data": true}, {"save": true}]}
         ],
         "sizes": {"smoke": [8], "default": [8], "full": [8]}, "repetitions": 1, "warmup": 0}
        """

    static func parse(_ text: String) throws -> Scenario {
        try ScenarioFile.parse(Data(text.utf8), file: "Scenarios/library.json")
    }

    static func error(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch { return "\(error)" }
    }

    static func replacing(_ old: String, _ new: String) -> String {
        precondition(library.contains(old), "the fixture has no \(old)")
        return library.replacingOccurrences(of: old, with: new)
    }

    @Test func theLibraryParsesForEveryVariant() throws {
        let scenario = try Self.parse(Self.library)
        #expect(scenario.strategies == [.objectGraph, .sqlReplay])
        #expect(scenario.phaseNames == ["list", "count", "edit", "remove", "batch", "merge", "import"])
        let plan = try scenario.declared.plan(for: scenario.variants[1])
        #expect(plan.model.entities.map(\.name) == ["Author", "Book", "Series", "Tag"])
        #expect(
            plan.model.schemaSQL.contains(
                "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZYEAR INTEGER, ZAUTHOR INTEGER, ZSERIES INTEGER, ZTITLE VARCHAR )"
            ))
    }

    @Test func theGeneratorMakesExactlyWhatTheDataSectionSays() throws {
        let scenario = try Self.parse(Self.library)
        let plan = try scenario.declared.plan(for: scenario.variants[0])
        let data = plan.generator.make(size: 10, seed: 42)
        let counts = plan.model.entities.map { "\($0.name)=\(data.objects[$0.number]?.count ?? 0)" }
        #expect(counts == ["Author=10", "Book=30", "Series=4", "Tag=5"])
        func edges(_ name: String) -> GraphData.Edges { data.edges.first { $0.relationship == name }! }
        // Every book has an author (to-one, fill 1), two distinct tags (fixed fan-out 2), a series at rate 0.5.
        #expect(edges("author").targets.count == 30 && edges("author").targets.values.allSatisfy { $0.count == 1 })
        #expect(edges("tags").targets.count == 30 && edges("tags").targets.values.allSatisfy { Set($0).count == 2 })
        // Pinned at seed 42: the share of books with a series, and the distribution over authors.
        #expect(edges("series").targets.count == 9)
        let perAuthor = Dictionary(grouping: edges("author").targets.values.map { $0[0].index }, by: { $0 }).values.map(\.count).sorted()
        #expect(perAuthor == [1, 1, 1, 1, 2, 3, 6, 6, 9])
        let years = data.objects[plan.model.entity("Book")!.number]!.columns.first { $0.attribute.name == "year" }!.values
        #expect(years.allSatisfy { if case let .int(year) = $0 { return (1990...2020).contains(year) } else { return false } })
        // The same seed makes the same data; another seed other data.
        let again = plan.generator.make(size: 10, seed: 42)
        #expect(again.edges.map { $0.targets.count } == data.edges.map { $0.targets.count })
        #expect(
            edges("series").targets.keys.sorted { $0.index < $1.index }
                == again.edges.first { $0.relationship == "series" }!.targets.keys.sorted { $0.index < $1.index })
    }

    @Test func fanOutsFollowTheirDistributions() throws {
        let text = Self.replacing("\"Book.tags\": {\"per\": 2}", "\"Book.tags\": {\"per\": {\"uniform\": [0, 3]}}")
            .replacingOccurrences(of: "\"Tag\": 5", with: "\"Tag\": 50")
        let plan = try Self.parse(text).declared.plan(for: Variant([("prefetch", .text("off"))]))
        let data = plan.generator.make(size: 100, seed: 7)
        let tags = data.edges.first { $0.relationship == "tags" }!.targets.values.map(\.count)
        #expect(tags.allSatisfy { (1...3).contains($0) })
        #expect(tags.count < 300 && tags.count > 200)
        let zipf = Self.replacing("\"Book.tags\": {\"per\": 2}", "\"Book.tags\": {\"per\": {\"zipf\": 1.5, \"max\": 40}}")
            .replacingOccurrences(of: "\"Tag\": 5", with: "\"Tag\": 50")
        let zipfData = try Self.parse(zipf).declared.plan(for: Variant([("prefetch", .text("off"))])).generator.make(size: 100, seed: 7)
        let sizes = zipfData.edges.first { $0.relationship == "tags" }!.targets.values.map(\.count)
        // Zipf: one tag is the most common count, and a few books get many.
        let histogram = Dictionary(grouping: sizes, by: { $0 }).mapValues(\.count)
        #expect(histogram.max { $0.value < $1.value }?.key == 1)
        #expect(sizes.max()! > 5)
        // A many-to-many's other side: 50 tags with 12 books each take the 300 books' 2 tags each, no tag twice on a book.
        let both = Self.replacing("\"Book.tags\": {\"per\": 2}", "\"Book.tags\": {\"per\": 2, \"perDestination\": 12}")
            .replacingOccurrences(of: "\"Tag\": 5", with: "\"Tag\": 50")
        let bothData = try Self.parse(both).declared.plan(for: Variant([("prefetch", .text("off"))])).generator.make(size: 100, seed: 7)
        let links = bothData.edges.first { $0.relationship == "tags" }!.targets.values
        #expect(links.allSatisfy { $0.count == 2 && Set($0).count == 2 })
        #expect(Dictionary(grouping: links.joined(), by: { $0 }).mapValues(\.count).values.sorted() == Array(repeating: 12, count: 50))
    }

    /// Moody's regions: Continent and Country share GeographicRegion's table and its uniqueness constraint on two
    /// Integer 16 attributes; generated keys differ across the whole hierarchy, beyond 32,767 objects too.
    @Test func uniqueKeysDifferAcrossAHierarchy() throws {
        let text = """
            {"name": "regions", "description": "a hierarchy with a compound uniqueness constraint",
             "model": {"entities": [
               {"name": "Region", "abstract": true, "uniquenessConstraints": [["code", "dummy"]],
                "attributes": [{"name": "code", "type": "Integer 16", "default": "0"}, {"name": "dummy", "type": "Integer 16", "default": "0"},
                               {"name": "label", "type": "String", "optional": true}]},
               {"name": "Continent", "parent": "Region"}, {"name": "Country", "parent": "Region"}
             ]},
             "data": {"entities": {"Continent": "size", "Country": "size"}},
             "phases": [{"name": "import", "store": "fresh", "steps": [{"insert-data": true}, {"save": true}]}],
             "sizes": [10], "repetitions": 1, "warmup": 0}
            """
        let scenario = try Self.parse(text)
        let plan = try scenario.declared.plan(for: scenario.variants[0])
        for size in [10, 20_000] {
            let data = plan.generator.make(size: size, seed: 42)
            var keys = Set<[Int64]>()
            for objects in data.objects.values {
                let code = objects.columns.first { $0.attribute.name == "code" }!.values
                let dummy = objects.columns.first { $0.attribute.name == "dummy" }!.values
                for (first, second) in zip(code, dummy) {
                    guard case let .int(a) = first, case let .int(b) = second else {
                        Issue.record("not integers: \(first) \(second)")
                        continue
                    }
                    #expect((1...Int64(Int16.max)).contains(a) && (1...Int64(Int16.max)).contains(b))
                    keys.insert([a, b])
                }
            }
            #expect(keys.count == 2 * size, "size \(size)")
        }
        // At 10 per entity both attributes count on through the hierarchy, as a single entity's did.
        let small = plan.generator.make(size: 10, seed: 42)
        let codes = small.objects.values.sorted { $0.entity.number < $1.entity.number }
            .flatMap { $0.columns.first { $0.attribute.name == "code" }!.values }
        #expect(codes == (1...20).map { Value.int(Int64($0)) })

        // An attribute in two constraints keeps the ordinal whole when it can hold it ([id] alone stays distinct),
        // and a range below 1 starts at its minimum.
        let twoConstraints =
            text
            .replacingOccurrences(
                of: "\"uniquenessConstraints\": [[\"code\", \"dummy\"]]",
                with: "\"uniquenessConstraints\": [[\"dummy\", \"label\"], [\"code\", \"dummy\"], [\"label\"]]"
            )
            .replacingOccurrences(
                of: "{\"name\": \"dummy\", \"type\": \"Integer 16\", \"default\": \"0\"}",
                with:
                    "{\"name\": \"dummy\", \"type\": \"Integer 16\", \"default\": \"0\", \"minValueString\": \"-5\", \"maxValueString\": \"0\"}"
            )
        let other = try Self.parse(twoConstraints)
        let data = try other.declared.plan(for: other.variants[0]).generator.make(size: 10, seed: 42)
        let rows = data.objects.values.flatMap { objects in
            (0..<objects.count).map { index in
                objects.columns.filter { ["code", "dummy", "label"].contains($0.attribute.name) }.map { $0.values[index] }
            }
        }
        #expect(Set(rows.map { "\($0)" }).count == 20)
        #expect(Set(rows.map { "\($0[2])" }).count == 20, "label alone is unique")
        #expect(rows.allSatisfy { if case let .int(dummy) = $0[1] { return (-5...0).contains(dummy) } else { return false } })
    }

    /// Narrow attributes shared by constraints in different orders, and a Boolean, still give distinct tuples.
    @Test func uniqueDigitsHoldAcrossConstraints() throws {
        func narrow(_ name: String) -> String {
            "{\"name\": \"\(name)\", \"type\": \"Integer 16\", \"default\": \"1\", \"minValueString\": \"1\", \"maxValueString\": \"10\"}"
        }
        let text = """
            {"name": "digits", "description": "narrow attributes in several constraints",
             "model": {"entities": [
               {"name": "Item", "uniquenessConstraints": [["a", "b"], ["c", "a"], ["flag", "code"]],
                "attributes": [\(narrow("a")), \(narrow("b")), \(narrow("c")), \(narrow("code")), {"name": "flag", "type": "Boolean", "default": "NO"}]}
             ]},
             "data": {"entities": {"Item": "size"}},
             "phases": [{"name": "import", "store": "fresh", "steps": [{"insert-data": true}, {"save": true}]}],
             "sizes": [20], "repetitions": 1, "warmup": 0}
            """
        let scenario = try Self.parse(text)
        let data = try scenario.declared.plan(for: scenario.variants[0]).generator.make(size: 20, seed: 42)
        let objects = data.objects.values.first!
        func column(_ name: String) -> [String] { objects.columns.first { $0.attribute.name == name }!.values.map { "\($0)" } }
        for constraint in [["a", "b"], ["c", "a"], ["flag", "code"]] {
            let tuples = (0..<objects.count).map { index in constraint.map { column($0)[index] }.joined(separator: ",") }
            #expect(Set(tuples).count == 20, "\(constraint)")
        }
    }

    /// A real app's model carries rules: generated data keeps them (ranges, lengths, patterns, required to-ones,
    /// required to-manys with a minimum count) so that its first save succeeds, with no data section for them.
    @Test func generatedDataKeepsTheModelsRules() throws {
        let text = """
            {"name": "rules", "description": "a model with validation rules",
             "model": {"entities": [
               {"name": "Shop", "attributes": [
                  {"name": "code", "type": "String", "minValueString": "3", "maxValueString": "6", "regularExpressionString": "[a-z]+"},
                  {"name": "rating", "type": "Integer 64", "minValueString": "9007199254740993", "maxValueString": "9223372036854775807"},
                  {"name": "share", "type": "Decimal", "minValueString": "0", "maxValueString": "1"},
                  {"name": "opened", "type": "Date", "minDateTimeInterval": "0", "maxDateTimeInterval": "120"}],
                "relationships": [{"name": "staff", "destination": "Clerk", "toMany": true, "inverse": "shop", "minCount": 2, "optional": false}]},
               {"name": "Clerk", "attributes": [{"name": "name", "type": "String"}],
                "relationships": [{"name": "shop", "destination": "Shop", "inverse": "staff", "maxCount": 1, "optional": false}]}
             ]},
             "data": {"entities": {"Shop": "size", "Clerk": "3*size"}, "relationships": {"Clerk.shop": {"fill": 0.5}}},
             "phases": [{"name": "import", "store": "fresh", "steps": [{"insert-data": true}, {"save": true}]}],
             "sizes": {"smoke": [10], "default": [10], "full": [10]}, "repetitions": 1, "warmup": 0}
            """
        let scenario = try Self.parse(text)
        let plan = try scenario.declared.plan(for: scenario.variants[0])
        let data = plan.generator.make(size: 10, seed: 42)
        let store = try PersistentStore(model: plan.model, location: .inMemory)
        let context = store.makeContext()
        try GraphFiller.insert(data, into: context)
        try context.save()
        let shops = Array(try context.fetch(FetchRequest("Shop")))
        #expect(shops.count == 10)
        for shop in shops {
            #expect(try shop.objects("staff").count >= 2)
            let code = try shop.value("code").string ?? ""
            #expect((3...6).contains(code.count) && code.allSatisfy(\.isLowercase))
        }
        #expect(try context.count(for: FetchRequest("Clerk", predicate: FetchPredicate(format: "shop == nil"))) == 0)
    }

    /// A required to-many whose members each have one owner, declared on a hierarchy of two concrete entities
    /// (CareKit's OCKCDTaskBase.outcomes): the generated suite makes enough members for every source, and a
    /// chain of such relationships grows end to end, so that the first save succeeds.
    @Test func theGeneratedSuiteMakesEnoughMembersForRequiredToManys() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("required-\(UUID().uuidString).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Item" representedClassName="Item" syncable="YES">
                <attribute name="text" optional="YES" attributeType="String"/>
                <relationship name="task" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="TaskBase" inverseName="items" inverseEntity="TaskBase"/>
                <relationship name="notes" toMany="YES" minCount="2" deletionRule="Cascade" destinationEntity="Note" inverseName="item" inverseEntity="Note"/>
            </entity>
            <entity name="Note" representedClassName="Note" syncable="YES">
                <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="notes" inverseEntity="Item"/>
            </entity>
            <entity name="Task" representedClassName="Task" parentEntity="TaskBase" syncable="YES"/>
            <entity name="TaskBase" representedClassName="TaskBase" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="items" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="task" inverseEntity="Item"/>
            </entity>
        </model>
        """.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let scenario = try GeneratedSuite.scenario(modelPath: folder.path)
        let plan = try scenario.declared.plan(for: scenario.variants[0])
        // Two task entities need two items per size, and each item two notes.
        #expect(
            plan.generator.spec.counts.mapValues { $0.description } == [
                "Task": "size", "TaskBase": "size", "Item": "2*size", "Note": "4*size",
            ])
        let store = try PersistentStore(model: plan.model, location: .inMemory)
        let context = store.makeContext()
        try GraphFiller.insert(plan.generator.make(size: 10, seed: 42), into: context)
        try context.save()
        #expect(try context.count(for: FetchRequest("TaskBase", predicate: FetchPredicate(format: "items.@count == 0"))) == 0)
        #expect(try context.count(for: FetchRequest("Item", predicate: FetchPredicate(format: "notes.@count < 2"))) == 0)

        // A cycle no counts can meet (each of A, B, C needs two of the next, each owned once) keeps every count at
        // size rather than growing to the cap for a save that fails anyway.
        func ring(_ name: String, _ next: String, _ previous: String) -> String {
            """
            <entity name="\(name)"><relationship name="next" toMany="YES" minCount="2" deletionRule="Nullify" destinationEntity="\(next)" inverseName="previous" inverseEntity="\(next)"/>
            <relationship name="previous" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="\(previous)" inverseName="next" inverseEntity="\(previous)"/></entity>
            """
        }
        try "<model>\(ring("A", "B", "C"))\(ring("B", "C", "A"))\(ring("C", "A", "B"))</model>"
            .write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let cycle = try GeneratedSuite.scenario(modelPath: folder.path)
        #expect(
            try cycle.declared.plan(for: cycle.variants[0]).generator.spec.counts.mapValues { $0.description } == [
                "A": "size", "B": "size", "C": "size",
            ])
    }

    /// Every step kind's counters at size 8, exactly; and the replay runs the same statements and reads the same rows.
    @Test func everyStepKindCountsExactlyAndTheReplayMatches() throws {
        let scenario = try Self.parse(Self.library)
        var request = RunRequest(scenarios: [scenario])
        request.profile = .smoke
        let samples = try Runner(request: request, plan: try RunPlan(request), folder: nil, progress: nil).run()
        func value(_ strategy: Strategy, _ variant: String, _ phase: PhaseName, _ metric: Metric) -> Double? {
            samples.first {
                $0.key.strategy == strategy && $0.key.variant.description == "prefetch=\(variant)" && $0.key.phase == phase
                    && $0.key.metric == metric
            }?.value
        }
        for variant in ["off", "on"] {
            for phase in scenario.phaseNames {
                for metric in [Metric.sqlStatements, .rowsRead] {
                    #expect(
                        value(.objectGraph, variant, phase, metric) == value(.sqlReplay, variant, phase, metric),
                        "\(variant) \(phase) \(metric)")
                }
            }
        }
        // The list: without prefetching, one fetch, each book's tags fault (10), and one fault for each distinct
        // author and tag the first 10 books meet (10 at the run's seed: pinned).
        #expect(value(.objectGraph, "off", "list", .sqlStatements) == 21)
        #expect(value(.objectGraph, "on", "list", .sqlStatements) == 3)
        #expect(value(.objectGraph, "off", "count", .sqlStatements) == 1)
        #expect(value(.objectGraph, "off", "count", .countResult) == 18)
        #expect(value(.objectGraph, "off", "edit", .sqlStatements) == 41)
        #expect(value(.objectGraph, "off", "remove", .sqlStatements) == 33)
        #expect(value(.objectGraph, "off", "batch", .sqlStatements) == 12)
        #expect(value(.objectGraph, "off", "merge", .sqlStatements) == 11)
        // 41 rows and 48 join rows in the first save of a new store: 89 INSERTs and 16 statements of the save.
        #expect(value(.objectGraph, "off", "import", .sqlStatements) == 105)
    }

    @Test(arguments: [
        ("\"Tag\": 5,", "\"Tga\": 5,", "field 'data': entities: no entity 'Tga' in the model (did you mean 'Tag'?)"),
        (
            "\"Book.tags\": {\"per\": 2}", "\"Book.tagz\": {\"per\": 2}",
            "field 'data': relationships.Book.tagz: 'Book' has no relationship 'tagz' (did you mean 'tags'?); its relationships: author, series, tags"
        ),
        (
            "\"Book.series\": {\"fill\": 0.5}", "\"Book.series\": {\"fill\": 0.5, \"perDestination\": 3}",
            "field 'data': relationships.Book.series.perDestination: Book.series is not one side of a many-to-many; give perDestination only where each destination has many sources"
        ),
        (
            "\"Book.tags\": {\"per\": 2}", "\"Book.tags\": {\"per\": 2, \"perDestination\": 3, \"reuse\": 0}",
            "field 'data': relationships.Book.tags: perDestination sets how members are shared; leave out reuse"
        ),
        (
            "\"Book.series\": {\"fill\": 0.5}", "\"Book.series\": {\"fill\": 0.5}, \"Author.books\": {}",
            "field 'data': relationships.Book.author: its inverse Author.books is filled too; fill one side, ObjectGraph keeps the other"
        ),
        (
            "\"Book.series\": {\"fill\": 0.5}", "\"Book.series\": {\"fill\": 0.5}, \"Book.title\": {}",
            "field 'data': relationships.Book.title: 'Book' has no relationship 'title' ('title' is an attribute of Book, not a relationship)"
        ),
        (
            "\"Book.series\": {\"fill\": 0.5}", "\"Book.series\": {\"fill\": 2}",
            "field 'data': relationships.Book.series.fill: expected a probability from 0 to 1, got the number 2"
        ),
        (
            "\"Book\": \"3*size\"", "\"Book\": \"three\"",
            "field 'data': entities.Book: expected a whole number from 0 to 100000000, \"size\", \"3*size\" (up to 10000*size) or \"size/10\", got the string \"three\""
        ),
        (
            "{\"count\": \"Book\", \"predicate\": \"year >= 2000\"}", "{\"count\": \"Book\", \"predicate\": \"year >=\"}",
            "field 'phases[1].steps[0].predicate': with prefetch=off: Unable to parse the format string \"year >=\": no expression at position 8: expected a key path, a constant, {a, b}, $VARIABLE or a format argument, found the end"
        ),
        (
            "{\"count\": \"Book\", \"predicate\": \"year >= 2000\"}", "{\"count\": \"Book\", \"predicate\": \"year >= $y\"}",
            "field 'phases[1].steps[0].predicate': with prefetch=off: uses $y, which 'variables' does not define"
        ),
        (
            "{\"read\": [\"title\", \"author.name\", \"tags.name\"]}", "{\"read\": [\"title\", \"author.nam\"]}",
            "field 'phases[0].steps[1].read': with prefetch=off: 'author.nam': Author has no property 'nam' (did you mean 'name'?); its properties: bookCount, books, name"
        ),
        (
            "{\"delete\": \"Author\", \"share\": 0.25}", "{\"delet\": \"Author\", \"share\": 0.25}",
            "field 'phases[3].steps[0]': with prefetch=off: no step kind; a step is one of fetch, count, read, insert, insert-data, update, delete, delete-fetched, link, unlink, batch-insert, batch-update, batch-delete, save, reset, let-go, undo-manager, new-context, merge, count-links (did you mean 'delete'?)"
        ),
        (
            "\"limit\": 10,", "\"limit\": 10, \"limt\": 3,",
            "field 'phases[0].steps[0]': with prefetch=off: 'fetch' has no option 'limt' (did you mean 'limit'?)"
        ),
        (
            "\"on\": [\"author\", \"tags\"]", "\"on\": [\"author\", \"tag\"]",
            "field 'phases[0].steps[0].prefetch': with prefetch=on: 'tag': Book has no relationship 'tag' (did you mean 'tags'?); its relationships: author, series, tags"
        ),
        (
            "\"off\": [],", "",
            "field 'phases[0].steps[0].prefetch': with prefetch=off: chooses by the variant 'prefetch' but gives no value for 'off' (nor an \"else\")"
        ),
        (
            "{\"name\": \"prefetch\", \"values\": [\"off\", \"on\"]}",
            "{\"name\": \"modelling\", \"values\": [\"many-to-one\", \"many-to-nil\"], \"change\": \"modelling\", \"target\": \"Author.book\"}",
            "field 'variants': 'modelling': entity 'Author' has no property 'book' (did you mean 'books'?); its properties: bookCount, books, name"
        ),
        (
            "{\"name\": \"prefetch\", \"values\": [\"off\", \"on\"]}",
            "{\"name\": \"modelling\", \"values\": [\"one-to-one\"], \"change\": \"modelling\", \"target\": \"Author.books\"}",
            "field 'variants': 'modelling': 'one-to-one' is a modelling of a to-one; no target (Author.books) is one"
        ),
        (
            "{\"name\": \"prefetch\", \"values\": [\"off\", \"on\"]}",
            "{\"name\": \"modelling\", \"values\": [\"manual-fk\"], \"change\": \"modelling\", \"target\": \"Author.books\"}",
            "field 'variants': 'modelling': manual-fk needs \"keyAttribute\" (the attribute each Book gets) and \"ownerKey\" (the Author attribute it holds)"
        ),
        (
            "{\"name\": \"prefetch\", \"values\": [\"off\", \"on\"]}",
            "{\"name\": \"prefetch\", \"values\": [\"off\", \"on\"], \"change\": \"inverse\", \"target\": \"Book.serie\"}",
            "field 'variants': 'prefetch': the 'inverse' change is now \"change\": \"modelling\" with the values many-to-one and many-to-nil (or one-to-one and one-to-nil for a to-one)"
        ),
        (
            "{\"name\": \"prefetch\", \"values\": [\"off\", \"on\"]}",
            "{\"name\": \"prefetch\", \"values\": [\"off\", \"on\"], \"change\": \"ordered\", \"target\": \"Book.author\"}",
            "field 'variants': 'prefetch': 'Book.author' is a to-one; only a to-many can be ordered"
        ),

        (
            "{\"merge\": [{\"insert\": \"Author\"", "{\"merge\": [{\"insrt\": \"Author\"",
            "field 'phases[5].steps[1].merge[0]': with prefetch=off: no step kind; a step is one of fetch, count, read, insert, insert-data, update, delete, delete-fetched, link, unlink, batch-insert, batch-update, batch-delete, save, reset, let-go, undo-manager, new-context, merge, count-links (did you mean 'insert'?)"
        ),
        ("\"Series\": 4}", "\"Series\": 4, \"Ghost\": 1}", "field 'data': entities: no entity 'Ghost' in the model"),
        (
            "{\"name\": \"import\", \"store\": \"fresh\"", "{\"name\": \"import\", \"store\": \"frozen\"",
            "field 'phases[6].store': expected prepared or fresh, continued or same-context, got the string \"frozen\""
        ),
        (
            "\"insert\": \"Book\", \"count\": 3}", "\"insert\": \"Tag\", \"count\": 3, \"children\": {\"posts\": 1}}",
            "field 'phases[2].steps[0].children': with prefetch=off: 'Tag' has no to-many relationship 'posts'; its to-many relationships: books"
        ),
        // Every name of a step is resolved when the file is read, with the nearest name where one is near.
        (
            "\"set\": {\"year\": 2000}", "\"set\": {\"yaer\": 2000}",
            "field 'phases[4].steps[0].set': with prefetch=off: 'Book' has no attribute 'yaer' (did you mean 'year'?); its attributes: title, year"
        ),
        (
            "{\"update\": \"Book.title\"", "{\"update\": \"Bok.title\"",
            "field 'phases[2].steps[1]': with prefetch=off: no entity 'Bok' in the model (did you mean 'Book'?)"
        ),
        (
            "{\"link\": \"Book.tags\"", "{\"link\": \"Book.tag\"",
            "field 'phases[2].steps[2]': with prefetch=off: 'Book' has no relationship 'tag' (did you mean 'tags'?); its relationships: author, series, tags"
        ),
        (
            "{\"count\": \"Book\", \"predicate\": \"year >= 2000\"}", "{\"count\": \"Book\", \"predicate\": \"yeer >= 2000\"}",
            "field 'phases[1].steps[0].predicate': with prefetch=off: 'yeer': Book has no property 'yeer' (did you mean 'year'?); its properties: author, series, tags, title, year"
        ),
        ("{\"name\": \"count\",", "{\"name\": \"list\",", "field 'phases[1]': a second phase named 'list'"),
        (
            "\"set\": {\"year\": 2000}", "\"set\": {\"year\": 70000}",
            "field 'phases[4].steps[0].set.year': with prefetch=off: the number 70000 is beyond an Integer 16's range"
        ),
        (
            "\"set\": {\"year\": 2000}", "\"set\": {\"year\": \"soon\"}",
            "field 'phases[4].steps[0].set.year': with prefetch=off: the string \"soon\" is no Integer 16 value"
        ),
        (
            "{\"count\": \"Book\", \"predicate\": \"year >= 2000\"}", "{\"count\": \"Book\", \"predicate\": \"year >= 'MM'\"}",
            "field 'phases[1].steps[0].predicate': with prefetch=off: 'year >= \"MM\"': the key path holds Integer 16 values; cannot compare it with string \"MM\""
        ),
        (
            "\"Book.title\": {\"words\": [2, 4]}", "\"Book.title\": {\"date\": [\"2024-01-01\", \"2024-12-31\"]}",
            "field 'data': attributes.Book.title: 'date' makes date values, which a String attribute cannot hold; use name, words, text, integer, number, sequence or constant"
        ),
        (
            "\"Book.year\": {\"integer\": [1990, 2020]}", "\"Book.year\": {\"words\": [1, 2]}",
            "field 'data': attributes.Book.year: 'words' makes string values, which an Integer 16 attribute cannot hold; use integer, number, sequence or constant"
        ),
        (
            "\"Book.year\": {\"integer\": [1990, 2020]}", "\"Book.year\": {\"constant\": \"70000\"}",
            "field 'data': attributes.Book.year: \"70000\" is beyond an Integer 16's range; give a value within it"
        ),
        (
            "\"Book.year\": {\"integer\": [1990, 2020]}", "\"Book.year\": {\"constant\": \"MMXX\"}",
            "field 'data': attributes.Book.year: \"MMXX\" is not an Integer 16 value; use integer, number, sequence or constant"
        ),
    ])
    func eachMistakeIsRefusedWithTheFieldAndWhatToDo(old: String, new: String, message: String) {
        #expect(Self.error(Self.replacing(old, new)) == "Scenarios/library.json: " + message)
    }

    /// A filtering fetch that read no row in ObjectGraph is said so, once per variant and size; one that read
    /// rows, or an unfiltered one, is not.
    @Test func aFetchThatFindsNothingIsNoted() throws {
        let scenario = try Self.parse(
            Self.replacing("\"limit\": 10, \"faults\": false,", "\"limit\": 10, \"faults\": false, \"predicate\": \"year > 3000\","))
        func row(_ strategy: Strategy, _ variant: String, _ phase: PhaseName, _ rows: Double) -> SummaryRow {
            SummaryRow(key: .of("library", strategy, variant, size: 8, phase: phase, metric: .rowsRead), summary: SampleSummary([rows]))
        }
        let summary = [
            row(.objectGraph, "prefetch=off", "list", 0), row(.objectGraph, "prefetch=on", "list", 4),
            row(.sqlReplay, "prefetch=off", "list", 0), row(.objectGraph, "prefetch=off", "merge", 0),
        ]
        // The file is in the repository's Scenarios folder (the tests run from the package), which explain reads.
        #expect(
            PhaseNotes.notes(summary, scenarios: [scenario]) == [
                "library list prefetch=off n=8: its fetches read no row; check their predicates against the generated data "
                    + "(bench explain library --variant 'prefetch=off' --size 8 --phase list shows each statement and its values)"
            ])
    }

    /// A generated suite's phase whose save was refused is said so; a scenario file that asks for `"may-fail"` is not.
    @Test func aRefusedSaveOfAGeneratedSuiteIsNoted() throws {
        var generated = try Self.parse(Self.library)
        generated.origin = .generated(model: "/models/Alerts.xcdatamodel")
        let file = try Self.parse(Self.library)
        func row(_ scenario: ScenarioName, _ strategy: Strategy, _ phase: PhaseName, _ failed: Double) -> SummaryRow {
            SummaryRow(key: .of(scenario, strategy, "", size: 8, phase: phase, metric: .failedSaves), summary: SampleSummary([failed]))
        }
        let summary = [
            row("library", .objectGraph, "delete-Author", 1), row("library", .objectGraph, "delete-Book", 0),
            row("library", .sqlReplay, "delete-Author", 1),
        ]
        #expect(
            PhaseNotes.notes(summary, scenarios: [generated]) == [
                "library delete-Author n=8: its save was refused and rolled back (a Deny rule or a validation), so the phase times the "
                    + "attempt, not a delete (bench explain --model /models/Alerts.xcdatamodel --size 8 --phase delete-Author shows the refusal)"
            ])
        #expect(PhaseNotes.notes(summary, scenarios: [file]).isEmpty)
    }

    @Test func aReadNeedsAFetchBeforeIt() {
        #expect(
            Self.error(Self.replacing("{\"fetch\": \"Author\", \"faults\": false}, ", ""))
                == "Scenarios/library.json: field 'phases[5].steps[1]': with prefetch=off: 'read' needs a fetch of objects before it in its phase"
        )
    }

    @Test func aBadInlineModelNamesTheEntityAndProperty() {
        let unknownDestination = Self.replacing("\"destination\": \"Series\"", "\"destination\": \"Serie\"")
        #expect(
            Self.error(unknownDestination).hasPrefix(
                "Scenarios/library.json: field 'data': relationships.Book.series: 'Book' has no relationship 'series'"))
        #expect(
            Self.error(Self.replacing("\"model\": {\"entities\": [", "\"model\": {\"entites\": ["))
                == "Scenarios/library.json: field 'model': an inline model is {\"entities\": [{\"name\": ..., \"attributes\": [...], \"relationships\": [...]}]}"
        )
        #expect(
            Self.error(Self.replacing("\"model\": {", "\"model\": 5, \"ignored\": {"))
                .hasPrefix("Scenarios/library.json: field 'ignored': unknown field"))
    }

    /// The seeds' models as shipped, read through the Xcode importer.
    @Test(arguments: [
        (
            "ChatList", 3,
            "CREATE TABLE ZCHAT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMEMBERSCOUNT INTEGER, ZLASTMESSAGEAT TIMESTAMP, ZNAME VARCHAR )"
        ),
        (
            "SocialFeed", 8,
            "CREATE TABLE ZPOST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLIKESCOUNT INTEGER, ZAUTHOR INTEGER, ZCATEGORY INTEGER, ZCREATEDAT TIMESTAMP, ZUPDATEDAT TIMESTAMP, ZCONTENT VARCHAR, ZTITLE VARCHAR, ZID BLOB )"
        ),
        (
            "HandKeptKey", 2,
            "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCATEGORY INTEGER, ZNAME VARCHAR, ZID BLOB )"
        ),
        (
            "MedicalRecords", 3,
            "CREATE TABLE ZREPORT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZRECORD INTEGER, ZIMAGEDATA BLOB )"
        ),
    ])
    func theShippedModelsImport(name: String, entities: Int, table: String) throws {
        let path = CommandLineTests.root.appendingPathComponent("Scenarios/models/\(name).xcdatamodeld").path
        let xcode = try XcodeModel.load(path: path)
        #expect(xcode.notes.isEmpty)
        let model = try xcode.makeModel()
        #expect(model.entities.count == entities)
        #expect(model.schemaSQL.contains(table))
    }

    /// The default dates of a date attribute are the days they say they are.
    @Test func theDefaultDatesAreTheirDays() {
        #expect(DataGenerator.defaultDates.from == DataSpec.date("2020-01-01"))
        #expect(DataGenerator.defaultDates.to == DataSpec.date("2025-12-31"))
    }
}
