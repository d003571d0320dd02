import Foundation
import Testing

@testable import ObjectGraph

/// Entity inheritance as Core Data stores it: one table per root entity, Z_ENT telling rows apart, keys shared
/// across the hierarchy, fetches of a parent returning its sub-entities' objects.
@Suite struct InheritanceTests {
    /// A chat: an abstract Message with two sub-entities, an ordered to-many (Chat.pinned, inverse Message.pinnedIn)
    /// and an ordered many-to-many (Chat.tags ↔ Tag.chats), a compound fetch index and a uniqueness constraint.
    static func chatModel() throws -> ObjectModel {
        try ObjectModel([
            Entity(
                "Chat",
                [
                    .attribute("title", .string),
                    .attribute("remoteID", .string),
                    .toMany("messages", "Message", inverse: "chat", deleteRule: .cascade),
                    .toMany("pinned", "Message", inverse: "pinnedIn", ordered: true),
                    .toMany("tags", "Tag", inverse: "chats", ordered: true),
                ], uniquenessConstraints: [["remoteID"]]),
            Entity(
                "Message", abstract: true,
                [
                    .attribute("sentAt", .date),
                    .attribute("text", .string),
                    .toOne("chat", "Chat", inverse: "messages"),
                    .toOne("pinnedIn", "Chat", inverse: "pinned"),
                ],
                fetchIndexes: [FetchIndex("byChatAndDate", [FetchIndex.Element("chat"), FetchIndex.Element("sentAt", ascending: false)])]),
            Entity("TextMessage", parent: "Message", [.attribute("body", .string)]),
            Entity(
                "ImageMessage", parent: "Message", [.attribute("width", .int32), .attribute("height", .int32), .attribute("body", .binary)]),
            Entity("Tag", [.attribute("name", .string), .toMany("chats", "Chat", inverse: "tags")]),
        ])
    }

    @Test func ddlOfAHierarchyOrderedRelationshipsIndexesAndConstraints() throws {
        let model = try Self.chatModel()
        #expect(model.entities.map { "\($0.number) \($0.name)" } == ["1 Chat", "2 Message", "3 ImageMessage", "4 TextMessage", "5 Tag"])
        #expect(
            model.schemaSQL.filter { !$0.hasPrefix("CREATE TRIGGER") } == [
                "CREATE TABLE ZCHAT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZREMOTEID VARCHAR, ZTITLE VARCHAR )",
                "CREATE TABLE Z_1TAGS ( Z_1CHATS INTEGER, Z_5TAGS INTEGER, Z_FOK_5TAGS INTEGER, PRIMARY KEY (Z_1CHATS, Z_5TAGS) )",
                "CREATE INDEX Z_1TAGS_Z_5TAGS_INDEX ON Z_1TAGS (Z_5TAGS, Z_1CHATS)",
                "CREATE UNIQUE INDEX Z_Chat_UNIQUE_remoteID ON ZCHAT (ZREMOTEID COLLATE BINARY ASC)",
                // One table for the hierarchy: the parent's columns, then each sub-entity's in entity order; siblings'
                // same-named attributes get columns of their own (ImageMessage, 3, keeps ZBODY; TextMessage, 4, gets
                // ZBODY1, as Bear's ZHEIGHT1); order keys after every entity's integers; then ranked by type.
                "CREATE TABLE ZMESSAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHAT INTEGER, ZPINNEDIN INTEGER, ZHEIGHT INTEGER, ZWIDTH INTEGER, Z_FOK_PINNEDIN INTEGER, ZSENTAT TIMESTAMP, ZTEXT VARCHAR, ZBODY1 VARCHAR, ZBODY BLOB )",
                "CREATE INDEX ZMESSAGE_ZCHAT_INDEX ON ZMESSAGE (ZCHAT)",
                "CREATE INDEX ZMESSAGE_ZPINNEDIN_INDEX ON ZMESSAGE (ZPINNEDIN)",
                "CREATE INDEX ZMESSAGE_Z_ENT_INDEX ON ZMESSAGE (Z_ENT)",
                "CREATE INDEX Z_Message_byChatAndDate ON ZMESSAGE (ZCHAT COLLATE BINARY ASC, ZSENTAT COLLATE BINARY DESC)",
                "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
            ])
        model.prepareStatements() // as the first store opened on the model does
        let message = try #require(model.entity("Message"))
        #expect(
            message.sql.selectRows
                == "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZSENTAT, t0.ZTEXT, t0.ZCHAT, t0.ZPINNEDIN, t0.Z_FOK_PINNEDIN, t0.ZBODY, t0.ZHEIGHT, t0.ZWIDTH, t0.ZBODY1 FROM ZMESSAGE t0 "
        )
        #expect(model.entity("TextMessage")!.sql.entityRestriction == " t0.Z_ENT = 4")
        #expect(message.sql.entityRestriction == nil)
    }

    @Test func primaryKeysAreSharedAndTheParentIsRecorded() throws {
        let temporary = try TemporaryStore(Self.chatModel())
        let context = temporary.store.makeContext()
        let chat = try context.insert("Chat")
        for index in 0..<3 {
            let message = try context.insert(index % 2 == 0 ? "TextMessage" : "ImageMessage")
            try message.setObject(chat, for: "chat")
        }
        temporary.recordSQL()
        try context.save()
        // One reservation for the whole hierarchy, on its root (Message, 2); sub-entities keep Z_MAX 0.
        #expect(temporary.sql.filter { $0.hasPrefix("SELECT Z_MAX") }.count == 2)
        let connection = temporary.store.connection
        #expect(try connection.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Message'") == 3)
        #expect(try connection.scalarInt("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'TextMessage'") == 0)
        #expect(try connection.scalarInt("SELECT Z_SUPER FROM Z_PRIMARYKEY WHERE Z_NAME = 'ImageMessage'") == 2)
        #expect(try connection.scalarInt("SELECT COUNT(DISTINCT Z_PK) FROM ZMESSAGE") == 3)
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM ZMESSAGE WHERE Z_ENT = 4") == 2)
    }

    @Test func fetchingTheParentReturnsSubEntityObjects() throws {
        let temporary = try TemporaryStore(Self.chatModel())
        let context = temporary.store.makeContext()
        let chat = try context.insert("Chat")
        let text = try context.insert("TextMessage")
        try text.setValue("hello", for: "body")
        try text.setValue(.date(Date(timeIntervalSinceReferenceDate: 1)), for: "sentAt")
        try text.setObject(chat, for: "chat")
        let image = try context.insert("ImageMessage")
        try image.setValue(.int(640), for: "width")
        try image.setObject(chat, for: "chat")
        try context.save()
        try temporary.reopen()
        let fresh = temporary.store.makeContext()
        temporary.recordSQL()
        let all = try fresh.fetch(FetchRequest("Message", sortDescriptors: [FetchSort("sentAt")])).array
        #expect(Set(all.map(\.entity.name)) == ["TextMessage", "ImageMessage"])
        #expect(
            temporary.sql == [
                "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZSENTAT, t0.ZTEXT, t0.ZCHAT, t0.ZPINNEDIN, t0.Z_FOK_PINNEDIN, t0.ZBODY, t0.ZHEIGHT, t0.ZWIDTH, t0.ZBODY1 FROM ZMESSAGE t0 ORDER BY t0.ZSENTAT"
            ])
        let fetchedText = try #require(all.first { $0.entity.name == "TextMessage" })
        #expect(try fetchedText.string("body") == "hello")
        let fetchedImage = try #require(all.first { $0.entity.name == "ImageMessage" })
        #expect(try fetchedImage.int("width") == 640)
        // A sub-entity alone: Z_ENT restricts the rows.
        temporary.recordSQL()
        let texts = try fresh.fetch(FetchRequest("TextMessage")).array
        #expect(texts.count == 1 && texts[0] === fetchedText)
        #expect(
            temporary.sql == [
                "SELECT t0.Z_ENT, t0.Z_PK, t0.Z_OPT, t0.ZSENTAT, t0.ZTEXT, t0.ZCHAT, t0.ZPINNEDIN, t0.Z_FOK_PINNEDIN, t0.ZBODY1 FROM ZMESSAGE t0 WHERE t0.Z_ENT = 4"
            ])
        // The parent without its sub-entities: none, it is abstract.
        var parentOnly = FetchRequest("Message")
        parentOnly.includesSubentities = false
        #expect(try fresh.fetch(parentOnly).isEmpty)
        // A to-many whose destination is the abstract parent names each member's entity.
        let chats = try fresh.fetch(FetchRequest("Chat")).array
        #expect(Set(try chats[0].objects("messages").map(\.entity.name)) == ["TextMessage", "ImageMessage"])
    }

    @Test func inheritedRelationshipsApplyTheirDeleteRules() throws {
        let temporary = try TemporaryStore(Self.chatModel())
        let context = temporary.store.makeContext()
        let chat = try context.insert("Chat")
        for entity in ["TextMessage", "ImageMessage", "TextMessage"] {
            try context.insert(entity).setObject(chat, for: "chat")
        }
        try context.save()
        try context.delete(chat)
        try context.save()
        // Chat.messages cascades to every sub-entity's rows through the relationship they inherit.
        #expect(try temporary.store.connection.scalarInt("SELECT COUNT(*) FROM ZMESSAGE") == 0)
        #expect(throws: ObjectGraphError.self) { _ = try context.insert("Message") }
    }
}
