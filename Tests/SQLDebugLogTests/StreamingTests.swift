import Foundation
import XCTest

@testable import SQLDebugLog

/// Reading files and handles in chunks: lines split on bytes, whatever the chunk boundaries.
final class StreamingTests: XCTestCase {
    private func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sqldebuglog-\(UUID().uuidString).log")
        try Data(bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    private func lines(_ bytes: [UInt8], chunk: Int, maxLine: Int = 1 << 20) throws -> [(String, Bool)] {
        let path = try temporaryFile(bytes)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var lines: [(String, Bool)] = []
        let read = try LineReader(descriptor: descriptor, chunkSize: chunk, maxLineLength: maxLine).forEachLine { line, cut in
            lines.append((String(decoding: line, as: UTF8.self), cut))
        }.bytes
        XCTAssertEqual(read, bytes.count)
        // The same file mapped (as files from 16 MiB are) gives the same lines.
        let mappedDescriptor = open(path, O_RDONLY)
        defer { close(mappedDescriptor) }
        var mapped: [(String, Bool)] = []
        let mappedRead = try LineReader(descriptor: mappedDescriptor, chunkSize: chunk, maxLineLength: maxLine, mapThreshold: 1)
            .forEachLine { line, cut in mapped.append((String(decoding: line, as: UTF8.self), cut)) }.bytes
        XCTAssertEqual(mappedRead, bytes.count)
        XCTAssertEqual(mapped.map(\.0), lines.map(\.0), "mapped")
        XCTAssertEqual(mapped.map(\.1), lines.map(\.1), "mapped")
        return lines
    }

    func testLinesAreTheSameForAnyChunkSize() throws {
        let text = "first\r\nsecond\n\nCoreData: sql: SELECT 1\nlast without newline"
        let expected = ["first", "second", "", "CoreData: sql: SELECT 1", "last without newline"]
        for chunk in [64, 65, 100, 1 << 20] {
            XCTAssertEqual(try lines(Array(text.utf8), chunk: chunk).map(\.0), expected, "chunk \(chunk)")
        }
        XCTAssertEqual(try lines([], chunk: 64).count, 0)
        XCTAssertEqual(try lines(Array("\n".utf8), chunk: 64).map(\.0), [""])
    }

    /// A line longer than the limit is cut there and reported; the next line is intact.
    func testOverlongLinesAreCut() throws {
        let long = String(repeating: "x", count: 1000)
        let result = try lines(Array("a\n\(long)\nb\n".utf8), chunk: 64, maxLine: 100)
        XCTAssertEqual(result.map(\.0), ["a", String(repeating: "x", count: 100), "b"])
        XCTAssertEqual(result.map(\.1), [false, true, false])
        let path = try temporaryFile(Array("CoreData: sql: SELECT \(String(repeating: "t0.ZA, ", count: 700_000)) FROM ZA\n".utf8))
        let analysis = try LogAnalyzer.analyze(path: path)
        XCTAssertEqual(analysis.garbledLines, 1, "cut at the 4 MiB line limit")
        XCTAssertEqual(analysis.totals.sqlStatements, 1)
    }

    /// The whole-file path gives what the line-by-line parser gives, and counts the bytes.
    func testFileAndTextAnalysesAgree() throws {
        let text = try String(
            contentsOf: BenchTrace.fixtures.appendingPathComponent("bench/social-feed.objectgraph.L2.txt"), encoding: .utf8)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("counters of") }.map {
            $0.hasPrefix("  ") ? String($0.dropFirst(2)) : String($0)
        }
        .joined(separator: "\n")
        let path = try temporaryFile(Array(body.utf8))
        let fromFile = try LogAnalyzer.analyze(path: path)
        let fromText = LogAnalyzer.analyze(text: body)
        XCTAssertEqual(fromFile.totals, fromText.totals)
        XCTAssertEqual(fromFile.bytesRead, body.utf8.count)
        XCTAssertEqual(fromFile.segments.map(\.fingerprints), fromText.segments.map(\.fingerprints))
    }

    /// Standard input, or any handle: read to its end.
    func testHandle() throws {
        let pipe = Pipe()
        let text =
            "CoreData: sql: SELECT 0, t0.Z_PK FROM ZA t0\nCoreData: annotation: sql connection fetch time: 0.0001s\n"
            + "CoreData: annotation: total fetch execution time: 0.0001s for 7 rows.\n"
        let writer = pipe.fileHandleForWriting
        let data = Data(text.utf8)
        DispatchQueue.global().async {
            writer.write(data)
            try? writer.close()
        }
        let analysis = try LogAnalyzer.analyze(handle: pipe.fileHandleForReading)
        XCTAssertEqual(analysis.totals.rowsRead, 7)
        XCTAssertEqual(analysis.bytesRead, text.utf8.count)
    }

    func testEventsFromAFile() throws {
        let path = try temporaryFile(Array("RelBench: begin a\nCoreData: sql: COMMIT\nRelBench: end a\n".utf8))
        var events: [LogEvent] = []
        let statistics = try SQLDebugLogParser.parse(fileAt: path) { events.append($0) }
        XCTAssertEqual(statistics.lines, 3)
        XCTAssertEqual(
            events,
            [
                .marker(SegmentMarker(kind: .begin, name: "a", line: 1)),
                .statement(LoggedStatement(sql: "COMMIT", line: 2)),
                .marker(SegmentMarker(kind: .end, name: "a", line: 3)),
            ])
    }

    func testMissingFileThrows() {
        XCTAssertThrowsError(try LogAnalyzer.analyze(path: "/nonexistent/sqldebug.log")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/sqldebug.log"))
        }
    }
}
