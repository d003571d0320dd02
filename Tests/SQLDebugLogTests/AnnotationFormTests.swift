import XCTest

@testable import SQLDebugLog

/// Annotations and details: binds, faults, prefetches, transactions, migrations, query plans, colours.
final class AnnotationFormTests: XCTestCase {
    func testBindFormats() {
        let text = """
            CoreData: details: SQLite bind[0] = (int64)3
            CoreData: details: SQLite bind[1] = "Student 12"
            CoreData: details: SQLite bind[2] = nil
            CoreData: details: SQLite bind[3] = NULL
            CoreData: details: SQLite bind[4] = <NSData len=16>
            CoreData: details: SQLite bind[5] = (timestamp)694224000.000000
            CoreData: details: SQLite bind[6] = 18
            CoreData: details: SQLite bind[7] = 0.5
            CoreData: details: SQLite bind[8] = 0DD5D133-23A2-45D1-AB49-5EDA1FBE9877
            CoreData: details: SQLite bind[9] = <16 bytes>
            CoreData: error: SQLite bind[10] = (int64)-4
            """
        let values = LineFormTests.events(text).compactMap { event -> BindValue? in
            if case let .bind(_, value) = event { return value }
            return nil
        }
        XCTAssertEqual(
            values,
            [
                .integer(3), .text("Student 12"), .null, .null, .blob(length: 16), .timestamp(694_224_000), .integer(18),
                .real(0.5), .other("0DD5D133-23A2-45D1-AB49-5EDA1FBE9877"), .blob(length: 16), .integer(-4),
            ])
    }

    /// Faults, prefetches and int-array binds as real Core Data logs them (each with its own total).
    func testFaultsAndPrefetchesWithTheirOwnTotals() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZCLASS t0
            CoreData: annotation: sql connection fetch time: 0.0002s
            CoreData: annotation: Bound intarray _Z_intarray0
            CoreData: annotation: Bound intarray values.
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZCLASS FROM ZSTUDENT t0 WHERE  t0.ZCLASS IN (SELECT * FROM _Z_intarray0)  ORDER BY t0.ZCLASS
            CoreData: annotation: sql connection fetch time: 0.0021s
            CoreData: annotation: total fetch execution time: 0.0024s for 50 rows.
            CoreData: annotation: Prefetching with key 'students'.  Got 50 rows.
            CoreData: annotation: total fetch execution time: 0.0053s for 2 rows.
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE  t0.ZCLASS = ?
            CoreData: details: SQLite bind[0] = (int64)1
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: total fetch execution time: 0.0001s for 25 rows.
            CoreData: annotation: to-many relationship fault "students" for objectID 0xa7ab2d44ebb9106e <x-coredata://0783522F-1851-4BC7-AE0D-AB4C83489E8B/Class/p1> fulfilled from database.  Got 25 rows
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZCLASS FROM ZSTUDENT t0 WHERE  t0.Z_PK = ?  LIMIT 1
            CoreData: details: SQLite bind[0] = (int64)7
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: total fetch execution time: 0.0002s for 1 rows.
            CoreData: annotation: fault fulfilled from database for : 0xa001000000000007 <x-coredata://0783522F-1851-4BC7-AE0D-AB4C83489E8B/Student/p7>
            """
        let segment = try LineFormTests.segment(text)
        XCTAssertEqual(segment.counters.metricsLine, "sql_statements=4 fetch_requests=1 object_faults=1 relationship_faults=1 rows_read=78")
        XCTAssertEqual(segment.counters.statementsByRole, [.fetch: 1, .prefetch: 1, .toManyFault: 1, .objectFault: 1])
        // Top-level totals only: the fetch (its prefetch inside), the to-many fault, the object fault.
        XCTAssertEqual(segment.counters.fetchExecutionSeconds, 0.0053 + 0.0001 + 0.0002, accuracy: 1e-12)
        XCTAssertEqual(segment.entities.first { $0.table == "ZSTUDENT" }?.entity, ResolvedName(name: "Student", inferred: false))
    }

    func testTransactionsSavesAndRollbacks() throws {
        let text = """
            CoreData: sql: BEGIN EXCLUSIVE
            CoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?
            CoreData: sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?
            CoreData: sql: COMMIT
            CoreData: sql: BEGIN EXCLUSIVE
            CoreData: sql: INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)
            CoreData: sql: INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)
            CoreData: sql: COMMIT
            CoreData: sql: pragma page_count
            CoreData: annotation: sql execution time: 0.0001s
            CoreData: sql: BEGIN EXCLUSIVE
            CoreData: sql: UPDATE OR FAIL ZITEM SET ZNAME = ?, Z_OPT = ?  WHERE Z_PK = ? AND Z_OPT = ?
            CoreData: sql: ROLLBACK
            """
        let segment = try LineFormTests.segment(text)
        XCTAssertEqual(segment.counters.sqlStatements, 12)
        XCTAssertEqual(segment.counters.transactions, 3)
        XCTAssertEqual(segment.counters.saves, 1)
        XCTAssertEqual(segment.counters.rollbacks, 1)
        // Z_MAX and page_count read one row each, which the log does not report: not counted, not guessed.
        XCTAssertEqual(segment.counters.rowsRead, 0)
        XCTAssertNil(segment.counters.reportedRowsRead)
        XCTAssertEqual(segment.counters.statementsWithUnreportedRows, 2)
        XCTAssertTrue(segment.counters.metricsLine.hasSuffix("rows_read=not reported"))
        XCTAssertEqual(segment.saveSizes.rowsWritten, 2)
        XCTAssertEqual(segment.counters.statementsByKind.insert, 2)
        XCTAssertEqual(segment.counters.statementsByKind.transaction, 6)
    }

    func testMigrationAnnotations() throws {
        let text = """
            CoreData: annotation: (migration)\t will attempt automatic schema migration
            CoreData: annotation: (migration) checking mapping model at path file:///x/Model.cdm
            CoreData: annotation: (migration) in-place migration completed successfully in 0.03 seconds
            """
        XCTAssertEqual(try LineFormTests.segment(text).counters.migrationMessages, 3)
    }

    /// SQLDebug 4 query plans in their several spellings; a scan of a filtered table is a finding.
    func testQueryPlans() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE t0.ZNAME = ? ORDER BY t0.ZAGE
            CoreData: details: SQLite: EXPLAIN QUERY PLAN SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZPERSON t0 WHERE t0.ZNAME = ? ORDER BY t0.ZAGE
            CoreData: details: SQLite: 0 0 0 SCAN TABLE ZPERSON AS t0
            CoreData: details: SQLite: 0 0 0 USE TEMP B-TREE FOR ORDER BY
            CoreData: annotation: sql connection fetch time: 0.0100s
            CoreData: annotation: total fetch execution time: 0.0120s for 2 rows.
            CoreData: details: QUERY PLAN
            CoreData: details: |--SCAN t0
            """
        let events = LineFormTests.events(text)
        XCTAssertEqual(events.filter { if case .queryPlan = $0 { return true } else { return false } }.count, 5)
        let segment = try LineFormTests.segment(text)
        XCTAssertEqual(segment.counters.sqlStatements, 1)
        XCTAssertEqual(Set(segment.findings.map(\.rule)), [.unindexedFilter, .unindexedSort])
        XCTAssertEqual(segment.findings.first { $0.rule == .unindexedFilter }?.subject, .property(entity: "PERSON", name: "NAME"))
        XCTAssertEqual(segment.findings.first { $0.rule == .unindexedFilter }?.severity, .risk, "SQLite's plan shows the scan")
    }

    /// Terminal colours (`-com.apple.CoreData.SyntaxColoredLogging YES`) are stripped.
    func testColouredOutput() throws {
        let text = """
            CoreData: sql: \u{1B}[36mSELECT\u{1B}[0m 0, t0.Z_PK FROM ZITEM t0
            CoreData: annotation: sql connection fetch time: \u{1B}[31m0.0001\u{1B}[0ms
            CoreData: annotation: total fetch execution time: \u{1B}[31m0.0002\u{1B}[0ms for 3 rows.
            """
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.totals.rowsRead, 3)
        XCTAssertEqual(analysis.garbledLines, 0)
        XCTAssertEqual(analysis.segments.first?.fingerprints.first?.fingerprint, "SELECT ?, t0.Z_PK FROM ZITEM t0")
    }

    /// A SwiftData store: same tables and columns (Z<ENTITY>), same log.
    func testSwiftDataStore() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZAUTHOR FROM ZBOOK t0 WHERE  NSCoreDataStringSearch( t0.ZTITLE, ?, 417, 1) ORDER BY t0.Z_PK
            CoreData: details: SQLite bind[0] = "Maui"
            CoreData: annotation: sql connection fetch time: 0.0003s
            CoreData: annotation: total fetch execution time: 0.0005s for 4 rows.
            """
        let segment = try LineFormTests.segment(text)
        XCTAssertEqual(segment.counters.rowsRead, 4)
        XCTAssertEqual(segment.entities.first?.table, "ZBOOK")
    }

    func testLogicallyFalseFetchIsAFetchRequestWithoutSQL() throws {
        let text =
            "CoreData: annotation: logically false fetch request <NSFetchRequest: 0x6000> (entity: Item; predicate: (FALSEPREDICATE)) short circuits."
        let segment = try LineFormTests.segment(text)
        XCTAssertEqual(segment.counters.fetchRequests, 1)
        XCTAssertEqual(segment.counters.sqlStatements, 0)
    }

    /// Catastrophic logging mode: everything is labelled `error:`, statements and annotations included.
    func testCatastrophicModeLabelsEverythingError() throws {
        let text = """
            CoreData: error: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZSTUDENT t0 WHERE  t0.Z_PK = ?  LIMIT 1
            CoreData: error: SQLite bind[0] = (int64)4
            CoreData: error: sql connection fetch time: 0.0001s
            CoreData: error: total fetch execution time: 0.0002s for 1 rows.
            CoreData: error: fault fulfilled from database for : 0xa1 <x-coredata://U/Student/p4>
            CoreData: error: BEGIN EXCLUSIVE
            CoreData: error: COMMIT
            CoreData: error: UPDATE failed because the disk is full
            """
        let segment = try LineFormTests.segment(text)
        XCTAssertEqual(segment.counters.metricsLine, "sql_statements=3 fetch_requests=0 object_faults=1 relationship_faults=0 rows_read=1")
        XCTAssertEqual(segment.counters.problems, 1)
    }

    /// The device times line names each kind of time the log reports and says which it does not: never 0.0 ms as if
    /// measured (a count request has no connection time; a save is timed only by `sql execution time`, if at all).
    func testDeviceTimesNameOnlyWhatTheLogTimed() {
        func line(_ text: String) -> String? {
            LogReport.text(LogAnalyzer.analyze(text: text)).split(separator: "\n").first { $0.hasPrefix("  device times:") }
                .map(String.init)
        }
        XCTAssertEqual(
            line(
                """
                CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0
                CoreData: annotation: sql connection fetch time: 0.0010s
                CoreData: annotation: total fetch execution time: 0.0030s for 3 rows.
                """), "  device times: fetch 3.0 ms, connection 1.0 ms")
        XCTAssertEqual(
            line(
                """
                CoreData: sql: SELECT COUNT( DISTINCT t0.Z_PK) FROM ZITEM t0
                CoreData: annotation: total count request execution time: 0.0020s for count of 12.
                """), "  device times: fetch 2.0 ms (connection time not in the log)")
        XCTAssertEqual(
            line(
                """
                CoreData: sql: BEGIN EXCLUSIVE
                CoreData: sql: INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)
                CoreData: annotation: sql execution time: 0.0005s
                CoreData: sql: COMMIT
                """), "  device times: execution 0.5 ms (fetch and connection time not in the log)")
        XCTAssertEqual(
            line(
                """
                CoreData: sql: BEGIN EXCLUSIVE
                CoreData: sql: COMMIT
                """), "  device times: none in the log (no statement in this segment has a time annotation)")
    }
}
