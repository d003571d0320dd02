import XCTest

@testable import SQLDebugLog

final class SegmentTests: XCTestCase {
    private func fetch(_ table: String, rows: Int) -> String {
        """
        CoreData: sql: SELECT 0, t0.Z_PK FROM \(table) t0
        CoreData: annotation: sql connection fetch time: 0.0001s
        CoreData: annotation: total fetch execution time: 0.0002s for \(rows) rows.
        """
    }

    func testWithoutMarkersTheWholeLogIsOneSegment() {
        let analysis = LogAnalyzer.analyze(text: fetch("ZA", rows: 1) + "\n" + fetch("ZB", rows: 2))
        XCTAssertEqual(analysis.segments.map(\.name), ["log"])
        XCTAssertEqual(analysis.segments.first?.counters.rowsRead, 3)
        XCTAssertEqual(analysis.segments.first?.closed, true)
    }

    /// Markers with any prefix before them; what runs outside them goes to "(outside segments)", listed first.
    func testMarkersAndTheOutsideBucket() throws {
        let text = [
            fetch("ZSETUP", rows: 7),
            "2024-05-01 10:00:00.123 My App[12:34] RelBench: begin walk classes",
            fetch("ZCLASS", rows: 3),
            "RelBench: end walk classes",
            fetch("ZBETWEEN", rows: 2),
            "[App] RelBench: begin save",
            fetch("ZSTUDENT", rows: 4),
        ].joined(separator: "\n")
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.segments.map(\.name), ["(outside segments)", "walk classes", "save"])
        XCTAssertEqual(analysis.segments.map(\.counters.rowsRead), [9, 3, 4])
        XCTAssertEqual(analysis.segments.map(\.closed), [false, true, false])
        XCTAssertEqual(analysis.segments[1].beginLine, 4)
        XCTAssertEqual(analysis.segments[1].endLine, 8)
        XCTAssertEqual(analysis.totals.rowsRead, 16)
    }

    /// A statement still open when a marker comes is counted before the segment changes.
    func testMarkerClosesWhatIsOpen() throws {
        let text = """
            RelBench: begin first
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0
            CoreData: annotation: sql connection fetch time: 0.0001s
            RelBench: end first
            RelBench: begin second
            CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: total fetch execution time: 0.0002s for 5 rows.
            RelBench: end second
            """
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.segments.map(\.name), ["first", "second"])
        XCTAssertEqual(analysis.segments.map(\.counters.sqlStatements), [1, 1])
        XCTAssertEqual(analysis.segments.map(\.counters.fetchRequests), [1, 1])
        XCTAssertEqual(analysis.segments.map(\.counters.rowsRead), [0, 5])
    }

    /// Nested segments: statements count in the innermost; an end without a begin is ignored.
    func testNestedAndUnmatchedMarkers() {
        let text = [
            "RelBench: end never-begun", "RelBench: begin outer", fetch("ZA", rows: 1), "RelBench: begin inner", fetch("ZB", rows: 2),
            "RelBench: end inner", fetch("ZC", rows: 4), "RelBench: end outer",
        ].joined(separator: "\n")
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.segments.map(\.name), ["outer", "inner"])
        XCTAssertEqual(analysis.segments.map(\.counters.rowsRead), [5, 2])
    }

    /// os_signpost intervals from `log show --signpost` (default and compact styles); Apple's own are ignored.
    func testSignpostSegments() {
        let text = [
            "2000-12-31 16:20:34.567898-0800 0x14d      Signpost    0x0        1036   0    [spid 0x1b0, process, begin] MyApp: (MyApp) [com.example.app:perf] Load Feed: page=1",
            fetch("ZPOST", rows: 20),
            "2000-12-31 16:20:34.600000-0800 0x14d      Signpost    0x0        1036   0    [spid 0x1b0, process,   end] MyApp: (MyApp) [com.example.app:perf] Load Feed",
            "2024-05-01 10:00:00.000 Sp MyApp[1036:14d] [com.example.app:perf] [spid 0x2c0, process, begin] Save",
            "2024-05-01 10:00:00.000 Sp MyApp[1036:14d] [com.apple.coredata:signposts] [spid 0x2c1, process, begin] Fetch",
            fetch("ZPOST", rows: 1),
            "2024-05-01 10:00:00.010 Sp MyApp[1036:14d] [com.example.app:perf] [spid 0x2c0, process, end] Save",
        ].joined(separator: "\n")
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.segments.map(\.name), ["Load Feed", "Save"])
        XCTAssertEqual(analysis.segments.map(\.counters.rowsRead), [20, 1])
        XCTAssertEqual(analysis.segments.map(\.closed), [true, true])
    }

    func testRepeatedSegmentNamesStaySeparate() {
        let text = (1...3).map { "RelBench: begin walk\n" + fetch("ZA", rows: $0) + "\nRelBench: end walk" }.joined(separator: "\n")
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertEqual(analysis.segments.map(\.name), ["walk", "walk", "walk"])
        XCTAssertEqual(analysis.segments.map(\.counters.rowsRead), [1, 2, 3])
        XCTAssertEqual(analysis.segment(named: "walk")?.counters.rowsRead, 1)
    }
}
