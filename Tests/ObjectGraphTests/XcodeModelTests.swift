import Foundation
import Testing

@testable import ObjectGraph

/// Xcode's model format read into entities: hand-written `contents` files in the shape Xcode 15 writes them.
@Suite struct XcodeModelTests {
    /// InheritanceTests' chat model as Xcode writes it, with a diagram, user info and a fetch request to ignore.
    static let chatContents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23B81" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Chat" representedClassName="Chat" syncable="YES" codeGenerationType="class">
                <attribute name="remoteID" optional="YES" attributeType="String"/>
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="messages" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Message" inverseName="chat" inverseEntity="Message"/>
                <relationship name="pinned" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" destinationEntity="Message" inverseName="pinnedIn" inverseEntity="Message"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" destinationEntity="Tag" inverseName="chats" inverseEntity="Tag"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="remoteID"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
                <userInfo>
                    <entry key="owner" value="chat team"/>
                </userInfo>
            </entity>
            <entity name="ImageMessage" parentEntity="Message" syncable="YES">
                <attribute name="body" optional="YES" attributeType="Binary"/>
                <attribute name="height" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="width" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
            </entity>
            <entity name="Message" isAbstract="YES" syncable="YES">
                <attribute name="sentAt" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="text" optional="YES" attributeType="String"/>
                <relationship name="chat" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Chat" inverseName="messages" inverseEntity="Chat"/>
                <relationship name="pinnedIn" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Chat" inverseName="pinned" inverseEntity="Chat"/>
                <fetchIndex name="byChatAndDate">
                    <fetchIndexElement property="chat" type="Binary" order="ascending"/>
                    <fetchIndexElement property="sentAt" type="Binary" order="descending"/>
                </fetchIndex>
            </entity>
            <entity name="Tag" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="chats" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Chat" inverseName="tags" inverseEntity="Chat"/>
            </entity>
            <entity name="TextMessage" parentEntity="Message" syncable="YES">
                <attribute name="body" optional="YES" attributeType="String"/>
            </entity>
            <fetchRequest name="RecentChats" entity="Chat" predicateString="title != nil"/>
            <elements>
                <element name="Chat" positionX="-63" positionY="-18" width="128" height="104"/>
            </elements>
        </model>
        """

    @Test func aModelFileMakesTheSameStoreAsTheModelDeclaredInSwift() throws {
        let xcode = try XcodeModel.parse(Data(Self.chatContents.utf8))
        #expect(xcode.notes.isEmpty)
        let model = try xcode.makeModel()
        #expect(model.schemaSQL == (try InheritanceTests.chatModel()).schemaSQL)
    }

    @Test func attributesKeepTheirTypesDefaultsValidationAndDerivations() throws {
        let contents = """
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Post">
                    <attribute name="title" attributeType="String" minValueString="1" maxValueString="5" regularExpressionString="\\p{L}[\\p{L} ]*"/>
                    <attribute name="rank" optional="YES" attributeType="Integer 16" defaultValueString="NO" usesScalarValueType="YES"/>
                    <attribute name="score" optional="YES" attributeType="Decimal" defaultValueString="0.1"/>
                    <attribute name="identifier" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
                    <attribute name="link" optional="YES" attributeType="URI"/>
                    <attribute name="flag" optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
                    <attribute name="payload" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
                    <attribute name="scratch" optional="YES" transient="YES"/>
                    <attribute name="likeCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="likes.@count" usesScalarValueType="YES"/>
                    <attribute name="searchTitle" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(title)"/>
                    <relationship name="likes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Like" inverseName="post" inverseEntity="Like"/>
                </entity>
                <entity name="Like">
                    <relationship name="post" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Post" inverseName="likes" inverseEntity="Post"/>
                </entity>
            </model>
            """
        let xcode = try XcodeModel.parse(Data(contents.utf8))
        #expect(xcode.notes.isEmpty)
        let model = try xcode.makeModel()
        let post = try #require(model.entity("Post"))
        let types = ["title", "rank", "score", "identifier", "link", "flag", "payload", "scratch"].map { name in
            "\(name):\(post.attribute(name)?.type.xcodeName ?? "missing")"
        }
        #expect(
            types == [
                "title:String", "rank:Integer 16", "score:Decimal", "identifier:UUID", "link:URI", "flag:Boolean",
                "payload:Transformable", "scratch:Undefined",
            ])
        #expect(post.attribute("scratch")?.isTransient == true)
        #expect(post.attribute("payload")?.valueTransformerName == "NSSecureUnarchiveFromData")
        #expect(post.derivedAttribute("likeCount")?.derivation == "likes.@count")
        #expect(post.attribute("title")?.validation.pattern == #"\p{L}[\p{L} ]*"#)
        #expect(
            model.schemaSQL.first { $0.hasPrefix("CREATE TABLE ZPOST") }
                == "CREATE TABLE ZPOST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFLAG INTEGER, ZLIKECOUNT INTEGER, ZRANK INTEGER, ZSCORE DECIMAL, ZLINK VARCHAR, ZSEARCHTITLE VARCHAR, ZTITLE VARCHAR, ZIDENTIFIER BLOB, ZPAYLOAD BLOB )"
        )

        let temporary = try TemporaryStore(model)
        let context = temporary.store.makeContext()
        let saved = try context.insert("Post")
        #expect(try saved.value("rank") == .int(0))
        #expect(try saved.value("flag") == .bool(true))
        try saved.setValue("Été", for: "title")
        try context.insert("Like").setObject(saved, for: "post")
        try context.save()
        let fresh = temporary.store.makeContext()
        let read = try #require(try fresh.fetch(FetchRequest("Post")).first)
        #expect(try read.value("likeCount") == .int(1))
        #expect(try read.value("searchTitle") == .string("ete"))

        try read.setValue("Far too long", for: "title")
        #expect(throws: ObjectGraphError.self) { try fresh.save() }
    }

    /// An XML attribute Xcode does not write (a typo, a hand edit) is ignored with a note naming it; those Xcode
    /// writes (every one found in 243 versions of 15 real apps' models) pass without one.
    @Test func anUnknownXMLAttributeIsANote() throws {
        let contents = """
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Item" representedClassName="Item" syncable="YES" codeGenerationType="class" colour="red">
                    <attribute name="title" optinal="YES" attributeType="String" elementID="name" syncable="YES"/>
                    <attribute name="count" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    <relationship name="parts" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="whole" inverseEntity="Item" odered="YES"/>
                    <relationship name="whole" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="parts" inverseEntity="Item"/>
                </entity>
            </model>
            """
        let xcode = try XcodeModel.parse(Data(contents.utf8))
        #expect(
            xcode.notes == [
                "Item: ignored the XML attribute colour=\"red\" on <entity>, which Xcode does not write; check its spelling",
                "Item.title: ignored the XML attribute optinal=\"YES\" on <attribute>, which Xcode does not write; check its spelling",
                "Item.parts: ignored the XML attribute odered=\"YES\" on <relationship>, which Xcode does not write; check its spelling",
            ], "\(xcode.notes)")
        // The misspelt optional is not read: title is required, as Xcode's default is.
        #expect(try xcode.makeModel().entity("Item")?.attribute("title")?.isOptional == false)
    }

    @Test func whatCannotBeStoredIsSkippedWithANote() throws {
        let contents = """
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Item">
                    <attribute name="location" optional="YES" attributeType="Integer 64"/>
                    <attribute name="shape" optional="YES" attributeType="Polygon"/>
                    <attribute name="loose" optional="YES"/>
                    <attribute name="total" optional="YES" attributeType="Double" derived="YES" derivationExpression="parts.weight.@avg"/>
                    <relationship name="cache" optional="YES" transient="YES" maxCount="1" destinationEntity="Item"/>
                    <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>
                    <fetchIndex name="byLocation">
                        <fetchIndexElement property="location" type="RTree" order="ascending"/>
                    </fetchIndex>
                    <fetchIndex name="byNothing">
                        <fetchIndexElement property="missing" type="Binary" order="ascending"/>
                    </fetchIndex>
                    <plugin name="future"><setting/></plugin>
                </entity>
            </model>
            """
        let xcode = try XcodeModel.parse(Data(contents.utf8))
        #expect(xcode.notes.count == 8)
        #expect(
            xcode.notes.contains(
                "Item.shape: attribute type 'Polygon' is not one ObjectGraph stores (Integer 16/32/64, Decimal, Double, Float, String, Boolean, Date, Binary, UUID, URI, Transformable); skipped"
            ))
        #expect(xcode.notes.contains("Item.loose: an Undefined attribute must be transient, as Xcode requires; skipped"))
        #expect(xcode.notes.contains("Item.cache: a transient relationship is not stored; skipped"))
        #expect(xcode.notes.contains("Item.owner: its destination 'Person' is not an entity of the model; skipped"))
        #expect(
            xcode.notes.contains(
                "Item: fetch index 'byLocation' on location is an R-tree index; ObjectGraph makes binary indexes only, so it is skipped"))
        #expect(xcode.notes.contains("Item: an index names 'missing', which is not a stored property; the index is skipped"))
        #expect(xcode.notes.contains { $0.hasPrefix("Item.total: ") })
        #expect(xcode.notes.contains("ignored the unknown element <plugin> inside <entity> (entity Item) and everything in it"))
        #expect(
            try xcode.makeModel().schemaSQL[0]
                == "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLOCATION INTEGER )")
    }

    /// What real models hold and Core Data opens: fetch indexes on to-many relationships (Xcode 9's conversion of
    /// the old Indexed box, as in WordPress's model), an ordered reflexive many-to-many, a model with no entities.
    @Test func realModelsQuirksAreRead() throws {
        let contents = """
            <model type="com.apple.IDECoreDataModeler.DataModel">
                <entity name="Account">
                    <relationship name="blogs" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Blog" inverseName="account" inverseEntity="Blog"/>
                    <fetchIndex name="byBlogsIndex"><fetchIndexElement property="blogs" type="Binary" order="ascending"/></fetchIndex>
                </entity>
                <entity name="Blog">
                    <relationship name="account" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="blogs" inverseEntity="Account"/>
                </entity>
                <entity name="Comment">
                    <relationship name="comments" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" destinationEntity="Comment" inverseName="comments" inverseEntity="Comment"/>
                </entity>
            </model>
            """
        let xcode = try XcodeModel.parse(Data(contents.utf8))
        #expect(xcode.notes.contains { $0.hasPrefix("Account: fetch index 'byBlogsIndex' names to-many relationship 'blogs'") })
        let schema = try xcode.makeModel().schemaSQL
        #expect(!schema.contains { $0.contains("byBlogsIndex") })
        #expect(
            schema.contains(
                "CREATE TABLE Z_3COMMENTS ( Z_3COMMENTS INTEGER, REFLEXIVE INTEGER, Z_FOK_REFLEXIVE INTEGER, PRIMARY KEY (Z_3COMMENTS, REFLEXIVE) )"
            ))
        let empty = try XcodeModel.parse(Data(#"<model type="com.apple.IDECoreDataModeler.DataModel"><elements/></model>"#.utf8))
            .makeModel()
        #expect(empty.schemaSQL == [SchemaBuilder.primaryKeyTable, SchemaBuilder.metadataTable, SchemaBuilder.modelCacheTable])
        _ = try TemporaryStore(empty)
    }

    @Test func aModelPackageOpensItsCurrentVersion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcmodel-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = folder.appendingPathComponent("Chat.xcdatamodeld")
        for version in ["Chat", "Chat 2"] {
            let versionFolder = package.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: versionFolder, withIntermediateDirectories: true)
            let text = version == "Chat" ? "<model><entity name=\"Old\"/></model>" : Self.chatContents
            try Data(text.utf8).write(to: versionFolder.appendingPathComponent("contents"))
        }
        let current = try PropertyListSerialization.data(
            fromPropertyList: ["_XCCurrentVersionName": "Chat 2.xcdatamodel"], format: .xml, options: 0)
        try current.write(to: package.appendingPathComponent(".xccurrentversion"))
        let loaded = try XcodeModel.load(path: package.path)
        #expect(loaded.version == "Chat 2")
        #expect(loaded.entities.map(\.name) == ["Chat", "ImageMessage", "Message", "Tag", "TextMessage"])
        #expect(try XcodeModel.load(path: package.appendingPathComponent("Chat.xcdatamodel").path).entities.map(\.name) == ["Old"])
    }

    /// What lint reads besides the store's shape: renaming identifiers, fetch request and fetched property
    /// predicates, and which version of a package was read.
    @Test func renamingIdentifiersFetchRequestsAndVersionsAreRead() throws {
        let contents = """
            <model><entity name="Product" elementID="Item"><attribute name="title" optional="YES" attributeType="String" elementID="name"/>
            <attribute name="sku" optional="YES" attributeType="String"/>
            <relationship name="lines" optional="YES" toMany="YES" destinationEntity="Line" inverseName="product" inverseEntity="Line" elementID="rows"/>
            <fetchedProperty name="cheap" optional="YES"><fetchRequest name="fetchedPropertyFetchRequest" entity="Line" predicateString="price &lt; 5"/></fetchedProperty>
            </entity>
            <entity name="Line"><attribute name="price" optional="YES" attributeType="Double"/>
            <relationship name="product" optional="YES" maxCount="1" destinationEntity="Product" inverseName="lines" inverseEntity="Product"/></entity>
            <fetchRequest name="BySKU" entity="Product" predicateString="sku == $SKU"/><fetchRequest name="All" entity="Line"/></model>
            """
        let model = try XcodeModel.parse(Data(contents.utf8))
        #expect(model.notes.isEmpty)
        #expect(model.renamingIdentifiers == ["Product": "Item", "Product.title": "name", "Product.lines": "rows"])
        #expect(
            model.fetchRequests == [
                FetchRequestTemplate(name: "Product.cheap", entity: "Line", predicate: "price < 5", fetchedProperty: "Product.cheap"),
                FetchRequestTemplate(name: "BySKU", entity: "Product", predicate: "sku == $SKU", fetchedProperty: nil),
            ])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcmodel-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = folder.appendingPathComponent("Shop.xcdatamodeld")
        for version in ["Shop", "Shop 2", "Shop 10"] {
            let versionFolder = package.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: versionFolder, withIntermediateDirectories: true)
            try Data("<model><entity name=\"V\(version.count)\"/></model>".utf8).write(to: versionFolder.appendingPathComponent("contents"))
        }
        try PropertyListSerialization.data(fromPropertyList: ["_XCCurrentVersionName": "Shop 2.xcdatamodel"], format: .xml, options: 0)
            .write(to: package.appendingPathComponent(".xccurrentversion"))
        let current = try XcodeModel.load(path: package.path)
        #expect(current.version == "Shop 2" && current.currentVersion == "Shop 2" && current.isCurrentVersion)
        #expect(current.versions == ["Shop", "Shop 2", "Shop 10"])
        let older = try XcodeModel.load(path: package.path, version: "Shop")
        #expect(older.version == "Shop" && !older.isCurrentVersion && older.entities.map(\.name) == ["V4"])
        #expect(try XcodeModel.load(path: package.path, version: "Shop 10.xcdatamodel").entities.map(\.name) == ["V7"])
        #expect(
            throws: ObjectGraphError.xcodeModel(
                path: package.path, reason: "has no version 'Shop 3'; its versions are Shop, Shop 2, Shop 10")
        ) { try XcodeModel.load(path: package.path, version: "Shop 3") }
    }

    /// wallabag's Shared.xcdatamodel: the only version of a package whose .xccurrentversion is an empty dictionary is
    /// current, as where the file is missing; with two versions and none named, the package is refused.
    @Test func anEmptyCurrentVersionFileNamesTheOnlyVersion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("xcmodel-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let package = folder.appendingPathComponent("Store.xcdatamodeld")
        let only = package.appendingPathComponent("Shared.xcdatamodel")
        try FileManager.default.createDirectory(at: only, withIntermediateDirectories: true)
        try Data("<model><entity name=\"Entry\"/></model>".utf8).write(to: only.appendingPathComponent("contents"))
        try PropertyListSerialization.data(fromPropertyList: [String: Any](), format: .xml, options: 0)
            .write(to: package.appendingPathComponent(".xccurrentversion"))
        let model = try XcodeModel.load(path: package.path)
        #expect(model.version == "Shared" && model.isCurrentVersion && model.entities.map(\.name) == ["Entry"])
        let second = package.appendingPathComponent("Shared 2.xcdatamodel")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        try Data("<model><entity name=\"Entry\"/></model>".utf8).write(to: second.appendingPathComponent("contents"))
        #expect(throws: ObjectGraphError.self) { try XcodeModel.load(path: package.path) }
    }

    /// A Boolean's default written as a number (left from a numeric type): zero is NO, anything else YES.
    @Test func aNumericBooleanDefaultIsRead() {
        #expect(XcodeModelReader.defaultValue(["defaultValueString": "0.0"], type: .bool) == .bool(false))
        #expect(XcodeModelReader.defaultValue(["defaultValueString": "1.0"], type: .bool) == .bool(true))
        #expect(XcodeModelReader.defaultValue(["defaultValueString": "maybe"], type: .bool) == nil)
    }

    @Test(arguments: [
        ("<model><entity name=\"A\"></model>", "the file ends inside <model>"),
        ("<model><entity name=\"A\">", "the file ends inside <entity>"),
        ("<model><entity name=\"A\"/></model", "not well-formed XML at line 1"),
        ("<objects/>", "line 1: the root element is <objects>, not <model>"),
        ("", "no <model> element"),
        ("<model><entity/></model>", "line 1: an <entity> has no name"),
    ])
    func badFilesAreRefusedWithTheReason(contents: String, reason: String) throws {
        do {
            _ = try XcodeModel.parse(Data(contents.utf8), path: "Broken/contents")
            Issue.record("parsed \(contents)")
        } catch let ObjectGraphError.xcodeModel(path, found) {
            #expect(path == "Broken/contents")
            #expect(found.contains(reason.replacingOccurrences(of: "line 1: ", with: "")), "\(found)")
        }
    }

    /// libxml2 refuses a comment over 10 MB as malformed; a comment holds nothing of the model, so it is read past, and
    /// the lines after it keep their numbers.
    @Test func aLargeCommentIsReadPast() throws {
        let entity = #"<entity name="A"><attribute name="n" optional="YES" attributeType="String"/></entity>"#
        let large = "<model>\(entity)<!-- " + String(repeating: "x", count: 11_000_000) + " --><![CDATA[<!-- kept -->]]></model>"
        #expect(try XcodeModel.parse(Data(large.utf8)).entities.map(\.name) == ["A"])
        do {
            _ = try XcodeModel.parse(Data("<model>\n<!-- one\ntwo\n-->\n<entity/></model>".utf8), path: "Broken/contents")
            Issue.record("parsed an entity without a name")
        } catch let ObjectGraphError.xcodeModel(_, found) {
            #expect(found.hasPrefix("line 5: an <entity> has no name"), "\(found)")
        }
    }

    @Test func aMissingPathSaysWhatToGive() {
        #expect(
            throws: ObjectGraphError.xcodeModel(
                path: "/nonexistent/Model.xcdatamodeld",
                reason: "no such file or folder; give a .xcdatamodeld folder, a .xcdatamodel folder or its contents file")
        ) {
            try XcodeModel.load(path: "/nonexistent/Model.xcdatamodeld")
        }
    }
}
