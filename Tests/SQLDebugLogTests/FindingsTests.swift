import XCTest

@testable import SQLDebugLog

final class FindingsTests: XCTestCase {
    private func benchPhase(_ file: String, _ phase: String) throws -> String {
        let text = try String(contentsOf: BenchTrace.fixtures.appendingPathComponent("bench/\(file)"), encoding: .utf8)
        let found = try XCTUnwrap(BenchTrace.phases(in: text).first { $0.name == phase })
        return found.lines.joined(separator: "\n")
    }

    /// ObjectGraph's chat list: a to-many fault per chat, with the relationship named by the annotations.
    func testToManyFaultPerObject() throws {
        let segment = try XCTUnwrap(LogAnalyzer.analyze(text: try benchPhase("chat-list.objectgraph.L1.txt", "chat-list")).segments.first)
        let finding = try XCTUnwrap(segment.findings.first { $0.pattern == .toManyFaultPerObject })
        XCTAssertEqual(finding.repeats, 20)
        XCTAssertEqual(finding.relationship, ResolvedName(name: "Chat.members", inferred: false))
        XCTAssertEqual(finding.entity?.name, "Chat")
        XCTAssertEqual(finding.statementsSaved, 19)
        XCTAssertTrue(finding.fix.contains("relationshipKeyPathsForPrefetching [\"members\"] to the fetch of Chat"), finding.fix)
        XCTAssertTrue(finding.fix.contains("membersCount = members.@count"), finding.fix)
        XCTAssertEqual(finding.fingerprint, "SELECT ?, t0.Z_PK FROM ZMEMBER t0 WHERE t0.ZCHAT = ?")
    }

    /// `student.address.name` for every student: object faults one by one, reached through Student.address.
    func testFaultChain() throws {
        let segment = try XCTUnwrap(LogAnalyzer.analyze(text: try benchPhase("faulting.one-to-one.L2.txt", "every")).segments.first)
        let finding = try XCTUnwrap(segment.findings.first { $0.pattern == .faultChain })
        XCTAssertEqual(finding.repeats, 30)
        XCTAssertEqual(finding.entity, ResolvedName(name: "Address", inferred: false))
        XCTAssertTrue(finding.fix.contains("relationshipKeyPathsForPrefetching [\"address\"] to the fetch of STUDENT"), finding.fix)
        XCTAssertEqual(finding.statementsSaved, 29)
    }

    private func repeatedFetch(times: Int, sameValue: Bool, seconds: Double = 0.001) -> String {
        (0..<times).map { index in
            """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZCLASSID FROM ZSTUDENT t0 WHERE  t0.ZCLASSID = ?
            CoreData: details: SQLite bind[0] = "\(sameValue ? "A" : "class-\(index)")"
            CoreData: annotation: sql connection fetch time: \(String(format: "%.4f", seconds))s
            CoreData: annotation: total fetch execution time: \(String(format: "%.4f", seconds * 2))s for 3 rows.
            """
        }.joined(separator: "\n")
    }

    /// One fetch per owner with a different value each time: N+1, saving measured from the log's own times.
    func testNPlusOneFetch() throws {
        let segment = try XCTUnwrap(LogAnalyzer.analyze(text: repeatedFetch(times: 12, sameValue: false)).segments.first)
        let finding = try XCTUnwrap(segment.findings.first { $0.pattern == .nPlusOne })
        XCTAssertEqual(finding.repeats, 12)
        XCTAssertEqual(finding.statementsSaved, 11)
        XCTAssertEqual(finding.measuredMilliseconds, 24, accuracy: 1e-9)
        XCTAssertEqual(finding.replacementMilliseconds ?? 0, 2, accuracy: 1e-9)
        XCTAssertEqual(finding.millisecondsSaved ?? 0, 22, accuracy: 1e-9)
        XCTAssertEqual(finding.relationship, ResolvedName(name: "STUDENT.CLASSID", inferred: true))
        XCTAssertTrue(finding.summary.contains("12 different values"), finding.summary)
        // Ten times is not more than the threshold.
        XCTAssertTrue(LogAnalyzer.analyze(text: repeatedFetch(times: 10, sameValue: false)).findings.isEmpty)
    }

    func testRepeatedIdenticalQuery() throws {
        let findings = LogAnalyzer.analyze(text: repeatedFetch(times: 15, sameValue: true)).findings
        XCTAssertEqual(findings.map(\.pattern), [.repeatedQuery])
    }

    func testLargeUnbatchedFetch() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZSTUDENT t0 ORDER BY t0.ZNAME
            CoreData: annotation: sql connection fetch time: 0.0400s
            CoreData: annotation: total fetch execution time: 0.1000s for 5000 rows.
            """
        let mapping = NameMapping(
            entities: ["ZSTUDENT": "Student"], properties: ["ZSTUDENT": ["ZNAME": "name"]],
            indexedColumns: ["ZSTUDENT": ["ZNAME"]])
        let findings = LogAnalyzer.analyze(text: text, mapping: mapping).findings
        XCTAssertEqual(findings.map(\.pattern), [.largeUnbatchedFetch])
        let finding = try XCTUnwrap(findings.first)
        XCTAssertTrue(finding.fix.contains("fetchBatchSize = 20 on this fetch of Student"), finding.fix)
        XCTAssertEqual(finding.measuredMilliseconds, 100, accuracy: 1e-9)
        XCTAssertEqual(finding.millisecondsSaved ?? 0, 100 - 100 * 20.0 / 5000, accuracy: 1e-9)
    }

    /// Twelve saves of one row each.
    func testSaveInLoop() throws {
        let save = """
            CoreData: sql: BEGIN EXCLUSIVE
            CoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?
            CoreData: annotation: sql execution time: 0.0001s
            CoreData: sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?
            CoreData: sql: COMMIT
            CoreData: sql: BEGIN EXCLUSIVE
            CoreData: sql: INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)
            CoreData: sql: COMMIT
            """
        let segment = try XCTUnwrap(LogAnalyzer.analyze(text: Array(repeating: save, count: 12).joined(separator: "\n")).segments.first)
        XCTAssertEqual(segment.counters.saves, 12)
        XCTAssertEqual(segment.saveSizes.smallSaves, 12)
        XCTAssertEqual(segment.saveSizes.smallSaveOverheadStatements, 12 * 6)
        let finding = try XCTUnwrap(segment.findings.first { $0.pattern == .saveInLoop })
        XCTAssertEqual(finding.repeats, 12)
        XCTAssertEqual(finding.statementsSaved, 66)
        XCTAssertEqual(finding.entity?.name, "ITEM")
        XCTAssertEqual(finding.millisecondsSaved ?? 0, 1.1, accuracy: 1e-9)
        XCTAssertTrue(finding.fix.contains("NSBatchInsertRequest"))
    }

    /// With the caller's index information: filters and sorts on unindexed columns, in the model's names.
    func testUnindexedFilterAndSortFromMapping() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZSTUDENT t0 WHERE  t0.ZNAME = ? AND t0.ZCLASS = ? ORDER BY t0.ZBIRTHDAY
            CoreData: annotation: sql connection fetch time: 0.0100s
            CoreData: annotation: total fetch execution time: 0.0200s for 2 rows.
            """
        let mapping = NameMapping(
            entities: ["ZSTUDENT": "Student"],
            properties: ["ZSTUDENT": ["ZNAME": "name", "ZCLASS": "class", "ZBIRTHDAY": "birthday"]],
            indexedColumns: ["ZSTUDENT": ["ZCLASS"]])
        let analysis = LogAnalyzer.analyze(text: text, mapping: mapping)
        XCTAssertEqual(analysis.findings.map(\.pattern), [.unindexedFilter, .unindexedSort])
        XCTAssertEqual(analysis.findings.map(\.relationship?.name), ["Student.name", "Student.birthday"])
        XCTAssertTrue(analysis.findings[0].fix.contains("fetch index on Student.name"))
        XCTAssertNil(analysis.findings[0].millisecondsSaved)
        XCTAssertFalse(analysis.namesInferred)
        // Without index information (and no query plan), nothing is said about indexes.
        XCTAssertTrue(LogAnalyzer.analyze(text: text).findings.isEmpty)
    }

    /// Store-opening probes and pragmas repeat without being a finding.
    func testBookkeepingIsNeverAFinding() {
        let text = Array(
            repeating: """
                CoreData: sql: pragma page_count
                CoreData: annotation: sql execution time: 0.0001s
                CoreData: sql: SELECT TBL_NAME FROM SQLITE_MASTER WHERE TBL_NAME = 'Z_METADATA'
                CoreData: sql: SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA
                CoreData: sql: pragma journal_mode=wal
                """, count: 50
        ).joined(separator: "\n")
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertTrue(analysis.findings.isEmpty)
        XCTAssertEqual(analysis.totals.sqlStatements, 200)
        XCTAssertEqual(analysis.totals.fetchRequests, 0)
    }

    /// Lower thresholds through the options.
    func testThresholdOption() {
        let options = AnalysisOptions(repeatThreshold: 2)
        XCTAssertEqual(
            LogAnalyzer.analyze(text: repeatedFetch(times: 3, sameValue: false), options: options).findings.map(\.pattern), [.nPlusOne])
    }

    /// Members a to-many fault listed, then faulted one by one: prefetching the to-many brings their rows.
    func testFaultChainOfToManyMembers() throws {
        let segment = try XCTUnwrap(LogAnalyzer.analyze(text: try benchPhase("social-feed.objectgraph.L2.txt", "feed")).segments.first)
        let tags = try XCTUnwrap(segment.findings.first { $0.pattern == .faultChain && $0.entity?.name == "Tag" })
        XCTAssertEqual(tags.relationship, ResolvedName(name: "Post.tags", inferred: false))
        XCTAssertTrue(tags.fix.hasPrefix("add relationshipKeyPathsForPrefetching [\"tags\"] to the fetch of Post"), tags.fix)
        // A reflexive many-to-many (User.following / User.followers in one join table) is named by the column read.
        let follow = try XCTUnwrap(
            LogAnalyzer.analyze(text: try benchPhase("social-feed.objectgraph.L2.txt", "follow-unfollow")).segments.first)
        XCTAssertEqual(follow.findings.first { $0.pattern == .toManyFaultPerObject }?.relationship?.name, "User.following")
    }
}
