import XCTest

@testable import SQLDebugLog

/// Real, published SQLDebug excerpts (Fixtures/real, one file per source; the `# source:` header names its URL).
/// Expected counts were checked by hand against each excerpt.
final class RealSampleTests: XCTestCase {
    /// The excerpt without the collector's `# ` metadata lines.
    static func sample(_ prefix: String) throws -> String {
        let folder = BenchTrace.fixtures.appendingPathComponent("real")
        let name = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix(prefix) },
            "no fixture \(prefix)")
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("# ") }.joined(separator: "\n")
    }

    static func analyze(_ prefix: String) throws -> (LogAnalysis, LogSegment) {
        let analysis = LogAnalyzer.analyze(text: try sample(prefix))
        return (analysis, try XCTUnwrap(analysis.segments.first))
    }

    func assertMetrics(_ segment: LogSegment, _ expected: [Int], file: StaticString = #filePath, line: UInt = #line) {
        let counters = segment.counters
        XCTAssertEqual(
            [counters.sqlStatements, counters.fetchRequests, counters.objectFaults, counters.relationshipFaults, counters.rowsRead],
            expected, "sql_statements, fetch_requests, object_faults, relationship_faults, rows_read", file: file, line: line)
    }

    /// fatbobman: counts, a many-to-many to-many fault, an intarray prefetch with its own total, GROUP BY.
    func testFatbobmanCountsFaultAndPrefetch() throws {
        let (analysis, segment) = try Self.analyze("01-")
        assertMetrics(segment, [13, 11, 0, 1, 2306])
        XCTAssertEqual(segment.counters.statementsByRole[.prefetch], 1)
        XCTAssertEqual(segment.counters.statementsByRole[.toManyFault], 1)
        XCTAssertEqual(analysis.truncatedLines, 1, "the published `oreData: sql:` line")
        XCTAssertEqual(segment.fingerprints.first?.fingerprint, "SELECT COUNT(*) FROM ZITEM")
        XCTAssertEqual(segment.fingerprints.first?.count, 2)
        // A fetch's total includes its prefetch's: 0.0053 s counted once, not 0.0053 + 0.0024.
        let prefetchFetch = try XCTUnwrap(
            segment.fingerprints.first {
                $0.fingerprint.contains("ZATTACHMENTCOUNT, t0.ZBIRTHOFYEAR, t0.ZTIMESTAMP FROM ZITEM t0")
                    && !$0.fingerprint.contains("ORDER")
            })
        XCTAssertEqual(prefetchFetch.fetchExecutionTime.totalSeconds, 0.0053, accuracy: 1e-9)
        XCTAssertEqual(
            segment.counters.fetchExecutionSeconds,
            0.0002 + 0.0002 + 0.0002 + 0.0004 + 0.0001 + 0.0053 + 0.0006 + 0.0004 + 0.0002 + 0.0002 + 0.0003 + 0.0002,
            accuracy: 1e-9)
    }

    /// azamsharp: a save in two transactions (primary keys, then the INSERT), post-save pragmas.
    func testAzamsharpSave() throws {
        let (analysis, segment) = try Self.analyze("02-")
        assertMetrics(segment, [12, 1, 0, 0, 4])
        XCTAssertEqual(segment.counters.transactions, 2)
        XCTAssertEqual(segment.counters.saves, 1)
        XCTAssertEqual(segment.counters.statementsByKind.pragma, 4)
        XCTAssertEqual(segment.counters.statementsByKind.transaction, 4)
        XCTAssertEqual(analysis.truncatedLines, 1, "`ata: sql: BEGIN EXCLUSIVE`")
        XCTAssertEqual(segment.saveSizes.rowsWritten, 1)
    }

    /// raymccrae: `fetch using ... returned 688187 rows` gives the rows; a large unbatched fetch.
    func testRaymccraeLevelsTable() throws {
        let (analysis, segment) = try Self.analyze("03-")
        assertMetrics(segment, [1, 1, 0, 0, 688187])
        let finding = try XCTUnwrap(segment.findings.first { $0.pattern == .largeUnbatchedFetch })
        XCTAssertEqual(finding.entity?.name, "Person")
        XCTAssertEqual(finding.entity?.inferred, false)
        XCTAssertEqual(analysis.truncatedLines, 1, "the values block is cut")
        XCTAssertEqual(segment.fingerprints.first?.connectionTime.totalSeconds ?? 0, 0.4789, accuracy: 1e-9)
    }

    /// NSLog-prefixed count requests with a bind and `count request <NSFetchRequest ...> returned N`.
    func testNSLogPrefixedCountRequests() throws {
        let (_, segment) = try Self.analyze("04-")
        assertMetrics(segment, [2, 2, 0, 0, 2])
        XCTAssertEqual(segment.entities.first { $0.table == "ZWORD" }?.entity.name, "Word")
    }

    /// Store creation: pragmas, CREATE TABLE, an index statement named in an annotation before its own sql line.
    func testStoreCreation() throws {
        let (analysis, segment) = try Self.analyze("05-")
        assertMetrics(segment, [7, 0, 0, 0, 1])
        XCTAssertEqual(segment.counters.statementsByKind.other, 3)
        XCTAssertEqual(segment.counters.storeOpenings, 1)
        XCTAssertEqual(analysis.truncatedLines, 1, "the cut CREATE TABLE Z_PRIMARYKEY")
        XCTAssertTrue(segment.findings.isEmpty)
    }

    /// SQLDebug 4: `details: SQLite: EXPLAIN QUERY PLAN <sql>` is a plan line, not a statement.
    func testQueryPlanHeaderIsNotAStatement() throws {
        let (_, segment) = try Self.analyze("06-")
        XCTAssertEqual(segment.counters.sqlStatements, 0)
        XCTAssertEqual(segment.counters.orphanAnnotations, 1)
    }

    /// objc.io: `sql:` / `annotation:` without the prefix; a statement hand-wrapped over four lines.
    func testObjcioNoPrefixAndWrappedStatement() throws {
        let (analysis, segment) = try Self.analyze("07-")
        assertMetrics(segment, [2, 2, 0, 0, 15])
        XCTAssertEqual(analysis.parser.continuationLines, 3)
        XCTAssertTrue(segment.fingerprints.contains { $0.fingerprint.hasSuffix("<> ?) LIMIT ?") })
    }

    /// SwiftData's store-opening probes: bookkeeping, never a finding, however often they repeat.
    func testStoreOpeningProbesAreNotFindings() throws {
        let text = try Self.sample("08-")
        let analysis = LogAnalyzer.analyze(text: String(repeating: text + "\n", count: 20))
        let segment = try XCTUnwrap(analysis.segments.first)
        XCTAssertEqual(segment.counters.sqlStatements, 160)
        XCTAssertEqual(segment.counters.fetchRequests, 0)
        XCTAssertTrue(segment.findings.isEmpty, "\(segment.findings)")
        XCTAssertTrue(segment.fingerprints.allSatisfy(\.isBookkeeping))
        XCTAssertEqual(segment.counters.storeOpenings, 20)
    }

    /// Xcode 16: `error: X` then `CoreData: error: X`: each error once.
    func testXcode16DuplicatedErrors() throws {
        let (analysis, segment) = try Self.analyze("10-")
        XCTAssertEqual(segment.counters.problems, 4)
        XCTAssertEqual(analysis.duplicateMessages, 3)
    }

    /// `fault: X` / `CoreData: fault: X` / `CoreData: X`: once.
    func testFaultTriplication() throws {
        let (analysis, segment) = try Self.analyze("11-")
        XCTAssertEqual(segment.counters.problems, 4)
        XCTAssertEqual(analysis.duplicateMessages, 6)
        let (pair, pairSegment) = try Self.analyze("12-")
        XCTAssertEqual(pairSegment.counters.problems, 1)
        XCTAssertEqual(pair.duplicateMessages, 1)
    }

    func testMultiLineErrorsAndSyslogPrefixes() throws {
        XCTAssertEqual(try Self.analyze("13-").1.counters.problems, 1)
        let (syslog, segment) = try Self.analyze("14-")
        XCTAssertEqual(syslog.coreDataLines, 1)
        XCTAssertEqual(segment.counters.problems, 0)
    }

    func testSwiftDataAndStoreOpenSamples() throws {
        assertMetrics(try Self.analyze("15-").1, [2, 2, 0, 0, 0])
        let (_, nshipster) = try Self.analyze("16-")
        assertMetrics(nshipster, [3, 1, 0, 0, 21])
        XCTAssertEqual(nshipster.counters.statementsByRole[.bookkeeping], 2)
    }

    /// objc.io book notes: wrapped statements, a fault whose URI is on the next line, a batch, a save.
    func testObjcioBookNotes() throws {
        let (_, segment) = try Self.analyze("17-")
        assertMetrics(segment, [12, 2, 1, 0, 57])
        XCTAssertEqual(segment.counters.saves, 1)
        XCTAssertEqual(segment.counters.statementsByRole[.batch], 1)
    }

    /// Long app output with `💽 CoreData: 100 Complex Objects` banners: not Core Data's.
    func testAppBannersAreNotCoreDataProblems() throws {
        let (analysis, segment) = try Self.analyze("18-")
        XCTAssertEqual(segment.counters.problems, 0)
        XCTAssertEqual(analysis.unknownCoreDataLines, 0)
        XCTAssertEqual(segment.counters.sqlStatements, 0)
    }

    func testDebugLinesErrorsConsoleAndLogShowLayouts() throws {
        XCTAssertEqual(try Self.analyze("19-").1.counters.problems, 3)
        XCTAssertEqual(try Self.analyze("20-").0.coreDataLines, 0)
        XCTAssertEqual(try Self.analyze("21-").1.counters.problems, 2)
    }

    /// A `returned 6 rows with values: (` block whose `sql:` line the excerpt lost: the statement counts once.
    func testStatementOnlyInsideFetchUsingAnnotation() throws {
        let (analysis, segment) = try Self.analyze("22-")
        assertMetrics(segment, [1, 1, 0, 0, 6])
        XCTAssertEqual(analysis.parser.valueBlockLines, 6, "five values and the empty last line")
        XCTAssertEqual(analysis.truncatedLines, 1)
    }

    func testPrefixVariantsAndCommentedOutput() throws {
        let (analysis, segment) = try Self.analyze("23-")
        XCTAssertEqual(segment.counters.problems, 4)
        XCTAssertEqual(analysis.unknownCoreDataLines, 3)
        XCTAssertEqual(try Self.analyze("24-").1.counters.problems, 1)
    }

    /// Every fixture, known or added later: parses, never negative, never more statements than lines.
    func testEveryRealSampleParsesSanely() throws {
        let folder = BenchTrace.fixtures.appendingPathComponent("real")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".log") {
            let analysis = try LogAnalyzer.analyze(path: folder.appendingPathComponent(name).path)
            XCTAssertEqual(analysis.segments.count, 1, name)
            let counters = analysis.totals
            XCTAssertLessThanOrEqual(counters.sqlStatements, analysis.lines, name)
            XCTAssertGreaterThanOrEqual(counters.rowsRead, 0, name)
            XCTAssertGreaterThan(analysis.bytesRead, 0, name)
        }
    }
}
