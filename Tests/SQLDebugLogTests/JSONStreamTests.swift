import Foundation
import XCTest

@testable import SQLDebugLog

/// `bench log --json` is streamed (`LogDocument.write`): the bytes must be the encoder's, on every fixture.
final class JSONStreamTests: XCTestCase {
    private func streamed(_ analysis: LogAnalysis, log: String = "screen.log") throws -> (chunks: Int, bytes: [UInt8]) {
        var bytes: [UInt8] = []
        var chunks = 0
        try LogDocument.write(analysis, log: log, scenario: "screen", size: 7) { chunk in
            bytes.append(contentsOf: chunk)
            chunks += 1
        }
        return (chunks, bytes)
    }

    private func encoded(_ analysis: LogAnalysis, log: String = "screen.log") throws -> [UInt8] {
        Array(try LogDocument(analysis, log: log, scenario: "screen", size: 7).jsonData())
    }

    private func assertSame(_ analysis: LogAnalysis, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = try encoded(analysis, log: name)
        let actual = try streamed(analysis, log: name).bytes
        guard actual != expected else { return }
        let common = zip(actual, expected).prefix { $0 == $1 }.count
        let around = { (bytes: [UInt8]) in String(decoding: bytes[max(0, common - 80)..<min(bytes.count, common + 80)], as: UTF8.self) }
        XCTFail(
            "\(name): streamed JSON differs at byte \(common):\n\(around(actual))\n--- encoder:\n\(around(expected))", file: file,
            line: line)
    }

    /// Every log fixture of both test targets, with and without a threshold that makes findings of everything.
    func testStreamedDocumentIsTheEncodersOnEveryFixture() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var paths: [String] = []
        for folder in ["SQLDebugLogTests/Fixtures", "BenchKitTests/Fixtures"] {
            let root = tests.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".log") || relative.hasSuffix(".txt") {
                paths.append(root.appendingPathComponent(relative).path)
            }
        }
        XCTAssertGreaterThan(paths.count, 50, "fixtures found")
        for path in paths.sorted() {
            for threshold in [10, 1] {
                let analysis = try LogAnalyzer.analyze(path: path, options: AnalysisOptions(repeatThreshold: threshold))
                try assertSame(analysis, path)
            }
        }
    }

    /// Names that need escapes, an empty log, unclosed and repeated segments, findings with savings.
    func testStreamedDocumentIsTheEncodersOnEdgeCases() throws {
        var faults = "RelBench: begin feed \"quoted\" \\ / tab\there é ✓\n"
        for key in 1...12 {
            faults += """
                CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZAUTHOR t0 WHERE  t0.Z_PK = ?  LIMIT 1
                CoreData: details: SQLite bind[0] = (int64)\(key)
                CoreData: annotation: sql connection fetch time: 0.0001s
                CoreData: annotation: total fetch execution time: 0.00\(key)s for 1 rows.
                CoreData: annotation: fault fulfilled from database for : 0x1 <x-coredata://S/Author/p\(key)>

                """
        }
        faults += "RelBench: end feed \"quoted\" \\ / tab\there é ✓\nRelBench: begin never closed\n"
        faults +=
            "CoreData: sql: BEGIN EXCLUSIVE\nCoreData: sql: INSERT INTO ZTAG(Z_PK, Z_ENT, Z_OPT) VALUES(?, ?, ?)\nCoreData: sql: COMMIT\n"
        for (name, text) in [("empty", ""), ("faults", faults), ("twice", faults + faults), ("control\u{1}\u{1f}", faults)] {
            try assertSame(LogAnalyzer.analyze(text: text), name)
        }
    }

    /// The document reaches the sink in pieces of about `chunkSize`, not at once.
    func testBigDocumentsAreWrittenInPieces() throws {
        var text = ""
        for table in 0..<3000 {
            text += "CoreData: sql: SELECT 0, t0.Z_PK FROM ZTABLE\(table) t0 WHERE t0.ZNAME = ?\n"
            text += "CoreData: annotation: total fetch execution time: 0.0010s for 3 rows.\n"
        }
        let analysis = LogAnalyzer.analyze(text: text)
        let (chunks, bytes) = try streamed(analysis)
        XCTAssertTrue(bytes == (try encoded(analysis)), "streamed JSON differs from the encoder's")
        XCTAssertGreaterThan(chunks, bytes.count / PrettyJSONWriter.chunkSize - 1)
        XCTAssertGreaterThan(chunks, 10)
    }

    /// A time summed past the largest Double: thrown as the encoder throws it, before anything is written.
    func testAnInfiniteTimeIsRefusedBeforeAnythingIsWritten() throws {
        var text = ""
        for _ in 0..<3 {
            text += "CoreData: sql: SELECT 0, t0.Z_PK FROM ZA t0\n"
            text += "CoreData: annotation: total fetch execution time: 1.7e308s for 3 rows.\n"
        }
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertThrowsError(try encoded(analysis))
        var written = 0
        XCTAssertThrowsError(try LogDocument.write(analysis, log: "a", scenario: "a", size: 0) { written += $0.count })
        XCTAssertEqual(written, 0)
    }

    func testNumbersAreWrittenAsTheEncoderWritesThem() throws {
        struct Box: Encodable {
            var ints: [Int]
            var doubles: [Double]
        }
        let ints = [0, 1, -1, 9, 10, 99, 100, 123_456_789, Int.max, Int.min, -42]
        let doubles: [Double] = [
            0, -0.0, 1, 0.1, 1.5, 1e-5, 1.0e-7, 123_456.789, 1e16, 1e15, 2.5e20, 0.30000000000000004, 1e300, -3.25,
            Double.leastNonzeroMagnitude,
        ]
        var bytes: [UInt8] = []
        var writer = PrettyJSONWriter { bytes.append(contentsOf: $0) }
        try writer.beginObject()
        writer.key("doubles")
        try writer.beginArray()
        for value in doubles {
            writer.element()
            writer.double(value)
        }
        try writer.endArray()
        writer.key("ints")
        try writer.beginArray()
        for value in ints {
            writer.element()
            writer.int(value)
        }
        try writer.endArray()
        try writer.endObject()
        try writer.finish()
        let encoder = JSONEncoder()
        encoder.outputFormatting = PrettyJSONWriter.formatting
        XCTAssertEqual(
            String(decoding: bytes, as: UTF8.self), String(decoding: try encoder.encode(Box(ints: ints, doubles: doubles)), as: UTF8.self))
    }
}
