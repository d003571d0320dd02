import Foundation
import TestSupport
import Testing

@testable import BenchKit

/// The built `bench` binary, run as a user would: output, files written, messages and exit codes.
@Suite(.serialized) struct CommandLineTests {
    static let root = BenchBinary.root
    typealias Result = BenchBinary.Result

    /// `bench` with `arguments`, in `folder` (the repository by default), with `environment` added to this process's:
    /// `BenchBinary.run`, by the name this target's tests call it.
    static func bench(_ arguments: [String], in folder: URL = root, environment: [String: String] = [:]) throws -> Result {
        try BenchBinary.run(arguments, in: folder, environment: environment)
    }

    private func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("relbench-cli-\(UUID().uuidString)")
    }

    @Test func listShowsEveryScenario() throws {
        let result = try Self.bench(["list"])
        #expect(result.status == 0)
        for name in ["insert", "query", "faulting", "find-member", "prefetch", "batch-size", "data-loss"] {
            #expect(result.output.contains("\(name) (model models/School.xcdatamodeld"))
        }
        #expect(result.output.contains("variant prefetch: off, on"))
        #expect(result.output.contains("  smoke    sizes "))
    }

    @Test func aTinyRunWritesEveryReport() throws {
        let output = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Self.bench([
            "run", "query", "data-loss", "--sizes", "100", "--repetitions", "2", "--warmup", "0",
            "--strategies", "objectgraph,raw-sqlite", "--variant", "modelling=many-to-one",
            "--variant", "modelling=many-to-nil", "--read-page-cache-mib", "8",
            "--output", output.path, "--quiet", "--allow-debug", "--no-advice",
            "--history", output.appendingPathExtension("history.sqlite").path,
        ])
        #expect(result.status == 0, "\(result.error)")
        // A debug build's timings never reach a history store (nor Results/, which the tests never write to).
        #expect(result.error.contains("bench: warning: not added to the history: it is a debug build's, whose timings mislead"))
        #expect(
            result.output.contains(
                "query (4 variants, size 100)\n  walk: prefetch=on ran 2 statements against 3 for prefetch=off (modelling=many-to-nil), "))
        #expect(result.output.contains("reports: \(output.path)"))
        #expect(try String(contentsOf: output.appendingPathComponent("summary.txt"), encoding: .utf8).contains("query: Seed 000 Figure 7"))
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("report.html").path))
        let samples = try SamplesFile.load(output.appendingPathComponent("samples.csv").path).samples
        // query: 2 strategies (objectgraph, raw-sqlite) x 4 variants (two modellings, prefetch off and on) x 2
        // repetitions x 2 phases x 15 metrics, and the peak of each series' first round (2 phases);
        // data-loss: objectgraph (raw-sqlite does not run it) x 4 variants (many-to-nil) x 2 repetitions x 2 phases x 19
        // metrics, and the peaks.
        #expect(samples.count == 2 * 4 * (2 * 2 * 15 + 2) + 4 * (2 * 2 * 19 + 2))
        let summaryText = try String(contentsOf: output.appendingPathComponent("summary.csv"), encoding: .utf8)
        #expect(
            summaryText.hasPrefix(
                "scenario,strategy,variant,size,phase,metric,unit,n,median,mean,stddev,min,max,p90,ci_low,ci_high,ratio_to_floor,floor\n"))
        let summary = try SummaryFile.decode(summaryText, file: "summary.csv").rows
        #expect(summary.count == 2 * 4 * 2 * 16 + 4 * 2 * 20)
        // Every measured repetition is timed and counted; the peak is measured once a series (its first round).
        #expect(summary.allSatisfy { $0.summary == nil || $0.summary?.n == ($0.key.metric == .peakRSSBytes ? 1 : 2) })
        let info = try RunInfo.load(output.appendingPathComponent("run.json").path)
        #expect(info.status == .complete)
        #expect(info.seed == 42 && info.profile == .default && info.finishedRepetitions == 16 + 8)
        #expect(info.commandLine.contains("--allow-debug"))
        #expect(info.sqliteSettings["cache_size_kib_bulk"] == "65536" && info.sqliteSettings["cache_size_kib_read"] == "8192")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("complexity.csv").path))
    }

    @Test func adviseReadsTheDefinitionTheRunMeasured() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenarios = folder.appendingPathComponent("scenarios")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        // A scenario the repository's folder does not have: advise must find it through the run's record.
        try Data(
            """
            {"name": "my-walk", "description": "d", "model": "\(Self.root.path)/Scenarios/models/School.xcdatamodeld", "strategies": ["objectgraph"],
             "data": {"entities": {"Class": "size/2", "Student": "size"}, "relationships": {"Class.students": {"per": 2}}},
             "variants": [{"name": "prefetch", "values": ["off"]}],
             "phases": [{"name": "walk", "steps": [{"fetch": "Class", "faults": false}, {"read": ["students.name"]}]}],
             "sizes": [60], "repetitions": 1, "warmup": 0}
            """.utf8
        ).write(to: scenarios.appendingPathComponent("mine.json"))
        let run = folder.appendingPathComponent("run").path
        let result = try Self.bench([
            "run", "my-walk", "--scenarios", scenarios.path, "--output", run, "--quiet", "--allow-debug",
            "--no-advice", "--no-history",
        ])
        #expect(result.status == 0, "\(result.error)")
        let info = try RunInfo.load(run)
        #expect(info.scenarioOrigins == ["my-walk": .file(scenarios.appendingPathComponent("mine.json").path)])
        let advice = try Self.bench(["advise", run, "--size", "60"])
        #expect(advice.status == 0, "\(advice.error)")
        #expect(advice.output.contains("my-walk"))
    }

    /// A long query run writing into `output`, returned once three repetitions are on disk (or after 20 s).
    /// The repetitions in `samples` of the long run's one strategy, or nil when one is not whole: each (variant,
    /// repetition) writes 2 phases x 15 metrics, the first round of a series 2 peaks more.
    static func wholeRepetitions(_ samples: [SampleRecord]) -> Int? {
        let groups = Dictionary(grouping: samples) { "\($0.key.variant) \($0.repetition)" }
        for rows in groups.values {
            let peaks = rows.filter { $0.key.metric == .peakRSSBytes }.count
            guard rows.count - peaks == 2 * 15, peaks == (rows[0].repetition == 1 ? 2 : 0) else { return nil }
        }
        return groups.count
    }

    static func startLongRun(into output: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BenchBinary.path)
        process.arguments = [
            "run", "query", "--sizes", "2000", "--repetitions", "200", "--warmup", "0", "--strategies", "objectgraph",
            "--variant", "modelling=many-to-one",
            "--output", output.path, "--quiet", "--allow-debug", "--no-history",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let samplesPath = output.appendingPathComponent("samples.csv").path
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: samplesPath, encoding: .utf8), text.split(separator: "\n").count > 3 * 32 { break }
            usleep(20_000)
        }
        return process
    }

    /// samples.csv grows by whole rows: a run killed outright (SIGKILL, no chance to clean up) leaves a file that
    /// parses, every repetition's rows complete.
    @Test func aKilledRunLeavesOnlyWholeRows() throws {
        let output = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let process = try Self.startLongRun(into: output)
        let samplesPath = output.appendingPathComponent("samples.csv").path
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let text = try String(contentsOfFile: samplesPath, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let samples = try SamplesFile.decode(text, file: samplesPath).samples
        // The kill came after the third repetition was on disk.
        let repetitions = Self.wholeRepetitions(samples)
        #expect(repetitions.map { $0 >= 3 } == true, "\(samples.count) rows")
    }

    /// A run stopped by SIGTERM (a CI cancellation, `timeout`) ends as Ctrl-C does: exit 143, its folder whole
    /// and marked interrupted, with summaries, and none of its temporary folders left behind.
    @Test func aTerminatedRunLeavesAWholeFolderAndNoTemporaryFolders() throws {
        let output = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let process = try Self.startLongRun(into: output)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 143)
        let info = try RunInfo.load(output.appendingPathComponent("run.json").path)
        #expect(info.status == .interrupted)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("summary.csv").path))
        let temporary = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
        // relbench-<kind>-<pid>-<8 hex digits>: the pid is the next-to-last part (a plain substring would also
        // match a digit group of another process's UUID).
        let pid = "\(process.processIdentifier)"
        #expect(
            !temporary.contains { name in
                let parts = name.split(separator: "-")
                return name.hasPrefix("relbench-") && parts.count >= 3 && parts[parts.count - 2] == pid
            })
    }

    /// Allocation counts repeat between processes: the same workload, run twice, counts within the tolerance
    /// compare uses.
    @Test func allocationCountsRepeatBetweenRuns() throws {
        var counts: [[String: Double]] = []
        for _ in 0..<2 {
            let output = temporaryFolder()
            defer { try? FileManager.default.removeItem(at: output) }
            let result = try Self.bench([
                "run", "query", "insert", "--sizes", "500", "--repetitions", "2", "--warmup", "0",
                "--strategies", "objectgraph,raw-sqlite", "--variant", "modelling=many-to-one", "--output", output.path, "--quiet",
                "--allow-debug", "--no-history",
            ])
            #expect(result.status == 0, "\(result.error)")
            let rows = try SummaryFile.decode(
                try String(contentsOf: output.appendingPathComponent("summary.csv"), encoding: .utf8),
                file: "summary.csv"
            ).rows
            counts.append(
                Dictionary(
                    uniqueKeysWithValues: rows.filter { $0.key.metric == .allocations }.map {
                        ("\($0.key.scenario) \($0.key.strategy) \($0.key.variant) \($0.key.phase)", $0.summary?.median ?? -1)
                    }))
        }
        #expect(counts[0].count == 10)
        #expect(counts[0].keys.sorted() == counts[1].keys.sorted())
        for (key, first) in counts[0] {
            let second = counts[1][key] ?? -1
            #expect(first > 0 && abs(first - second) <= max(100, first * 0.02), "\(key): \(first) then \(second)")
        }
    }

    /// A declared scenario's statements and bound values repeat between processes (no dictionary order leaks into
    /// what a step picks): the hand-kept keys an insert copies, the variables, the links.
    @Test func declaredStatementsRepeatBetweenProcesses() throws {
        var outputs: [String] = []
        for _ in 0..<2 {
            let result = try Self.bench([
                "explain", "hand-kept-key", "--size", "100", "--variant", "modelling=manual-fk", "--max-lines", "100000",
            ])
            #expect(result.status == 0, "\(result.error)")
            // Times are not counters, and the heap's numbers are compared with a tolerance (allocationCountsRepeat...).
            outputs.append(
                result.output.split(separator: "\n").filter { !$0.contains(" time: ") }
                    .map { $0.replacing(/\ allocations=.*/, with: "") }.joined(separator: "\n"))
        }
        #expect(outputs[0].contains("bind[5]"))
        #expect(outputs[0] == outputs[1])
    }

    /// A real run's verdicts, parsed back from its verdicts.json and from `bench verdicts --json`: every claim of
    /// the catalog present, none without a verdict, the ones this run decides decided, the others with a command.
    @Test func verdictsOfARealRunParseBack() throws {
        let output = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try Self.bench([
            "run", "faulting", "data-loss", "hand-kept-key", "--profile", "smoke", "--no-advice", "--output", output.path,
            "--quiet", "--allow-debug", "--no-history",
        ])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("verdicts this run decides"))
        let json = output.appendingPathComponent("judged.json")
        let result = try Self.bench(["verdicts", output.path, "--json", json.path])
        #expect(result.status == 0, "\(result.error)")
        for file in [json, output.appendingPathComponent("verdicts.json")] {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            // The run's own command, apart from each verdict's deciding one.
            let ran = try #require(document["run"] as? [String: Any])
            #expect((ran["command"] as? String)?.hasPrefix("bench run faulting data-loss hand-kept-key --profile smoke") == true)
            #expect(ran["profile"] as? String == "smoke")
            let entries = try #require(document["verdicts"] as? [[String: Any]])
            #expect(entries.compactMap { $0["id"] as? String } == ClaimCatalog.all.map(\.id))
            for entry in entries {
                #expect(
                    !((entry["verdict"] as? String) ?? "").isEmpty && !((entry["label"] as? String) ?? "").isEmpty
                        && !((entry["rule"] as? String) ?? "").isEmpty)
            }
            func verdict(_ id: String) -> String? { entries.first { $0["id"] as? String == id }?["verdict"] as? String }
            #expect(verdict("to-one-fetches") == "holds")
            #expect(verdict("to-many-fetches") == "holds")
            #expect(verdict("many-to-nil-loses") == "holds")
            #expect(verdict("to-one-prefetch") == "not-measured")
            #expect(verdict("background-ui") == "not-measured")
            #expect(verdict("hand-kept-key") == "undecided")
            let unmeasured = entries.first { $0["id"] as? String == "fig7-insert" }
            // The default profile runs a claim's arms on sequentially until its design decides: no --repetitions needed.
            #expect((unmeasured?["decide"] as? String) == "bench run insert --profile default")
            #expect(entries.first { $0["id"] as? String == "to-one-fetches" }?["decide"] == nil)
            // Every verdict says what it rests on and where its claim comes from.
            for entry in entries {
                #expect(!((entry["basis"] as? String) ?? "").isEmpty)
                #expect(((entry["source"] as? [String: Any])?["title"] as? String) != nil)
            }
            let decided = entries.first { $0["id"] as? String == "to-one-fetches" }
            #expect((decided?["basis"] as? String) == "profile smoke; sizes 100, 300 and 1,000; 2 repetitions a series, 0 warmups")
        }
        #expect(result.output.contains("HOLDS: Reading student.address.name for the first student costs 2 fetches"))
        #expect(result.output.contains("Core Data does not run on Linux"))
        #expect(run.output.contains("1 claim needs a larger run to be decided: bench run hand-kept-key --profile default"))
        // The same-SQL rule sees what writes maintain: manual-fk's INSERTs keep the ofCategory index, the unindexed
        // arm's do not, so the two arms are different work although their statements read alike.
        let evidence = try RunEvidence.load(folder: output.path)
        func work(_ modelling: String) throws -> [String: PhaseStatements.Use] {
            try #require(evidence.statements(SeriesSelector("hand-kept-key", [("modelling", modelling)], phase: "insert-items"), size: 100))
                .work
        }
        let indexed = try work("manual-fk")
        let unindexed = try work("manual-fk-unindexed")
        #expect(Set(indexed.values.map(\.statements)) == Set(unindexed.values.map(\.statements)))
        #expect(indexed != unindexed)
        #expect(indexed.keys.contains { $0.contains("maintains index N (N)") })
    }

    @Test func adviseNamesTheLineToChange() throws {
        let result = try Self.bench(["advise", "--scenario", "query"])
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output.contains(
                "walk: 20 × \"SELECT ?, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.ZCLASS = ?\" — to-many fault Class.students per owner: add relationshipKeyPathsForPrefetching [\"students\"] to the fetch of Class"
            ))
        let failing = try Self.bench(["advise", "--scenario", "query", "--fail-on-findings"])
        #expect(failing.status == 1)
    }

    @Test func schemaPrintsTheStoresDDL() throws {
        let result = try Self.bench(["schema", "Scenarios/models/ChatList.xcdatamodeld"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "CREATE TABLE ZCHAT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZMEMBERSCOUNT INTEGER, ZLASTMESSAGEAT TIMESTAMP, ZNAME VARCHAR );"
        )
        #expect(lines.contains("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);"))
        #expect(lines.contains("CREATE INDEX ZMESSAGE_ZCHAT_INDEX ON ZMESSAGE (ZCHAT);"))
        #expect(lines.filter { $0.hasPrefix("CREATE TRIGGER") }.count == 5)
    }

    @Test func lintGivesFindingsAndExitCodes() throws {
        // Guesses about how the app uses the model are summed up in one line by default and fail no gate unless
        // --fail-on names them; --suggestions prints each.
        let summed = try Self.bench(["lint", "Scenarios/models/SocialFeed.xcdatamodeld"])
        #expect(summed.status == 0)
        #expect(
            summed.output.contains(
                "\nsuggestion: 6 guesses about how the app uses the model (5 count-through-faults-guess, 1 unindexed-lookup-guess), not shown: --suggestions prints them\n"
            ), "\(summed.output)")
        #expect(try Self.bench(["lint", "Scenarios/models/SocialFeed.xcdatamodeld", "--fail-on", "suggestion"]).status == 1)
        #expect(!summed.output.contains("a list showing"))
        let social = try Self.bench(["lint", "Scenarios/models/SocialFeed.xcdatamodeld", "--suggestions"])
        #expect(social.status == 0)
        #expect(
            social.output.contains(
                "suggestion [count-through-faults-guess] User: a list showing how many comments, followers, following, likes, posts each User has"
            ))
        #expect(social.output.hasPrefix("model Scenarios/models/SocialFeed.xcdatamodeld, version SocialFeed (current)\n"))
        #expect(
            social.output.contains(
                "\nsuggestion [unindexed-lookup-guess] model: bench run --model looks objects up by identifiers and lists them sorted by dates, and no index covers these 12 attributes: Category.id (find-Category.id), "
            ))
        #expect(social.output.hasSuffix("\n6 findings (6 suggestion); exit 0 (--fail-on problem,risk)\n"), "\(social.output)")
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func lint(_ contents: String) throws -> Result {
            let path = folder.appendingPathComponent("contents-\(UUID().uuidString)").path
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
            return try Self.bench(["lint", path])
        }
        let clean = try lint(
            "<model><entity name=\"Note\"><attribute name=\"text\" optional=\"YES\" attributeType=\"String\"/></entity></model>")
        #expect(clean.status == 0 && clean.output.hasSuffix("\nno findings\n") && clean.output.hasPrefix("model /"))
        let risky = try lint(
            """
            <model><entity name="Category"><attribute name="id" optional="YES" attributeType="UUID"/></entity>
            <entity name="Item"><attribute name="ofCategory" optional="YES" attributeType="UUID"/></entity>
            <entity name="Student"><relationship name="subjects" optional="YES" toMany="YES" destinationEntity="Subject"/></entity>
            <entity name="Subject"/></model>
            """)
        #expect(risky.status == 1)
        // One finding per cause: Xcode's own warning about the missing inverse is said by the many-to-nil finding.
        #expect(!risky.output.contains("does not have an inverse"), "\(risky.output)")
        #expect(risky.output.contains("risk [many-to-nil-loss] Student.subjects: a to-many without inverse (many-to-nil)"))
        #expect(risky.output.contains("Xcode warns about it too (no inverse). Fix: add an inverse"), "\(risky.output)")
        #expect(risky.output.contains("risk [unindexed-hand-kept-key] Item.ofCategory: looks like a hand-kept key to Category"))
        // A key beside a relationship to the same entity, or leading a uniqueness constraint, is not hand-kept.
        let kept = try lint(
            """
            <model><entity name="User"><attribute name="id" optional="YES" attributeType="String"/>
            <relationship name="authentication" optional="YES" maxCount="1" destinationEntity="Authentication" inverseName="user" inverseEntity="Authentication"/></entity>
            <entity name="Authentication"><attribute name="userID" optional="YES" attributeType="String"/>
            <relationship name="user" optional="YES" maxCount="1" destinationEntity="User" inverseName="authentication" inverseEntity="User"/></entity>
            <entity name="Block"><attribute name="userID" optional="YES" attributeType="String"/><attribute name="domain" optional="YES" attributeType="String"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="userID"/><constraint value="domain"/></uniquenessConstraint></uniquenessConstraints></entity></model>
            """)
        #expect(!kept.output.contains("hand-kept"), "\(kept.output)")
        // Real models' keys (Aidoku, WooCommerce): the entity named exactly wins over a longer name; an entity's
        // own ID, an enum's key and an ID several entities' names end with are not guessed at.
        let guesses = try lint(
            """
            <model><entity name="Manga"/><entity name="LibraryManga"/><entity name="History"/><entity name="OrderStatus"/>
            <entity name="Track"><attribute name="mangaId" optional="YES" attributeType="String"/></entity>
            <entity name="ShippingMethod"><attribute name="methodID" optional="YES" attributeType="String"/></entity>
            <entity name="ShippingLabelPaymentMethod"/><entity name="AddOnGroup"/><entity name="TagGroup"/>
            <entity name="User"><attribute name="userID" optional="YES" attributeType="String"/></entity><entity name="BlockedUser"/>
            <entity name="Photo"><attribute name="ofUser" optional="YES" attributeType="String"/></entity>
            <entity name="Product"><attribute name="statusKey" optional="YES" attributeType="String"/>
            <attribute name="historyID" optional="YES" attributeType="UUID"/><attribute name="groupID" optional="YES" attributeType="String"/></entity></model>
            """)
        #expect(
            guesses.output.contains("risk [unindexed-hand-kept-key] Track.mangaId: looks like a hand-kept key to Manga "),
            "\(guesses.output)")
        #expect(guesses.output.contains("every fetch of a History's Products scans all Product rows"), "\(guesses.output)")
        #expect(guesses.output.contains("every fetch of a User's Photos scans"), "\(guesses.output)")
        for quiet in ["ShippingMethod.methodID", "Product.statusKey", "Product.groupID", "User.userID"] {
            #expect(!guesses.output.contains("] \(quiet):"), "\(quiet): \(guesses.output)")
        }
        let oneLonger = try lint(
            """
            <model><entity name="LibraryManga"/><entity name="Chapter"><attribute name="mangaId" optional="YES" attributeType="String"/></entity>
            <entity name="OrderStatus"/><entity name="Entry"><attribute name="ofOrderStatus" optional="YES" attributeType="String"/></entity></model>
            """)
        #expect(
            oneLonger.output.contains("risk [unindexed-hand-kept-key] Chapter.mangaId: looks like a hand-kept key to LibraryManga "),
            "\(oneLonger.output)")
        #expect(
            oneLonger.output.contains(
                "every fetch of an OrderStatus's Entries scans all Entry rows, and deleting an OrderStatus leaves its Entries behind"),
            "\(oneLonger.output)")
        let named = try lint(
            """
            <model><entity name="AbstractAccount"><relationship name="entries" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Entry"/></entity>
            <entity name="Entry"/></model>
            """)
        #expect(named.output.contains("a to-many Entry.abstractAccounts makes it"), "\(named.output)")
        #expect(named.output.contains("so an Entry added to two"), "\(named.output)")
        // CloudKit's rules hold for the entities of a configuration used with CloudKit, not for the others.
        let cloud = try lint(
            """
            <model usedWithCloudKit="YES"><entity name="Trip"><attribute name="title" attributeType="String"/><attribute name="day" attributeType="Date"/>
            <attribute name="count" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
            <relationship name="stops" optional="YES" toMany="YES" ordered="YES" deletionRule="Deny" destinationEntity="Stop" inverseName="trip" inverseEntity="Stop"/>
            <uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints></entity>
            <entity name="Stop"><relationship name="trip" maxCount="1" deletionRule="Nullify" destinationEntity="Trip" inverseName="stops" inverseEntity="Trip"/></entity>
            <entity name="Draft"><attribute name="title" attributeType="String"/></entity>
            <entity name="Base" isAbstract="YES"><attribute name="kind" attributeType="String"/></entity>
            <entity name="Leg" parentEntity="Base"/><entity name="Walk" parentEntity="Base"/>
            <configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Trip"/><memberEntity name="Stop"/><memberEntity name="Leg"/>
            <memberEntity name="Walk"/><memberEntity name="Gone"/></configuration>
            <configuration name="Local"><memberEntity name="Draft"/></configuration></model>
            """)
        let refusals = cloud.output.split(separator: "\n").filter { $0.contains("used with CloudKit") }.map {
            String($0.prefix { $0 != "," })
        }
        // The model's own flag (Xcode's Default configuration) yields to the named ones: Draft is local. Base's
        // attribute, inherited by two synced entities, is named once.
        #expect(
            refusals == [
                "problem [cloudkit-required-attribute] Base.kind: used with CloudKit",
                "problem [cloudkit-required-relationship] Stop.trip: used with CloudKit",
                "problem [cloudkit-unique-constraint] Trip: used with CloudKit",
                "problem [cloudkit-required-attribute] Trip.day: used with CloudKit",
                "problem [cloudkit-deny-rule] Trip.stops: used with CloudKit",
                "problem [cloudkit-ordered-relationship] Trip.stops: used with CloudKit",
                "problem [cloudkit-required-attribute] Trip.title: used with CloudKit",
            ],
            "\(cloud.output)")
        #expect(
            cloud.output.contains(
                "problem [cloudkit-deny-rule] Trip.stops: used with CloudKit, which does not support the Deny delete rule: NSPersistentCloudKitContainer refuses to load the store."
            ))
        let broken = try lint("<model><entity name=\"A\"></model>")
        #expect(
            broken.status == 64 && broken.error.hasPrefix("bench: error: ") && broken.error.contains("cut off") && broken.output.isEmpty)
        let missing = try Self.bench(["lint", "/nonexistent/Model.xcdatamodeld"])
        #expect(
            missing.status == 64
                && missing.error
                    == "bench: error: cannot read the Xcode model /nonexistent/Model.xcdatamodeld: no such file or folder; give a .xcdatamodeld folder, a .xcdatamodel folder or its contents file\n"
        )
    }

    @Test func runModelKeepsTheReadersNotesWithTheLint() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let model = folder.appendingPathComponent("contents").path
        try Data(
            """
            <model><entity name="Note"><attribute name="text" optional="YES" attributeType="String"/>
            <fetchIndex name="byText"><fetchIndexElement property="text" type="RTree" order="ascending"/></fetchIndex>
            <fetchIndex name="byGone"><fetchIndexElement property="gone" type="Binary" order="ascending"/></fetchIndex></entity></model>
            """.utf8
        ).write(to: URL(fileURLWithPath: model))
        let output = folder.appendingPathComponent("run")
        let result = try Self.bench([
            "run", "--model", model, "--sizes", "20", "--repetitions", "1", "--warmup", "0",
            "--output", output.path, "--allow-debug", "--no-history", "--no-advice",
        ])
        #expect(result.status == 0, "\(result.error)")
        // What ObjectGraph leaves out is a note; an index on a property the entity lacks is a problem of the file.
        let note = "note: Note: fetch index 'byText' on text is an R-tree index; ObjectGraph makes binary indexes only, so it is skipped"
        let problem =
            "problem [model-index-on-missing-property] Note: an index names 'gone', which is not a stored property; the index is skipped: the index is left out, so the fetches it was meant for are measured without it. Fix: name a stored attribute or to-one relationship of the entity in the index, or delete the index."
        // Counted before the run starts, listed by severity when it ends (its first screen).
        #expect(
            result.output.hasPrefix(note + "\nlint of model \(model): 1 problem (listed when the run ends; lint.txt)\n"),
            "\(result.output.prefix(600))")
        #expect(result.output.contains("\nlint of model \(model): 1 problem\n  " + problem + "\n"), "\(result.output)")
        #expect(try String(contentsOf: output.appendingPathComponent("lint.txt"), encoding: .utf8) == note + "\n" + problem + "\n")
    }

    @Test func explainShowsOnePhaseOfAGeneratedSuite() throws {
        let result = try Self.bench([
            "explain", "--model", "Scenarios/models/MedicalRecords.xcdatamodeld", "--phase", "walk-Record.user", "--size", "12",
        ])
        #expect(result.status == 0, "\(result.error)")
        let headers = result.output.split(separator: "\n").filter { $0.hasPrefix("--- phase ") }
        #expect(headers.count == 1 && headers[0].hasPrefix("--- phase walk-Record.user (after "), "\(headers)")
        #expect(result.output.contains("counters of walk-Record.user: sql_statements="))
        let wrong = try Self.bench(["explain", "--model", "Scenarios/models/MedicalRecords.xcdatamodeld", "--phase", "walk-Record.usr"])
        #expect(wrong.status == 64)
        #expect(
            wrong.error
                == "bench: error: scenario 'model-MedicalRecords' has no phase 'walk-Record.usr' (did you mean 'walk-Record.user'?)\n")
    }

    /// A save a Deny rule refuses shows in explain among the phase's statements, marked as RelBench's line.
    @Test func explainShowsARefusedSave() throws {
        let result = try Self.bench(["explain", "medical-records", "--variant", "rule=deny", "--phase", "delete-users", "--size", "4"])
        #expect(result.status == 0, "\(result.error)")
        let refusal = result.output.split(separator: "\n").first { $0.hasPrefix("  RelBench: save refused: validation failed for User ") }
        #expect(refusal?.contains("(NSValidationRelationshipDeniedDeleteError, 1600)") == true, "\(result.output)")
        // Past --max-lines too: the Shop's delete-Customer refuses after a hundred lines of cascading faults.
        let shop = try Self.bench(["explain", "--model", LintTests.shop, "--size", "100", "--phase", "delete-Customer"])
        #expect(shop.status == 0, "\(shop.error)")
        let lines = shop.output.split(separator: "\n")
        let shown = try #require(lines.firstIndex { $0.hasPrefix("  RelBench: save refused: validation failed for OrderLine ") })
        #expect(
            lines[shown].contains(".product: \"Items cannot be deleted from product.\" (NSValidationRelationshipDeniedDeleteError, 1600)"))
        #expect(lines[shown - 1].hasPrefix("  ... ") && lines[shown - 1].hasSuffix(" trace lines not shown"))
    }

    @Test func runModelRunsTheGeneratedSuite() throws {
        let output = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try Self.bench([
            "run", "--model", "Scenarios/models/MedicalRecords.xcdatamodeld", "--sizes", "100", "--repetitions", "1",
            "--warmup", "0", "--output", output.path, "--quiet", "--allow-debug", "--no-history",
        ])
        #expect(result.status == 0, "\(result.error)")
        let summary = try SummaryFile.decode(
            try String(contentsOf: output.appendingPathComponent("summary.csv"), encoding: .utf8), file: "summary.csv"
        ).rows
        let phases = Set(summary.map(\.key.phase.rawValue))
        for phase in [
            "insert", "fetch-User", "walk-Record.user", "walk-Record.user-prefetch", "count-User.records-faults",
            "count-User.records-fetch", "batch-Record-20", "delete-User",
        ] {
            #expect(phases.contains(phase), "\(phase)")
        }
        #expect(Set(summary.map(\.key.strategy)) == [.objectGraph, .sqlReplay])
        // The replay runs ObjectGraph's statements: the same counts, phase by phase.
        let statements = summary.filter { $0.key.metric == .sqlStatements }
        for row in statements where row.key.strategy == .objectGraph {
            let replay = statements.first { $0.key.strategy == .sqlReplay && $0.key.phase == row.key.phase }
            #expect(replay?.summary?.median == row.summary?.median, "\(row.key.phase)")
        }
    }

    @Test func explainPrintsTheSQLOfEachPhase() throws {
        let result = try Self.bench(["explain", "faulting", "--variant", "modelling=many-to-many", "--size", "5"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("--- phase first"))
        #expect(
            result.output.contains(
                "CoreData: sql: SELECT 0, t0.Z_PK FROM Z_3SUBJECTS t1 JOIN ZSUBJECT t0 ON t0.Z_PK = t1.Z_4SUBJECTS WHERE t1.Z_3STUDENTS = ?"
            ))
        #expect(result.output.contains("counters of first: sql_statements=3 fetch_requests=1 object_faults=1 relationship_faults=1"))
    }

    /// A subset of scripts/bad_input_sweep.py (about 380 cases, run whole in CI's bad-input step) through this build's
    /// binary: a case of every command, the crashes it once found (Int(1e300), infinite samples), a full disk's output.
    @Test func theBadInputSweepPasses() throws {
        let sweep = Process()
        sweep.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        sweep.arguments =
            ["python3", Self.root.appendingPathComponent("scripts/bad_input_sweep.py").path, "--bench", BenchBinary.path]
            + [
                "top/", "list/json-sizes", "list/json-garbled", "scenario/declared-valid-control", "scenario/predicate-",
                "run/sizes-", "run/strategies-", "run/output-is-a-file", "run/output-disk-full", "schema/garbled",
                "schema/xccurrentversion",
                "lint/random-bytes", "explain/scenario-", "compare/current-infinite", "compare/current-nan", "compare/alpha-",
                "compare/threshold-for-unknown", "baseline/run-running", "merge/shard-nan", "history/store-", "log/",
                "run/device-costs-", "own/", "honest/", "status/baseline-of-a-run-left-running", "status/stale-temporary",
                "status/no-temporary-directory",
                "noop/strategies-given-twice", "noop/when-", "readback/samples-count-",
                "readback/run-json-negative-memory", "scale/model-sparse-2GB-schema", "message/predicate-100000-deep",
                "message/json-offset-1e18", "message/tmpdir-missing", "r4/status-baseline-", "r4/merge-", "r4/compare-",
                "r4/verdicts-", "r4/version-", "r4/history-", "r4/empty-", "r4/message-",
            ].flatMap { ["--only", $0] }
        let output = Pipe()
        sweep.standardOutput = output
        sweep.standardError = output
        try sweep.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sweep.waitUntilExit()
        #expect(sweep.terminationStatus == 0, "\(text.suffix(4000))")
        let summary = text.split(separator: "\n").last { $0.contains(" cases: ") } ?? ""
        #expect((Int(summary.split(separator: " ").first ?? "") ?? 0) >= 60, "\(summary)")
    }

    @Test func badInputGetsOneLineAndANonZeroExit() throws {
        func check(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try Self.bench(arguments)
            #expect(result.status == 64, "\(arguments)", sourceLocation: sourceLocation)
            #expect(result.error == "bench: error: \(message)\n", sourceLocation: sourceLocation)
            #expect(result.output.isEmpty, sourceLocation: sourceLocation)
        }
        let unknown = try Self.bench(["run", "qurey", "--allow-debug"])
        #expect(unknown.status == 64 && unknown.output.isEmpty)
        #expect(
            unknown.error.hasPrefix(
                "bench: error: unknown scenario 'qurey' (did you mean 'query'?) in Scenarios: 'bench list' lists its scenarios (batch-size, "
            ))
        #expect(
            unknown.error.hasSuffix(
                "); --scenarios DIR reads your own folder of scenario files, --model MODEL runs the suite generated from an Xcode model\n"))
        try check(
            ["run", "query", "--variant", "modelling=one-to-one", "--allow-debug"],
            "no chosen scenario has the variant modelling=one-to-one; they have modelling=many-to-one|many-to-nil|many-to-nil-unindexed|many-to-many|manual-fk, prefetch=off|on (see 'bench list')"
        )
        try check(
            ["run", "query", "--sizes", "100,ten", "--allow-debug"],
            "--sizes: 'ten' is not a whole number from 1 to 100000000; give sizes like --sizes 1000,10000")
        try check(
            ["run", "query", "--sizes=-5", "--allow-debug"],
            "--sizes: '-5' is not a whole number from 1 to 100000000; give sizes like --sizes 1000,10000")
        try check(
            ["run", "query", "--sizes", "-5", "--allow-debug"],
            "--sizes: '-5' is not a whole number from 1 to 100000000; give sizes like --sizes 1000,10000")
        try check(["run", "query", "--repetitions", "-1", "--allow-debug"], "--repetitions must be from 1 to 100000")
        try check(
            ["run", "query", "--strategies", "objectgrph", "--allow-debug"],
            "unknown strategy 'objectgrph' (did you mean 'objectgraph'?)")
        try check(
            ["run", "query", "--strategies", "many-to-one", "--allow-debug"],
            "'many-to-one' is a modelling, now a variant: give --variant modelling=many-to-one (and --strategies objectgraph)")
        // The upper bound is 65536 or, below it, the memory the run may use (this machine's): the message names which.
        let pageCache = try Self.bench(["run", "query", "--read-page-cache-mib", "0", "--allow-debug"])
        #expect(pageCache.status == 64)
        #expect(pageCache.error.hasPrefix("bench: error: --read-page-cache-mib '0' must be a whole number from 1 to "))
        try check(
            ["run", "query", "--strategies", "objectgraph", "--strategies", "raw-sqlite", "--allow-debug"],
            "--strategies is given 2 times (objectgraph and raw-sqlite); give one comma-separated list, e.g. --strategies objectgraph,raw-sqlite"
        )
        try check(["history", "query", "--size", "-1"], "--size '-1' must be a whole number from 1 to 100000000")
        try check(
            ["run", "--allow-debug"],
            "name the scenarios to run, pass --all, or --model MODEL for the suite generated from an Xcode model (see 'bench list')")
        try check(
            ["run", "query", "--output", "/proc/relbench", "--sizes", "10", "--allow-debug"],
            "cannot create the output folder /proc/relbench (No such file or directory); choose a writable --output folder")
        try check(
            ["explain", "data-loss", "--strategy", "grdb"],
            "scenario 'data-loss' does not run strategy 'grdb'; it runs objectgraph, sql-replay")

        let folder = temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{\"name\": \"x\", \"description\": \"d\", \"model\": \"m.xcdatamodel\", \"sizes\": [10], \"repetitons\": 2}".utf8)
            .write(to: folder.appendingPathComponent("broken.json"))
        try check(
            ["list", "--scenarios", folder.path],
            "\(folder.path)/broken.json: field 'repetitons': unknown field (did you mean 'repetitions'?)")

        // Where the run's results go is checked before it runs, not after.
        let notAHistory = folder.appendingPathComponent("notes.sqlite")
        try Data(
            "not a database, but long enough for SQLite to read a header from it: 0123456789012345678901234567890123456789012345678901234567890123456789"
                .utf8
        ).write(to: notAHistory)
        let output = folder.appendingPathComponent("run").path
        try check(
            ["run", "query", "--sizes", "10", "--allow-debug", "--output", output, "--history", notAHistory.path],
            "\(notAHistory.path) is not a RelBench history store (file is not a database); give another --history path, or move it away to start a new one"
        )
        try check(
            ["run", "query", "--sizes", "10", "--allow-debug", "--output", output, "--history", "/nonexistent-relbench/h.sqlite"],
            "--history /nonexistent-relbench/h.sqlite: the folder /nonexistent-relbench does not exist; create it, give another path or pass --no-history"
        )
        try check(
            [
                "run", "query", "--sizes", "10", "--allow-debug", "--output", output, "--no-history", "--export", "github-action-benchmark",
                folder.path,
            ],
            "--export github-action-benchmark \(folder.path) is a folder; give a file path")
        let dangling = folder.appendingPathComponent("dangling.json").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "/nonexistent-relbench/x.json")
        try check(
            [
                "run", "query", "--sizes", "10", "--allow-debug", "--output", output, "--no-history", "--export", "github-action-benchmark",
                dangling,
            ],
            "--export github-action-benchmark \(dangling): the folder /nonexistent-relbench does not exist; create it or give another path")
        #expect(!FileManager.default.fileExists(atPath: output))

        let notARun = folder.appendingPathComponent("not-a-run")
        try FileManager.default.createDirectory(at: notARun, withIntermediateDirectories: true)
        try Data("{\"profile\": 3}".utf8).write(to: notARun.appendingPathComponent("run.json"))
        try Data("scenario,strategy,variant,size,repetition,phase,metric,value,unit\n".utf8).write(
            to: notARun.appendingPathComponent("samples.csv"))
        try check(
            ["merge", output, notARun.path],
            "\(notARun.path)/run.json: not a RelBench run.json: field 'gitCommit' is missing; give a run folder written by 'bench run'")
    }

    @Test func aDebugBuildRefusesToWriteTimings() throws {
        let result = try Self.bench(["run", "query", "--sizes", "10"])
        #expect(result.status == 64)
        #expect(
            result.error.hasPrefix(
                "bench: error: this is a debug build, whose timings mislead; run the release build: swift run -c release bench run"))
    }
}
