import Foundation
import Testing

@testable import ObjectGraph

/// ObjectGraph against real Core Data output: stores made by Core Data from real models, relationships on one
/// entity, statement text as SQLDebug logs print it, the store's metadata.
@Suite struct FidelityTests {
    /// `../shared/real-stores/<name>/`: an Xcode model from an open-source app and the schema of the store Core
    /// Data made from it. Each CREATE TABLE and CREATE INDEX of the real store is produced exactly. Read at test
    /// time, not copied: they are other projects' files, kept beside the repository as evidence.
    static let realStores = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/real-stores")

    /// Where the real stores are missing (a fresh clone without ../shared: a GitHub runner, a contributor's laptop),
    /// the test is skipped with a line saying so, rather than failed.
    static let haveRealStores = FileManager.default.fileExists(atPath: realStores.path)

    @Test(
        .enabled(if: haveRealStores, "skipped: ../shared/real-stores is missing (a clone without ../shared beside it)"),
        arguments: ["book-migration-model1", "coredata-migration-example-3"])
    func realModelsMakeTheirStoresSchema(name: String) throws {
        let folder = Self.realStores.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            Issue.record("\(folder.path) is missing from ../shared/real-stores")
            return
        }
        let model = try XcodeModel.load(path: folder.appendingPathComponent("contents").path).makeModel()
        let schema = try String(contentsOf: folder.appendingPathComponent("schema.sql"), encoding: .utf8)
        let real = schema.split(separator: "\n").map(String.init).filter { $0.hasPrefix("CREATE ") }.map { line in
            line.hasSuffix(";") ? String(line.dropLast()) : line
        }
        // Rules pinned: table and column names (Z + upper-cased name), the column type of each attribute type
        // (Transformable is a BLOB, Date a TIMESTAMP, Integer 16 an INTEGER), columns ranked by type with foreign
        // keys among the integers (ZSECTION: ZINDEX, then ZPOST), the foreign-key index, the system tables.
        let ours = Set(model.schemaSQL)
        for statement in real { #expect(ours.contains(statement), "\(name): \(statement)") }
        // In the store's creation order: each table's index before the next table, the system tables after.
        let positions = real.compactMap { model.schemaSQL.firstIndex(of: $0) }
        #expect(positions == positions.sorted(), "\(name): \(model.schemaSQL)")
        // The Z_PRIMARYKEY rows: entity numbers and names, no parents.
        let rows = schema.split(separator: "\n").first { $0.hasPrefix("-- Z_PRIMARYKEY rows") }.map(String.init) ?? ""
        for entity in model.entities {
            #expect(rows.contains("(\(entity.number), '\(entity.name)', 0,"), "\(name): \(entity.name)")
        }
        #expect(schema.contains("PRAGMA auto_vacuum = 2"))
        let temporary = try TemporaryStore(model)
        #expect(try temporary.store.connection.scalarInt("PRAGMA auto_vacuum") == 2)
    }

    /// Decimals after floats and timestamps, before text: a real Cog store's ZPLAYLISTENTRY (losnoco/XPCog,
    /// tools/cogimport-fixture/make-fixture.py, `sqlite3 .schema` of Cog 3633's store) reads `ZSAMPLERATE FLOAT,
    /// ZVOLUME FLOAT, ZSPOTLIGHTLENGTH DECIMAL, ZARTHASH VARCHAR`, although `spotlightLength` sorts before `volume`.
    @Test func decimalsRankAfterFloatsAndTimestamps() throws {
        let model = try ObjectModel([
            Entity(
                "PlaylistEntry",
                [
                    .attribute("artHash", .string), .attribute("sampleRate", .double),
                    .attribute("spotlightLength", .decimal), .attribute("volume", .double), .attribute("added", .date),
                ])
        ])
        #expect(
            model.schemaSQL[0]
                == "CREATE TABLE ZPLAYLISTENTRY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZADDED TIMESTAMP, ZSAMPLERATE FLOAT, ZVOLUME FLOAT, ZSPOTLIGHTLENGTH DECIMAL, ZARTHASH VARCHAR )"
        )
    }

    /// Reflexive relationships (their own inverse) and a many-to-many with both sides on one entity.
    static func socialModel() throws -> ObjectModel {
        try ObjectModel([
            Entity(
                "Person",
                [
                    .attribute("name", .string),
                    .toOne("spouse", "Person", inverse: "spouse"),
                    .toMany("friends", "Person", inverse: "friends"),
                    .toMany("following", "Person", inverse: "followers"),
                    .toMany("followers", "Person", inverse: "following"),
                ])
        ])
    }

    @Test func reflexiveAndSameEntityRelationships() throws {
        let model = try Self.socialModel()
        #expect(
            model.schemaSQL.filter {
                $0.hasPrefix("CREATE TABLE Z") && !$0.hasPrefix("CREATE TABLE Z_PRIMARYKEY") && !$0.hasPrefix("CREATE TABLE Z_METADATA")
                    && !$0.hasPrefix("CREATE TABLE Z_MODELCACHE")
            } == [
                "CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSPOUSE INTEGER, ZNAME VARCHAR )",
                // Both sides on one entity: named after the relationship that sorts last (EasyLife's Z_2BLOCKING);
                // a relationship that is its own inverse: the second column is REFLEXIVE.
                "CREATE TABLE Z_1FOLLOWING ( Z_1FOLLOWERS INTEGER, Z_1FOLLOWING INTEGER, PRIMARY KEY (Z_1FOLLOWERS, Z_1FOLLOWING) )",
                "CREATE TABLE Z_1FRIENDS ( Z_1FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_1FRIENDS, REFLEXIVE) )",
            ])
        #expect(model.schemaSQL.contains("CREATE INDEX Z_1FRIENDS_REFLEXIVE_INDEX ON Z_1FRIENDS (REFLEXIVE, Z_1FRIENDS)"))
        #expect(model.schemaSQL.contains("CREATE INDEX Z_1FOLLOWING_Z_1FOLLOWING_INDEX ON Z_1FOLLOWING (Z_1FOLLOWING, Z_1FOLLOWERS)"))

        let temporary = try TemporaryStore(model)
        let context = temporary.store.makeContext()
        var people: [String: ManagedObject] = [:]
        for name in ["Ada", "Bob", "Cy"] {
            let person = try context.insert("Person")
            try person.setValue(.string(name), for: "name")
            people[name] = person
        }
        try people["Ada"]!.setObject(people["Bob"]!, for: "spouse")
        try people["Ada"]!.add(people["Cy"]!, to: "friends")
        try people["Bob"]!.add(people["Ada"]!, to: "following")
        #expect(try people["Bob"]!.object("spouse") === people["Ada"]!)
        #expect(try people["Cy"]!.objects("friends").contains(people["Ada"]!))
        #expect(try people["Ada"]!.objects("followers").contains(people["Bob"]!))
        try context.save()
        try temporary.reopen()
        let fresh = temporary.store.makeContext()
        func person(_ name: String) throws -> ManagedObject {
            try #require(try fresh.fetch(FetchRequest("Person", predicate: Key("name") == .string(name))).first)
        }
        #expect(try person("Bob").object("spouse")?.string("name") == "Ada")
        #expect(try person("Ada").object("spouse")?.string("name") == "Bob")
        #expect(try person("Cy").objects("friends").map { try $0.string("name") } == ["Ada"])
        #expect(try person("Ada").objects("friends").map { try $0.string("name") } == ["Cy"])
        #expect(try person("Ada").objects("followers").map { try $0.string("name") } == ["Bob"])
        #expect(try person("Bob").objects("following").map { try $0.string("name") } == ["Ada"])
        #expect(try person("Bob").objects("followers").isEmpty)
        // Ending a reflexive membership from either side removes it for both.
        try person("Cy").remove(try person("Ada"), from: "friends")
        try fresh.save()
        #expect(try temporary.store.connection.scalarInt("SELECT COUNT(*) FROM Z_1FRIENDS") == 0)
    }

    @Test func joinColumnNamesAreUniqueAcrossTheModel() throws {
        // Two many-to-many relationships whose inverses share a name (Contacts' Z_19PARENTGROUPS1).
        let model = try ObjectModel([
            Entity("Group", [.toMany("members", "Person", inverse: "parentGroups"), .toMany("admins", "Person", inverse: "adminGroups")]),
            Entity("Person", [.toMany("parentGroups", "Group", inverse: "members"), .toMany("adminGroups", "Group", inverse: "admins")]),
            Entity("Folder", [.toMany("members", "Person2", inverse: "folders")]),
            Entity("Person2", [.toMany("folders", "Folder", inverse: "members")]),
        ])
        let joins = model.schemaSQL.filter { $0.hasPrefix("CREATE TABLE Z_") && $0.contains("PRIMARY KEY (") }
        #expect(
            joins == [
                "CREATE TABLE Z_1MEMBERS ( Z_1FOLDERS INTEGER, Z_4MEMBERS INTEGER, PRIMARY KEY (Z_1FOLDERS, Z_4MEMBERS) )",
                "CREATE TABLE Z_2ADMINS ( Z_2ADMINGROUPS INTEGER, Z_3ADMINS INTEGER, PRIMARY KEY (Z_2ADMINGROUPS, Z_3ADMINS) )",
                "CREATE TABLE Z_2MEMBERS ( Z_2PARENTGROUPS INTEGER, Z_3MEMBERS INTEGER, PRIMARY KEY (Z_2PARENTGROUPS, Z_3MEMBERS) )",
            ])
        let clash = try ObjectModel([
            Entity(
                "Node",
                [
                    .toMany("children", "Node", inverse: "parents"), .toMany("parents", "Node", inverse: "children"),
                    .toMany("links", "Link", inverse: "parents"),
                ]),
            Entity("Link", [.toMany("parents", "Node", inverse: "links")]),
        ])
        // Names are unique across the model (Core Data's mapping generator, seen as Shortcuts' Z_4PARENTS1): the
        // table made second takes the suffix (which one is second is inferred: entities in number order).
        #expect(
            clash.schemaSQL.contains(
                "CREATE TABLE Z_2PARENTS ( Z_2CHILDREN INTEGER, Z_2PARENTS1 INTEGER, PRIMARY KEY (Z_2CHILDREN, Z_2PARENTS1) )"))
        #expect(
            clash.schemaSQL.contains("CREATE TABLE Z_1PARENTS ( Z_1LINKS INTEGER, Z_2PARENTS INTEGER, PRIMARY KEY (Z_1LINKS, Z_2PARENTS) )")
        )
    }

    @Test func updatesWriteKeysFirstAndMatchAVersionOfZero() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 1)
        try temporary.store.connection.execute("UPDATE ZSTUDENT SET Z_OPT = 0")
        try temporary.reopen()
        let context = temporary.store.makeContext()
        let student = try #require(try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).first)
        let other = try #require(try context.fetch(FetchRequest("Class", predicate: Key("name") == "Class2")).first)
        try student.setValue("Moved", for: "name")
        try student.setObject(other, for: "class")
        var exact: [String] = []
        temporary.store.sqlTrace = SQLTrace(level: 1, exact: true) {
            if $0.hasPrefix("CoreData: sql: UPDATE OR FAIL ZSTUDENT") { exact.append($0) }
        }
        try context.save()
        #expect(
            exact == [
                "CoreData: sql: UPDATE OR FAIL ZSTUDENT SET ZCLASS = ?, ZNAME = ?, Z_OPT = ?  WHERE Z_PK = ? AND (Z_OPT = ? OR Z_OPT IS NULL)"
            ])
    }

    /// Seed 000 §II.B, `student.subjects.first.name`, traced as Core Data's SQLDebug log writes it (times aside).
    @Test func exactTraceOfTheSeedExample() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 1)
        let context = temporary.store.makeContext()
        var lines: [String] = []
        temporary.store.sqlTrace = SQLTrace(level: 2, exact: true) { line in
            lines.append(
                line.replacingOccurrences(of: #"\d+\.\d{4}s"#, with: "T", options: .regularExpression)
                    .replacingOccurrences(of: temporary.store.identifier, with: "STORE"))
        }
        var request = FetchRequest("Student")
        request.returnsObjectsAsFaults = false
        let student = try #require(try context.fetch(request).first)
        _ = try student.objects("subjects").first?.string("name")
        #expect(
            lines == [
                "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZADDRESS, t0.ZCLASS FROM ZSTUDENT t0 ",
                "CoreData: annotation: sql connection fetch time: T",
                "CoreData: annotation: total fetch execution time: T for 1 rows.",
                "CoreData: sql: SELECT 0, t0.Z_PK FROM Z_3SUBJECTS t1 JOIN ZSUBJECT t0 ON t0.Z_PK = t1.Z_4SUBJECTS WHERE t1.Z_3STUDENTS = ?",
                "CoreData: details: SQLite bind[0] = (int64)1",
                "CoreData: annotation: sql connection fetch time: T",
                "CoreData: annotation: to-many relationship fault \"subjects\" for objectID 0xa003000000000001 <x-coredata://STORE/Student/p1> fulfilled from database.  Got 1 rows",
                "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZSUBJECT t0 WHERE  t0.Z_PK = ?  LIMIT 1",
                "CoreData: details: SQLite bind[0] = (int64)1",
                "CoreData: annotation: sql connection fetch time: T",
                "CoreData: annotation: total fetch execution time: T for 1 rows.",
                "CoreData: annotation: fault fulfilled from database for : 0xa004000000000001 <x-coredata://STORE/Subject/p1>",
            ])
    }

    @Test func metadataIsABinaryPropertyListTheMismatchCheckReads() throws {
        let temporary = try TemporaryStore(seedModel())
        let select = try temporary.store.connection.cachedStatement("SELECT Z_PLIST FROM Z_METADATA")
        _ = try select.step()
        let plist = select.bytes(0)
        select.reset()
        #expect(plist.prefix(8) == Data("bplist00".utf8))
        let metadata = try #require(try PropertyListSerialization.propertyList(from: plist, options: [], format: nil) as? [String: Any])
        #expect(metadata["NSStoreType"] as? String == "SQLite")
        #expect(metadata["NSStoreUUID"] as? String == temporary.store.identifier)
        #expect((metadata["NSStoreModelVersionHashes"] as? [String: Data])?.keys.sorted() == ["Address", "Class", "Student", "Subject"])
        #expect(metadata["_NSAutoVacuumLevel"] as? String == "2")
        #expect(throws: ObjectGraphError.modelMismatch(path: temporary.path, reason: "entity Student differs; entity Subject differs")) {
            try temporary.reopen(with: seedModel(subjectsInverse: false))
        }
    }

    @Test func aStoreCoreDataMadeOpensWhenItsTablesMatch() throws {
        // A store whose Z_PLIST is Core Data's (no ObjectGraph model text): its schema is compared instead.
        let temporary = try TemporaryStore(seedModel())
        let foreign = try PropertyListSerialization.data(fromPropertyList: ["NSStoreType": "SQLite"], format: .binary, options: 0)
        let update = try temporary.store.connection.cachedStatement("UPDATE Z_METADATA SET Z_PLIST = ?")
        foreign.withUnsafeBytes { update.bind(bytes: $0, at: 1) }
        _ = try update.step()
        update.reset()
        try temporary.reopen()
        #expect(throws: ObjectGraphError.modelMismatch(path: temporary.path, reason: "table ZSUBJECT lacks Z3SUBJECTS")) {
            try temporary.reopen(with: seedModel(subjectsInverse: false))
        }
    }
}
