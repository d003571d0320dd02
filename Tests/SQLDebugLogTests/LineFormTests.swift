import XCTest

@testable import SQLDebugLog

/// Every line form the parser accepts, with non-Core-Data lines around them.
final class LineFormTests: XCTestCase {
    static func events(_ text: String) -> [LogEvent] {
        var parser = SQLDebugLogParser()
        var events: [LogEvent] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) { parser.feed(line) { events.append($0) } }
        parser.finish { events.append($0) }
        return events
    }

    static func statements(_ text: String) -> [String] {
        events(text).compactMap { if case let .statement(statement) = $0 { return statement.sql } else { return nil } }
    }

    static func segment(_ text: String) throws -> LogSegment {
        try XCTUnwrap(LogAnalyzer.analyze(text: text).segments.first)
    }

    private let fetch = """
        CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZSTUDENT t0 WHERE  t0.ZAGE > ?  ORDER BY t0.ZNAME
        CoreData: details: SQLite bind[0] = (int64)18
        CoreData: annotation: sql connection fetch time: 0.0012s
        CoreData: annotation: total fetch execution time: 0.0025s for 15 rows.
        """

    func testPlainXcodeConsole() throws {
        let segment = try Self.segment("app started\n" + fetch + "\nloaded 15 students")
        XCTAssertEqual(segment.counters.metricsLine, "sql_statements=1 fetch_requests=1 object_faults=0 relationship_faults=0 rows_read=15")
        XCTAssertEqual(segment.fingerprints.first?.connectionTime.totalSeconds ?? 0, 0.0012, accuracy: 1e-12)
        XCTAssertEqual(segment.fingerprints.first?.fetchExecutionTime.totalSeconds ?? 0, 0.0025, accuracy: 1e-12)
    }

    func testNSLogPrefixesWithSpacesInProcessNames() throws {
        let prefixes = [
            "2013-01-07 14:46:17.561 App[3913:c07] ", "2013-01-07 14:46:17.561 My Great App[3913:c07] ",
            "2017-03-14 10:00:00.123456+0100 My App[1234:5678901] ", "Jan  7 14:46:17 iPhone My App[3913] <Notice>: ",
            "Sep 11 15:54:43 host assetsd[27921]: ", "default\t14:37:22.304008-0700\tMy App\t",
        ]
        for prefix in prefixes {
            let text = fetch.split(separator: "\n").map { prefix + $0 }.joined(separator: "\n")
            let segment = try Self.segment(text)
            XCTAssertEqual(segment.counters.sqlStatements, 1, prefix)
            XCTAssertEqual(segment.counters.rowsRead, 15, prefix)
            XCTAssertEqual(segment.counters.fetchRequests, 1, prefix)
        }
    }

    /// `log show` (default and compact styles) and `log stream` of the com.apple.coredata subsystem.
    func testLogShowColumns() throws {
        let defaultStyle = fetch.split(separator: "\n").map {
            "2024-01-10 11:14:38.831786-0800 0x724d65   Default     0x0                  18248  0    My App: (CoreData) [com.apple.coredata:sql] "
                + $0
        }.joined(separator: "\n")
        XCTAssertEqual(try Self.segment(defaultStyle).counters.rowsRead, 15)
        let compact = fetch.split(separator: "\n").map { "2024-01-10 11:14:38.831 Df My App[18248:724d65] [com.apple.coredata:sql] " + $0 }
            .joined(separator: "\n")
        XCTAssertEqual(try Self.segment(compact).counters.rowsRead, 15)
        // Messages whose text lost the `CoreData: ` prefix: the category says what they are.
        let bodies = """
            2024-01-10 11:14:38.831786-0800 0x724d65   Default     0x0                  18248  0    App: (CoreData) [com.apple.coredata:sql] SELECT 0, t0.Z_PK FROM ZITEM t0
            2024-01-10 11:14:38.831786-0800 0x724d65   Info        0x0                  18248  0    App: (CoreData) [com.apple.coredata:sql] SQLite bind[0] = (int64)3
            2024-01-10 11:14:38.831786-0800 0x724d65   Default     0x0                  18248  0    App: (CoreData) [com.apple.coredata:annotation] sql connection fetch time: 0.0001s
            2024-01-10 11:14:38.831786-0800 0x724d65   Default     0x0                  18248  0    App: (CoreData) [com.apple.coredata:annotation] total fetch execution time: 0.0002s for 3 rows.
            2024-01-10 11:14:38.831786-0800 0x724d65   Error       0x0                  18248  14   App: (CoreData) [com.apple.coredata:error] error:   file is not a symbolic link
            """
        let segment = try Self.segment(bodies)
        XCTAssertEqual(segment.counters.metricsLine, "sql_statements=1 fetch_requests=1 object_faults=0 relationship_faults=0 rows_read=3")
        XCTAssertEqual(segment.fingerprints.first?.distinctBindings, 1)
        XCTAssertEqual(segment.counters.problems, 1)
    }

    func testTagsWithoutCoreDataPrefix() throws {
        let text = """
            sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZSTOP t0  LIMIT 100
            annotation: sql connection fetch time: 0.0008s
            annotation: total fetch execution time: 0.0013s for 15 rows.
            """
        XCTAssertEqual(try Self.segment(text).counters.rowsRead, 15)
    }

    func testDeviceSyslogErrorForms() throws {
        let text = """
            Jan  7 14:46:17 iPhone App[3913] <Error>: Core Data: error: -executeRequest: encountered exception = database is locked with userInfo = { NSSQLiteErrorDomain = 5; }
            Jan  7 14:46:18 iPhone App[3913] <Error>: CoreData: error: (5) database is locked
            """
        XCTAssertEqual(try Self.segment(text).counters.problems, 2)
    }

    func testXcode15RepeatsAnErrorTwoOrThreeTimes() throws {
        let text = """
            fault: Could not materialize Objective-C class named "Array" for attribute named tags
            CoreData: fault: Could not materialize Objective-C class named "Array" for attribute named tags
            CoreData: Could not materialize Objective-C class named "Array" for attribute named tags
            error: the store was locked
            CoreData: error: the store was locked
            error: unrelated app error, not Core Data's
            print from the app
            """
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.totals.problems, 2)
        XCTAssertEqual(analysis.duplicateMessages, 3)
    }

    /// A statement wrapped over several indented lines joins into one, with single spaces.
    func testWrappedStatement() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZBOOK t0
                 WHERE  t0.ZTITLE LIKE ?
                 ORDER BY t0.ZTITLE
            CoreData: annotation: sql connection fetch time: 0.0012s
            CoreData: annotation: total fetch execution time: 0.0025s for 15 rows.
            """
        XCTAssertEqual(
            Self.statements(text), ["SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZBOOK t0 WHERE  t0.ZTITLE LIKE ? ORDER BY t0.ZTITLE"])
        let segment = try Self.segment(text)
        XCTAssertEqual(
            segment.fingerprints.first?.fingerprint,
            "SELECT ?, t0.Z_PK, t0.Z_OPT, t0.ZTITLE FROM ZBOOK t0 WHERE t0.ZTITLE LIKE ? ORDER BY t0.ZTITLE")
    }

    /// A statement only inside an error's `with sql text '...'` counts; one already logged by `sql:` does not.
    func testStatementOnlyInsideAnError() throws {
        let text = """
            CoreData: error: (1) I/O error for database: NSSQLiteStatement <0x600001234> on entity 'Item' with sql text 'SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME = 'a''
            CoreData: sql: UPDATE ZITEM SET ZNAME = ? WHERE Z_PK = ?
            CoreData: error: constraint failed: NSSQLiteStatement <0x600001235> on entity 'Item' with sql text 'UPDATE ZITEM SET ZNAME = ? WHERE Z_PK = ?'
            """
        XCTAssertEqual(
            Self.statements(text), ["SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME = 'a'", "UPDATE ZITEM SET ZNAME = ? WHERE Z_PK = ?"])
        let segment = try Self.segment(text)
        XCTAssertEqual(segment.counters.sqlStatements, 2)
        XCTAssertEqual(segment.counters.problems, 2)
    }

    func testDoubleAndTrailingSpacesGiveOneFingerprint() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE  t0.ZCLASS = ? 
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.ZCLASS = ?
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: sql: SELECT  0,  t0.Z_PK  FROM  ZSTUDENT t0  WHERE  t0.ZCLASS  =  ?
            """
        let segment = try Self.segment(text)
        XCTAssertEqual(segment.fingerprints.count, 1)
        XCTAssertEqual(segment.fingerprints.first?.count, 3)
    }

    /// `fetch using ... returned N rows with values: (` blocks: the lines up to the closing `)` are values.
    func testReturnedRowsWithValuesBlock() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE t0.ZAGE > ?
            CoreData: details: SQLite bind[0] = 18
            CoreData: annotation: sql connection fetch time: 0.4789s
            CoreData: annotation: fetch using NSSQLiteStatement <0x60c00009b620> on entity 'Person' with sql text 'SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE t0.ZAGE > ? ' returned 3 rows with values: (
                "<Person: 0x604000098470> (entity: Person; id: 0xd000000000040000 <x-coredata://71CEC961-C7C3-4466-BD1B-DA19FA909453/Person/p1> ; data: {\\n    name = \\"A (b\\";\\n})",
                "<Person: 0x604000098471> (entity: Person; id: 0xd000000000080000 <x-coredata://71CEC961-C7C3-4466-BD1B-DA19FA909453/Person/p2> ; data: <fault>)",
                "<Person: 0x604000098472> (entity: Person; id: 0xd0000000000c0000 <x-coredata://71CEC961-C7C3-4466-BD1B-DA19FA909453/Person/p3> ; data: <fault>)"
            )
            CoreData: annotation: total fetch execution time: 0.4801s for 3 rows.
            """
        let analysis = LogAnalyzer.analyze(text: text)
        let segment = try XCTUnwrap(analysis.segments.first)
        XCTAssertEqual(segment.counters.metricsLine, "sql_statements=1 fetch_requests=1 object_faults=0 relationship_faults=0 rows_read=3")
        XCTAssertEqual(analysis.parser.valueBlockLines, 4)
        XCTAssertEqual(analysis.truncatedLines, 0)
        XCTAssertEqual(segment.entities.first?.entity, ResolvedName(name: "Person", inferred: false))
    }

    /// A process logging to os_log and stderr at once: every line twice. Each counts once.
    func testDoubledStream() throws {
        let single = """
            CoreData: sql: BEGIN EXCLUSIVE
            CoreData: sql: INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)
            CoreData: sql: INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)
            CoreData: sql: COMMIT
            """ + "\n" + fetch + "\n" + fetch
        let doubled = single.split(separator: "\n").flatMap { [$0, $0] }.joined(separator: "\n")
        let once = try Self.segment(single)
        let twice = try Self.segment(doubled)
        XCTAssertEqual(twice.counters.metricsLine, once.counters.metricsLine)
        XCTAssertEqual(twice.counters.statementsByKind, once.counters.statementsByKind)
        // Legitimately repeated INSERTs in a single stream stay.
        XCTAssertEqual(once.counters.statementsByKind.insert, 2)
    }

    /// Two threads writing into one line: both messages are read.
    func testTwoMessagesGluedOnOneLine() throws {
        let text =
            "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0CoreData: annotation: sql connection fetch time: 0.0001s\n"
            + "CoreData: annotation: total fetch execution time: 0.0002s for 3 rows."
        let segment = try Self.segment(text)
        XCTAssertEqual(segment.counters.rowsRead, 3)
        XCTAssertEqual(segment.fingerprints.first?.connectionTime.count, 1)
    }

    /// `log show --style json` and `ndjson`: the message is a JSON string.
    func testLogShowJSONStyles() throws {
        let text = """
            [{
              "eventMessage" : "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME = ?",
              "subsystem" : "com.apple.coredata"
            },{
              "eventMessage" : "CoreData: annotation: total fetch execution time: 0.0002s for 3 rows.",
            }]
            {"timestamp":"2024-05-01 10:00:00.000000-0700","eventMessage":"CoreData: sql: COMMIT","processID":1}
            """
        XCTAssertEqual(Self.statements(text), ["SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.ZNAME = ?", "COMMIT"])
        XCTAssertEqual(try Self.segment(text).counters.rowsRead, 3)
    }

    /// A log copied from a web page keeps its HTML entities; a terminal wraps long lines anywhere.
    func testHTMLEntitiesAndHardWrappedLines() throws {
        let html = """
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE  t0.ZCLASS = ?
            CoreData: annotation: to-many relationship fault &quot;students&quot; for objectID 0xa1 &lt;x-coredata://U/Class/p1&gt; fulfilled from database.  Got 4 rows
            """
        let segment = try Self.segment(html)
        XCTAssertEqual(segment.counters.rowsRead, 4)
        XCTAssertEqual(segment.fingerprints.first?.role, .toManyFault)
        let wrapped = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME,
            ZIGNORED, t0.ZAGE FROM ZPERSON t0 WHERE t0.ZAGE > ?
            CoreData: annotation: sql connection fetch time: 0.0001s
            """
        XCTAssertEqual(
            Self.statements(wrapped), ["SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, ZIGNORED, t0.ZAGE FROM ZPERSON t0 WHERE t0.ZAGE > ?"])
    }

    /// Extra spaces after a tag or a colon do not matter.
    func testLooseSpacing() throws {
        let text = """
            CoreData: sql:   SELECT 0, t0.Z_PK FROM ZITEM t0
            CoreData: annotation:  sql connection fetch time:  0.0001s
            CoreData: annotation: total fetch execution time:  0.0002s for  3 rows.
            """
        let segment = try Self.segment(text)
        XCTAssertEqual(segment.counters.rowsRead, 3)
        XCTAssertEqual(segment.counters.connectionSeconds, 0.0001, accuracy: 1e-12)
    }

    /// Lines cut mid-way count what they still say, and are reported.
    func testCutLines() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT FROM
            CoreData: annotation: sql connection fetch time: 0.00
            CoreData: annotation: total fetch execution time: 0.0002s for
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_int
            CoreData: annotation: to-many relationship fault "items" for objectID 0xa1 <x-coredata://U/Bag/p1> fulfilled from data
            """
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.totals.sqlStatements, 2)
        XCTAssertEqual(analysis.totals.fetchRequests, 1)
        XCTAssertEqual(analysis.totals.relationshipFaults, 1)
        XCTAssertEqual(analysis.truncatedLines, 4)
    }

    /// raymccrae's levels table as a page store flattens it: a level label before, ` |` cell bars after.
    func testFlattenedTableCells() throws {
        let text = """
            1 and above
            |
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAGE FROM ZPERSON t0 WHERE t0.ZAGE > ? |
            2 and above | CoreData: details: SQLite bind[0] = 18 |
            1 and above | CoreData: annotation: sql connection fetch time: 0.4789s. |
            2 Only | CoreData: annotation: fetch using NSSQLiteStatement <0x60800008bf40> on entity 'Person' with sql text 'SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAGE FROM ZPERSON t0 WHERE t0.ZAGE > ? ' returned 688187 rows |
            """
        let events = Self.events(text)
        XCTAssertTrue(events.contains(.bind(index: 0, value: .integer(18))))
        XCTAssertEqual(Self.statements(text), ["SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZAGE FROM ZPERSON t0 WHERE t0.ZAGE > ?"])
        XCTAssertEqual(try Self.segment(text).counters.rowsRead, 688187)
    }

    /// Without the `CoreData:` prefix, only what Core Data writes after a tag counts; app lines with those words do not.
    func testBareTagsMustReadLikeCoreData() {
        let text = """
            details: user tapped the row
            annotation: remember to refactor
            sql: connection refused
            sql: SELECT 0, t0.Z_PK FROM ZITEM t0
            annotation: total fetch execution time: 0.0002s for 3 rows.
            details: SQLite bind[0] = 3
            """
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.coreDataLines, 3)
        XCTAssertEqual(analysis.unknownCoreDataLines, 0)
        XCTAssertEqual(analysis.totals.sqlStatements, 1)
        XCTAssertEqual(analysis.totals.rowsRead, 3)
    }
}
