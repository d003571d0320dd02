import XCTest

@testable import SQLDebugLog

/// Saved `bench explain --exact` traces (Fixtures/bench): the parser gives the counters bench printed, without
/// needing the reference binary.
final class FixtureTraceTests: XCTestCase {
    func testSavedBenchTracesMatchTheirCounters() throws {
        let folder = BenchTrace.fixtures.appendingPathComponent("bench")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let phases = BenchTrace.phases(in: text)
            XCTAssertFalse(phases.isEmpty, file)
            let scenario = String(file.prefix { $0 != "." })
            for phase in phases {
                let analysis = LogAnalyzer.analyze(text: phase.lines.joined(separator: "\n"))
                let got = BenchTrace.metrics(analysis.totals)
                for metric in BenchTrace.metricNames where RoundTripTests.knownGaps["\(scenario)/\(phase.name)/\(metric)"] == nil {
                    XCTAssertEqual(got[metric], phase.counters[metric], "\(file) phase \(phase.name) \(metric)")
                }
                XCTAssertEqual(analysis.garbledLines + analysis.truncatedLines, 0, file)
            }
        }
    }

    /// The batched fetch: the ID fetch's 45 rows, then batches of 20, 20 and the 5 left (no row counts logged).
    func testBatchesWithoutRowCountsTakeWhatIsLeftOfTheirIDFetch() throws {
        let text = try String(
            contentsOf: BenchTrace.fixtures.appendingPathComponent("bench/batch-size.many-to-one.L2.batch-20_access-all.txt"),
            encoding: .utf8)
        let phase = try XCTUnwrap(BenchTrace.phases(in: text).first)
        let analysis = LogAnalyzer.analyze(text: phase.lines.joined(separator: "\n"))
        let segment = try XCTUnwrap(analysis.segments.first)
        XCTAssertEqual(segment.counters.rowsRead, 90)
        XCTAssertEqual(segment.counters.fetchRequests, 1)
        XCTAssertEqual(segment.counters.statementsByRole[.batch], 3)
        XCTAssertEqual(segment.counters.statementsWithUnknownRows, 0)
    }

    /// Nested prefetch (class.students.address): one fetch request, two prefetches nested in it.
    func testNestedPrefetchesBelongToTheirFetch() throws {
        let text = try String(
            contentsOf: BenchTrace.fixtures.appendingPathComponent("bench/prefetch.many-to-one.L2.keyPath-nested_prefetch-on.txt"),
            encoding: .utf8)
        let phase = try XCTUnwrap(BenchTrace.phases(in: text).first)
        let segment = try XCTUnwrap(LogAnalyzer.analyze(text: phase.lines.joined(separator: "\n")).segments.first)
        XCTAssertEqual(segment.counters.fetchRequests, 1)
        XCTAssertEqual(segment.counters.statementsByRole[.prefetch], 2)
        XCTAssertEqual(segment.counters.rowsRead, 61)
    }
}
