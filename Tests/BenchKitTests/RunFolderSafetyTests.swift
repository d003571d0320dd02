import Foundation
import Synchronization
import Testing

@testable import BenchKit

/// What a user owns is never overwritten, two writers never mix a run, and every fault leaves a true status: the
/// built binary on real temporary folders.
@Suite(.serialized) struct RunFolderSafetyTests {
    typealias CLI = CommandLineTests

    /// A new folder for one test, removed by `defer`.
    private func scratch() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-safety-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func bench(_ arguments: [String], in folder: URL = CLI.root, environment: [String: String] = [:]) throws -> CLI.Result {
        try CLI.bench(arguments, in: folder, environment: environment)
    }

    private static let tinyRun = [
        "run", "query", "--sizes", "10", "--repetitions", "1", "--warmup", "0", "--strategies", "objectgraph",
        "--variant", "modelling=many-to-one", "--quiet", "--allow-debug", "--no-advice", "--no-history",
    ]

    @Test func anOutputFolderHoldingAnythingIsRefusedAndKept() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let own = folder.appendingPathComponent("mine")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        try "my numbers\n".write(to: own.appendingPathComponent("summary.csv"), atomically: false, encoding: .utf8)
        let refused = try bench(Self.tinyRun + ["--output", own.path])
        #expect(refused.status == 64)
        #expect(refused.error.contains("is not empty (it holds summary.csv)"), "\(refused.error)")
        #expect(try String(contentsOf: own.appendingPathComponent("summary.csv"), encoding: .utf8) == "my numbers\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: own.path) == ["summary.csv"])
        let root = try bench(Self.tinyRun + ["--output", "/"])
        #expect(root.status == 64 && root.error.contains("output folder / is not empty"), "\(root.error)")
        // An empty folder is taken.
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        #expect(try bench(Self.tinyRun + ["--output", empty.path]).status == 0)
        #expect(try RunInfo.load(empty.path).status == .complete)
    }

    /// A second run into the folder a run is writing is refused at once; the first is untouched.
    @Test func aSecondWriterIsRefusedWhileTheFirstRuns() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("run")
        let first = try CLI.startLongRun(into: output)
        let second = try bench(Self.tinyRun + ["--output", output.path])
        let merge = try bench(["merge", output.path, CLI.root.appendingPathComponent("Results/baseline").path, "--no-advice"])
        #expect(try RunInfo.load(output.path).status == .running)
        kill(first.processIdentifier, SIGTERM)
        first.waitUntilExit()
        #expect(second.status == 64 && second.error.contains("another bench process is writing into"), "\(second.error)")
        #expect(merge.status == 64 && merge.error.contains("another bench process is writing into"), "\(merge.error)")
        let info = try RunInfo.load(output.path)
        #expect(info.status == .interrupted)
        let samples = try SamplesFile.load(output.appendingPathComponent("samples.csv").path).samples
        #expect(Set(samples.map(\.key.strategy)) == [.objectGraph] && CLI.wholeRepetitions(samples) == info.finishedRepetitions)
    }

    /// SIGKILL leaves run.json "running"; read back, it is interrupted, since no process holds the folder any more.
    @Test func aFolderLeftRunningByAKilledProcessReadsAsInterrupted() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("run")
        let process = try CLI.startLongRun(into: output)
        #expect(try RunInfo.load(output.path).status == .running)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let onDisk = try String(contentsOf: output.appendingPathComponent("run.json"), encoding: .utf8)
        #expect(onDisk.contains("\"status\" : \"running\""))
        #expect(try RunInfo.load(output.path).status == .interrupted)
        let save = try bench(["baseline", "save", output.path, "--to", folder.appendingPathComponent("b").path])
        #expect(save.status == 64 && save.error.contains("is interrupted, not complete"), "\(save.error)")
    }

    /// The next run removes the temporary folders of processes that are gone, and leaves a live one's; no run
    /// leaves Foundation's or swift-driver's empty `TemporaryDirectory.*` behind.
    @Test func theNextRunRemovesStaleTemporaryFolders() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let temporary = folder.appendingPathComponent("tmp")
        var dead: pid_t = 4_000_000
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        let stale = ["relbench-run-\(dead)-ABCDEF12", "relbench-callgrind-\(dead)-0123ABCD-removing"]
        let kept = ["relbench-run-\(getpid())-ABCDEF12", "relbench-cli-\(UUID().uuidString)", "unrelated"]
        for name in stale + kept {
            try FileManager.default.createDirectory(at: temporary.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let result = try bench(
            Self.tinyRun + ["--output", folder.appendingPathComponent("run").path], environment: ["TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).sorted() == kept.sorted())
    }

    /// run.json's commit is the binary's, not that of the repository the run was started in.
    @Test func runJSONRecordsTheBinarysCommit() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = folder.appendingPathComponent("other-repository")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        for command in [["init", "-q"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"]] {
            let git = Process()
            git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            git.arguments = ["git", "-C", other.path] + command
            try git.run()
            git.waitUntilExit()
        }
        let result = try bench(
            Self.tinyRun + ["--output", "run", "--scenarios", CLI.root.appendingPathComponent("Scenarios").path], in: other)
        #expect(result.status == 0, "\(result.error)")
        let info = try RunInfo.load(other.appendingPathComponent("run").path)
        let version = try bench(["--version"]).output
        #expect(info.gitCommit == info.binaryCommit && version.hasPrefix(info.gitCommit + " "), "\(info.gitCommit) \(version)")
    }

    /// Runs appended to one history store at the same moment are all kept.
    @Test func concurrentHistoryWritersLoseNoRun() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("history.sqlite").path
        var info = RunInfo.current(
            profile: .smoke, seed: 1, settings: StoreSettings(), scenarios: ["query"], plannedRepetitions: 1)
        info.buildConfiguration = .release
        info.injections = [:]
        let summary = SummaryFile.summarize(
            (1...5).map { SampleRecord(key: .of("query", size: 10, phase: "walk", metric: .wallMs), repetition: $0, value: Double($0)) })
        let errors = Mutex<[String]>([])
        let finished = info
        DispatchQueue.concurrentPerform(iterations: 24) { index in
            do {
                try HistoryStore(path: path).append(info: finished, folder: "run-\(index)", summary: summary)
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.withLock { $0.isEmpty }, "\(errors.withLock { $0 })")
        let entries = try HistoryStore(path: path, create: false).entries(scenario: "query", metric: .wallMs).entries
        #expect(entries.count == 24)
    }
}
