import Foundation
import Testing

@testable import ObjectGraph

/// Predicates, sorting, limits and result types: the SQL each compiles to, and the rows it finds.
@Suite struct FetchRequestTests {
    private static func people() throws -> TemporaryStore {
        let model = try ObjectModel([
            Entity(
                "Person",
                [
                    .attribute("name", .string),
                    .attribute("age", .int64),
                    .attribute("score", .double),
                    .attribute("active", .bool, default: true),
                    .attribute("born", .date),
                    .attribute("token", .uuid),
                    .toOne("team", "Team", inverse: "members"),
                ]),
            Entity(
                "Team",
                [
                    .attribute("name", .string),
                    .toMany("members", "Person", inverse: "team"),
                    .toOne("league", "League", inverse: "teams"),
                ]),
            Entity("League", [.attribute("name", .string), .toMany("teams", "Team", inverse: "league")]),
        ])
        let temporary = try TemporaryStore(model)
        let context = temporary.store.makeContext()
        let league = try context.insert("League")
        try league.setValue("North", for: "name")
        let red = try context.insert("Team")
        let blue = try context.insert("Team")
        try red.setValue("Red", for: "name")
        try blue.setValue("Blue", for: "name")
        try red.setObject(league, for: "league")
        let rows: [(String, Int64, Double, Bool, ManagedObject?)] = [
            ("Ada", 36, 9.5, true, red), ("Émile", 12, 7.0, false, red), ("Bob", 52, 3.25, true, blue),
            ("ada lovelace", 28, 8.0, true, nil), ("Zoë", 19, 6.5, false, blue),
        ]
        for (index, row) in rows.enumerated() {
            let person = try context.insert("Person")
            try person.setValue(.string(row.0), for: "name")
            try person.setValue(.int(row.1), for: "age")
            try person.setValue(.double(row.2), for: "score")
            try person.setValue(.bool(row.3), for: "active")
            try person.setValue(.date(Date(timeIntervalSinceReferenceDate: Double(index) * 86_400)), for: "born")
            try person.setValue(.uuid(UUID(uuidString: "00000000-0000-0000-0000-00000000000\(index)")!), for: "token")
            try person.setObject(row.4, for: "team")
        }
        try context.save()
        try temporary.reopen()
        return temporary
    }

    private func names(
        _ temporary: TemporaryStore, _ predicate: FetchPredicate?, sort: [FetchSort] = [FetchSort("name")],
        limit: Int = 0, offset: Int = 0
    ) throws -> [String] {
        let context = temporary.store.makeContext()
        var request = FetchRequest("Person", predicate: predicate, sortDescriptors: sort)
        request.fetchLimit = limit
        request.fetchOffset = offset
        return try context.fetch(request).map { try $0.string("name") ?? "-" }
    }

    @Test func comparisons() throws {
        let temporary = try Self.people()
        #expect(try names(temporary, Key("age") == 36) == ["Ada"])
        #expect(try names(temporary, Key("age") != 36) == ["Bob", "Zoë", "ada lovelace", "Émile"])
        #expect(try names(temporary, Key("age") < 19) == ["Émile"])
        #expect(try names(temporary, Key("age") <= 19) == ["Zoë", "Émile"])
        #expect(try names(temporary, Key("score") > 8.0) == ["Ada"])
        #expect(try names(temporary, Key("score") >= 8) == ["Ada", "ada lovelace"])
        #expect(try names(temporary, Key("active") == false) == ["Zoë", "Émile"])
        #expect(try names(temporary, Key("born") > .date(Date(timeIntervalSinceReferenceDate: 2 * 86_400))) == ["Zoë", "ada lovelace"])
        #expect(try names(temporary, Key("token") == .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000002")!)) == ["Bob"])
        #expect(try names(temporary, Key("age").isIn([12, 52, 99])) == ["Bob", "Émile"])
        #expect(try names(temporary, Key("team") == nil) == ["ada lovelace"])
    }

    @Test func compoundPredicates() throws {
        let temporary = try Self.people()
        #expect(try names(temporary, Key("age") > 20 && Key("active") == true) == ["Ada", "Bob", "ada lovelace"])
        #expect(try names(temporary, Key("age") < 15 || Key("age") > 50) == ["Bob", "Émile"])
        #expect(try names(temporary, !(Key("age") > 20)) == ["Zoë", "Émile"])
        #expect(try names(temporary, .constant(false)) == [])
    }

    @Test func stringSearchWithOptions() throws {
        let temporary = try Self.people()
        #expect(try names(temporary, Key("name").beginsWith("ada")) == ["ada lovelace"])
        #expect(try names(temporary, Key("name").beginsWith("ada", [.caseInsensitive])) == ["Ada", "ada lovelace"])
        #expect(try names(temporary, Key("name").contains("EM", [.caseInsensitive])) == [])
        #expect(try names(temporary, Key("name").contains("EM", [.caseInsensitive, .diacriticInsensitive])) == ["Émile"])
        #expect(try names(temporary, Key("name").contains("E", [.caseInsensitive])) == ["ada lovelace", "Émile"])
        #expect(try names(temporary, Key("name").endsWith("oe", [.diacriticInsensitive])) == ["Zoë"])
        temporary.recordSQL()
        _ = try names(temporary, Key("name").beginsWith("a", [.caseInsensitive, .diacriticInsensitive]))
        #expect(temporary.sql[0].hasSuffix("WHERE NSCoreDataStringSearch(t0.ZNAME, ?, 393, 0) ORDER BY t0.ZNAME"))
    }

    @Test func keyPathsThroughToOneRelationships() throws {
        let temporary = try Self.people()
        temporary.recordSQL()
        #expect(try names(temporary, Key("team.name") == "Red") == ["Ada", "Émile"])
        #expect(
            temporary.sql[0]
                == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZACTIVE, t0.ZAGE, t0.ZBORN, t0.ZNAME, t0.ZSCORE, t0.ZTOKEN, t0.ZTEAM FROM ZPERSON t0 JOIN ZTEAM t1 ON t0.ZTEAM = t1.Z_PK WHERE t1.ZNAME = ? ORDER BY t0.ZNAME"
        )
        #expect(try names(temporary, Key("team.league.name") == "North") == ["Ada", "Émile"])
        // Under OR a nil relationship must not drop the row: LEFT OUTER JOIN.
        #expect(try names(temporary, Key("team.name") == "Blue" || Key("age") == 28) == ["Bob", "Zoë", "ada lovelace"])
        #expect(temporary.sql.last!.contains("LEFT OUTER JOIN ZTEAM t1 ON t0.ZTEAM = t1.Z_PK"))
        let sorted = try names(temporary, nil, sort: [FetchSort("team.name", ascending: false), FetchSort("name")])
        #expect(sorted == ["Ada", "Émile", "Bob", "Zoë", "ada lovelace"])
    }

    @Test func countOfAToManyRelationship() throws {
        let temporary = try Self.people()
        let context = temporary.store.makeContext()
        temporary.recordSQL()
        let teams = try context.fetch(FetchRequest("Team", predicate: Key("members").count >= 2, sortDescriptors: [FetchSort("name")]))
        #expect(try teams.map { try $0.string("name") } == ["Blue", "Red"])
        #expect(temporary.sql[0].contains("WHERE (SELECT COUNT(t1.Z_PK) FROM ZPERSON t1 WHERE (t0.Z_PK = t1.ZTEAM)) >= ?"))
        #expect(try context.count(for: FetchRequest("League", predicate: Key("teams").count == 1)) == 1)
    }

    /// Core Data's SQLite store refuses a sort on a collection operator (usable in predicates only): ObjectGraph
    /// refuses it with Core Data's reason before any SQL runs, and says what to sort by instead.
    @Test func aSortOnACountIsRefusedAsCoreDataRefusesIt() throws {
        let temporary = try Self.people()
        let context = temporary.store.makeContext()
        temporary.recordSQL()
        #expect {
            try context.fetch(FetchRequest("Team", sortDescriptors: [FetchSort("members.@count", ascending: false)]))
        } throws: { error in
            "\(error)".hasPrefix("Keypath containing KVC aggregate where there shouldn't be one; failed to handle members.@count")
                && "\(error)".contains("membersCount = members.@count")
        }
        #expect(temporary.sql.isEmpty)
    }

    @Test func limitOffsetCountAndIDs() throws {
        let temporary = try Self.people()
        #expect(try names(temporary, nil, limit: 2) == ["Ada", "Bob"])
        #expect(try names(temporary, nil, limit: 2, offset: 3) == ["ada lovelace", "Émile"])
        #expect(try names(temporary, nil, offset: 4) == ["Émile"])
        let context = temporary.store.makeContext()
        temporary.recordSQL()
        #expect(try context.count(for: FetchRequest("Person")) == 5)
        #expect(try context.count(for: FetchRequest("Person", predicate: Key("team.name") == "Red")) == 2)
        #expect(
            temporary.sql == [
                "SELECT COUNT(*) FROM ZPERSON",
                "SELECT COUNT(DISTINCT t0.Z_PK) FROM ZPERSON t0 JOIN ZTEAM t1 ON t0.ZTEAM = t1.Z_PK WHERE t1.ZNAME = ?",
            ])
        let ids = try context.fetchObjectIDs(FetchRequest("Person", sortDescriptors: [FetchSort("age")]))
        #expect(ids.map(\.primaryKey) == [2, 5, 4, 1, 3])
        #expect(context.registeredObjectCount == 0)
        #expect(context.counters.fetchRequests == 3)
    }

    @Test func badRequestsAreErrors() throws {
        let temporary = try Self.people()
        let context = temporary.store.makeContext()
        #expect(
            throws: ObjectGraphError.invalidPredicate(
                "key path 'team.colour' of Person: 'colour' is not an attribute or relationship of Team (it has: league, members, name)")
        ) {
            _ = try context.fetch(FetchRequest("Person", predicate: Key("team.colour") == "red"))
        }
        #expect(
            throws: ObjectGraphError.invalidPredicate(
                "'age == \"old\"': the key path holds Integer 64 values; cannot compare it with string \"old\"")
        ) {
            _ = try context.fetch(FetchRequest("Person", predicate: Key("age") == "old"))
        }
        #expect(throws: ObjectGraphError.invalidOperation("the model has no entity 'Human' (it has: League, Person, Team)")) {
            _ = try context.fetch(FetchRequest("Human"))
        }
        var negative = FetchRequest("Person")
        negative.fetchLimit = -1
        #expect(throws: ObjectGraphError.self) { _ = try context.fetch(negative) }
    }

    @Test func inMemoryEvaluationAgreesWithSQL() throws {
        let temporary = try Self.people()
        let context = temporary.store.makeContext()
        let everyone = try context.fetch(FetchRequest("Person")).array
        let predicates: [FetchPredicate] = [
            Key("age") > 20, Key("team.name") == "Red", Key("team") == nil, Key("name").contains("a", [.caseInsensitive]),
            Key("age").isIn([12, 19]), !(Key("active") == true) || Key("score") < 5, Key("team.league.name") != "North",
        ]
        for predicate in predicates {
            let stored = Set(try context.fetch(FetchRequest("Person", predicate: predicate)).map(ObjectIdentifier.init))
            let evaluated = Set(try everyone.filter { try predicate.evaluate(on: $0) }.map(ObjectIdentifier.init))
            #expect(stored == evaluated, "\(predicate)")
        }
    }
}

/// The SQL trace, in the shape of Core Data's SQLDebug log.
@Suite struct SQLTraceTests {
    @Test func levelOneAndBindings() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 2)
        final class Lines { var all: [String] = [] }
        let lines = Lines()
        temporary.store.sqlTrace = SQLTrace(level: 2) { lines.all.append($0) }
        let context = temporary.store.makeContext()
        let student = try #require(try context.fetch(FetchRequest("Student", predicate: Key("name") == "Student2")).first)
        _ = try student.objects("subjects")
        let shape = lines.all.map { $0.replacingOccurrences(of: #"\d+\.\d{4}s"#, with: "<t>", options: .regularExpression) }
        #expect(
            shape == [
                "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZADDRESS, t0.ZCLASS FROM ZSTUDENT t0 WHERE t0.ZNAME = ?",
                "CoreData: details: SQLite bind[0] = \"Student2\"",
                "CoreData: annotation: sql connection fetch time: <t>",
                "CoreData: annotation: total fetch execution time: <t> for 1 rows.",
                "CoreData: sql: SELECT 0, t0.Z_PK FROM Z_3SUBJECTS t1 JOIN ZSUBJECT t0 ON t0.Z_PK = t1.Z_4SUBJECTS WHERE t1.Z_3STUDENTS = ?",
                "CoreData: details: SQLite bind[0] = 2",
                "CoreData: annotation: sql connection fetch time: <t>",
                "CoreData: annotation: to-many relationship fault \"subjects\" for objectID <x-coredata://\(temporary.store.identifier)/Student/p2> fulfilled from database.  Got 1 rows",
            ])
    }
}
