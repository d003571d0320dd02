import Foundation
import Testing

@testable import ObjectGraph

/// Every attribute type Xcode offers, with Core Data's column types; validation at save; transient attributes;
/// derived attributes of every kind.
@Suite struct AttributeTypeTests {
    static func everyTypeModel() throws -> ObjectModel {
        try ObjectModel([
            Entity(
                "Sample",
                [
                    .attribute("small", .int16), .attribute("medium", .int32), .attribute("large", .int64),
                    .attribute("price", .decimal), .attribute("ratio", .double), .attribute("weight", .float),
                    .attribute("title", .string, validation: AttributeValidation(minimum: 1, maximum: 8)),
                    .attribute("code", .string, validation: AttributeValidation(pattern: "[A-Z]{3}")),
                    .attribute("done", .bool), .attribute("when", .date), .attribute("bytes", .binary),
                    .attribute("id", .uuid), .attribute("link", .uri), .attribute("payload", .transformable),
                    .attribute("score", .int64, validation: AttributeValidation(minimum: 0, maximum: 100)),
                    .transient("scratch"),
                ])
        ])
    }

    @Test func columnTypes() throws {
        #expect(
            try Self.everyTypeModel().schemaSQL[0]
                == "CREATE TABLE ZSAMPLE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDONE INTEGER, ZLARGE INTEGER, ZMEDIUM INTEGER, ZSCORE INTEGER, ZSMALL INTEGER, ZRATIO FLOAT, ZWEIGHT FLOAT, ZWHEN TIMESTAMP, ZPRICE DECIMAL, ZCODE VARCHAR, ZLINK VARCHAR, ZTITLE VARCHAR, ZBYTES BLOB, ZID BLOB, ZPAYLOAD BLOB )"
        )
    }

    @Test func everyTypeRoundTrips() throws {
        struct Payload: Codable, Equatable { let tags: [String] }
        let temporary = try TemporaryStore(Self.everyTypeModel())
        let context = temporary.store.makeContext()
        let sample = try context.insert("Sample")
        let values: [(String, Value)] = [
            ("small", .int(-32768)), ("medium", .int(2_147_483_647)), ("large", .int(.max)),
            ("price", .decimal(Decimal(string: "1234567.891")!)), ("ratio", .double(0.1)), ("weight", .double(1.5)),
            ("title", "short"), ("code", "ABC"), ("done", true), ("when", .date(Date(timeIntervalSinceReferenceDate: 12.5))),
            ("bytes", .binary(Data([0, 1, 2, 255]))), ("id", .uuid(UUID(uuidString: "12345678-1234-1234-1234-123456789ABC")!)),
            ("link", .url(URL(string: "https://example.com/a?b=c")!)), ("score", .int(100)),
        ]
        for (name, value) in values { try sample.setValue(value, for: name) }
        try sample.setValue(Payload(tags: ["a", "b"]), for: "payload", using: .propertyList)
        try sample.setValue("kept in memory", for: "scratch")
        try context.save()
        #expect(try sample.string("scratch") == "kept in memory")
        try temporary.reopen()
        let fresh = temporary.store.makeContext()
        let reread = try #require(try fresh.fetch(FetchRequest("Sample")).first)
        for (name, value) in values { #expect(try reread.value(name) == value, "\(name)") }
        #expect(try reread.value("payload", using: AttributeTransformer<Payload>.propertyList) == Payload(tags: ["a", "b"]))
        #expect(try reread.value("scratch") == .null)
        // A Float attribute keeps Float precision.
        try reread.setValue(.double(0.1), for: "weight")
        #expect(try reread.double("weight") == Double(Float(0.1)))
    }

    @Test func zeroFalseEmptyAndNullStayApartWhenRead() throws {
        // SQLite reads NULL as 0, 0.0 and no text: zero, false, the reference date, the empty string and the empty
        // blob must come back as themselves, NULL as NULL, whether the fetch fills the objects or leaves faults.
        let types: [(String, AttributeType)] = [
            ("small", .int16), ("medium", .int32), ("large", .int64), ("ratio", .double), ("weight", .float),
            ("done", .bool), ("when", .date), ("text", .string), ("bytes", .binary), ("id", .uuid), ("price", .decimal),
        ]
        let model = try ObjectModel([Entity("Sample", [.attribute("name", .string)] + types.map { .attribute($0.0, $0.1) })])
        let zeros: [String: Value] = [
            "small": .int(0), "medium": .int(0), "large": .int(0), "ratio": .double(0), "weight": .double(0),
            "done": false, "when": .date(Date(timeIntervalSinceReferenceDate: 0)), "text": "", "bytes": .binary(Data()),
            "id": .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))), "price": .decimal(0),
        ]
        let temporary = try TemporaryStore(model)
        let context = temporary.store.makeContext()
        let zero = try context.insert("Sample")
        try zero.setValue("zero", for: "name")
        for (name, value) in zeros { try zero.setValue(value, for: name) }
        try context.insert("Sample").setValue("null", for: "name")
        try context.save()
        try temporary.reopen()
        for asFaults in [false, true] {
            let fresh = temporary.store.makeContext()
            var request = FetchRequest("Sample", sortDescriptors: [FetchSort("name", ascending: false)])
            request.returnsObjectsAsFaults = asFaults
            let rows = try fresh.fetch(request).map { $0 }
            #expect(try rows.map { try $0.string("name") } == ["zero", "null"])
            for (name, _) in types {
                #expect(try rows[0].value(name) == zeros[name], "\(name) zero, faults \(asFaults)")
                #expect(try rows[1].value(name) == .null, "\(name) null, faults \(asFaults)")
            }
        }
    }

    private func failure(_ name: String, _ value: Value) throws -> String {
        let temporary = try TemporaryStore(Self.everyTypeModel())
        let context = temporary.store.makeContext()
        let sample = try context.insert("Sample")
        try sample.setValue(value, for: name)
        do {
            try context.save()
            return "saved"
        } catch let error as ObjectGraphError {
            return error.description
        }
    }

    @Test func validationFailsWithCoreDatasWording() throws {
        #expect(
            try failure("small", .int(40_000))
                == "validation failed for Sample <x-coredata:///Sample/t1>.small: \"small is too large.\" (NSValidationNumberTooLargeError, 1610): 40000 does not fit an Integer 16 (-32768...32767); the save was rolled back"
        )
        #expect(
            try failure("medium", .int(-3_000_000_000))
                == "validation failed for Sample <x-coredata:///Sample/t1>.medium: \"medium is too small.\" (NSValidationNumberTooSmallError, 1620): -3000000000 does not fit an Integer 32 (-2147483648...2147483647); the save was rolled back"
        )
        #expect(
            try failure("title", "far too long")
                == "validation failed for Sample <x-coredata:///Sample/t1>.title: \"title is too long.\" (NSValidationStringTooLongError, 1660): 12 characters, at most 8 allowed; the save was rolled back"
        )
        #expect(
            try failure("title", "")
                == "validation failed for Sample <x-coredata:///Sample/t1>.title: \"title is too short.\" (NSValidationStringTooShortError, 1670): 0 characters, at least 1 required; the save was rolled back"
        )
        #expect(
            try failure("code", "abc")
                == "validation failed for Sample <x-coredata:///Sample/t1>.code: \"code is invalid.\" (NSValidationStringPatternMatchingError, 1680): \"abc\" does not match /[A-Z]{3}/; the save was rolled back"
        )
        #expect(
            try failure("score", .int(101)).contains(
                "\"score is too large.\" (NSValidationNumberTooLargeError, 1610): 101 is above the maximum 100.0"))
        #expect(try failure("score", .int(50)) == "saved")
        #expect(throws: ObjectGraphError.invalidOperation("cannot store string \"x\" in Sample.small, which holds Integer 16 values")) {
            _ = try failure("small", "x")
        }
    }

    @Test func relationshipCountsAreValidated() throws {
        let model = try ObjectModel([
            Entity("Team", [.toMany("players", "Player", inverse: "team", minCount: 2, maxCount: 3)]),
            Entity("Player", [.toOne("team", "Team", inverse: "players")]),
        ])
        let temporary = try TemporaryStore(model)
        let context = temporary.store.makeContext()
        let team = try context.insert("Team")
        try team.add(try context.insert("Player"), to: "players")
        #expect(
            throws: ObjectGraphError.validation(
                object: "Team <x-coredata:///Team/t1>", property: "players",
                reason:
                    "\"Too few items in players.\" (NSValidationRelationshipLacksMinimumCountError, 1580): 1 member(s), at least 2 required"
            )
        ) {
            try context.save()
        }
        for _ in 0..<3 { try team.add(try context.insert("Player"), to: "players") }
        #expect(throws: ObjectGraphError.self) { try context.save() }
        try context.delete(team.objects("players")[0])
        try context.save()
    }

    /// A store of orders and items with a derived attribute of each kind Core Data supports.
    static func derivedModel() throws -> ObjectModel {
        try ObjectModel([
            Entity(
                "Order",
                [
                    .attribute("name", .string),
                    .toMany("items", "Item", inverse: "order"),
                    .toOne("customer", "Customer", inverse: "orders"),
                    .derived("itemCount", "items.@count"),
                    .derived("total", "items.price.@sum"),
                    .derived("largest", "items.price.@max"),
                    .derived("smallest", "items.@min.price"),
                    .derived("customerName", "customer.name"),
                    .derived("searchName", "canonical:(name)"),
                    .derived("touched", "now()"),
                ]),
            Entity("Item", [.attribute("price", .double), .toOne("order", "Order", inverse: "items")]),
            Entity("Customer", [.attribute("name", .string), .toMany("orders", "Order", inverse: "customer")]),
        ])
    }

    @Test func derivedAttributesOfEveryKindFollowEachSave() throws {
        let temporary = try TemporaryStore(Self.derivedModel())
        let context = temporary.store.makeContext()
        let customer = try context.insert("Customer")
        try customer.setValue("Zoë", for: "name")
        let order = try context.insert("Order")
        try order.setValue("Café Crème", for: "name")
        try order.setObject(customer, for: "customer")
        for price in [3.0, 10.0, 7.5] {
            let item = try context.insert("Item")
            try item.setValue(.double(price), for: "price")
            try item.setObject(order, for: "order")
        }
        let before = Date()
        try context.save()
        #expect(try order.int("itemCount") == 3)
        #expect(try order.double("total") == 20.5)
        #expect(try order.double("largest") == 10)
        #expect(try order.double("smallest") == 3)
        #expect(try order.string("customerName") == "Zoë")
        #expect(try order.string("searchName") == "cafe creme")
        let touched = try #require(try order.date("touched"))
        #expect(touched.timeIntervalSince(before) > -1)
        // Removing the largest item, renaming the customer: each save brings the derived values up to date.
        let largest = try #require(try order.objects("items").first { try $0.double("price") == 10 })
        try context.delete(largest)
        try customer.setValue("Ada", for: "name")
        try context.save()
        #expect(try order.int("itemCount") == 2)
        #expect(try order.double("total") == 10.5)
        #expect(try order.double("largest") == 7.5)
        #expect(try order.string("customerName") == "Ada")
        try temporary.reopen()
        let fresh = temporary.store.makeContext()
        let reread = try #require(try fresh.fetch(FetchRequest("Order")).first)
        #expect(try reread.int("itemCount") == 2 && reread.string("customerName") == "Ada")
        #expect(throws: ObjectGraphError.self) { try reread.setValue(.int(9), for: "itemCount") }
    }

    @Test func unsupportedDerivationsAreRefused() {
        #expect(
            throws: ObjectGraphError.model(
                entity: "Order", property: "bad",
                reason:
                    "derivation 'items.price.@avg' is not supported (only @count, @sum, @max and @min); use <toMany>.@count, <toMany>.<attribute>.@sum|@max|@min, <toOne>.<attribute>, canonical:(<attribute>), uppercase:(...), lowercase:(...) or now()"
            )
        ) {
            _ = try ObjectModel([
                Entity("Order", [.toMany("items", "Item", inverse: "order"), .derived("bad", "items.price.@avg")]),
                Entity("Item", [.attribute("price", .double), .toOne("order", "Order", inverse: "items")]),
            ])
        }
    }

    /// A transient value is kept across a save and a merging refresh, dropped by a plain refresh, and forgotten
    /// with its object (the context holds transient values, not the object).
    @Test func transientValuesLiveAsLongAsTheirObject() throws {
        let temporary = try TemporaryStore(Self.everyTypeModel())
        let context = temporary.store.makeContext()
        var sample: ManagedObject? = try context.insert("Sample")
        try sample!.setValue("kept", for: "scratch")
        try context.save()
        #expect(try sample!.string("scratch") == "kept")
        context.refresh(sample!, mergeChanges: true)
        #expect(try sample!.string("scratch") == "kept")
        context.refresh(sample!)
        #expect(try sample!.value("scratch") == .null)
        #expect(context.transientValues.isEmpty)
        try sample!.setValue("again", for: "scratch")
        #expect(context.transientValues.count == 1)
        sample = nil
        #expect(context.transientValues.isEmpty)
    }
}
