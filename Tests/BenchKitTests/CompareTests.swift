import Foundation
import Testing

@testable import BenchKit

/// bench compare on hand-made runs.
@Suite struct CompareTests {
    /// A run folder with `walk` timings (ms) and a statement count per repetition, for two strategies.
    private func run(
        _ timings: [Double], statements: Double? = 21, other: [Double] = [5, 5.1, 4.9, 5.05, 4.95],
        extraSeries: Bool = false
    ) throws -> String {
        var samples: [SampleRecord] = []
        for (index, value) in timings.enumerated() {
            samples.append(
                SampleRecord(
                    key: .of("query", .objectGraph, "prefetch=off", size: 1000, phase: "walk", metric: .wallMs), repetition: index + 1,
                    value: value))
            samples.append(
                SampleRecord(
                    key: .of("query", .objectGraph, "prefetch=off", size: 1000, phase: "walk", metric: .sqlStatements),
                    repetition: index + 1, value: statements))
            samples.append(
                SampleRecord(
                    key: .of("query", .rawSQLite, "prefetch=off", size: 1000, phase: "walk", metric: .wallMs), repetition: index + 1,
                    value: other[index % other.count]))
            samples.append(
                SampleRecord(
                    key: .of("query", .rawSQLite, "prefetch=off", size: 1000, phase: "walk", metric: .objectFaults), repetition: index + 1,
                    value: nil))
        }
        if extraSeries {
            samples.append(
                SampleRecord(key: .of("insert", .grdb, "", size: 1000, phase: "insert", metric: .sqlStatements), repetition: 1, value: 1008)
            )
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-compare-\(UUID().uuidString)").path
        let runFolder = try RunFolder(
            path: folder,
            info: RunInfo.current(
                profile: .smoke, seed: 1, settings: StoreSettings(),
                scenarios: ["query"], plannedRepetitions: 1))
        try runFolder.append(samples)
        try runFolder.finish(status: .complete)
        return folder
    }

    private func compare(
        _ baseline: String, _ current: String, countersOnly: Bool = false, gateAllocations: Bool = false
    ) throws
        -> Comparison
    {
        var options = Comparison.Options()
        options.countersOnly = countersOnly
        options.gateAllocations = gateAllocations
        return Comparison(baseline: try RunData.load(baseline), current: try RunData.load(current), options: options)
    }

    /// Seven samples: enough for a consistent shift to stay significant once p-values are adjusted for the
    /// two timing series of a run (five give 2/252 per series, 0.016 adjusted).
    private let steady: [Double] = [10.0, 10.3, 9.8, 10.1, 10.2, 9.9, 10.05]

    @Test func identicalRunsGiveZero() throws {
        let baseline = try run(steady)
        let current = try run(steady)
        let comparison = try compare(baseline, current)
        #expect(comparison.exitCode == 0)
        #expect(comparison.changes.isEmpty)
        #expect(comparison.compared == 3)
    }

    @Test func oneMoreStatementIsARegression() throws {
        let comparison = try compare(try run(steady), try run(steady, statements: 22))
        #expect(comparison.exitCode == 2)
        #expect(comparison.regressions.map(\.key.metric) == [.sqlStatements])
        // The same with counters only (CI), and fewer statements is an improvement.
        #expect(try compare(try run(steady), try run(steady, statements: 22), countersOnly: true).exitCode == 2)
        #expect(try compare(try run(steady), try run(steady, statements: 20)).exitCode == 4)
    }

    @Test func aLargeConsistentSlowdownIsARegression() throws {
        let comparison = try compare(try run(steady), try run(steady.map { $0 * 1.3 }))
        #expect(comparison.exitCode == 2)
        let change = try #require(comparison.regressions.first)
        #expect(change.key.strategy == .objectGraph && change.key.metric == .wallMs)
        #expect(change.pValue! < 0.01)
        #expect(abs(change.relative - 0.3) < 0.01)
        // Timings are not compared at all with --counters-only.
        #expect(try compare(try run(steady), try run(steady.map { $0 * 1.3 }), countersOnly: true).exitCode == 0)
    }

    @Test func smallOrNoisyChangesAreNotRegressions() throws {
        // 3% slower, consistently: significant, but under the 10% threshold.
        let small = try compare(try run(steady), try run(steady.map { $0 * 1.03 }))
        #expect(small.exitCode == 0)
        // 20% slower in the median but overlapping wildly: large, not significant.
        let noisy = try compare(try run(steady), try run([6, 14, 12.5, 8, 15]))
        #expect(noisy.exitCode == 0)
        #expect(noisy.changes.allSatisfy { $0.verdict == .noise })
    }

    @Test func tooFewSamplesToBeSignificantAreSaidSo() throws {
        // Two a side (a smoke run): even a 30% slowdown cannot reach p < 0.01, and the comparison says why.
        let comparison = try compare(try run([10, 10.2]), try run([13, 13.3]))
        #expect(comparison.exitCode == 0)
        #expect(
            comparison.notes == [
                """
                2 of 2 timing and memory series have too few samples (down to 2 a side) for a change in one series alone to \
                be significant at alpha 0.01 over 2 series: give each side 6 or more (--repetitions, or alternate rounds \
                joined with 'bench merge --as-repetitions'), or compare counters or --instructions runs
                """
            ])
        // Five a side passes 0.01 for one series (2/252) but not once adjusted over two (0.016); six do.
        #expect(Comparison.underpoweredNote(samples: [5, 5], alpha: 0.01) != nil)
        #expect(Comparison.underpoweredNote(samples: [6, 6], alpha: 0.01) == nil)
        // The smoke profile's 780 timing and memory series need ten a side.
        #expect(
            Comparison.underpoweredNote(samples: Array(repeating: 9, count: 780), alpha: 0.01)?.contains("give each side 10 or more")
                == true)
        #expect(try compare(try run(steady), try run(steady)).notes.isEmpty)
    }

    @Test func instructionCountsMustPassTheThresholdAndTheFloor() throws {
        func counted(_ large: Double, _ small: Double) throws -> String {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-compare-\(UUID().uuidString)").path
            let runFolder = try RunFolder(
                path: folder,
                info: RunInfo.current(
                    profile: .smoke, seed: 1, settings: StoreSettings(),
                    scenarios: ["query"], plannedRepetitions: 1))
            try runFolder.append(
                [(1000, large), (100, small)].map { size, value in
                    SampleRecord(
                        key: .of("query", .objectGraph, "", size: size, phase: "walk", metric: .instructions), repetition: 1, value: value)
                })
            try runFolder.finish(status: .complete)
            return folder
        }
        // 1% more at both sizes: 30,000 instructions is a regression, 3,000 is within the heap's jitter.
        let comparison = try compare(try counted(3_000_000, 300_000), try counted(3_030_000, 303_000))
        #expect(comparison.regressions.map(\.key.size) == [1000])
        #expect(comparison.changes.count == 1 && comparison.notes.isEmpty)
    }

    @Test func seriesOnOneSideOnlyAreListedNotFailed() throws {
        let comparison = try compare(try run(steady), try run(steady, extraSeries: true))
        #expect(comparison.exitCode == 0)
        #expect(comparison.onlyInCurrent.map(\.scenario) == ["insert"])
        let text = ComparisonReport.text(comparison, baseline: "a", current: "b")
        #expect(text.contains("only in the current run (new, not judged): insert grdb n=1000"))
    }

    @Test func aCounterTheRunLeftEmptyIsMissing() throws {
        let comparison = try compare(try run(steady), try run(steady, statements: nil), countersOnly: true)
        #expect(comparison.exitCode == 3)
        #expect(comparison.onlyInBaseline.map(\.metric) == [.sqlStatements])
        let text = ComparisonReport.text(comparison, baseline: "a", current: "b")
        #expect(
            text.contains(
                "missing from the run (fails: exit 3; pass --allow-missing for a run of fewer scenarios): query objectgraph prefetch=off n=1000 (phase walk sql_statements)"
            ))
        // A counter no strategy measures in either run (raw-sqlite's object faults) is neither missing nor new.
        #expect(!comparison.onlyInBaseline.contains { $0.metric == .objectFaults })
    }

    /// Allocation counts need glibc's malloc: a run made where they cannot be counted (its run.json says so) has
    /// them empty everywhere, which is the platform's lack, noted, not a missing series.
    @Test func aMetricThePlatformCannotMeasureIsNotMissing() throws {
        func folder(allocations: Double?, unmeasurable: [Metric] = []) throws -> String {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-compare-\(UUID().uuidString)").path
            var info = RunInfo.current(profile: .smoke, seed: 1, settings: StoreSettings(), scenarios: ["query"], plannedRepetitions: 1)
            info.unmeasurableMetrics = unmeasurable
            let run = try RunFolder(path: path, info: info)
            try run.append([
                SampleRecord(key: .of("query", .objectGraph, "", size: 10, phase: "walk", metric: .sqlStatements), repetition: 1, value: 3),
                SampleRecord(
                    key: .of("query", .objectGraph, "", size: 10, phase: "walk", metric: .allocations), repetition: 1, value: allocations),
            ])
            try run.finish(status: .complete)
            return path
        }
        let elsewhere = try folder(allocations: nil, unmeasurable: [.allocations, .allocatedBytes, .retainedBytes])
        let comparison = try compare(try folder(allocations: 120), elsewhere, countersOnly: true, gateAllocations: true)
        #expect(comparison.exitCode == 0)
        #expect(comparison.onlyInBaseline.isEmpty)
        #expect(comparison.notes == ["the run measured no allocations in any series (its platform cannot): not compared"])
        // A run whose platform counts allocations but whose counts went missing fails as missing.
        let broken = try compare(try folder(allocations: 120), try folder(allocations: nil), countersOnly: true, gateAllocations: true)
        #expect(broken.exitCode == 3)
        #expect(broken.onlyInBaseline.map(\.metric) == [.allocations])
    }

    @Test func theMarkdownNamesEveryRegression() throws {
        let comparison = try compare(try run(steady), try run(steady.map { $0 * 1.3 }, statements: 23))
        let markdown = ComparisonReport.markdown(comparison, baseline: "Results/baseline", current: "run")
        #expect(markdown.contains("3 series compared, 2 regressions, 0 improvements"))
        #expect(
            markdown.contains(
                "| ❌ regression | query | objectgraph | prefetch=off | 1,000 | walk | sql_statements | 21 | 23 | +9.5% | - | exact |"))
        // A blank line before the table, so GitHub renders it as one.
        #expect(markdown.contains("improvements\n\n| verdict | scenario |"))
    }

    /// GitHub's renderer (cmark-gfm, through the cmarkgfm package) shows the Markdown's table as a table with every row.
    @Test func gitHubRendersTheMarkdownTable() throws {
        let comparison = try compare(try run(steady), try run(steady.map { $0 * 1.3 }, statements: 23))
        let markdown = ComparisonReport.markdown(comparison, baseline: "Results/baseline", current: "run")
        let render = Process()
        render.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        render.arguments = ["python3", "-c", "import sys, cmarkgfm; print(cmarkgfm.github_flavored_markdown_to_html(sys.stdin.read()))"]
        let input = Pipe()
        let output = Pipe()
        render.standardInput = input
        render.standardOutput = output
        render.standardError = FileHandle.nullDevice
        try render.run()
        input.fileHandleForWriting.write(Data(markdown.utf8))
        try input.fileHandleForWriting.close()
        let html = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        render.waitUntilExit()
        guard render.terminationStatus == 0 else {
            print(
                "gitHubRendersTheMarkdownTable: skipped: python3 with cmarkgfm is not installed (pip install -r scripts/requirements.txt)")
            return
        }
        #expect(html.components(separatedBy: "<table>").count == 2)
        #expect(html.components(separatedBy: "<td>❌ regression</td>").count == 3)
    }

    /// A baseline series this binary cannot read (a metric renamed since) is missing to the gate: exit 3, named.
    @Test func aBaselineSeriesWithAnUnknownMetricFailsAsMissing() throws {
        let baseline = try run(steady)
        let samples = (baseline as NSString).appendingPathComponent("samples.csv")
        let handle = try #require(FileHandle(forWritingAtPath: samples))
        handle.seekToEndOfFile()
        handle.write(Data("query,objectgraph,prefetch=off,1000,1,walk,sql_statments,21,count\n".utf8))
        try handle.close()
        let result = try CommandLineTests.bench(["compare", baseline, try run(steady), "--counters-only"])
        #expect(result.status == 3)
        #expect(result.output.contains("unreadable in the baseline"))
        #expect(result.output.contains("metric 'sql_statments' is unknown"))
    }

    @Test func theCommandsExitCodes() throws {
        let baseline = try run(steady)
        let missing = try CommandLineTests.bench(["compare", "/nonexistent/baseline", baseline])
        #expect(missing.status == 5)
        #expect(missing.error.hasPrefix("bench: error: baseline /nonexistent/baseline is missing or unreadable"))
        #expect(try CommandLineTests.bench(["compare", baseline, try run(steady)]).status == 0)
        let markdownFile = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-\(UUID().uuidString).md").path
        let regression = try CommandLineTests.bench([
            "compare", baseline, try run(steady, statements: 30), "--counters-only", "--markdown", markdownFile,
        ])
        #expect(regression.status == 2)
        #expect(regression.output.contains("regression"))
        #expect(FileManager.default.fileExists(atPath: markdownFile))
        #expect(try CommandLineTests.bench(["compare", baseline, "/nonexistent/current"]).status == 1)
        #expect(try CommandLineTests.bench(["compare", baseline]).status == 64)
    }

    @Test func benjaminiHochbergAdjustsForTheNumberOfSeries() {
        // R's p.adjust(c(0.01, 0.04, 0.03, 0.005), "BH") gives 0.02, 0.04, 0.04, 0.02.
        let adjusted = Comparison.benjaminiHochberg([0.01, 0.04, 0.03, 0.005])
        for (value, expected) in zip(adjusted, [0.02, 0.04, 0.04, 0.02]) { #expect(abs(value - expected) < 1e-12) }
        #expect(Comparison.benjaminiHochberg([]).isEmpty)
    }

    @Test func mannWhitneyAgainstKnownValues() {
        // Complete separation of 5 and 5: the exact two-sided p is 2/252.
        #expect(abs(MannWhitney.pValue([1, 2, 3, 4, 5], [6, 7, 8, 9, 10]) - 2.0 / 252.0) < 1e-12)
        #expect(MannWhitney.pValue([1, 2], [3, 4]) == 1.0 / 3.0)
        #expect(MannWhitney.pValue([1, 2, 3], [1, 2, 3]) == 1)
        #expect(abs(MannWhitney.smallestPValue(5, 5) - 2.0 / 252.0) < 1e-12)
        #expect(abs(MannWhitney.smallestPValue(2, 2) - 1.0 / 3.0) < 1e-12 && MannWhitney.smallestPValue(4, 4) > 0.01)
        // A larger sample with ties uses the normal approximation (scipy.stats.mannwhitneyu gives 0.0107).
        let a: [Double] = [1, 2, 2, 3, 4, 5, 5, 6, 7, 8, 9, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]
        let b: [Double] = a.map { $0 + 5 }
        let p = MannWhitney.pValue(a, b)
        #expect(abs(p - 0.0107) < 0.002)
    }
}

/// The history store, shard merging, and the instruction-count bookkeeping.
@Suite struct RunToolsTests {
    @Test func historyKeepsEveryRunsSummary() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-history-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let history = try HistoryStore(path: path)
        for (commit, median) in [("aaa", 10.0), ("bbb", 12.0)] {
            var info = RunInfo.current(profile: .smoke, seed: 1, settings: StoreSettings(), scenarios: ["query"], plannedRepetitions: 1)
            info.gitCommit = commit
            info.buildConfiguration = .release
            let rows = SummaryFile.summarize([
                SampleRecord(
                    key: .of("query", .objectGraph, "prefetch=on", size: 100, phase: "walk", metric: .wallMs), repetition: 1, value: median)
            ])
            try history.append(info: info, folder: "runs/\(commit)", summary: rows)
        }
        let entries = try HistoryStore(path: path).entries(scenario: "query", metric: .wallMs, strategy: .objectGraph).entries
        #expect(entries.map(\.commit) == ["aaa", "bbb"])
        #expect(entries.map(\.median) == [10, 12])
    }

    /// The dashboard gets only series better lower (never cache hits) and, with patterns, only the series named.
    @Test func theDashboardExportKeepsTheNamedSeries() throws {
        let rows = SummaryFile.summarize(
            [Metric.wallMs, .cacheHits].flatMap { metric in
                [("off", 1.0), ("on", 2.0)].map { variant, value in
                    SampleRecord(
                        key: .of("query", .objectGraph, "prefetch=\(variant)", size: 100, phase: "walk", metric: metric), repetition: 1,
                        value: value)
                }
            })
        func names(_ json: String) throws -> [String] {
            try (JSONSerialization.jsonObject(with: Data(json.utf8)) as! [[String: Any]]).map { $0["name"] as! String }
        }
        #expect(
            try names(GitHubBenchmarkExport.encode(rows)) == [
                "query objectgraph [prefetch=off] n=100 walk wall_ms", "query objectgraph [prefetch=on] n=100 walk wall_ms",
            ])
        #expect(
            try names(GitHubBenchmarkExport.encode(rows, patterns: ["query objectgraph [[]prefetch=on] n=* walk *"])) == [
                "query objectgraph [prefetch=on] n=100 walk wall_ms"
            ])
    }

    /// An interrupted run that lost scenarios fails the counters gate (exit 3) rather than passing it.
    @Test func anInterruptedRunFailsTheCountersGate() throws {
        let temporary = FileManager.default.temporaryDirectory
        func folder(_ scenarios: [ScenarioName], status: RunStatus) throws -> String {
            let path = temporary.appendingPathComponent("relbench-gate-\(UUID().uuidString)").path
            let run = try RunFolder(
                path: path,
                info: RunInfo.current(
                    profile: .smoke, seed: 1, settings: StoreSettings(), scenarios: scenarios,
                    plannedRepetitions: 1))
            try run.append(
                scenarios.map {
                    SampleRecord(key: .of($0, .objectGraph, "", size: 100, phase: "p", metric: .sqlStatements), repetition: 1, value: 7)
                })
            try run.finish(status: status)
            return path
        }
        let baseline = try folder(["insert", "query"], status: .complete)
        let interrupted = try folder(["insert"], status: .interrupted)
        defer { for path in [baseline, interrupted] { try? FileManager.default.removeItem(atPath: path) } }
        let gate = try CommandLineTests.bench(["compare", baseline, interrupted, "--counters-only"])
        #expect(gate.status == 3, "\(gate.output)")
        #expect(gate.output.contains("query objectgraph n=100"))
        #expect(try CommandLineTests.bench(["compare", baseline, interrupted, "--counters-only", "--allow-missing"]).status == 0)
    }

    /// A run made with RELBENCH_INJECT_* set is never a baseline; nor is a debug build's.
    @Test func baselineSaveRefusesUnrepresentativeRuns() throws {
        let temporary = FileManager.default.temporaryDirectory
        let run = temporary.appendingPathComponent("relbench-injected-\(UUID().uuidString)").path
        let destination = temporary.appendingPathComponent("relbench-baseline-\(UUID().uuidString)").path
        defer { for path in [run, destination] { try? FileManager.default.removeItem(atPath: path) } }
        var info = RunInfo.current(profile: .smoke, seed: 1, settings: StoreSettings(), scenarios: ["query"], plannedRepetitions: 1)
        info.buildConfiguration = .release
        info.injections = ["RELBENCH_INJECT_STATEMENT": "query/walk"]
        let folder = try RunFolder(path: run, info: info)
        try folder.append([
            SampleRecord(key: .of("query", .objectGraph, "", size: 10, phase: "walk", metric: .sqlStatements), repetition: 1, value: 3)
        ])
        try folder.finish(status: .complete)
        let saved = try CommandLineTests.bench(["baseline", "save", run, "--to", destination])
        #expect(saved.status == 64)
        #expect(saved.error.contains("RELBENCH_INJECT_STATEMENT"), "\(saved.error)")
        #expect(!FileManager.default.fileExists(atPath: destination))
    }

    /// A folder marked complete that lacks a file its run.json lists (removed since the run) is not a baseline.
    @Test func baselineSaveRefusesAFolderMissingAListedFile() throws {
        let temporary = FileManager.default.temporaryDirectory
        let run = temporary.appendingPathComponent("relbench-run-\(UUID().uuidString)").path
        let destination = temporary.appendingPathComponent("relbench-baseline-\(UUID().uuidString)").path
        defer { for path in [run, destination] { try? FileManager.default.removeItem(atPath: path) } }
        var info = RunInfo.current(profile: .smoke, seed: 1, settings: StoreSettings(), scenarios: ["query"], plannedRepetitions: 1)
        info.buildConfiguration = .release
        let folder = try RunFolder(path: run, info: info)
        try folder.append([
            SampleRecord(key: .of("query", .objectGraph, "", size: 10, phase: "walk", metric: .sqlStatements), repetition: 1, value: 3)
        ])
        try folder.finish(status: .complete)
        #expect(try RunInfo.load(run).files?.contains("complexity.csv") == true)
        try FileManager.default.removeItem(atPath: run + "/complexity.csv")
        let saved = try CommandLineTests.bench(["baseline", "save", run, "--to", destination])
        #expect(saved.status == 64)
        #expect(saved.error.contains("lacks complexity.csv, which its run.json lists"), "\(saved.error)")
        #expect(!FileManager.default.fileExists(atPath: destination))
    }

    /// baseline save replaces only a baseline: a folder with anything else in it (a run's verdicts, a user's
    /// notes) is refused and left as it was; names beside it that look like staging folders are not touched.
    @Test func baselineSaveLeavesOtherFoldersAlone() throws {
        let temporary = FileManager.default.temporaryDirectory
        let run = temporary.appendingPathComponent("relbench-run-\(UUID().uuidString)").path
        let destination = temporary.appendingPathComponent("relbench-notes-\(UUID().uuidString)").path
        defer {
            for path in [run, destination, destination + ".saving", destination + ".old"] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        var info = RunInfo.current(profile: .smoke, seed: 1, settings: StoreSettings(), scenarios: ["query"], plannedRepetitions: 1)
        info.buildConfiguration = .release
        let folder = try RunFolder(path: run, info: info)
        try folder.append([
            SampleRecord(key: .of("query", .objectGraph, "", size: 10, phase: "walk", metric: .sqlStatements), repetition: 1, value: 3)
        ])
        try folder.finish(status: .complete)
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        try "keep".write(toFile: destination + "/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: run + "/run.json", toPath: destination + "/run.json")
        for sibling in [destination + ".saving", destination + ".old"] {
            try FileManager.default.createDirectory(atPath: sibling, withIntermediateDirectories: true)
        }
        let refused = try CommandLineTests.bench(["baseline", "save", run, "--to", destination, "--any-profile"])
        #expect(refused.status == 64)
        #expect(refused.error.contains("notes.txt"), "\(refused.error)")
        #expect(FileManager.default.fileExists(atPath: destination + "/notes.txt"))
        try FileManager.default.removeItem(atPath: destination + "/notes.txt")
        let saved = try CommandLineTests.bench(["baseline", "save", run, "--to", destination + "/", "--any-profile"])
        #expect(saved.status == 0, "\(saved.error)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: destination)) == Set(RunFolder.reportFiles))
        // Its run.json lists only the files the baseline holds (the run's summary.txt and pages stay behind).
        let listed = try #require(try RunInfo.load(destination).files)
        #expect(!listed.isEmpty && Set(listed).isSubset(of: Set(RunFolder.reportFiles)), "\(listed)")
        for sibling in [destination + ".saving", destination + ".old"] { #expect(FileManager.default.fileExists(atPath: sibling)) }
        let empty = try CommandLineTests.bench(["baseline", "save", run, "--to", "", "--any-profile"])
        #expect(empty.status == 64 && empty.error.contains("--to is empty"), "\(empty.error)")
    }

    /// Reports are written through a symbolic link and straight into a device, never replacing either, and
    /// never over a report of the run being read.
    @Test func reportsWriteThroughLinksAndDevices() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let target = temporary + "/target.md"
        let link = temporary + "/link.md"
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try AtomicFile.write("new", to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        try AtomicFile.write("discarded", to: "/dev/null")
        #expect((try FileManager.default.attributesOfItem(atPath: "/dev/null"))[.type] as? FileAttributeType == .typeCharacterSpecial)
        #expect(throws: BenchError.self) { try AtomicFile.write("x", to: temporary) }
        #expect(throws: BenchError.self) {
            try AtomicFile.refuseOverwriting(temporary + "/./run.json", option: "--json", reportsOf: [temporary])
        }
        try AtomicFile.refuseOverwriting(temporary + "/verdicts.json", option: "--json", reportsOf: [temporary])
    }

    /// bench history: one block per series, in numeric order of size, each with its unit and its runs oldest first.
    @Test func historyIsGroupedBySeries() {
        func entry(_ commit: String, _ size: Int, _ median: Double) -> HistoryStore.Entry {
            HistoryStore.Entry(
                time: "2026-11-2\(commit.count)T10:00:00Z", commit: commit, profile: .smoke,
                key: SeriesKey.of("query", .objectGraph, "prefetch=off", size: size, phase: "walk", metric: .wallMs), n: 3, median: median,
                ciLow: median, ciHigh: median)
        }
        let text = HistoryReport.text(
            [entry("a", 1000, 2), entry("a", 100, 1), entry("bb", 1000, 3), entry("bb", 100, 1.5)], metric: .wallMs)
        let titles = text.split(separator: "\n").filter { $0.hasPrefix("query ") }
        #expect(
            titles == [
                "query objectgraph prefetch=off size 100 walk: wall_ms (ms)",
                "query objectgraph prefetch=off size 1,000 walk: wall_ms (ms)",
            ])
        #expect(text.contains("+50.0%"))
    }

    /// The child of an instruction run gets every option the user gave, as typed values in a file, with no warmups,
    /// and the suite options its parent resolved.
    @Test func theChildOfAnInstructionRunReadsItsPlanFromAFile() throws {
        var arguments = RunArguments()
        arguments.scenarioNames = ["query"]
        arguments.sizes = [10, 100]
        arguments.strategies = [.objectGraph, .rawSQLite]
        arguments.variants = [try VariantFilter("modelling=many-to-one")]
        arguments.warmup = 2
        arguments.settings.readPageCacheMiB = 8
        arguments.shard = try Shard("1/2")
        arguments.counts = ["Customer": 10]
        let plan = ChildRunPlan(arguments: arguments, suiteOptions: GeneratedSuite.Options(counts: ["Customer": 10]), output: "x")
        #expect(plan.arguments.warmup == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-plan-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        try plan.write(to: file)
        let read = try ChildRunPlan.load(file)
        #expect(read == plan)
        var expected = arguments
        expected.warmup = 0
        // Instructions are exact: the child runs no sequential rounds.
        expected.fixedRepetitions = true
        #expect(read.arguments == expected)
        #expect(throws: BenchError.self) { try ChildRunPlan.load(file + ".missing") }
    }

    @Test func instructionCountsReplaceTimings() throws {
        func sample(_ phase: PhaseName, _ metric: Metric, _ value: Double) -> SampleRecord {
            SampleRecord(key: .of("q", .objectGraph, "", size: 1, phase: phase, metric: metric), repetition: 1, value: value)
        }
        let samples = [
            sample("a", .wallMs, 1), sample("a", .sqlStatements, 2), sample("a", .peakRSSBytes, 3),
            sample("b", .wallMs, 4), sample("b", .sqlStatements, 5),
        ]
        let dumps = [
            CallgrindDump(instructions: 100, allocatorInstructions: 10), CallgrindDump(instructions: 200, allocatorInstructions: 20),
        ]
        let merged = try InstructionCount.attach(dumps, to: samples)
        #expect(
            merged.map(\.key.metric) == [
                .sqlStatements, .instructions, .allocatorInstructions, .sqlStatements, .instructions, .allocatorInstructions,
            ])
        #expect(merged.filter { $0.key.metric == .instructions }.map(\.value) == [100, 200])
        #expect(merged.filter { $0.key.metric == .allocatorInstructions }.map(\.value) == [10, 20])
        #expect(throws: BenchError.self) { try InstructionCount.attach([dumps[0]], to: samples) }
    }

    @Test func injectionsAreReadFromTheEnvironment() {
        let injection = Injection(environment: ["RELBENCH_INJECT_SLOWDOWN": "query/walk=0.15", "RELBENCH_INJECT_STATEMENT": "query/walk"])
        #expect(injection.slowdown?.scenario == "query" && injection.slowdown?.phase == "walk" && injection.slowdown?.fraction == 0.15)
        #expect(
            injection.addsStatement(scenario: "query", phase: "walk") && !injection.addsStatement(scenario: "query", phase: "fetch-all"))
        #expect(Injection(environment: ["RELBENCH_INJECT_SLOWDOWN": "nonsense"]).slowdown == nil)
    }
}

/// scripts/plot.py on a tiny run folder: every plot it should make.
@Suite struct PlotScriptTests {
    @Test func plotsATinyRun() throws {
        let root = CommandLineTests.root
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = ["python3", "-c", "import matplotlib"]
        check.standardError = FileHandle.nullDevice
        guard (try? check.run()) != nil,
            ({
                check.waitUntilExit()
                return check.terminationStatus == 0
            })()
        else {
            print("PlotScriptTests: skipped: python3 with matplotlib is not installed (pip install -r scripts/requirements.txt)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-plot-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try CommandLineTests.bench([
            "run", "insert", "query", "batch-size", "data-loss", "--sizes", "60,120,240", "--repetitions", "1",
            "--warmup", "0", "--strategies", "objectgraph,raw-sqlite", "--variant", "modelling=many-to-one", "--variant",
            "modelling=many-to-nil", "--variant", "modelling=many-to-many",
            "--output", folder, "--quiet", "--allow-debug", "--no-history",
        ])
        #expect(run.status == 0, "\(run.error)")
        let plot = Process()
        plot.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        plot.arguments = ["python3", root.appendingPathComponent("scripts/plot.py").path, folder]
        plot.standardOutput = FileHandle.nullDevice
        try plot.run()
        plot.waitUntilExit()
        #expect(plot.terminationStatus == 0)
        let report = try CommandLineTests.bench(["report", folder])
        #expect(report.status == 0, "\(report.error)")
        let plots = Set(try FileManager.default.contentsOfDirectory(atPath: folder + "/plots"))
        for name in [
            "time-insert", "time-query", "time-data-loss", "figure7", "batch-size-objectgraph", "batch-size-raw-sqlite",
            "data-loss", "statements-query", "statements-insert", "statements-data-loss",
        ] {
            #expect(plots.contains(name + ".png") && plots.contains(name + ".svg"), "\(name)")
        }
        let reportText = try String(contentsOfFile: folder + "/report.md", encoding: .utf8)
        #expect(reportText.contains("## Data loss") && reportText.contains("| data-loss | objectgraph | modelling=many-to-nil;duplicates="))
        #expect(reportText.contains("![insert: time against size](plots/time-insert.png)"))
        #expect(FileManager.default.fileExists(atPath: folder + "/report.html"))
        // No plot grows wider than a page shows (one was 3,657 px before statements went to horizontal bars).
        for name in plots where name.hasSuffix(".png") {
            let header = try #require(FileManager.default.contents(atPath: folder + "/plots/" + name)).prefix(24)
            let width = header.dropFirst(16).prefix(4).reduce(0) { $0 << 8 | Int($1) }
            let height = header.dropFirst(20).prefix(4).reduce(0) { $0 << 8 | Int($1) }
            #expect(width > 0 && width <= 2000, "\(name) is \(width) px wide")
            // Nor taller than about 2,000 px (a statements chart was 4,415 px before charts were split into parts).
            #expect(height > 0 && height <= 2100, "\(name) is \(height) px high")
        }
    }
}

@Suite struct MergeTests {
    private func run(_ strategy: Strategy, repetitions: Int) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-merge-\(UUID().uuidString)").path
        // As a release build's: the history refuses a debug build's timings.
        var info = RunInfo.current(profile: .smoke, seed: 1, settings: StoreSettings(), scenarios: ["q"], plannedRepetitions: repetitions)
        info.buildConfiguration = .release
        let runFolder = try RunFolder(path: folder, info: info)
        for repetition in 1...repetitions {
            try runFolder.append([
                SampleRecord(
                    key: .of("q", strategy, "", size: 10, phase: "p", metric: .wallMs), repetition: repetition, value: Double(repetition))
            ])
        }
        try runFolder.finish(status: .complete)
        return folder
    }

    @Test func shardsJoinAndRepeatedRunsNumberOn() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-merged-\(UUID().uuidString)").path
        #expect(
            try RunMerge.merge([try run(.objectGraph, repetitions: 2), try run(.sqlReplay, repetitions: 2)], into: output).samples.count
                == 4)
        let same = try run(.objectGraph, repetitions: 2)
        #expect(throws: BenchError.self) { try RunMerge.merge([same, try run(.objectGraph, repetitions: 1)], into: output + "-2") }
        #expect(
            try RunMerge.merge([same, try run(.objectGraph, repetitions: 3)], into: output + "-3", asRepetitions: true).samples.count == 5)
        let samples = try SamplesFile.load(output + "-3/samples.csv").samples
        #expect(samples.map(\.repetition) == [1, 2, 3, 4, 5])
    }

    /// Sequential runs ran some arms more rounds than others: merged as repetitions, the next run's rounds of a scenario
    /// and size start after the last round of any of its series, so that one round's arms keep one number and pair, and
    /// the merge stays sequential.
    @Test func sequentialRunsMergeRoundByRound() throws {
        func sequential(_ rounds: [Strategy: Int]) throws -> String {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-merge-\(UUID().uuidString)").path
            var info = RunInfo.current(profile: .default, seed: 1, settings: StoreSettings(), scenarios: ["q"], plannedRepetitions: 0)
            info.schedules = ["q": RunInfo.Schedule(sizes: [10], repetitions: 2, warmup: 0, sequential: true)]
            let runFolder = try RunFolder(path: folder, info: info)
            for (strategy, count) in rounds.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                for round in 1...count {
                    try runFolder.append([
                        SampleRecord(key: .of("q", strategy, "", size: 10, phase: "p", metric: .wallMs), repetition: round, value: 1)
                    ])
                }
            }
            try runFolder.finish(status: .complete)
            return folder
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-merged-\(UUID().uuidString)").path
        let merged = try RunMerge.merge(
            [try sequential([.objectGraph: 5, .sqlReplay: 2]), try sequential([.objectGraph: 2, .sqlReplay: 2])], into: output,
            asRepetitions: true)
        let rounds = Dictionary(grouping: merged.samples, by: \.key.strategy).mapValues { $0.map(\.repetition).sorted() }
        #expect(rounds[.objectGraph] == [1, 2, 3, 4, 5, 6, 7])
        #expect(rounds[.sqlReplay] == [1, 2, 6, 7])
        #expect(merged.info.schedules?["q"]?.sequential == true)
    }

    @Test func theMergeCommandAddsTheMergedRunToTheHistory() throws {
        let temporary = FileManager.default.temporaryDirectory
        let output = temporary.appendingPathComponent("relbench-merged-\(UUID().uuidString)").path
        let history = temporary.appendingPathComponent("relbench-history-\(UUID().uuidString).sqlite").path
        let export = temporary.appendingPathComponent("relbench-export-\(UUID().uuidString).json").path
        defer { for path in [output, history, export] { try? FileManager.default.removeItem(atPath: path) } }
        let result = try CommandLineTests.bench([
            "merge", output, try run(.objectGraph, repetitions: 2), try run(.sqlReplay, repetitions: 3),
            "--history", history, "--export", "github-action-benchmark", export,
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "merged 2 shards, 5 samples, into \(output)\n")
        let entries = try HistoryStore(path: history).entries(
            scenario: "q", metric: .wallMs, strategy: nil, variant: nil, size: nil, phase: nil
        ).entries
        #expect(entries.map(\.key.strategy) == [.objectGraph, .sqlReplay] && entries.map(\.median) == [1.5, 2])
        #expect(FileManager.default.fileExists(atPath: export))
    }
}
