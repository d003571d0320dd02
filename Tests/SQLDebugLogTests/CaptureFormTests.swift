import Foundation
import XCTest

@testable import SQLDebugLog

/// One excerpt of a notes app's SQLDebug 2 log (written here, in the shapes Core Data prints: a list with a prefetch,
/// a to-many fault, an object fault, a count; a save in two transactions; a warning), re-rendered in every form a Mac
/// prints or saves a log in. Every form must give the same counters, segment by segment: exact counts do not depend
/// on how the log was captured.
final class CaptureFormTests: XCTestCase {
    /// The excerpt: (tag, body) per Core Data message, nil tag for a marker line printed by the app.
    static let messages: [(tag: String?, body: String)] = [
        (
            "annotation",
            "Connecting to sqlite database file at \"/private/var/mobile/Containers/Data/Application/3F2A/Library/Notes.sqlite\""
        ),
        ("sql", "pragma recursive_triggers=1"),
        ("sql", "pragma journal_mode=wal"),
        ("sql", "SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA"),
        (nil, "RelBench: begin notes-list"),
        (
            "sql",
            "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZUPDATEDAT, t0.ZFOLDER FROM ZNOTE t0 WHERE  t0.ZARCHIVED = ? ORDER BY t0.ZUPDATEDAT DESC LIMIT 50"
        ),
        ("details", "SQLite bind[0] = (int64)0"),
        ("annotation", "sql connection fetch time: 0.0021s"),
        ("annotation", "Bound intarray _Z_intarray0"),
        ("annotation", "Bound intarray values."),
        ("sql", "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZCOLOR FROM ZFOLDER t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0) "),
        ("annotation", "sql connection fetch time: 0.0004s"),
        ("annotation", "total fetch execution time: 0.0006s for 6 rows."),
        ("annotation", "Prefetching with key 'folder'.  Got 6 rows."),
        ("annotation", "total fetch execution time: 0.0031s for 48 rows."),
        ("sql", "SELECT 0, t0.Z_PK FROM Z_5TAGS t1 JOIN ZTAG t0 ON t0.Z_PK = t1.Z_9TAGS WHERE t1.Z_5NOTES = ? "),
        ("details", "SQLite bind[0] = (int64)12"),
        ("annotation", "sql connection fetch time: 0.0003s"),
        ("annotation", "total fetch execution time: 0.0004s for 3 rows."),
        (
            "annotation",
            "to-many relationship fault \"tags\" for objectID 0x9b2e8c40e1e3f0a2 <x-coredata://6C1E0F4A-2B7D-4E55-9A0C-3D8F1B2A7C44/Note/p12> fulfilled from database.  Got 3 rows"
        ),
        ("sql", "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZLABEL FROM ZTAG t0 WHERE  t0.Z_PK = ?  LIMIT 1"),
        ("details", "SQLite bind[0] = (int64)4"),
        ("annotation", "sql connection fetch time: 0.0002s"),
        ("annotation", "total fetch execution time: 0.0003s for 1 rows."),
        ("annotation", "fault fulfilled from database for : 0x8a1f0c22d3b4e501 <x-coredata://6C1E0F4A-2B7D-4E55-9A0C-3D8F1B2A7C44/Tag/p4>"),
        ("sql", "SELECT COUNT( DISTINCT t0.Z_PK) FROM ZNOTE t0 WHERE  t0.ZARCHIVED = ?"),
        ("details", "SQLite bind[0] = (int64)1"),
        ("annotation", "sql connection fetch time: 0.0008s"),
        ("annotation", "total count request execution time: 0.0009s for count of 7."),
        (nil, "RelBench: end notes-list"),
        (nil, "RelBench: begin edit-note"),
        ("sql", "BEGIN EXCLUSIVE"),
        ("sql", "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"),
        ("details", "SQLite bind[0] = (int64)9"),
        ("sql", "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?"),
        ("details", "SQLite bind[0] = (int64)31"),
        ("details", "SQLite bind[1] = (int64)9"),
        ("details", "SQLite bind[2] = (int64)30"),
        ("sql", "COMMIT"),
        ("sql", "BEGIN EXCLUSIVE"),
        ("sql", "INSERT INTO ZTAG(Z_PK, Z_ENT, Z_OPT, ZLABEL) VALUES(?, ?, ?, ?)"),
        ("details", "SQLite bind[0] = (int64)31"),
        ("details", "SQLite bind[1] = (int64)9"),
        ("details", "SQLite bind[2] = (int64)1"),
        ("details", "SQLite bind[3] = \"errands\""),
        ("sql", "UPDATE OR FAIL ZNOTE SET ZUPDATEDAT = ?, Z_OPT = ? WHERE Z_PK = ? AND Z_OPT = ?"),
        ("details", "SQLite bind[0] = (timestamp)754123456.789000"),
        ("details", "SQLite bind[1] = (int64)5"),
        ("details", "SQLite bind[2] = (int64)12"),
        ("details", "SQLite bind[3] = (int64)4"),
        ("sql", "INSERT INTO Z_5TAGS(Z_5NOTES,Z_9TAGS) VALUES (?, ?)"),
        ("details", "SQLite bind[0] = (int64)12"),
        ("details", "SQLite bind[1] = (int64)31"),
        ("sql", "COMMIT"),
        ("sql", "pragma page_count"),
        ("annotation", "sql execution time: 0.0001s"),
        (
            "warning",
            "Stale objects will not be refreshed: the context's stalenessInterval is 0 and automaticallyMergesChangesFromParent is off"
        ),
        (nil, "RelBench: end edit-note"),
    ]

    /// The counters every form must give: per segment, everything `LogCounters` holds but the times.
    struct Counts: Equatable, CustomStringConvertible {
        var metrics: [Int?]
        var kinds: StatementKindCounts
        var roles: [StatementRole: Int]
        var transactions, saves, problems, unreported, storeOpenings: Int

        init(_ counters: LogCounters) {
            metrics = [
                counters.sqlStatements, counters.fetchRequests, counters.objectFaults, counters.relationshipFaults,
                counters.reportedRowsRead,
            ]
            kinds = counters.statementsByKind
            roles = counters.statementsByRole
            transactions = counters.transactions
            saves = counters.saves
            problems = counters.problems
            unreported = counters.statementsWithUnreportedRows
            storeOpenings = counters.storeOpenings
        }

        var description: String {
            metrics.map { $0.map(String.init) ?? "n/r" }.joined(separator: " ") + " tx=\(transactions) saves=\(saves) problems=\(problems)"
        }
    }

    static func counts(_ analysis: LogAnalysis) -> [String: Counts] {
        Dictionary(uniqueKeysWithValues: analysis.segments.map { ($0.name, Counts($0.counters)) })
    }

    /// The forms, each a function from the excerpt to a log's text.
    static let forms: [(name: String, render: @Sendable () -> String)] = [
        ("Xcode console", { lines { tag, body in ["CoreData: \(tag): \(body)"] } }),
        ("NSLog prefix", { lines(prefix: "2024-05-01 10:00:00.123 Notes[3913:c07] ") { tag, body in ["CoreData: \(tag): \(body)"] } }),
        (
            "log show (default style)",
            {
                lines(prefix: "2024-05-01 10:00:00.123456-0700 0x2a41f    Default     0x0                  3913   0    Notes: ") {
                    tag, body in
                    ["(CoreData) [com.apple.coredata:\(tag)] CoreData: \(tag): \(body)"]
                }
            }
        ),
        (
            "log show, messages without the prefix",
            {
                lines(prefix: "2024-05-01 10:00:00.123456-0700 0x2a41f    Default     0x0                  3913   0    Notes: ") {
                    tag, body in
                    ["(CoreData) [com.apple.coredata:\(tag == "details" ? "sql" : tag)] \(body)"]
                }
            }
        ),
        (
            "log stream --style compact",
            {
                lines(prefix: "2024-05-01 10:00:00.123 Df Notes[3913:2a41f] ") { tag, body in
                    ["[com.apple.coredata:\(tag)] CoreData: \(tag): \(body)"]
                }
            }
        ),
        ("log show --style ndjson", { json(compact: true) }),
        ("log show --style json", { json(compact: false) }),
        ("Console.app copy", { lines(prefix: "default\t10:00:00.123456-0700\tNotes\t") { tag, body in ["CoreData: \(tag): \(body)"] } }),
        (
            "Console.app copy, subsystem column, no prefix",
            {
                lines(prefix: "") { tag, body in
                    [
                        "\(tag == "warning" ? "error" : "default")\t10:00:00.123456-0700\tNotes\tcom.apple.coredata\t\(tag == "details" ? "sql" : tag)\t\(body)"
                    ]
                } markers: {
                    "default\t10:00:00.123456-0700\tNotes\t\($0)"
                }
            }
        ),
        (
            "Xcode 15+ repeats (bare, prefixed, untagged)",
            { lines { tag, body in ["\(tag): \(body)", "CoreData: \(tag): \(body)", "CoreData: \(body)"] } }
        ),
        (
            "os_log type shown ([error] warning:)",
            {
                lines(prefix: "2024-05-01 10:00:00.123456+0200 Notes[3913:2a41f] ") { tag, body in
                    tag == "warning" ? ["[error] warning: \(body)", "CoreData: warning: \(body)"] : ["CoreData: \(tag): \(body)"]
                }
            }
        ),
        ("doubled stream (os_log and stderr)", { lines { tag, body in ["CoreData: \(tag): \(body)", "CoreData: \(tag): \(body)"] } }),
        ("CRLF line ends", { lines { tag, body in ["CoreData: \(tag): \(body)"] }.replacingOccurrences(of: "\n", with: "\r\n") }),
    ]

    /// The excerpt rendered line by line: `render` gives each message's lines, `markers` each marker's line.
    static func lines(
        prefix: String = "", _ render: (String, String) -> [String], markers: ((String) -> String)? = nil
    ) -> String {
        messages.flatMap { tag, body -> [String] in
            guard let tag else { return [markers?(body) ?? prefix + body] }
            return render(tag, body).map { prefix + $0 }
        }.joined(separator: "\n")
    }

    /// `log show --style json` (an array of pretty-printed objects) or `ndjson` (one object a line).
    static func json(compact: Bool) -> String {
        var objects: [String] = []
        for (tag, body) in messages {
            let message = tag.map { "CoreData: \($0): \(body)" } ?? body
            let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            let fields = [
                "\"timestamp\" : \"2024-05-01 10:00:00.123456-0700\"", "\"messageType\" : \"Default\"",
                "\"subsystem\" : \"\(tag == nil ? "com.example.notes" : "com.apple.coredata")\"", "\"eventMessage\" : \"\(escaped)\"",
            ]
            objects.append(compact ? "{" + fields.joined(separator: ",") + "}" : "{\n  " + fields.joined(separator: ",\n  ") + "\n}")
        }
        return compact ? objects.joined(separator: "\n") : "[" + objects.joined(separator: ",") + "]"
    }

    func testEveryFormGivesTheSameCounters() throws {
        let reference = Self.counts(LogAnalyzer.analyze(text: Self.forms[0].render()))
        XCTAssertEqual(Set(reference.keys), ["(outside segments)", "notes-list", "edit-note"])
        // The screen: 4 statements, 2 fetch requests (the list, the count), a prefetch, a to-many fault and an object
        // fault; 48 + 6 + 3 + 1 + 1 rows reported. The save: 10 statements in 2 transactions; no row reported.
        XCTAssertEqual(reference["notes-list"]?.metrics, [5, 2, 1, 1, 59])
        XCTAssertEqual(reference["edit-note"]?.metrics, [10, 0, 0, 0, nil])
        XCTAssertEqual(reference["edit-note"]?.problems, 1)
        XCTAssertEqual(reference["(outside segments)"]?.metrics, [3, 0, 0, 0, nil])
        var table = ["form | " + ["(outside segments)", "notes-list", "edit-note"].joined(separator: " | ")]
        for (name, render) in Self.forms {
            let got = Self.counts(LogAnalyzer.analyze(text: render()))
            XCTAssertEqual(got, reference, name)
            table.append(
                "\(name) | "
                    + ["(outside segments)", "notes-list", "edit-note"].map { got[$0]?.description ?? "-" }.joined(separator: " | "))
        }
        // Console.app without the subsystem column: a message without Core Data's prefix is Core Data's by its text; an
        // error's or warning's text could be anyone's, so the warning is not counted there (and nothing else is lost).
        var bare = Self.counts(
            LogAnalyzer.analyze(text: Self.lines(prefix: "default\t10:00:00.123456-0700\tNotes\t") { _, body in [body] }))
        XCTAssertEqual(bare["edit-note"]?.problems, 0)
        bare["edit-note"]?.problems = 1
        XCTAssertEqual(bare, reference, "Console.app copy, no prefix, no subsystem column")
        table.append("Console.app copy, no prefix, no subsystem column | (the warning not counted; the rest equal)")
        print(
            "CaptureFormTests: counters per segment (sql_statements fetch_requests object_faults relationship_faults rows_read):\n"
                + table.joined(separator: "\n"))
    }

    /// UTF-16 as some tools save a console (little endian with a byte-order mark, big endian without one): read from
    /// the file as UTF-8 would be, with the same counters.
    func testUTF16FilesGiveTheSameCounters() throws {
        let text = Self.forms[1].render()
        let reference = Self.counts(LogAnalyzer.analyze(text: text))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("capture-forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let forms: [(String, Data, TextEncoding)] = [
            ("utf16le-bom", Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!, .utf16LittleEndian),
            ("utf16be", text.data(using: .utf16BigEndian)!, .utf16BigEndian),
            ("utf8-bom", Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8), .utf8),
        ]
        for (name, data, encoding) in forms {
            let file = folder.appendingPathComponent(name)
            try data.write(to: file)
            let analysis = try LogAnalyzer.analyze(path: file.path)
            XCTAssertEqual(Self.counts(analysis), reference, name)
            XCTAssertEqual(analysis.parser.encoding, encoding, name)
            XCTAssertEqual(analysis.garbledLines, 0, name)
        }
    }

    /// A doubled stream that starts with statements which may repeat (pragmas, the metadata read): each counts once.
    func testDoubledStreamStartingWithRepeatableStatements() {
        let single = """
            CoreData: sql: pragma cache_size=200
            CoreData: sql: SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZNOTE t0
            CoreData: annotation: sql connection fetch time: 0.0002s
            CoreData: annotation: total fetch execution time: 0.0004s for 9 rows.
            """
        let doubled = single.split(separator: "\n").flatMap { [$0, $0] }.joined(separator: "\n")
        XCTAssertEqual(LogAnalyzer.analyze(text: doubled).totals.sqlStatements, 3)
        XCTAssertEqual(LogAnalyzer.analyze(text: doubled).duplicateMessages, 5)
        // A single stream whose first two statements are the same pragma keeps both.
        let repeated = "CoreData: sql: pragma page_count\n" + single
        XCTAssertEqual(LogAnalyzer.analyze(text: repeated).totals.sqlStatements, 4)
        // SQLDebug 1 without annotations: two faults of the same shape in a row are two statements.
        let faults = Array(
            repeating: "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZLABEL FROM ZTAG t0 WHERE  t0.Z_PK = ?  LIMIT 1", count: 3)
        XCTAssertEqual(LogAnalyzer.analyze(text: faults.joined(separator: "\n")).totals.sqlStatements, 3)
    }

    /// `[error] warning: X` alone (no `CoreData:` copy) is Core Data's problem too; with its copy, it counts once.
    func testOSLogTypedProblems() {
        let alone =
            "2024-05-01 10:00:00.1 Notes[1:2] [error] warning:  View context accessed for persistent container Notes with no stores loaded"
        XCTAssertEqual(LogAnalyzer.analyze(text: alone).totals.problems, 1)
        let fault = "2024-05-01 10:00:00.1 Notes[1:2] [fault] fault: Unable to load class named 'NoteCard' for entity 'Card'"
        XCTAssertEqual(LogAnalyzer.analyze(text: alone + "\n" + fault).totals.problems, 2)
        let four = [
            alone, "CoreData: warning:  View context accessed for persistent container Notes with no stores loaded",
            fault, "CoreData: fault: Unable to load class named 'NoteCard' for entity 'Card'",
            "CoreData: Unable to load class named 'NoteCard' for entity 'Card'",
            "error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///tmp/Notes.sqlite options:{} ... returned error NSCocoaErrorDomain (134100)",
            "CoreData: error: -addPersistentStoreWithType:SQLite configuration:(null) URL:file:///tmp/Notes.sqlite options:{} ... returned error NSCocoaErrorDomain (134100)",
            "2024-05-01 10:00:00.2 Notes[1:2] [error] error: Store failed to load.",
            "CoreData: error: Store failed to load.",
        ].joined(separator: "\n")
        let analysis = LogAnalyzer.analyze(text: four)
        XCTAssertEqual(analysis.totals.problems, 4, "four distinct problems, each printed two or three times")
    }

    /// Names in `log show --style json` are JSON strings: their escapes are undone.
    func testJSONEscapesInNamesAreUndone() {
        let text = """
            {"eventMessage":"RelBench: begin caf\\u00e9 \\ud83d\\ude00 list","subsystem":"com.example"}
            {"eventMessage":"CoreData: sql: SELECT 0, t0.Z_PK FROM ZNOTE t0","subsystem":"com.apple.coredata"}
            {"eventMessage":"CoreData: annotation: total fetch execution time: 0.0002s for 2 rows.","subsystem":"com.apple.coredata"}
            {"eventMessage":"RelBench: end caf\\u00e9 \\ud83d\\ude00 list","subsystem":"com.example"}
            """
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.segments.map(\.name), ["café 😀 list"])
        XCTAssertEqual(analysis.segments.first?.closed, true)
    }

    /// A log with no fault annotation (SQLDebug 1 as some devices print it): faults are recognised from the SQL's
    /// shape after a fetch of their entity, counted, marked inferred, and named by the model.
    func testFaultsInferredFromTheSQLsShape() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZFOLDER FROM ZNOTE t0 ORDER BY t0.ZTITLE
            CoreData: annotation: total fetch execution time: 0.0012s for 12 rows.
            \((1...12).map { _ in "CoreData: sql: SELECT 0, t0.Z_PK FROM ZTAG t0 WHERE  t0.ZNOTE = ? \nCoreData: annotation: total fetch execution time: 0.0001s for 2 rows." }.joined(separator: "\n"))
            \((1...3).map { _ in "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZFOLDER FROM ZNOTE t0 WHERE  t0.Z_PK = ?  LIMIT 1\nCoreData: annotation: total fetch execution time: 0.0001s for 1 rows." }.joined(separator: "\n"))
            """
        let mapping = NameMapping(
            entities: ["ZNOTE": "Note", "ZTAG": "Tag"], properties: ["ZTAG": ["ZNOTE": "note"]],
            toManyByForeignKey: [TableColumn(table: "ZTAG", column: "ZNOTE"): "Note.tags"],
            relationships: [
                "Note.tags": ModelRelationship(entity: "Note", name: "tags", destination: "Tag", isToMany: true, inverse: "note"),
                "Tag.note": ModelRelationship(entity: "Tag", name: "note", destination: "Note", isToMany: false, inverse: "tags"),
            ])
        let segment = try XCTUnwrap(LogAnalyzer.analyze(text: text, mapping: mapping).segments.first)
        XCTAssertEqual(segment.counters.fetchRequests, 1)
        XCTAssertEqual(segment.counters.relationshipFaults, 12)
        XCTAssertEqual(segment.counters.inferredRelationshipFaults, 12)
        XCTAssertEqual(segment.counters.objectFaults, 3)
        XCTAssertEqual(segment.counters.inferredObjectFaults, 3)
        let finding = try XCTUnwrap(segment.findings.first { $0.rule == .toManyFaultPerOwner })
        XCTAssertEqual(finding.subject, .relationship(entity: "Note", name: "tags"))
        XCTAssertTrue(finding.fix.hasPrefix("add relationshipKeyPathsForPrefetching [\"tags\"] to the fetch of Note"), finding.fix)
        // With a fault annotation anywhere before, nothing is inferred: the log says what faults are.
        let annotated = "CoreData: annotation: fault fulfilled from database for : 0x1 <x-coredata://A/Note/p1>\n" + text
        XCTAssertEqual(LogAnalyzer.analyze(text: annotated, mapping: mapping).totals.inferredRelationshipFaults, 0)
    }

    /// `xcodebuild test` and `swift test` output: each test case is a segment, XCTest's and Swift Testing's alike.
    func testTestCasesAreSegments() {
        let fetch = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZNOTE t0
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: total fetch execution time: 0.0002s for 4 rows.
            """
        let text = """
            Test Suite 'NotesTests' started at 2024-05-01 10:00:00.000.
            Test Case '-[NotesTests.NotesTests testList]' started.
            \(fetch)
            Test Case '-[NotesTests.NotesTests testList]' passed (0.012 seconds).
            Test Case 'NotesTests.testSearch' started at 2024-05-01 10:00:00.100
            \(fetch)
            \(fetch)
            Test Case 'NotesTests.testSearch' failed (0.020 seconds)
            ◇ Suite FolderTests started.
            ◇ Test folders() started.
            \(fetch)
            ✘ Test folders() recorded an issue at FolderTests.swift:12:5: Expectation failed: folders.count == 3
            ✘ Test folders() failed after 0.004 seconds with 1 issue.
            ◇ Test "Empty folder" started.
            ➜ Test "Empty folder" skipped: "not on this device"
            ✔ Suite FolderTests passed after 0.010 seconds.
            Test case 'NotesTests/testList()' passed on 'My Mac - Notes (3913)' (0.012 seconds)
            """
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(
            analysis.segments.map(\.name), ["NotesTests.NotesTests.testList", "NotesTests.testSearch", "folders()", "Empty folder"])
        XCTAssertEqual(analysis.segments.map(\.counters.sqlStatements), [1, 2, 1, 0])
        XCTAssertEqual(analysis.segments.map(\.closed), [true, true, true, true])
        XCTAssertEqual(analysis.markerProblems.count, 0)
    }
}
