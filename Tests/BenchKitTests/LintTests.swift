import Foundation
import TestSupport
import Testing

@testable import BenchKit

/// `bench lint` on the Shop fixture (an abstract Account with Customer and Staff, Orders cascading into OrderLines
/// whose product is Deny) and on small models: the version read, the Deny chain, derived counts kept on a
/// sub-entity, index advice, and `--against` listing what lightweight migration cannot infer or will lose.
@Suite(.serialized) struct LintTests {
    static let shop = CommandLineTests.root.appendingPathComponent("Tests/BenchKitTests/Fixtures/Shop.xcdatamodeld").path

    private func folder() throws -> URL { try TemporaryFolder.make("lint") }

    private func lint(_ contents: String, in folder: URL) throws -> CommandLineTests.Result {
        let path = folder.appendingPathComponent("contents-\(UUID().uuidString)").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return try CommandLineTests.bench(["lint", path])
    }

    @Test func theShopsLintNamesItsVersionTheDenyChainAndTheUnindexedFilters() throws {
        let result = try CommandLineTests.bench(["lint", Self.shop, "--suggestions"])
        #expect(result.status == 1, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "model \(Self.shop), version Shop 2 (current)")
        #expect(
            lines.dropFirst().dropLast().map { String($0.prefix { $0 != ":" }) } == [
                "suggestion [count-through-faults-guess] Order", "risk [ordered-relationship] Order.lines",
                "risk [unindexed-filter] Order.total", "problem [deny-reached-by-cascade] OrderLine.product",
                "suggestion [count-through-faults-guess] Product", "risk [unindexed-filter] Product.sku",
                "suggestion [unindexed-lookup-guess] model",
            ])
        #expect(lines.last == "7 findings (1 problem, 3 risk, 3 suggestion); exit 1 (--fail-on problem,risk)")
        #expect(
            lines.contains(
                "problem [deny-reached-by-cascade] OrderLine.product: Cascade rules reach this Deny rule (Account.orders → Order.lines → OrderLine.product Deny): deleting a Customer, a Staff or an Order cascades into OrderLines, and an OrderLine with a product cannot be deleted, so each of those saves fails (NSValidationRelationshipDeniedDeleteError, 1600), as deleting an OrderLine itself does. Fix: if a Product that has OrderLines must not be deleted, put Deny on Product.lines and Nullify on OrderLine.product; otherwise make OrderLine.product Nullify, or set each OrderLine's product to nil before deleting."
            ))
        // Customer.orderCount = orders.@count counts Account.orders (declared on the parent): no suggestion for it.
        #expect(!result.output.contains("Account: a list showing"))
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "risk [unindexed-filter] Product.sku: the model's fetch request ProductBySKU (sku == $SKU) filters Products on sku, and no index covers it: each such fetch reads every row of ZPRODUCT (SQLite's plan: SCAN t0)."
                )
            })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "risk [unindexed-filter] Order.total: the model's fetched property Customer.bigOrders (total > 100) filters Orders")
            })
        // The generated suite's own lookups and sorted screens, a guess at what screens do, are one finding.
        #expect(
            lines.contains(
                "suggestion [unindexed-lookup-guess] model: bench run --model looks objects up by identifiers and lists them sorted by dates, and no index covers these 5 attributes: Account.createdAt (sorted-Customer.createdAt, sorted-Staff.createdAt), Account.email (find-Customer.email), Delivery.shippedAt (sorted-Delivery.shippedAt), Order.orderID (find-Order.orderID), Order.placedAt (sorted-Order.placedAt); each such fetch reads every row of its entity, which no index narrows. Fix: index those your screens find or sort by (a fetch index, or Indexed); the find- and sorted- phases measure each fetch without the index, and again once you add it."
            ))
        // Staff.badge leads a uniqueness constraint, whose unique index covers the lookups by it.
        #expect(!result.output.contains("Staff.badge"))
    }

    @Test func indexesCoverFiltersAndDerivedCountsOnAParentOrChildCount() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let covered = try lint(
            """
            <model><entity name="Customer"><attribute name="email" optional="YES" attributeType="String" indexed="YES"/>
            <attribute name="code" optional="YES" attributeType="String"/><attribute name="phone" optional="YES" attributeType="String"/>
            <fetchIndex name="byCode"><fetchIndexElement property="code" type="Binary" order="ascending"/></fetchIndex>
            <uniquenessConstraints><uniquenessConstraint><constraint value="phone"/></uniquenessConstraint></uniquenessConstraints></entity>
            <entity name="Order"><relationship name="customer" optional="YES" maxCount="1" destinationEntity="Customer"/>
            <attribute name="note" optional="YES" attributeType="String"/></entity>
            <fetchRequest name="A" entity="Customer" predicateString="email == $E OR code BEGINSWITH $C OR phone == $P"/>
            <fetchRequest name="B" entity="Order" predicateString="customer.email == $E AND NOT (note CONTAINS 'x')"/>
            <fetchRequest name="C" entity="Order" predicateString="SUBQUERY(x, $x, $x == 1).@count > 0"/></model>
            """, in: folder)
        let indexFindings = covered.output.split(separator: "\n").filter { $0.contains("no index covers") }
        #expect(indexFindings.map { String($0.prefix(35)) } == ["risk [unindexed-filter] Order.note:"], "\(covered.output)")
        let counted = try lint(
            """
            <model><entity name="Account" isAbstract="YES"><relationship name="orders" optional="YES" toMany="YES" destinationEntity="Order" inverseName="account" inverseEntity="Order"/></entity>
            <entity name="Customer" parentEntity="Account"><attribute name="orderCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="orders.@count"/></entity>
            <entity name="Order"><relationship name="account" optional="YES" maxCount="1" destinationEntity="Account" inverseName="orders" inverseEntity="Account"/>
            <relationship name="lines" optional="YES" toMany="YES" destinationEntity="Line" inverseName="order" inverseEntity="Line"/></entity>
            <entity name="Rush" parentEntity="Order"><attribute name="linesCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="lines.@count"/></entity>
            <entity name="Line"><relationship name="order" optional="YES" maxCount="1" destinationEntity="Order" inverseName="lines" inverseEntity="Order"/></entity></model>
            """, in: folder)
        #expect(counted.status == 0 && counted.output.hasSuffix("no findings\n"), "\(counted.output)")
    }

    /// The index finding quotes SQLite's own plan for the model's fetch request: a sub-entity's fetch searches its
    /// hierarchy's table through the entity index and sorts in a temporary B-tree, not "SCAN".
    @Test func theIndexFindingQuotesSQLitesRealPlan() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try lint(
            """
            <model><entity name="Account" isAbstract="YES"><attribute name="email" optional="YES" attributeType="String"/></entity>
            <entity name="Customer" parentEntity="Account"><attribute name="tier" optional="YES" attributeType="Integer 16"/></entity>
            <entity name="Staff" parentEntity="Account"/>
            <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>
            <fetchRequest name="ByEmail" entity="Customer" predicateString="email == $EMAIL"/>
            <fetchRequest name="ByText" entity="Note" predicateString="text == $T"/></model>
            """, in: folder)
        let findings = result.output.split(separator: "\n").filter { $0.contains("[unindexed-filter]") }.map(String.init)
        #expect(
            findings == [
                "risk [unindexed-filter] Account.email: the model's fetch request ByEmail (email == $EMAIL) and bench run --model's find-Customer.email and find-Staff.email filter Accounts on email, and no index covers it: each such fetch reads every Customer row of ZACCOUNT through the index it can use (SQLite's plan: SEARCH t0 USING INDEX ZACCOUNT_Z_ENT_INDEX (Z_ENT=?)). Fix: add a fetch index on email to Account (or check Indexed): the fetch then searches the index; bench run --model measures it before and after.",
                "risk [unindexed-filter] Note.text: the model's fetch request ByText (text == $T) filters Notes on text, and no index covers it: each such fetch reads every row of ZNOTE (SQLite's plan: SCAN t0). Fix: add a fetch index on text to Note (or check Indexed): the fetch then searches the index; bench run --model measures it before and after.",
            ], "\(result.output)")
    }

    @Test func aDirectDenyIsNoChainButEveryCascadeIntoOneIs() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try lint(
            """
            <model><entity name="Folder"><relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/></entity>
            <entity name="Note"><relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
            <relationship name="attachments" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Attachment" inverseName="note" inverseEntity="Attachment"/></entity>
            <entity name="Attachment"><relationship name="note" optional="YES" maxCount="1" destinationEntity="Note" inverseName="attachments" inverseEntity="Note"/></entity>
            <entity name="Tag"><relationship name="labels" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Label" inverseName="tag" inverseEntity="Label"/></entity>
            <entity name="Label"><relationship name="tag" optional="YES" maxCount="1" destinationEntity="Tag" inverseName="labels" inverseEntity="Tag"/></entity></model>
            """, in: folder)
        let chains = result.output.split(separator: "\n").filter { $0.contains("[deny-reached-by-cascade]") }
        #expect(
            chains == [
                "problem [deny-reached-by-cascade] Note.attachments: Cascade rules reach this Deny rule (Folder.notes → Note.attachments Deny): deleting a Folder cascades into Notes, and a Note with attachments cannot be deleted, so each of those saves fails (NSValidationRelationshipDeniedDeleteError, 1600), as deleting a Note itself does. Fix: if an Attachment that has Notes must not be deleted, put Deny on Attachment.note and Nullify on Note.attachments; otherwise make Note.attachments Nullify, or set each Note's attachments to nil before deleting."
            ], "\(result.output)")
    }

    /// Shop 1 against Shop 2 has one change of each kind; what lightweight migration infers (a rename with a
    /// renaming identifier, Integer 16 to 32, an optional attribute added) is not listed.
    @Test func againstAnOlderVersionListsWhatMigrationCannotInferOrLoses() throws {
        let result = try CommandLineTests.bench(["lint", Self.shop, "--against", "Shop 1"])
        #expect(result.status == 1, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "model \(Self.shop), version Shop 2 (current), against \(Self.shop), version Shop 1 (the current version is Shop 2)")
        #expect(
            lines.dropFirst().dropLast().map { line in
                let parts = line.drop { $0 != "]" }.dropFirst(2).split(separator: ":", maxSplits: 1)
                return parts[0].trimmingCharacters(in: .whitespaces) + ": "
                    + parts[1].prefix(while: { $0 != ":" }).trimmingCharacters(in: .whitespaces)
            } == [
                "Account.mail: removed (email, added, is an attribute of type String as it was",
                "Coupon: removed", "Customer.address: to-many becomes to-one", "Customer.favorites: removed",
                "Item.fans: removed", "Order.account: optional becomes required",
                "Order.giftWrap: removed", "Order.placedAt: optional becomes required without a default value",
                "Order.total: type changes from String to Decimal", "Product: uniqueness constraints change from (sku) to none",
                "Product.price: added as required without a default value", "Shipment: removed (Delivery, added, has its attributes",
                "Staff: uniqueness constraints change from (badge) to (badge, role)",
            ], "\(result.output)")
        #expect(
            lines.allSatisfy {
                $0.hasPrefix("problem [migration-") || $0.hasPrefix("risk [migration-") || $0.hasPrefix("model ")
                    || $0 == "13 findings (12 problem, 1 risk); exit 1 (--fail-on problem,risk)"
            }, "\(result.output)")
        #expect(result.output.contains("Fix: if email is mail renamed, set Account.email's renaming identifier (elementID) to 'mail'."))
        #expect(
            result.output.contains("Fix: if Delivery is Shipment renamed, set Delivery's renaming identifier (elementID) to 'Shipment'."))
        #expect(
            result.output.contains("the migration fails on rows that already share values (NSMigrationConstraintViolationError, 134111)"))
        let byPath = try CommandLineTests.bench(["lint", Self.shop, "--against", Self.shop + "/Shop 1.xcdatamodel"])
        #expect(byPath.output.split(separator: "\n").dropFirst().map(String.init) == Array(lines.dropFirst()))
        let same = try CommandLineTests.bench(["lint", Self.shop, "--against", "Shop 2"])
        #expect(same.status == 0 && same.output.hasSuffix("\nno findings\n"), "\(same.output)")
    }

    /// jeffreybergier/CoreDataMigrationTests' chain: each version's renaming identifier names the previous
    /// version's name, not its canonical identifier, so the value is dropped; merging two root entities under one
    /// parent cannot be inferred.
    @Test func aBrokenChainOfRenamingIdentifiersAndAMergedHierarchyAreSaid() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let second = try write(
            "v2",
            """
            <model><entity name="Basic"><attribute name="v2_name" optional="YES" attributeType="String" elementID="v1_name"/></entity>
            <entity name="Photo"/><entity name="Video"/></model>
            """)
        let third = try write(
            "v3",
            """
            <model><entity name="Basic"><attribute name="v3_name" optional="YES" attributeType="String" elementID="v2_name"/></entity>
            <entity name="Media" isAbstract="YES"/><entity name="Photo" parentEntity="Media"/><entity name="Video" parentEntity="Media"/></model>
            """)
        let result = try CommandLineTests.bench(["lint", third, "--against", second])
        #expect(result.status == 1)
        #expect(
            result.output.contains(
                "problem [migration-property-removed] Basic.v2_name: removed (v3_name, added, is an attribute of type String as it was: a rename without a renaming identifier (elementID)?): lightweight migration drops the column ZV2_NAME and every value in it without an error. Basic.v3_name's renaming identifier (elementID) 'v2_name' is its old name, but the migration matches v2_name by its own, 'v1_name'. Fix: if v3_name is v2_name renamed, set Basic.v3_name's renaming identifier (elementID) to 'v1_name'."
            ), "\(result.output)")
        #expect(
            result.output.contains(
                "problem [migration-hierarchies-merged] Media: Photo and Video had tables of their own and now share ZMEDIA: lightweight migration cannot merge two hierarchies into one table"
            ), "\(result.output)")
        #expect(result.output.hasSuffix("\n2 findings (2 problem); exit 1 (--fail-on problem,risk)\n"), "\(result.output)")
    }

    /// Two models with no entity in common (another app's model given to --against) are said to be unrelated, first,
    /// before the removals that follow from it.
    @Test func anUnrelatedOlderModelIsSaid() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("old").path
        let new = folder.appendingPathComponent("new").path
        try Data(#"<model><entity name="Invoice"><attribute name="total" optional="YES" attributeType="Double"/></entity></model>"#.utf8)
            .write(to: URL(fileURLWithPath: old))
        try Data(#"<model><entity name="Song"><attribute name="title" optional="YES" attributeType="String"/></entity></model>"#.utf8)
            .write(to: URL(fileURLWithPath: new))
        let result = try CommandLineTests.bench(["lint", new, "--against", old])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(
            lines.dropFirst().first?.hasPrefix(
                "problem [migration-unrelated-models] model: no entity of the model matches one of the older model by name or renaming identifier: they look like two unrelated models"
            ) == true, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("problem [migration-entity-removed] Invoice: removed") }, "\(result.output)")
        // Versions of one model that share an entity are not called unrelated.
        let shop = try CommandLineTests.bench(["lint", Self.shop, "--against", "Shop 1"])
        #expect(!shop.output.contains("unrelated"), "\(shop.output)")
    }

    /// What the reader skips because the file is wrong is a finding (exit 1), not a note beside "no findings"; what
    /// ObjectGraph leaves out of a correct model (a transient relationship) stays a note.
    @Test func aModelWithProblemsIsNotClean() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try lint(
            """
            <model><entity name="Author"><attribute name="name" optional="YES" attributeType="Quaternion"/>
            <attribute name="shout" optional="YES" attributeType="String" derived="YES" derivationExpression="books.title.@avg"/>
            <relationship name="books" optional="YES" toMany="YES" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
            <relationship name="agent" optional="YES" maxCount="1" destinationEntity="Agent"/>
            <relationship name="editor" optional="YES" maxCount="1"/>
            <relationship name="fans" optional="YES" toMany="YES" transient="YES" destinationEntity="Book"/>
            <fetchIndex name="byGone"><fetchIndexElement property="gone" type="Binary" order="ascending"/></fetchIndex></entity>
            <entity name="Book"><attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" destinationEntity="Author" inverseName="books" inverseEntity="Author"/></entity></model>
            """, in: folder)
        #expect(result.status == 1, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("note: ") } == ["note: Author.fans: a transient relationship is not stored; skipped"])
        #expect(
            lines.filter { $0.hasPrefix("problem [model-") } == [
                "problem [model-unknown-attribute-type] Author.name: attribute type 'Quaternion' is not one ObjectGraph stores (Integer 16/32/64, Decimal, Double, Float, String, Boolean, Date, Binary, UUID, URI, Transformable); skipped: Core Data knows no such type, so the store and every number RelBench gives lack this attribute. Fix: choose one of Core Data's types (Integer 16/32/64, Decimal, Double, Float, String, Boolean, Date, Binary Data, UUID, URI, Transformable).",
                "problem [model-unsupported-derivation] Author.shout: derivation 'books.title.@avg' is not supported (only @count, @sum, @max and @min); use <toMany>.@count, <toMany>.<attribute>.@sum|@max|@min, <toOne>.<attribute>, canonical:(<attribute>), uppercase:(...), lowercase:(...) or now(); skipped: the attribute is left out of the store, so nothing RelBench measures keeps it up to date. Fix: write the derivation in a form Core Data supports, or keep the value yourself in a stored attribute.",
                "problem [model-missing-destination] Author.agent: its destination 'Agent' is not an entity of the model; skipped: Xcode does not build a model with such a relationship, and RelBench leaves it (and the links it would hold) out. Fix: set its destination to an entity of the model (check an entity renamed or removed in this version), or delete it.",
                "problem [model-missing-destination] Author.editor: it has no destination entity; skipped: Xcode does not build a model with such a relationship, and RelBench leaves it (and the links it would hold) out. Fix: set its destination to an entity of the model (check an entity renamed or removed in this version), or delete it.",
                "problem [model-index-on-missing-property] Author: an index names 'gone', which is not a stored property; the index is skipped: the index is left out, so the fetches it was meant for are measured without it. Fix: name a stored attribute or to-one relationship of the entity in the index, or delete the index.",
            ], "\(result.output)")
        #expect(lines.last == "6 findings (5 problem, 1 suggestion); exit 1 (--fail-on problem,risk)", "\(result.output)")
        // bench schema still prints every note, the problems included, and succeeds: the store it prints is made.
        let path = folder.appendingPathComponent("broken").path
        try Data(
            """
            <model><entity name="Author"><attribute name="name" optional="YES" attributeType="Quaternion"/>
            <relationship name="agent" optional="YES" maxCount="1" destinationEntity="Agent"/></entity></model>
            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        let schema = try CommandLineTests.bench(["schema", path])
        #expect(schema.status == 0)
        #expect(schema.output.hasPrefix("-- note: Author.name: attribute type 'Quaternion'"), "\(schema.output)")
        #expect(schema.output.contains("\n-- note: Author.agent: its destination 'Agent' is not an entity of the model; skipped\n"))
    }
}
