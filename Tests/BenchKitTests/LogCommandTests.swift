import Foundation
import Testing

@testable import BenchKit

/// `bench log` through the built binary: a device's SQLDebug log in its wild forms, its counters as JSON and as a run
/// folder CI gates, the diff against ObjectGraph's trace, the device's costs, and bad input.
@Suite(.serialized) struct LogCommandTests {
    static let fixtures = CommandLineTests.root.appendingPathComponent("Tests/SQLDebugLogTests/Fixtures")

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-log-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Writes `text` to a file in the test's folder and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// The five metrics of the JSON's totals (or of one segment), in the order runs write them; rows_read nil where the
    /// log reports no rows ("not reported").
    static func metrics(_ json: String, segment: String? = nil) throws -> [Int?] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 2)
        var counters = object["totals"] as? [String: Any]
        if let segment {
            let segments = try #require(object["segments"] as? [[String: Any]])
            counters = segments.first { $0["name"] as? String == segment }?["counters"] as? [String: Any]
        }
        let values = try #require(counters?["metrics"] as? [String: Any])
        return ["sql_statements", "fetch_requests", "object_faults", "relationship_faults", "rows_read"].map { values[$0] as? Int }
    }

    /// A screen's fetch with three author faults (NSLog prefixes), a save (`log show` columns, a console's doubled
    /// error), a to-many fault with no `CoreData:` prefix; app output between; each between RelBench markers.
    static let wildLog = """
        App launched
        2024-05-01 10:00:00.000 My App[3913:c07] RelBench: begin feed
        2024-05-01 10:00:00.001 My App[3913:c07] CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTITLE, t0.ZAUTHOR FROM ZPOST t0 ORDER BY t0.ZDATE DESC LIMIT 20
        2024-05-01 10:00:00.002 My App[3913:c07] CoreData: annotation: sql connection fetch time: 0.0004s
        2024-05-01 10:00:00.002 My App[3913:c07] CoreData: annotation: total fetch execution time: 0.0006s for 20 rows.
        \((1...3).map(Self.authorFault).joined(separator: "\n"))
        Loaded 20 posts
        2024-05-01 10:00:00.009 My App[3913:c07] RelBench: end feed
        RelBench: begin save
        2024-05-01 10:00:01.000000-0700 0x724d65   Default     0x0                  18248  0    My App: (CoreData) [com.apple.coredata:sql] CoreData: sql: BEGIN EXCLUSIVE
        2024-05-01 10:00:01.000100-0700 0x724d65   Default     0x0                  18248  0    My App: (CoreData) [com.apple.coredata:sql] CoreData: sql: SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?
        2024-05-01 10:00:01.000200-0700 0x724d65   Default     0x0                  18248  0    My App: (CoreData) [com.apple.coredata:sql] CoreData: sql: UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?
        2024-05-01 10:00:01.000300-0700 0x724d65   Default     0x0                  18248  0    My App: (CoreData) [com.apple.coredata:sql] CoreData: sql: COMMIT
        CoreData: sql: BEGIN EXCLUSIVE
        CoreData: sql: INSERT INTO ZPOST(Z_PK, Z_ENT, Z_OPT, ZAUTHOR, ZDATE, ZTITLE)
            VALUES(?, ?, ?, ?, ?, ?)
        CoreData: details: SQLite bind[0] = (int64)21
        CoreData: sql: COMMIT
        error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate recoverFromError:](2312): no account
        CoreData: error: CoreData+CloudKit: -[NSCloudKitMirroringDelegate recoverFromError:](2312): no account
        RelBench: end save
        RelBench: begin comments
        sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZTEXT, t0.ZPOST FROM ZCOMMENT t0 WHERE  t0.ZPOST = ?
        annotation: sql connection fetch time: 0.0001s
        annotation: total fetch execution time: 0.0002s for 5 rows.
        annotation: to-many relationship fault "comments" for objectID 0xa001000000000001 <x-coredata://0DD5D133-23A2-45D1-AB49-5EDA1FBE9877/Post/p1> fulfilled from database.  Got 5 rows
        RelBench: end comments
        """

    static func authorFault(_ key: Int) -> String {
        """
        2024-05-01 10:00:00.00\(key) My App[3913:c07] CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZAUTHOR t0 WHERE  t0.Z_PK = ?  LIMIT 1
        2024-05-01 10:00:00.00\(key) My App[3913:c07] CoreData: details: SQLite bind[0] = (int64)\(key)
        2024-05-01 10:00:00.00\(key) My App[3913:c07] CoreData: annotation: sql connection fetch time: 0.0001s
        2024-05-01 10:00:00.00\(key) My App[3913:c07] CoreData: annotation: total fetch execution time: 0.0002s for 1 rows.
        2024-05-01 10:00:00.00\(key) My App[3913:c07] CoreData: annotation: fault fulfilled from database for : 0xa00100000000000\(key) <x-coredata://0DD5D133-23A2-45D1-AB49-5EDA1FBE9877/Author/p\(key)>
        """
    }

    @Test func aLogInItsWildFormsGivesExactCountersAsJSON() throws {
        defer { remove() }
        let path = try write("wild.log", Self.wildLog)
        let result = try CommandLineTests.bench(["log", path, "--json"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        #expect(try Self.metrics(result.output, segment: "feed") == [4, 1, 3, 0, 23])
        // The save's only read, its Z_MAX, has no row count in the log: rows_read is not reported (it was 1).
        #expect(try Self.metrics(result.output, segment: "save") == [7, 0, 0, 0, nil])
        #expect(try Self.metrics(result.output, segment: "comments") == [1, 0, 0, 1, 5])
        #expect(try Self.metrics(result.output) == [12, 1, 3, 1, 28])
        #expect(result.output.contains("\"names_inferred\" : true"))
        // The same log from standard input, as text: the names are said to be inferred without a model.
        let text = try CommandLineTests.bench(["log", path])
        #expect(text.status == 0)
        #expect(text.output.hasPrefix("names: no --model given, so entity and property names are inferred from the log\nsegment feed\n"))
        #expect(text.output.contains("  sql_statements=4 fetch_requests=1 object_faults=3 relationship_faults=0 rows_read=23"))
        // A save's statements have no time in a log: none is shown, not 0.0 ms as if measured.
        #expect(text.output.contains("  device times: fetch 1.2 ms, connection 0.7 ms"), "\(text.output)")
        #expect(
            text.output.contains(
                "segment save\n  sql_statements=7 fetch_requests=0 object_faults=0 relationship_faults=0 rows_read=not reported\n"
                    + "  statements: select=1 insert=1 update=1 transaction=4; transactions=2 saves=1\n"
                    + "  problems (error/fault/warning): 1; migration messages: 0\n"
                    + "  device times: none in the log (no statement in this segment has a time annotation); rows not reported for 1 statements (not counted)"
            ), "\(text.output)")
        #expect(text.output.contains("read 41 lines, 32 of Core Data; 1 console copies ignored; names in upper case are inferred"))
    }

    @Test func publishedExcerptsReadAsTheParserCountsThem() throws {
        defer { remove() }
        let real = Self.fixtures.appendingPathComponent("real")
        let expected: [String: [Int?]] = [
            "01-": [13, 11, 0, 1, 2306], "02-": [12, 1, 0, 0, nil], "03-": [1, 1, 0, 0, 688187], "04-": [2, 2, 0, 0, 2],
        ]
        var read = 0
        var refused: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: real.path).sorted() {
            // The collector's `# source:` lines quote log lines; the excerpt is what follows them.
            let text = try String(contentsOf: real.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("# ") }.joined(separator: "\n")
            let result = try CommandLineTests.bench(["log", try write(name, text), "--json"])
            if result.status == 64 {
                refused.append(name)
                #expect(
                    result.error.hasSuffix(
                        "holds no Core Data line (\(text.split(separator: "\n").count) lines read); capture a log with the launch argument -com.apple.CoreData.SQLDebug 1 (see the README)\n"
                    ), "\(name)")
                continue
            }
            #expect(result.status == 0, "\(name): \(result.error)")
            read += 1
            if let counts = expected.first(where: { name.hasPrefix($0.key) })?.value {
                #expect(try Self.metrics(result.output) == counts, "\(name)")
            }
        }
        // A Console.app copy of other processes' lines only: nothing of Core Data's in it.
        #expect(refused == ["20-consoleapp-copy-tab-layout.log"])
        #expect(read == 23)
        for name in ["query.many-to-many.L4.txt", "social-feed.objectgraph.L2.txt"] {
            let result = try CommandLineTests.bench(["log", Self.fixtures.appendingPathComponent("bench/\(name)").path])
            #expect(result.status == 0, "\(name): \(result.error)")
        }
    }

    @Test func aModelNamesTheTables() throws {
        defer { remove() }
        let log = """
            CoreData: sql: SELECT 0, t0.Z_PK FROM Z_3SUBJECTS t1 JOIN ZSUBJECT t0 ON t0.Z_PK = t1.Z_4SUBJECTS WHERE t1.Z_3STUDENTS = ?
            \((1...12).map { "CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZADDRESS, t0.ZCLASS FROM ZSTUDENT t0 WHERE  t0.ZCLASS = ?\nCoreData: details: SQLite bind[0] = (int64)\($0)" }.joined(separator: "\n"))
            """
        let path = try write("school.log", log)
        let model = CommandLineTests.root.appendingPathComponent("Scenarios/models/School.xcdatamodeld").path
        let result = try CommandLineTests.bench(["log", path, "--model", model])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("names: from \(model)\n"))
        #expect(result.output.contains("entities: Student (ZSTUDENT) 12, Subject (ZSUBJECT) 1, Student.subjects (Z_3SUBJECTS) 1"))
        #expect(result.output.contains("fix: one fetch with predicate class IN %@ over all the values, grouped in memory"))
        #expect(!result.output.contains("inferred"))
    }

    @Test func aRunFolderFromALogIsGatedAsRunsAre() throws {
        defer { remove() }
        let baselineLog = try write("feed.log", Self.wildLog)
        let extra = """
            CoreData: sql: SELECT COUNT( DISTINCT t0.Z_PK) FROM ZCOMMENT t0 WHERE  t0.ZPOST = ?
            CoreData: annotation: total count request execution time: 0.0002s for count of 5.
            RelBench: end feed
            """
        let currentLog = try write(
            "feed-now.log",
            Self.wildLog.replacingOccurrences(of: "2024-05-01 10:00:00.009 My App[3913:c07] RelBench: end feed", with: extra))
        let run = folder.appendingPathComponent("run").path
        let made = try CommandLineTests.bench(["log", baselineLog, "--output", run, "--scenario", "feed-screen", "--size", "20"])
        #expect(made.status == 0, "\(made.error)")
        #expect(made.output.hasSuffix("reports: \(run) (scenario feed-screen, strategy device)\n"))
        let samples = try SamplesFile.load(run + "/samples.csv").samples
        // The save's rows are not reported by the log: its phase has no rows_read sample (never a 0).
        #expect(samples.count == 3 * 5 - 1)
        #expect(!samples.contains { $0.key.phase == "save" && $0.key.metric == .rowsRead })
        #expect(
            samples.allSatisfy { $0.key.strategy == .device && $0.key.scenario == "feed-screen" && $0.key.size == 20 && $0.repetition == 1 }
        )
        #expect(samples.first { $0.key.phase == "feed" && $0.key.metric == .sqlStatements }?.value == 4)
        let info = try RunInfo.load(run)
        #expect(info.status == .complete && info.measurement == .deviceLog && info.deviceLog?.coreDataLines == 32)
        #expect(try StatementsFile.load(folder: run).first { $0.key.phase == "feed" }?.statements == 4)

        let baseline = folder.appendingPathComponent("baseline").path
        let saved = try CommandLineTests.bench(["baseline", "save", run, "--to", baseline])
        #expect(saved.status == 0, "\(saved.error)")
        let same = try CommandLineTests.bench(["compare", baseline, run, "--counters-only"])
        #expect(same.status == 0, "\(same.output)")

        let current = folder.appendingPathComponent("current").path
        #expect(
            try CommandLineTests.bench(["log", currentLog, "--output", current, "--scenario", "feed-screen", "--size", "20"]).status == 0)
        let compared = try CommandLineTests.bench(["compare", baseline, current, "--counters-only"])
        #expect(compared.status == 2, "\(compared.output)")
        #expect(compared.output.contains("regression  feed-screen  device"))
        #expect(
            compared.output.contains(
                "why fetch_requests, rows_read, sql_statements changed in feed-screen size 20 feed:\n  +1 × SELECT COUNT(DISTINCT t0.Z_PK) FROM ZCOMMENT t0 WHERE t0.ZPOST = ?"
            ))
    }

    @Test func diffIsEqualOnBenchsOwnTraceAndNamesAnEdit() throws {
        defer { remove() }
        let trace = try CommandLineTests.bench([
            "explain", "faulting", "--exact", "--size", "3", "--strategy", "objectgraph", "--max-lines", "100000",
        ])
        #expect(trace.status == 0, "\(trace.error)")
        #expect(trace.output.contains("\nRelBench: begin first\n--- phase first"))
        let path = try write("trace.log", trace.output)
        let equal = try CommandLineTests.bench(["log", "diff", path, "faulting", "--size", "3"])
        #expect(equal.status == 0, "\(equal.output)\(equal.error)")
        #expect(equal.output == "phase first: equal (2 statements)\nphase every: equal (4 statements)\nequal\n")

        // The device ran one fault fewer in `every`: the second address fault's statement is gone.
        var lines = trace.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let every = try #require(lines.firstIndex(of: "RelBench: begin every"))
        let faults = lines.indices.filter {
            $0 > every && lines[$0].contains("CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZSTUDENT FROM ZADDRESS")
        }
        lines.remove(at: faults[1])
        let edited = try write("edited.log", lines.joined(separator: "\n"))
        let differs = try CommandLineTests.bench(["log", "diff", edited, "faulting", "--size", "3"])
        #expect(differs.status == 2, "\(differs.output)\(differs.error)")
        #expect(
            differs.output.contains(
                "phase first: equal (2 statements)\nphase every: differs: 0 added, 1 removed, 0 changed (objectgraph 4 statements, device 3)"
            ))
        #expect(
            differs.output.contains(
                "    - objectgraph only: SELECT ?, t0.Z_PK, t0.Z_OPT, t0.ZNAME, t0.ZSTUDENT FROM ZADDRESS t0 WHERE t0.Z_PK = ? LIMIT ?"))
        #expect(differs.output.hasSuffix("differs: 1 of 2 phases\n"))
    }

    /// Selects cost 0.5 ms and 0.02 ms a row, a pragma 0.3 ms in all; writes and transactions are not timed.
    static func syntheticLog() -> String {
        var lines = ["RelBench: begin screen"]
        for index in 0..<60 {
            let rows = (index % 9) * 5
            let milliseconds = 0.5 + 0.02 * Double(rows)
            lines += [
                "CoreData: sql: SELECT 0, t0.Z_PK, t0.ZNAME FROM ZITEM t0 WHERE  t0.ZGROUP = ?",
                "CoreData: annotation: sql connection fetch time: 0.0001s",
                String(format: "CoreData: annotation: total fetch execution time: %.4fs for %d rows.", milliseconds / 1000, rows),
            ]
            if index % 6 == 0 { lines += ["CoreData: sql: pragma page_count", "CoreData: annotation: sql execution time: 0.0003s"] }
            if index % 10 == 0 {
                lines += [
                    "CoreData: sql: BEGIN EXCLUSIVE", "CoreData: sql: INSERT INTO ZITEM(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)",
                    "CoreData: sql: COMMIT",
                ]
            }
        }
        return (lines + ["RelBench: end screen"]).joined(separator: "\n")
    }

    @Test func fittedCostsRecoverAKnownDeviceAndPriceARun() throws {
        defer { remove() }
        let log = try write("timed.log", Self.syntheticLog())
        let costsPath = folder.appendingPathComponent("costs.json").path
        let fitted = try CommandLineTests.bench(["log", log, "--fit-costs", costsPath])
        #expect(fitted.status == 0, "\(fitted.error)")
        let costs = try DeviceCosts.load(costsPath)
        #expect(abs((costs.statementMs["select"] ?? 0) - 0.5) < 1e-6)
        #expect(abs(costs.rowMs - 0.02) < 1e-6)
        #expect(abs((costs.statementMs["pragma"] ?? 0) - 0.28) < 1e-6)
        #expect(costs.untimedKinds == ["insert", "transaction"])
        #expect(costs.fit.units + costs.fit.heldOutUnits == 70 && costs.fit.heldOutUnits == 14)
        #expect(abs(costs.fit.heldOutRelativeError ?? 1) < 1e-6)
        #expect(fitted.output.contains("  select: 0.5 ms per statement\n  pragma: 0.28 ms per statement\n  per row: 0.02 ms\n"))

        let run = folder.appendingPathComponent("run").path
        let priced = try CommandLineTests.bench([
            "run", "faulting", "--sizes", "10", "--repetitions", "1", "--warmup", "0", "--strategies", "objectgraph",
            "--variant", "modelling=one-to-one", "--device-costs", costsPath, "--output", run, "--quiet", "--allow-debug",
            "--no-advice", "--no-history", "--verbose",
        ])
        #expect(priced.status == 0, "\(priced.error)")
        #expect(priced.output.contains("device ms (pred.)"))
        #expect(
            priced.output.contains(
                "device ms (pred.): a prediction of their device's time from the costs fitted to timed.log (+0.0% on 14 held-out statements; insert, transaction statements are not timed by the log and cost 0), not a measurement"
            ))
        let summary = try SummaryFile.load(run).rows
        func median(_ metric: Metric) -> Double? {
            summary.first { $0.key.phase == "first" && $0.key.metric == metric }?.summary?.median
        }
        let statements = try #require(median(.sqlStatements))
        let rows = try #require(median(.rowsRead))
        #expect(statements == 2)
        #expect(median(.predictedDeviceMs) == ((statements * 0.5 + rows * 0.02) * 1000).rounded() / 1000)
        #expect(try RunInfo.load(run).deviceCosts == costs)
    }

    @Test func badInputGetsOneLineAndExit64() throws {
        defer { remove() }
        func check(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try CommandLineTests.bench(arguments)
            #expect(result.status == 64, "\(arguments)", sourceLocation: sourceLocation)
            #expect(result.error == "bench: error: \(message)\n", sourceLocation: sourceLocation)
            #expect(result.output.isEmpty, sourceLocation: sourceLocation)
        }
        // What never ends and is no text is refused after its first MiB, not read forever.
        try check(
            ["log", "/dev/zero"],
            "/dev/zero holds binary data, not a text log (1048576 of its first 1048576 bytes are control bytes such as NUL); give a SQLDebug log as Xcode, Console.app or log show prints it (see the README)"
        )
        let missing = folder.appendingPathComponent("nope.log").path
        try check(["log", missing], "\(missing) does not exist; give a SQLDebug log file (or - for standard input)")
        try check(["log", folder.path], "\(folder.path) is a folder; give a SQLDebug log file (or - for standard input)")
        let empty = try write("empty.log", "")
        try check(
            ["log", empty], "\(empty) is empty; capture a log with the launch argument -com.apple.CoreData.SQLDebug 1 (see the README)")
        let app = try write("app.log", "App launched\nLoaded 3 rows\n")
        try check(
            ["log", app],
            "\(app) holds no Core Data line (2 lines read); capture a log with the launch argument -com.apple.CoreData.SQLDebug 1 (see the README)"
        )
        let untimed = try write("untimed.log", "CoreData: sql: BEGIN EXCLUSIVE\nCoreData: sql: COMMIT\n")
        try check(
            ["log", untimed, "--fit-costs", folder.appendingPathComponent("c.json").path],
            "\(untimed) times no statement (2 statements, none with a connection, execution or total fetch time), so no cost can be fitted; capture it with -com.apple.CoreData.SQLDebug 1 or higher"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("c.json").path))
        // Eight timed fetches cannot fit a cost per statement and per row and still hold some out to test it on.
        let few = try write(
            "few.log",
            (0..<8).map {
                "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE  t0.ZGROUP = ?\nCoreData: annotation: total fetch execution time: 0.000\($0 + 1)s for \($0) rows."
            }
            .joined(separator: "\n"))
        try check(
            ["log", few, "--fit-costs", folder.appendingPathComponent("c.json").path],
            "--fit-costs: the log times 8 statements; fitting 2 costs (a cost per statement kind it times, and one per row) needs at least 10 per cost to fit (20) and 5 more held out to measure the fit's error (it has 1): capture a longer log of the same screens"
        )
        let file = try write("file", "keep")
        try check(["log", untimed, "--output", file], "--output \(file) is a file; give a folder")
        try check(
            ["run", "query", "--strategies", "device", "--allow-debug"],
            "'device' series are read from a device's SQLDebug log with 'bench log LOG --output DIR', not run; the strategies bench runs are objectgraph, sql-replay, raw-sqlite, grdb"
        )
        try check(
            ["log", "diff", untimed, "qurey"],
            "unknown scenario 'qurey' (did you mean 'query'?) in Scenarios: 'bench list' lists its scenarios (batch-size, batch-update, chat-list, count-across-many-to-many, data-loss, faulting, fetch-result-types, find-member, hand-kept-key, import-reset, insert, large-to-many, medical-records, prefetch, query, social-feed); --scenarios DIR reads your own folder of scenario files, --model MODEL runs the suite generated from an Xcode model"
        )
        let costs = try write("costs.json", "{\"format\": 2}")
        try check(
            ["run", "query", "--allow-debug", "--device-costs", costs],
            "--device-costs \(costs) is not a costs file (field 'source' is missing); write one with 'bench log LOG --fit-costs FILE'")
    }

    /// `xcodebuild test` output of three unit tests, segmented per test with no markers, gated as a run: one more
    /// statement in one test fails the gate, naming the test and the `bench log` commands that show the statements; a
    /// test that no longer runs is a missing series named by its phase.
    @Test func xcodebuildTestOutputIsGatedPerTest() throws {
        defer { remove() }
        let fixture = Self.fixtures.appendingPathComponent("xcodebuild/notes-tests.log")
        let text = try String(contentsOf: fixture, encoding: .utf8)
        let baselineLog = try write("notes-tests.log", text)
        let run = folder.appendingPathComponent("run").path
        let made = try CommandLineTests.bench(["log", baselineLog, "--output", run])
        #expect(made.status == 0, "\(made.error)")
        let phases = Set(try SamplesFile.load(run + "/samples.csv").samples.map(\.key.phase.rawValue))
        #expect(
            phases == [
                "(outside segments)", "NotesTests.NoteListTests.testArchivedCount", "NotesTests.NoteListTests.testListShowsTags",
                "NotesTests.NoteEditorTests.testAddTag",
            ])
        let baseline = folder.appendingPathComponent("baseline").path
        #expect(try CommandLineTests.bench(["baseline", "save", run, "--to", baseline]).status == 0)
        #expect(try CommandLineTests.bench(["compare", baseline, run, "--counters-only"]).status == 0)
        // One more tag fault in testListShowsTags.
        let fault = text.components(separatedBy: "\n").filter { $0.contains("Z_5TAGS t1 JOIN") }.first!
        let slower = text.replacingOccurrences(
            of: "Test Case '-[NotesTests.NoteListTests testListShowsTags]' passed",
            with: fault + "\nTest Case '-[NotesTests.NoteListTests testListShowsTags]' passed")
        let currentLog = try write("notes-tests-now.log", slower)
        let current = folder.appendingPathComponent("current").path
        #expect(try CommandLineTests.bench(["log", currentLog, "--output", current, "--scenario", "notes-tests"]).status == 0)
        let compared = try CommandLineTests.bench(["compare", baseline, current, "--counters-only"])
        #expect(compared.status == 2, "\(compared.output)")
        #expect(compared.output.contains("NotesTests.NoteListTests.testListShowsTags"), "\(compared.output)")
        #expect(
            compared.output.contains(
                "see: bench log \(currentLog) (segment NotesTests.NoteListTests.testListShowsTags); the baseline's: bench log \(baselineLog)"
            ), "\(compared.output)")
        // testAddTag no longer in the log: its series are missing, named by the phase.
        let all = text.components(separatedBy: "\n")
        let begin = all.firstIndex { $0.contains("testAddTag]' started") }!
        let end = all.firstIndex { $0.contains("testAddTag]' passed") }!
        let fewer = (all[..<begin] + all[(end + 1)...]).joined(separator: "\n")
        let missing = folder.appendingPathComponent("missing").path
        #expect(
            try CommandLineTests.bench(["log", try write("fewer.log", fewer), "--output", missing, "--scenario", "notes-tests"]).status == 0
        )
        let lost = try CommandLineTests.bench(["compare", baseline, missing, "--counters-only"])
        #expect(lost.status == 3, "\(lost.output)")
        #expect(lost.output.contains("(phase NotesTests.NoteEditorTests.testAddTag)"), "\(lost.output)")
    }

    /// Linear in what is read, memory bounded by what is kept (issue 41): `bench log --output` over logs of 4,000,
    /// 8,000 and 16,000 segments of one name, and of 20,000, 40,000 and 80,000 names, counting the work (heap
    /// allocations and the bytes they ask for, in the real binary, deterministic) instead of timing it. Work grows as
    /// the log (exponent about 1); the heap held at the end stays flat (one segment kept; names past the 10,000 kept
    /// are added up in one).
    @Test func logWorkIsLinearAndItsMemoryBounded() throws {
        defer { remove() }
        func measure(_ text: (Int) -> String, sizes: [Int]) throws -> [(allocations: Double, bytes: Double, heap: Double)] {
            try sizes.map { size in
                let path = try write("grow-\(size).log", text(size))
                let out = folder.appendingPathComponent("out-\(size)").path
                let result = try CommandLineTests.bench(["log", path, "--output", out, "--timing"])
                #expect(result.status == 0, "\(result.error)")
                let words = result.error.split(whereSeparator: { $0 == " " || $0 == "(" })
                func number(before word: String) -> Double {
                    words.firstIndex { $0.hasPrefix(word) }.flatMap { Double(words[$0 - 1]) } ?? .nan
                }
                let heap = words.firstIndex(of: "held").flatMap { Double(words[$0 + 1]) } ?? .nan
                return (number(before: "allocations"), number(before: "bytes"), heap)
            }
        }
        func exponents(_ values: [Double]) -> [Double] { zip(values, values.dropFirst()).map { log2($1 / $0) } }
        let statement = "CoreData: sql: SELECT 0, t0.Z_PK FROM ZITEM t0 WHERE  t0.Z_PK = ?  LIMIT 1\n"
        let oneName = try measure(
            { count in String(repeating: "RelBench: begin screen\n" + statement + "RelBench: end screen\n", count: count) },
            sizes: [4_000, 8_000, 16_000])
        let manyNames = try measure(
            { count in (0..<count).map { "RelBench: begin s\($0)\n" + statement + "RelBench: end s\($0)\n" }.joined() },
            sizes: [20_000, 40_000, 80_000])
        guard oneName.allSatisfy({ !$0.allocations.isNaN }) else {
            print("LogCommandTests: growth check skipped: this platform does not count allocations")
            return
        }
        for (name, runs) in [("one segment name", oneName), ("distinct names", manyNames)] {
            let allocations = exponents(runs.map(\.allocations))
            let bytes = exponents(runs.map(\.bytes))
            let work = allocations + bytes
            let heap = exponents(runs.map(\.heap))
            print(
                "LogCommandTests: \(name): allocations \(runs.map { Int($0.allocations) }), bytes \(runs.map { Int($0.bytes) }), heap held \(runs.map { Int($0.heap) }); work exponents \(work.map { String(format: "%.2f", $0) }), heap exponents \(heap.map { String(format: "%.2f", $0) })"
            )
            // Allocations grow as the log; their bytes a little slower (a fixed read buffer), never faster. Below 1 by
            // the fixed part (the 10,000 segments kept, the report), which shows more as a statement costs fewer
            // allocations (issue 37: 6.5 per segment of this log before, 4.5 after; 0.89 for the first doubling).
            #expect(allocations.allSatisfy { $0 > 0.8 && $0 < 1.1 }, "\(name): allocation exponents \(allocations)")
            #expect(bytes.allSatisfy { $0 < 1.1 }, "\(name): allocated byte exponents \(bytes)")
            #expect(heap.allSatisfy { $0 < 0.25 }, "\(name): heap exponents \(heap)")
        }
    }

    /// `bench log --json` and `bench advise --json` hold what Schemas/bench-log.schema.json says, on logs with every part
    /// filled in: findings, markers that do not pair, unreported rows, several segments of one name, UTF-16 input.
    @Test func theJSONMatchesItsSchema() throws {
        defer { remove() }
        var documents: [String] = []
        func keep(_ json: String, _ name: String) throws {
            let path = folder.appendingPathComponent(name + ".json").path
            try Data(json.utf8).write(to: URL(fileURLWithPath: path))
            documents.append(path)
        }
        let wild = try write("wild.log", Self.wildLog + "\nRelBench: end never-begun\nRelBench: begin feed\nRelBench: end feed")
        let read = try CommandLineTests.bench(["log", wild, "--json"])
        #expect(read.status == 0, "\(read.error)")
        try keep(read.output, "wild")
        let trace = Self.fixtures.appendingPathComponent("bench/social-feed.objectgraph.L2.txt").path
        let traced = try CommandLineTests.bench(["log", trace, "--json", "--threshold", "3"])
        #expect(traced.status == 0 && traced.output.contains("\"rule\" : \"to-many-fault-per-owner\""), "\(traced.error)")
        try keep(traced.output, "trace")
        let utf16 = folder.appendingPathComponent("utf16.log")
        try (Data([0xFF, 0xFE]) + Self.wildLog.data(using: .utf16LittleEndian)!).write(to: utf16)
        let wide = try CommandLineTests.bench(["log", utf16.path, "--json"])
        #expect(wide.status == 0 && wide.output.contains("\"encoding\" : \"utf-16le\""), "\(wide.error)")
        try keep(wide.output, "utf16")
        for name in try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.appendingPathComponent("real").path).sorted() {
            let result = try CommandLineTests.bench(["log", Self.fixtures.appendingPathComponent("real/\(name)").path, "--json"])
            if result.status == 0 { try keep(result.output, name) }
        }
        guard let logs = try Self.validate(documents, definition: nil) else { return }
        #expect(logs.status == 0, "\(logs.output)")
        let advice = folder.appendingPathComponent("advice.json").path
        let advised = try CommandLineTests.bench(["advise", "--scenario", "social-feed", "--size", "100", "--json", advice])
        #expect(advised.status == 0, "\(advised.error)")
        guard let result = try Self.validate([advice], definition: "advice") else { return }
        #expect(result.status == 0, "\(result.output)")
    }

    /// Runs python3 with jsonschema over `files` against Schemas/bench-log.schema.json (or one of its `$defs`); nil,
    /// saying so, where jsonschema is not installed (`.ci/run` installs it: CI never skips this).
    static func validate(_ files: [String], definition: String?) throws -> (status: Int32, output: String)? {
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                sys.exit(3)
            schema = json.load(open(sys.argv[1]))
            if sys.argv[2]:
                schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/" + sys.argv[2]}
            validator = jsonschema.Draft202012Validator(schema)
            failed = 0
            for path in sys.argv[3:]:
                for error in validator.iter_errors(json.load(open(path))):
                    failed += 1
                    print(path, "/".join(map(str, error.absolute_path)), error.message[:200])
            sys.exit(1 if failed else 0)
            """
        let schema = CommandLineTests.root.appendingPathComponent("Schemas/bench-log.schema.json").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schema, definition ?? ""] + files
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 {
            print(
                "LogCommandTests: schema check skipped: python3 with jsonschema is not installed (pip install -r scripts/requirements.txt)")
            return nil
        }
        return (process.terminationStatus, text)
    }
}
