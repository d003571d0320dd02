import CSQLite
import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import BenchKit

/// `--shape-from`: a store's shape (rows per entity, members per owner) read from a copy, checked to be a store of
/// the model, and followed by the generated data, on a store ObjectGraph made with Zipf fan-outs and on one made by
/// hand in Core Data's layout (its rows only in its -wal, persistent history's tables beside the entities').
@Suite(.serialized) struct StoreShapeTests {
    static let shop = LintTests.shop

    private func folder() throws -> URL { try TemporaryFolder.make("shape") }

    /// A Shop store ObjectGraph saves: 72 accounts whose orders follow Zipf (a few with dozens, most with one or
    /// none), orders with 0 to 3 lines, 8 lines in 10 with a product.
    static func zipfStore(at path: String) throws -> (data: GraphData, model: ObjectModel) {
        let text = """
            {"name": "shop-store", "description": "d", "model": "\(shop)",
             "data": {"entities": {"Customer": 60, "Staff": 12, "Order": 300, "OrderLine": 500, "Product": 40, "Address": 30, "Delivery": 5},
                      "relationships": {"Account.orders": {"per": {"zipf": 1.4, "max": 60}}, "Order.lines": {"per": {"uniform": [0, 3]}},
                                        "OrderLine.product": {"fill": 0.8}}},
             "phases": [{"name": "p", "steps": [{"fetch": "Order"}]}], "sizes": [1]}
            """
        let scenario = try ScenarioFile.parse(Data(text.utf8), file: "shop-store.json")
        let plan = try scenario.declared.plan(for: scenario.variants[0])
        let data = plan.generator.make(size: 1, seed: 7)
        _ = try GraphFiller.fill(data, model: plan.model, location: .file(path), options: StoreOptions())
        return (data, plan.model)
    }

    @Test func aStoreObjectGraphMadeIsReadAndFollowedExactly() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shop.sqlite").path
        let (data, model) = try Self.zipfStore(at: path)
        let shape = try StoreShape.read(path: path, model: model, modelName: "Shop").shape
        #expect(
            shape.rows == ["Customer": 60, "Staff": 12, "Order": 300, "OrderLine": 500, "Product": 40, "Address": 30, "Delivery": 5])
        let orders = data.edges.first { $0.relationship == "orders" }!
        var expected: [Int: Int] = [:]
        for account in data.objects(of: model.entity("Account")!) { expected[orders.targets[account]?.count ?? 0, default: 0] += 1 }
        #expect(shape.fanouts["Account.orders"] == Histogram(expected))
        #expect((shape.fanouts["Account.orders"]?.owners.keys.max() ?? 0) >= 20, "a Zipf tail: \(expected)")
        #expect(shape.filled["OrderLine.product"].map { abs($0 - 0.8) < 0.05 } == true)
        // At the store's own size the generated data has its shape exactly; at twice the size, every count doubles.
        let suite = try GeneratedSuite.scenario(modelPath: Self.shop, options: GeneratedSuite.Options(shape: shape))
        let same = try GeneratedSuite.generatedShape(suite, size: 500, seed: 42)
        #expect(same.rows == shape.rows)
        #expect(same.fanouts["Account.orders"] == shape.fanouts["Account.orders"])
        #expect(same.fanouts["Order.lines"] == shape.fanouts["Order.lines"])
        #expect(same.fanouts["Product.lines"] == shape.fanouts["Product.lines"])
        let twice = try GeneratedSuite.generatedShape(suite, size: 1000, seed: 42)
        #expect(twice.rows == shape.rows.mapValues { $0 * 2 })
        #expect(twice.fanouts["Account.orders"] == Histogram(expected.mapValues { $0 * 2 }))
        // The run prints the two histograms side by side and writes them to shape.txt.
        let output = folder.appendingPathComponent("run")
        let result = try CommandLineTests.bench([
            "run", "--model", Self.shop, "--shape-from", path, "--sizes", "500", "--repetitions", "1", "--warmup", "0",
            "--strategies", "objectgraph", "--output", output.path, "--allow-debug", "--no-history", "--no-advice",
        ])
        #expect(result.status == 0, "\(result.error)")
        let report = ShapeReport.text(store: shape, generated: same, size: 500)
        #expect(try String(contentsOf: output.appendingPathComponent("shape.txt"), encoding: .utf8) == report + "\n")
        #expect(result.output.contains(report + "\n(shape.txt in the run folder)"))
        #expect(report.contains("\nAccount.orders: members per owner (mean "))
        let rows = try SummaryFile.load(output.appendingPathComponent("summary.csv").path).rows
        #expect(rows.first { $0.key.phase == "fetch-Customer" && $0.key.metric == .rowsRead }?.summary?.median == 60)
    }

    /// A store in which most entities have no row and one to-many has no member at all (20 Customers with 3 orders
    /// each; no Staff, OrderLine, Product, Address or Delivery): the shape is read and run, not refused with a message
    /// about an internal field (before: "field 'phases[10].repeat': expected ..., got {"count":"0.0*size","max":10}").
    @Test func aStoreWithEmptyEntitiesAndAllZeroFanOutsIsRun() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("sparse.sqlite").path
        let text = """
            {"name": "sparse", "description": "d", "model": "\(Self.shop)",
             "data": {"entities": {"Customer": 20, "Order": 60}, "relationships": {"Account.orders": {"per": 3}}},
             "phases": [{"name": "p", "steps": [{"fetch": "Order"}]}], "sizes": [1]}
            """
        let scenario = try ScenarioFile.parse(Data(text.utf8), file: "sparse.json")
        let plan = try scenario.declared.plan(for: scenario.variants[0])
        _ = try GraphFiller.fill(plan.generator.make(size: 1, seed: 7), model: plan.model, location: .file(path), options: StoreOptions())
        let output = folder.appendingPathComponent("run")
        let result = try CommandLineTests.bench([
            "run", "--model", Self.shop, "--shape-from", path, "--sizes", "60", "--repetitions", "1", "--warmup", "0",
            "--strategies", "objectgraph", "--output", output.path, "--allow-debug", "--no-history", "--no-advice",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output.contains(
                "counts, in the store's proportions (the entity with most rows gets size): Address 0, Customer 0.333 × size, Delivery 0, Order size, OrderLine 0, Product 0, Staff 0\nmembers per owner (the data's mean): Account.orders 3.0; Order.lines none\n"
            ), "\(result.output)")
        let rows = try SummaryFile.load(output.appendingPathComponent("summary.csv").path).rows
        #expect(rows.first { $0.key.phase == "fetch-Customer" && $0.key.metric == .rowsRead }?.summary?.median == 20)
        #expect(rows.first { $0.key.phase == "fetch-Staff" && $0.key.metric == .rowsRead }?.summary?.median == 0)
    }

    /// A store written by hand as Core Data lays one out (the notes' handmade_store_example.py): Z_PRIMARYKEY with
    /// persistent history's rows 16001 to 16003 and their A tables, Z_METADATA's property list, an empty
    /// Z_MODELCACHE, in WAL mode with every row still in the -wal file, which a writer holds open.
    @Test func aHandMadeStoreInCoreDatasLayoutIsReadFromACopyWithItsWAL() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("contents").path
        try Data(
            """
            <model><entity name="Author"><attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
            <entity name="Book"><attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity></model>
            """.utf8
        ).write(to: URL(fileURLWithPath: model))
        let store = folder.appendingPathComponent("hand.sqlite").path
        let books = [12, 5, 1, 1, 1, 1, 0, 0, 0, 0]
        let writer = try Self.handMadeStore(at: store, books: books, orphans: 2)
        defer { sqlite3_close(writer) }
        let before = try Self.listing(folder)
        let output = folder.appendingPathComponent("run")
        let result = try CommandLineTests.bench([
            "run", "--model", model, "--shape-from", store, "--sizes", "23", "--repetitions", "1", "--warmup", "0",
            "--strategies", "objectgraph", "--output", output.path, "--allow-debug", "--no-history", "--no-advice", "--quiet",
        ])
        #expect(result.status == 0, "\(result.error)")
        let shape = StoreShape(
            path: store, rows: ["Author": 10, "Book": 23], fanouts: ["Author.books": Histogram([0: 4, 1: 4, 5: 1, 12: 1])],
            filled: ["Book.author": 21.0 / 23])
        #expect(
            try String(contentsOf: output.appendingPathComponent("shape.txt"), encoding: .utf8)
                == ShapeReport.text(store: shape, generated: shape, size: 23) + "\n")
        #expect(try Self.listing(folder).filter { !$0.hasPrefix("run") } == before, "the user's files are only read")
        // Copied without its -wal, the store has none of its tables yet: the reader says why.
        let alone = folder.appendingPathComponent("alone.sqlite").path
        try FileManager.default.copyItem(atPath: store, toPath: alone)
        let missing = try CommandLineTests.bench(["explain", "--model", model, "--shape-from", alone])
        #expect(missing.status == 64)
        #expect(
            missing.error
                == "bench: error: --shape-from: \(alone) has no Z_PRIMARYKEY table, so it is no Core Data or SwiftData store; give the app's store file (\(alone) is in WAL mode and has no -wal file beside it: if it was copied while the app ran, its latest saves are in that file; copy alone.sqlite-wal and -shm with it)\n",
            "\(missing.error)")
    }

    /// A many-to-many's members are counted in its join table (Core Data's Z_<n><RELATIONSHIP>, a column per side
    /// numbered by entity), for each side, owners with none included.
    @Test func aHandMadeJoinTableGivesBothSidesTheirHistograms() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let model = folder.appendingPathComponent("contents").path
        try Data(
            """
            <model><entity name="Author"><attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
            <entity name="Book"><attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/></entity>
            <entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/></entity></model>
            """.utf8
        ).write(to: URL(fileURLWithPath: model))
        let store = folder.appendingPathComponent("tags.sqlite").path
        var db: OpaquePointer?
        guard sqlite3_open(store, &db) == SQLITE_OK, let db else { throw BenchError.io("cannot open \(store)") }
        // Book 1 has the three tags, books 2 and 3 tag 1, book 4 none: tag 1 is on three books, tags 2 and 3 on one.
        let script = """
            CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHOR INTEGER, ZTITLE VARCHAR );
            CREATE TABLE Z_2TAGS ( Z_2BOOKS INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_2BOOKS, Z_3TAGS) );
            CREATE INDEX Z_2TAGS_Z_3TAGS_INDEX ON Z_2TAGS (Z_3TAGS, Z_2BOOKS);
            CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL VARCHAR );
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, 3), (2, 'Book', 0, 4), (3, 'Tag', 0, 3);
            INSERT INTO ZAUTHOR VALUES (1, 1, 1, 'a'), (2, 1, 1, 'b'), (3, 1, 1, 'c');
            INSERT INTO ZBOOK VALUES (1, 2, 1, 1, 'w'), (2, 2, 1, 1, 'x'), (3, 2, 1, 1, 'y'), (4, 2, 1, 2, 'z');
            INSERT INTO ZTAG VALUES (1, 3, 1, 'p'), (2, 3, 1, 'q'), (3, 3, 1, 'r');
            INSERT INTO Z_2TAGS VALUES (1, 1), (1, 2), (1, 3), (2, 1), (3, 1);
            """
        let status = sqlite3_exec(db, script, nil, nil, nil)
        sqlite3_close(db)
        #expect(status == SQLITE_OK)
        let compiled = try ObjectModel(try XcodeModel.load(path: model).entities)
        let shape = try StoreShape.read(path: store, model: compiled, modelName: "contents").shape
        #expect(shape.rows == ["Author": 3, "Book": 4, "Tag": 3])
        #expect(shape.fanouts["Author.books"] == Histogram([0: 1, 1: 1, 3: 1]))
        #expect(shape.fanouts["Book.tags"] == Histogram([0: 1, 1: 2, 3: 1]))
        #expect(shape.fanouts["Tag.books"] == Histogram([1: 2, 3: 1]))
        #expect(shape.filled["Book.author"] == 1)
        // The generated data deals the store's books per author, tags per book and books per tag at its size.
        let suite = try GeneratedSuite.scenario(modelPath: model, options: GeneratedSuite.Options(shape: shape))
        let generated = try GeneratedSuite.generatedShape(suite, size: 40, seed: 42)
        #expect(generated.rows == ["Author": 30, "Book": 40, "Tag": 30])
        #expect(generated.fanouts["Author.books"] == Histogram([0: 10, 1: 10, 3: 10]))
        #expect(generated.fanouts["Book.tags"] == Histogram([0: 10, 1: 20, 3: 10]))
        #expect(generated.fanouts["Tag.books"] == Histogram([1: 20, 3: 10]))
    }

    @Test func aStoreOfAnotherModelIsRefusedWithWhatDiffers() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("hand.sqlite").path
        sqlite3_close(try Self.handMadeStore(at: store, books: [2, 1], orphans: 0))
        let other = try CommandLineTests.bench(["run", "--model", Self.shop, "--shape-from", store, "--allow-debug"])
        // Closed, the store keeps WAL mode without a -wal file (as an app's store copied once it quit): said, in case.
        let note =
            " (\(store) is in WAL mode and has no -wal file beside it: if it was copied while the app ran, its latest saves are in that file; copy hand.sqlite-wal and -shm with it)"
        #expect(other.status == 64 && other.output.isEmpty)
        #expect(
            other.error
                == "bench: error: --shape-from: \(store) is not a store of \(Self.shop): the store has no entity Account, Address, Customer, Delivery, Order, OrderLine, Product or Staff; the model has no entity Author or Book; give a store this model version made\(note)\n"
        )
        let model = folder.appendingPathComponent("contents").path
        try Data(
            """
            <model><entity name="Author"><attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="author" inverseEntity="Book"/></entity>
            <entity name="Book"><attribute name="subtitle" optional="YES" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity></model>
            """.utf8
        ).write(to: URL(fileURLWithPath: model))
        let columns = try CommandLineTests.bench(["explain", "--model", model, "--shape-from", store])
        #expect(
            columns.error
                == "bench: error: --shape-from: \(store) is not a store of \(model): ZBOOK has no column ZSUBTITLE; ZBOOK's column ZTITLE is not the model's; give a store this model version made (bench schema prints the model's tables)\(note)\n"
        )
    }

    @Test func aHistogramDealsItsSharesAtEverySize() throws {
        let bins = [
            DataSpec.Fanout.Bin(fanout: 0, owners: 7), .init(fanout: 1, owners: 7), .init(fanout: 2, owners: 4),
            .init(fanout: 100, owners: 1),
        ]
        var random = SplitMix64(seed: 1)
        func counts(_ sources: Int) -> [Int: Int] {
            DataSpec.Fanout.deal(bins, sources: sources, random: &random).reduce(into: [:]) { $0[$1, default: 0] += 1 }
        }
        #expect(counts(19) == [0: 7, 1: 7, 2: 4, 100: 1])
        #expect(counts(190) == [0: 70, 1: 70, 2: 40, 100: 10])
        // 10 sources: 3.68, 3.68, 2.1 and 0.53 rounded by largest remainders to 4, 4, 2 and 0.
        #expect(counts(10) == [0: 4, 1: 4, 2: 2])
        let parsed = try DataSpec.Fanout.parse(.object(["histogram": .object(["2": .number(4), "0": .number(7)])])) {
            BenchError.invalidInput($0)
        }
        #expect(parsed == .histogram([.init(fanout: 0, owners: 7), .init(fanout: 2, owners: 4)]))
        #expect(throws: BenchError.self) {
            try DataSpec.Fanout.parse(.object(["histogram": .object(["-1": .number(4)])])) { BenchError.invalidInput($0) }
        }
    }

    /// Creates a store for Author and Book in Core Data's layout, in WAL mode with automatic checkpoints off, and
    /// returns the writer's connection, still open: every row is in the -wal file only.
    static func handMadeStore(at path: String, books: [Int], orphans: Int) throws -> OpaquePointer {
        var db: OpaquePointer?
        guard sqlite3_open(path, &db) == SQLITE_OK, let db else { throw BenchError.io("cannot open \(path)") }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw BenchError.io(String(cString: sqlite3_errmsg(db))) }
        }
        let metadata = try PropertyListSerialization.data(
            fromPropertyList: [
                "NSStoreModelVersionHashes": ["Author": Data(repeating: 1, count: 32), "Book": Data(repeating: 2, count: 32)],
                "NSStoreModelVersionHashesVersion": 3, "NSStoreModelVersionIdentifiers": [""], "NSStoreType": "SQLite",
                "NSPersistenceFrameworkVersion": 1345, "_NSAutoVacuumLevel": "2",
            ], format: .binary, options: 0)
        try exec("PRAGMA auto_vacuum = 2; PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        try exec(
            """
            BEGIN;
            CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHOR INTEGER, ZTITLE VARCHAR );
            CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR);
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB );
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZTIMESTAMP FLOAT );
            CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR NOT NULL UNIQUE );
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            INSERT INTO Z_METADATA VALUES (1, '6A1E2B6C-3F0D-4C55-9E2A-7D3C1B0F9A11', X'\(metadata.map { String(format: "%02X", $0) }.joined())');
            INSERT INTO ACHANGE VALUES (1, 16001, 1, 0, 1, 1, 1, NULL);
            INSERT INTO ATRANSACTION VALUES (1, 16002, 1, NULL, 0);
            """)
        var book = 0
        for (index, count) in books.enumerated() {
            try exec("INSERT INTO ZAUTHOR VALUES (\(index + 1), 1, 1, 'Author \(index + 1)')")
            for _ in 0..<count {
                book += 1
                try exec("INSERT INTO ZBOOK VALUES (\(book), 2, 1, \(index + 1), 'Book \(book)')")
            }
        }
        for _ in 0..<orphans {
            book += 1
            try exec("INSERT INTO ZBOOK VALUES (\(book), 2, 1, NULL, 'Book \(book)')")
        }
        try exec(
            """
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, \(books.count)), (2, 'Book', 0, \(book)), (16001, 'CHANGE', 0, 1),
                (16002, 'TRANSACTION', 0, 1), (16003, 'TRANSACTIONSTRING', 0, 0);
            COMMIT;
            """)
        return db
    }

    /// Each file of `folder` with its size and modification time.
    static func listing(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            return "\(name) \(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        }
    }
}
