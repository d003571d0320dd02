import Foundation
import XCTest

@testable import SQLDebugLog

/// Mutated logs (cut at random offsets, bytes flipped, lines spliced, invalid UTF-8, huge lines) never crash,
/// always return, and give sane counts.
final class FuzzTests: XCTestCase {
    /// A small deterministic generator (SplitMix64), so that a failure can be replayed from its seed.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func corpus() throws -> [[UInt8]] {
        var files: [[UInt8]] = []
        for folder in ["real", "bench"] {
            let url = BenchTrace.fixtures.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() {
                files.append(Array(try Data(contentsOf: url.appendingPathComponent(name))))
            }
        }
        return files
    }

    static func mutate(_ input: [UInt8], with random: inout Random, corpus: [[UInt8]]) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            guard !bytes.isEmpty else { break }
            switch Int.random(in: 0..<9, using: &random) {
            case 0: // cut at a random offset
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
            case 1: // flip bytes
                for _ in 0..<Int.random(in: 1...20, using: &random) {
                    let index = Int.random(in: 0..<bytes.count, using: &random)
                    bytes[index] ^= UInt8.random(in: 1...255, using: &random)
                }
            case 2: // splice another file's lines in
                let other = corpus[Int.random(in: 0..<corpus.count, using: &random)]
                let from = Int.random(in: 0..<max(1, other.count), using: &random)
                let piece = other[min(from, other.count)..<min(other.count, from + Int.random(in: 0...2000, using: &random))]
                bytes.insert(contentsOf: piece, at: Int.random(in: 0...bytes.count, using: &random))
            case 3: // delete a range
                let start = Int.random(in: 0..<bytes.count, using: &random)
                bytes.removeSubrange(start..<min(bytes.count, start + Int.random(in: 1...500, using: &random)))
            case 4: // random bytes, invalid UTF-8 and control bytes among them
                let junk = (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                bytes.insert(contentsOf: junk, at: Int.random(in: 0...bytes.count, using: &random))
            case 5: // duplicate lines (a doubled stream, a repeated block)
                let start = Int.random(in: 0..<bytes.count, using: &random)
                let piece = bytes[start..<min(bytes.count, start + Int.random(in: 1...3000, using: &random))]
                bytes.insert(contentsOf: piece, at: start)
            case 6: // drop the newlines of a stretch (glued lines)
                let start = Int.random(in: 0..<bytes.count, using: &random)
                for index in start..<min(bytes.count, start + 400) where bytes[index] == 10 { bytes[index] = 32 }
            case 7: // markers and block openers at random places
                let pieces = [
                    "RelBench: begin x\n", "RelBench: end x\n", "RelBench: end\n", "with values: (\n", "(((((\n", ")))\n",
                    "[spid 0x1, process, begin] A\n", "CoreData: sql: \n", "CoreData: annotation: total fetch execution time: \n",
                ]
                let piece = pieces[Int.random(in: 0..<pieces.count, using: &random)]
                bytes.insert(contentsOf: Array(piece.utf8), at: Int.random(in: 0...bytes.count, using: &random))
            default: // a very long line
                bytes.insert(
                    contentsOf: [UInt8](repeating: UInt8(ascii: "("), count: Int.random(in: 1000...70_000, using: &random)),
                    at: Int.random(in: 0...bytes.count, using: &random))
            }
        }
        return bytes
    }

    func testMutatedLogsNeverCrash() throws {
        let corpus = try Self.corpus()
        XCTAssertGreaterThan(corpus.count, 20)
        let iterations = Int(ProcessInfo.processInfo.environment["SQLDEBUGLOG_FUZZ_ITERATIONS"] ?? "") ?? 1500
        var random = Random(state: 0x5EED)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqldebuglog-fuzz-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for iteration in 0..<iterations {
            let source = corpus[Int.random(in: 0..<corpus.count, using: &random)]
            let bytes = Self.mutate(source, with: &random, corpus: corpus)
            // Through the file reader (small chunks and a small line limit, to exercise cutting), and line by line.
            let file = directory.appendingPathComponent("log\(iteration % 4)")
            try Data(bytes).write(to: file)
            let descriptor = open(file.path, O_RDONLY)
            XCTAssertGreaterThanOrEqual(descriptor, 0)
            var parser = SQLDebugLogParser()
            var analyzer = LogAnalyzer()
            let read = try LineReader(descriptor: descriptor, chunkSize: 97, maxLineLength: 4096).forEachLine { line, cut in
                parser.feed(bytes: line, cut: cut) { analyzer.consume($0) }
            }
            close(descriptor)
            parser.finish { analyzer.consume($0) }
            let analysis = analyzer.finish(parser: parser.statistics, bytesRead: read)
            XCTAssertEqual(read, bytes.count)
            check(analysis, iteration: iteration)
            check(try LogAnalyzer.analyze(path: file.path), iteration: iteration)
        }
    }

    private func check(_ analysis: LogAnalysis, iteration: Int) {
        XCTAssertFalse(analysis.segments.isEmpty, "iteration \(iteration)")
        for segment in analysis.segments {
            let counters = segment.counters
            XCTAssertTrue(counters.sqlStatements >= 0 && counters.rowsRead >= 0 && counters.fetchRequests >= 0, "iteration \(iteration)")
            XCTAssertEqual(counters.statementsByKind.total, counters.sqlStatements, "iteration \(iteration)")
            XCTAssertTrue(counters.fetchExecutionSeconds.isFinite && counters.connectionSeconds.isFinite, "iteration \(iteration)")
            for fingerprint in segment.fingerprints {
                XCTAssertLessThanOrEqual(fingerprint.connectionTime.p50Seconds, fingerprint.connectionTime.p95Seconds + 1e-12)
            }
        }
    }

    /// Pathological single lines fed straight to the parser.
    func testPathologicalLines() {
        let lines: [[UInt8]] = [
            [], [0], [0xFF, 0xFE, 0xFD], Array("CoreData: ".utf8), Array("CoreData: sql:".utf8), Array("CoreData: annotation:".utf8),
            Array("CoreData: details: SQLite bind[".utf8), Array("CoreData: details: SQLite bind[99999999999999999999999] = 1".utf8),
            Array("CoreData: annotation: total fetch execution time: 1e400s for 99999999999999999999999 rows.".utf8),
            Array("CoreData: annotation: to-many relationship fault \"".utf8), Array("CoreData: annotation: Prefetching with key '".utf8),
            Array("CoreData: annotation: fault fulfilled from database for : <x-coredata://".utf8),
            Array("CoreData: annotation: fault fulfilled from database for : <x-coredata:///////p>".utf8),
            Array("CoreData: error: with sql text '".utf8), Array("CoreData: error: with sql text ''".utf8),
            Array("CoreData: annotation: fetch using x with sql text 'SELECT' returned".utf8),
            Array("[spid ]".utf8), Array("[spid 0x1, process, begin]".utf8), Array("RelBench: begin".utf8), Array("\u{1B}[".utf8), [0x1B],
            Array("CoreData: sql: SELECT '".utf8), Array("CoreData: sql: x'".utf8), Array("CoreData: sql: ?".utf8),
            Array("CoreData: sql: SELECT * FROM t0 WHERE t0.Z_PK IN (".utf8), Array("CoreData: sql: UPDATE OR".utf8),
            Array("CoreData: sql: INSERT INTO".utf8), Array("CoreData: sql: SELECT 0, t0. FROM".utf8), Array("CoreData: sql: JOIN".utf8),
        ]
        var parser = SQLDebugLogParser()
        var analyzer = LogAnalyzer()
        for line in lines + lines.reversed() {
            line.withUnsafeBufferPointer { parser.feed(bytes: $0) { analyzer.consume($0) } }
        }
        parser.finish { analyzer.consume($0) }
        let analysis = analyzer.finish(parser: parser.statistics, bytesRead: 0)
        XCTAssertEqual(analysis.lines, lines.count * 2)
        XCTAssertGreaterThan(analysis.garbledLines, 0)
    }
}
