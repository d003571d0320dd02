import Foundation
import ObjectGraph
import SQLDebugLog
import Testing

@testable import BenchKit

/// The parsers that read user text, fed inputs mutated from valid ones: every input is parsed or refused with an
/// error, none traps (a trap ends the test process) and none takes more than a second.
///
/// `swift test` runs 2,000 inputs per parser; `scripts/fuzz.sh` runs 100,000 (RELBENCH_FUZZ_COUNT).
/// RELBENCH_FUZZ_LAST=FILE keeps the input being parsed in FILE.<parser>, so that a crash leaves it behind.
@Suite struct FuzzTests {
    static let count = ProcessInfo.processInfo.environment["RELBENCH_FUZZ_COUNT"].flatMap(Int.init) ?? 2_000

    /// Mutates seeds as byte strings: cuts, repeats, flips, splices of tokens that mean something to the parsers.
    struct Mutator {
        var state: UInt64
        let tokens: [[UInt8]]

        init(seed: UInt64, tokens: [String]) {
            state = seed
            self.tokens = tokens.map { Array($0.utf8) }
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }

        mutating func mutate(_ seed: [UInt8]) -> [UInt8] {
            var bytes = seed
            for _ in 0...below(4) {
                let at = below(bytes.count + 1)
                switch below(7) {
                case 0 where !bytes.isEmpty: // cut a range
                    let end = min(bytes.count, at + 1 + below(16))
                    if at < end { bytes.removeSubrange(at..<end) }
                case 1: // a token where it may or may not belong
                    bytes.insert(contentsOf: tokens[below(tokens.count)], at: at)
                case 2 where !bytes.isEmpty: // one byte changed, often to a structural one
                    let index = min(at, bytes.count - 1)
                    let structural = Array("{}[]<>\"',;:=()0-9.e+-\n\\ ".utf8)
                    bytes[index] = below(2) == 0 ? UInt8(truncatingIfNeeded: next()) : structural[below(structural.count)]
                case 3 where !bytes.isEmpty: // a range repeated
                    let end = min(bytes.count, at + 1 + below(64))
                    if at < end { bytes.insert(contentsOf: Array(bytes[at..<end]), at: end) }
                case 4: // truncated
                    bytes = Array(bytes.prefix(at))
                case 5: // a number in a number's place
                    let numbers = ["0", "-1", "1e300", "-1e308", "9223372036854775808", "NaN", "1.5", "4294967296", "99999999999999999999"]
                    bytes.insert(contentsOf: Array(numbers[below(numbers.count)].utf8), at: at)
                default: // nesting
                    let open = ["[", "{\"a\":", "(", "<x>", "NOT "][below(5)]
                    bytes.insert(contentsOf: Array(String(repeating: open, count: 1 + below(200)).utf8), at: at)
                }
            }
            return bytes
        }
    }

    /// Runs `parse` over `count` inputs mutated from `seeds`; returns how many were accepted.
    static func fuzz(_ name: String, seeds: [[UInt8]], tokens: [String], seed: UInt64, parse: ([UInt8]) -> Bool) -> Int {
        var mutator = Mutator(seed: seed, tokens: tokens)
        var accepted = 0
        var slowest = 0.0
        var slowestInput: [UInt8] = []
        // RELBENCH_FUZZ_LAST=FILE keeps each input in FILE before it is parsed: a crash leaves its input behind.
        let last = ProcessInfo.processInfo.environment["RELBENCH_FUZZ_LAST"].map {
            "\($0).\(name.replacingOccurrences(of: " ", with: "-"))"
        }
        for index in 0..<count {
            let input = index < seeds.count ? seeds[index] : mutator.mutate(seeds[mutator.below(seeds.count)])
            if let last { FileManager.default.createFile(atPath: last, contents: Data(input)) }
            let started = DispatchTime.now().uptimeNanoseconds
            if parse(input) { accepted += 1 }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            if seconds > slowest { (slowest, slowestInput) = (seconds, input) }
        }
        #expect(slowest < 1, "\(name): an input took \(slowest) s: \(String(decoding: slowestInput.prefix(200), as: UTF8.self))")
        return accepted
    }

    static func files(under folder: String, named predicate: (String) -> Bool) -> [[UInt8]] {
        let root = CommandLineTests.root.appendingPathComponent(folder)
        let paths = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).filter(predicate).sorted()
        return paths.compactMap { FileManager.default.contents(atPath: root.appendingPathComponent($0).path).map { Array($0) } }
    }

    @Test func scenarioFiles() {
        let seeds = Self.files(under: "Scenarios", named: { $0.hasSuffix(".json") })
        #expect(seeds.count >= 10)
        let file = CommandLineTests.root.appendingPathComponent("Scenarios/fuzzed.json").path
        let accepted = Self.fuzz(
            "scenario files", seeds: seeds,
            tokens: [
                "\"sizes\":", "\"phases\":", "\"steps\":", "\"predicate\":", "\"fetch\":", "\"prefetch\":", "\"variants\":", "\"data\":",
                "\"size\"", "\"2*size\"", "\"zipf(1.2)\"", "null", "true", "[]", "{}", "\"\"", "\"$size\"", "\"@count\"",
            ], seed: 1
        ) { input in
            (try? ScenarioFile.parse(Data(input), file: file)) != nil
        }
        #expect(accepted >= seeds.count)
    }

    @Test func xcodeModels() {
        let seeds = Self.files(under: "Scenarios/models", named: { $0.hasSuffix("/contents") })
        #expect(seeds.count >= 5)
        let accepted = Self.fuzz(
            "Xcode models", seeds: seeds,
            tokens: [
                "<entity name=\"E\">", "</entity>", "<attribute name=\"a\" attributeType=\"String\"/>", " parentEntity=\"E\"",
                "<relationship name=\"r\" destinationEntity=\"E\" inverseName=\"r\" toMany=\"YES\"/>", " ordered=\"YES\"",
                " derived=\"YES\" derivationExpression=\"r.@count\"", " attributeType=\"Integer 16\"", " minValueString=\"-1e300\"",
                "<uniquenessConstraints><uniquenessConstraint><constraint value=\"a\"/></uniquenessConstraint></uniquenessConstraints>",
                "<fetchIndex name=\"i\"><fetchIndexElement property=\"a\" type=\"Binary\" order=\"ascending\"/></fetchIndex>",
                "<!ENTITY x \"y\">", "&amp;", "&x;", "<![CDATA[", "\"", "'",
            ], seed: 2
        ) { input in
            guard let model = try? XcodeModel.parse(Data(input)) else { return false }
            return (try? ObjectModel(model.entities)) != nil
        }
        #expect(accepted >= seeds.count)
    }

    @Test func predicateFormats() {
        let seeds = [
            "title == 'a'", "likes.@count >= 5 AND title CONTAINS[cd] 'swift'", "author.name BEGINSWITH 'A' OR NOT (views < 10)",
            "ANY tags.name IN {'x', 'y'}", "score BETWEEN {1.5, 2.5}", "createdAt > CAST(0, 'NSDate')", "name LIKE[c] '*a?'",
            "code == nil", "published == YES && views != 3", "SELF == $object", "title MATCHES '^[a-z]+$'", "ALL likes.post != nil",
            "posts.@max.views > 10", "%K == %@", "title ==[n] \"b\" || (age >= 3 AND age <= 40)", "TRUEPREDICATE", "FALSEPREDICATE",
        ].map { Array($0.utf8) }
        let accepted = Self.fuzz(
            "predicate formats", seeds: seeds,
            tokens: [
                " AND ", " OR ", " NOT ", "(", ")", "{", "}", "'", "\"", "==", ">=", "<", " IN ", " BETWEEN ", "@count", "@sum.", "ANY ",
                "%@", "%K", "%d", "$v", "[cd]", "SUBQUERY(x, $x, $x == 1).@count", "FUNCTION(", ".", ",", "nil", "\\",
            ], seed: 3
        ) { input in
            let format = String(decoding: input, as: UTF8.self)
            return (try? FetchPredicate(format: format)) != nil || (try? FetchPredicate(format: format, "title", 5)) != nil
        }
        #expect(accepted >= 10)
    }

    @Test func csvFilesReadBack() throws {
        var samples: [SampleRecord] = []
        for repetition in 1...3 {
            for metric in [Metric.wallMs, .sqlStatements, .lossRate] {
                let value: Double? = metric == .lossRate ? nil : Double(repetition) * (metric == .wallMs ? 1.5 : 2)
                samples.append(
                    SampleRecord(
                        key: .of("query", .objectGraph, "prefetch=on;batch=20", size: 1000, phase: "walk", metric: metric),
                        repetition: repetition, value: value))
            }
        }
        let samplesText = try SamplesFile.encode(samples)
        let summaryText = try SummaryFile.encode(SummaryFile.summarize(samples))
        let seeds = [Array(samplesText.utf8), Array(summaryText.utf8)]
        let accepted = Self.fuzz(
            "CSV files", seeds: seeds, tokens: [",", "\"", "\"\"", "\n", "\r\n", "NaN", "inf", "-0", "1e999", ",,,,", "\u{FEFF}"],
            seed: 4
        ) { input in
            let text = String(decoding: input, as: UTF8.self)
            let asSamples = (try? SamplesFile.decode(text, file: "samples.csv")) != nil
            let asSummary = (try? SummaryFile.decode(text, file: "summary.csv")) != nil
            return asSamples || asSummary
        }
        #expect(accepted >= seeds.count)
    }

    /// SQLDebug logs: the published excerpts and bench's own traces, mutated; what `bench log` reads them with (the
    /// analysis, the cost fit, the diff's statement sequence). Accepted: a log in which a Core Data line was found.
    @Test func sqlDebugLogs() {
        let seeds = Self.files(under: "Tests/SQLDebugLogTests/Fixtures", named: { $0.hasSuffix(".log") || $0.hasSuffix(".txt") })
        #expect(seeds.count >= 30)
        let accepted = Self.fuzz(
            "SQLDebug logs", seeds: seeds,
            tokens: [
                "CoreData: sql: ", "CoreData: annotation: ", "CoreData: details: SQLite bind[0] = ", "sql: ", "annotation: ",
                "total fetch execution time: 0.0001s for 3 rows.", "sql connection fetch time: ", "fault fulfilled from database for : ",
                "to-many relationship fault \"r\" for objectID 0x1 <x-coredata://U/E/p1> fulfilled from database.  Got 2 rows",
                " returned 6 rows with values: (", "Prefetching with key 'k'.  Got 1 rows.", "RelBench: begin ", "RelBench: end ",
                "SELECT 0, t0.Z_PK FROM ZX t0 WHERE  t0.Z_PK IN (", "(SELECT * FROM _Z_intarray0)", "BEGIN EXCLUSIVE", "COMMIT",
                "[com.apple.coredata:sql] ", "error: ", "fault: ", "\u{1B}[31m", "\t", "    ", "'", "\"",
            ], seed: 5
        ) { input in
            var fit = CostFit()
            let text = String(decoding: input, as: UTF8.self)
            let analysis = LogAnalyzer.analyze(text: text) { fit.add($0) }
            _ = fit.costs(source: "fuzz")
            _ = LogDiff.statements(in: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
            return analysis.coreDataLines > 0
        }
        #expect(accepted >= seeds.count)
    }
}
