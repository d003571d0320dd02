import CSQLite
import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import BenchKit

/// `bench lint V2 --against V1 --data STORE`: stores ObjectGraph writes for version 1 of the fixtures in
/// Fixtures/Migrations, migrated (a copy) as lightweight migration infers, each failing rule counted with its first
/// primary keys; the clean migrations stay silent, and the user's store is left as it was, byte for byte.
@Suite(.serialized) struct MigrationDryRunTests {
    static let folder = MigrationHierarchyTests.folder

    private func temporaryFolder() throws -> URL { try TemporaryFolder.make("dry-run-test") }

    /// A store of `fixture`'s V1 at `path`, filled by `fill` and saved by ObjectGraph; with `wal`, its rows stay in
    /// the -wal file (beside the -shm), as an app's store copied while it runs.
    static func store(_ fixture: String, at path: String, wal: Bool = false, _ fill: (ObjectContext) throws -> Void) throws {
        let model = try ModelSource.load(path: folder.appendingPathComponent("\(fixture).xcdatamodeld").path, version: "V1").makeModel()
        var options = StoreOptions(journalMode: wal ? "WAL" : "DELETE")
        options.keepsWriteAheadLogOnClose = wal
        let store = try PersistentStore(model: model, location: .file(path), options: options)
        let context = store.makeContext()
        try fill(context)
        try context.save()
    }

    /// `bench lint FIXTURE --against V1 --data STORE`: the lines after the heading, and the exit status.
    private func dryRun(_ fixture: String, _ arguments: [String]) throws -> (lines: [String], status: Int32) {
        let result = try CommandLineTests.bench(
            ["lint", Self.folder.appendingPathComponent("\(fixture).xcdatamodeld").path, "--against", "V1"] + arguments)
        #expect(result.error.isEmpty, "\(result.error)")
        return (result.output.split(separator: "\n").dropFirst().map(String.init), result.status)
    }

    private func customers(_ count: Int) -> (ObjectContext) throws -> Void {
        { context in
            for index in 1...count { try context.insert("Customer").setValue(.string("customer \(index)"), for: "name") }
        }
    }

    /// The issue's case: Customer{name} moves under a new abstract Account{email: required, no default, unique}; every
    /// stored Customer fails, and the finding names the first five.
    @Test func theIssuesCaseFailsOnEveryStoredCustomer() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shop.sqlite").path
        try Self.store("NewParentRequired", at: path, customers(12))
        let (lines, status) = try dryRun("NewParentRequired", ["--data", path])
        #expect(status == 1)
        #expect(
            Array(lines.suffix(4)) == [
                "dry run: a copy of \(path) (a store of V1), migrated to V2 as lightweight migration infers; rows checked: Customer 12",
                "problem [migration-data-required-value-missing] Customer.email: 12 of 12 Customer rows would have no email (required, no default value; added, inherited from Account): lightweight migration fails on the first (Z_PK 1, 2, 3, 4, 5) with \"Validation error missing attribute values on mandatory destination attribute\" (NSMigrationError, 134110), and the store does not open. Fix: give email a default value (the migration fills it in), or make it optional; or set it on every stored Customer in a staged migration.",
                "dry run: 1 rule of the newer model fails on the rows",
                "1 finding (1 problem); exit 1 (--fail-on problem,risk)",
            ], "\(lines)")
        #expect(lines.filter { $0.hasPrefix("problem [migration-") }.count == 3)
    }

    /// The same model with no row stored: nothing fails, and the line says so.
    @Test func anEmptyStoreMigratesCleanly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("empty.sqlite").path
        try Self.store("NewParentRequired", at: path) { _ in }
        let (lines, status) = try dryRun("NewParentRequired", ["--data", path])
        #expect(status == 0)
        #expect(
            Array(lines.suffix(3)) == [
                "dry run: a copy of \(path) (a store of V1), migrated to V2 as lightweight migration infers; rows checked: Customer 0",
                "dry run: the rows migrate cleanly, no rule of the newer model fails on them; the 2 findings above about required values or uniqueness do not fail on these rows and are left out of the gate",
                "no findings",
            ], "\(lines)")
    }

    /// A required attribute with a default value, and an optional one: the migration fills in the default or nil.
    @Test func aDefaultOrAnOptionalAttributeMigratesCleanly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for fixture in ["NewParentDefault", "NewParentOptional"] {
            let path = folder.appendingPathComponent("\(fixture).sqlite").path
            try Self.store(fixture, at: path, customers(7))
            let (lines, status) = try dryRun(fixture, ["--data", path])
            #expect(status == 0, "\(fixture)")
            #expect(
                Array(lines.suffix(3)) == [
                    "dry run: a copy of \(path) (a store of V1), migrated to V2 as lightweight migration infers; rows checked: Customer 7",
                    "dry run: the rows migrate cleanly, no rule of the newer model fails on them",
                    "no findings",
                ], "\(fixture): \(lines)")
        }
    }

    /// Account gains a uniqueness constraint on email that Customer and Staff share: the values two or more rows hold
    /// are named with their rows; rows with no email are no duplicates. Without duplicates it passes.
    @Test func aNewUniquenessConstraintNamesTheDuplicatesAndPassesWithoutThem() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func accounts(_ emails: [(String, String?)]) -> (ObjectContext) throws -> Void {
            { context in
                for (entity, email) in emails { try context.insert(entity).setValue(email.map(Value.string) ?? .null, for: "email") }
            }
        }
        let duplicated = folder.appendingPathComponent("duplicated.sqlite").path
        try Self.store(
            "ParentGainsConstraint", at: duplicated,
            accounts([
                ("Customer", "a@x"), ("Customer", "b@x"), ("Customer", "a@x"), ("Customer", nil), ("Customer", "c@x"),
                ("Staff", "b@x"), ("Staff", nil), ("Staff", "b@x"), ("Staff", "d@x"),
            ]))
        let (lines, status) = try dryRun("ParentGainsConstraint", ["--data", duplicated])
        #expect(status == 1)
        #expect(
            Array(lines.suffix(4)) == [
                "dry run: a copy of \(duplicated) (a store of V1), migrated to V2 as lightweight migration infers; rows checked: Customer 5, Staff 4",
                "problem [migration-data-duplicates] Account: 5 Account and its sub-entities rows share 2 values of the uniqueness constraint (email), e.g. email 'a@x' in Z_PK 1, 3: the migration fails on them (NSMigrationConstraintViolationError, 134111) and the store does not open; the first Z_PK 1, 3, 2, 6, 8. Fix: remove or merge the duplicates before migrating (a staged migration's first stage), or keep the constraint out of this version.",
                "dry run: 1 rule of the newer model fails on the rows",
                "1 finding (1 problem); exit 1 (--fail-on problem,risk)",
            ], "\(lines)")
        let distinct = folder.appendingPathComponent("distinct.sqlite").path
        try Self.store(
            "ParentGainsConstraint", at: distinct,
            accounts([("Customer", "a@x"), ("Customer", nil), ("Customer", nil), ("Staff", "b@x"), ("Staff", nil)]))
        let clean = try dryRun("ParentGainsConstraint", ["--data", distinct])
        #expect(clean.status == 0)
        #expect(
            Array(clean.lines.suffix(3)) == [
                "dry run: a copy of \(distinct) (a store of V1), migrated to V2 as lightweight migration infers; rows checked: Customer 3, Staff 2",
                "dry run: the rows migrate cleanly, no rule of the newer model fails on them; the finding above about required values or uniqueness does not fail on these rows and is left out of the gate",
                "no findings",
            ], "\(clean.lines)")
    }

    /// Rules tightened on kept properties: title and shelf become required, quantity gains a range, nickname is
    /// renamed alias (elementID) with a minimum length, a shelf holds at most 3 items. Each is one finding with its
    /// rows; the renamed attribute's values are carried over and checked.
    @Test func tightenedRulesNameTheirRows() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("items.sqlite").path
        try Self.store("Tightened", at: path) { context in
            let full = try context.insert("Shelf")
            let spare = try context.insert("Shelf")
            for index in 1...10 {
                let item = try context.insert("Item")
                try item.setValue(index % 4 == 0 ? .null : .string("item \(index)"), for: "title")
                try item.setValue(.int(index % 3 == 0 ? 150 : Int64(index)), for: "quantity")
                try item.setValue(.string(index % 5 == 0 ? "ab" : "nick \(index)"), for: "nickname")
                if index <= 5 { try item.setObject(full, for: "shelf") } else if index <= 7 { try item.setObject(spare, for: "shelf") }
            }
        }
        let (lines, status) = try dryRun("Tightened", ["--data", path])
        #expect(status == 1)
        #expect(
            Array(lines.drop { !$0.hasPrefix("dry run") }) == [
                "dry run: a copy of \(path) (a store of V1), migrated to V2 as lightweight migration infers; rows checked: Item 10, Shelf 2",
                "problem [migration-data-value-rule] Item.alias: 2 of 10 Item rows would have alias shorter than 3 (the older version's values, renamed from nickname; e.g. 'ab'): the migration copies the values as they are, and each row fails validation (NSValidationStringTooShortError, 1670) at its next save, the first Z_PK 5, 10. Fix: widen the rule, or correct those values in a staged migration's first stage.",
                "problem [migration-data-value-rule] Item.quantity: 3 of 10 Item rows would have quantity above the maximum 100 (the older version's values; e.g. 150): the migration copies the values as they are, and each row fails validation (NSValidationNumberTooLargeError, 1610) at its next save, the first Z_PK 3, 6, 9. Fix: widen the rule, or correct those values in a staged migration's first stage.",
                "problem [migration-data-required-value-missing] Item.title: 2 of 10 Item rows would have no title (required, no default value; nil in the older version's rows): lightweight migration fails on the first (Z_PK 4, 8) with \"Validation error missing attribute values on mandatory destination attribute\" (NSMigrationError, 134110), and the store does not open. Fix: fill title in those rows before migrating (a staged migration's first stage), give it a default value, or keep it optional.",
                "problem [migration-data-required-relationship-missing] Item.shelf: 3 of 10 Item rows would have no shelf (a required to-one; nil in the older version's rows): each fails validation (NSValidationMissingMandatoryPropertyError, 1570) at its next save, the first Z_PK 8, 9, 10. Fix: make shelf optional, or set it on every stored Item in a custom migration stage.",
                "problem [migration-data-relationship-count] Shelf.items: 1 of 2 Shelf rows would have more than 3 members in items: each fails validation (NSValidationRelationshipExceedsMaximumCountError, 1590) at its next save, the first Z_PK 1. Fix: relax the count, or move the members in a custom migration stage.",
                "dry run: 5 rules of the newer model fail on the rows",
                "5 findings (5 problem); exit 1 (--fail-on problem,risk)",
            ], "\(lines)")
    }

    /// The bytes and modification times of a file and its -wal and -shm (nil where there is none).
    private func snapshot(_ path: String) throws -> [String: (Data, Date)?] {
        var files: [String: (Data, Date)?] = [:]
        for suffix in ["", "-wal", "-shm"] {
            let file = path + suffix
            guard FileManager.default.fileExists(atPath: file) else {
                files[suffix] = .some(nil)
                continue
            }
            let date = try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date ?? .distantPast
            files[suffix] = (try Data(contentsOf: URL(fileURLWithPath: file)), date)
        }
        return files
    }

    /// A store whose rows are only in its -wal (the -shm beside it): the copy migrated holds them, and the user's three
    /// files keep their bytes and modification times; no temporary folder is left behind.
    @Test func theUsersStoreIsOnlyRead() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("live.sqlite").path
        try Self.store("NewParentRequired", at: path, wal: true, customers(3))
        #expect(FileManager.default.fileExists(atPath: path + "-wal") && FileManager.default.fileExists(atPath: path + "-shm"))
        let before = try snapshot(path)
        func leftovers() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter {
                $0.hasPrefix("relbench-dry-run-") && !$0.hasPrefix("relbench-dry-run-test-")
            }
        }
        let earlier = try leftovers()
        let (lines, status) = try dryRun("NewParentRequired", ["--data", path])
        #expect(status == 1)
        #expect(
            lines.contains {
                $0.hasPrefix("problem [migration-data-required-value-missing] Customer.email: 3 of 3 Customer rows would have no email")
            },
            "\(lines)")
        let after = try snapshot(path)
        for suffix in ["", "-wal", "-shm"] {
            #expect(before[suffix]??.0 == after[suffix]??.0, "the bytes of live.sqlite\(suffix)")
            #expect(before[suffix]??.1 == after[suffix]??.1, "the modification time of live.sqlite\(suffix)")
        }
        #expect(try leftovers() == earlier)
    }

    /// `--counts`: the data bench run --model makes for V1, migrated the same way.
    @Test func countsMigrateTheGeneratedData() throws {
        let (lines, status) = try dryRun("NewParentRequired", ["--counts", "Customer=20"])
        #expect(status == 1)
        #expect(
            lines.suffix(4).first
                == "dry run: the data made for V1 with --counts Customer=20, migrated to V2 as lightweight migration infers; rows checked: Customer 20",
            "\(lines)")
        #expect(
            lines.suffix(3).first?.hasPrefix(
                "problem [migration-data-required-value-missing] Customer.email: 20 of 20 Customer rows would have no email (required, no default value; added, inherited from Account): lightweight migration fails on the first (Z_PK 1, 2, 3, 4, 5)"
            ) == true, "\(lines)")
        #expect(
            Array(lines.suffix(2)) == [
                "dry run: 1 rule of the newer model fails on the rows", "1 finding (1 problem); exit 1 (--fail-on problem,risk)",
            ])
    }

    /// Rows whose Z_ENT is no entity of V1 are named, not skipped.
    @Test func rowsOfNoEntityOfTheOlderModelAreNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("odd.sqlite").path
        try Self.store("NewParentDefault", at: path, customers(2))
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(
            sqlite3_exec(db, "INSERT INTO ZCUSTOMER (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (7, 9, 1, 'x'), (8, 9, 1, 'y')", nil, nil, nil)
                == SQLITE_OK)
        sqlite3_close(db)
        let (lines, status) = try dryRun("NewParentDefault", ["--data", path])
        #expect(status == 1)
        #expect(
            Array(lines.suffix(4)) == [
                "dry run: a copy of \(path) (a store of V1), migrated to V2 as lightweight migration infers; rows checked: Customer 2",
                "problem [migration-data-unknown-entity-rows] ZCUSTOMER: 2 rows have Z_ENT 9, no entity of the older model (its Z_PRIMARYKEY has no such number); Core Data cannot map them (Z_PK 7, 8). Fix: check that the store is of the older version given with --against; remove the rows if they are left over.",
                "dry run: 1 rule of the newer model fails on the rows",
                "1 finding (1 problem); exit 1 (--fail-on problem,risk)",
            ], "\(lines)")
    }
}
