import Foundation
import ObjectGraph

/// Where a run stands: measuring, finished, or stopped early (and how).
package enum RunStatus: String, Codable, Sendable, CaseIterable {
    case running
    case complete
    /// Stopped by Ctrl-C, SIGTERM or SIGHUP: the finished repetitions are whole.
    case interrupted
    /// Stopped by an error (a full disk): the finished repetitions are whole, if any were written.
    case failed
    /// Merged from shards of which at least one did not complete.
    case incomplete
}

/// How the bench binary was built: a debug build's timings mislead.
package enum BuildConfiguration: String, Codable, Sendable {
    case debug, release

    /// This binary's.
    package static var current: BuildConfiguration {
        #if DEBUG
        return .debug
        #else
        return .release
        #endif
    }
}

/// What a run's phases were measured by.
package enum MeasurementKind: String, Codable, Sendable {
    case wallClock = "wall-clock time"
    /// `bench run --instructions`: each phase's instructions counted under callgrind, not timed.
    case instructions = "instructions (callgrind)"
    /// `bench log LOG --output DIR`: a device's counters read from its SQLDebug log, nothing measured here.
    case deviceLog = "a device's SQLDebug log"
}

/// The SQLDebug log a run folder of `bench log --output` was read from, and how readable it was.
package struct DeviceLogSource: Codable, Sendable, Equatable {
    /// The log's path (`-` for standard input).
    package var path: String
    package var bytes: Int
    package var lines: Int
    package var coreDataLines: Int
    package var garbledLines: Int
    package var truncatedLines: Int
    /// Whether entity and property names were inferred from Z names (no model given, or the model lacked them).
    package var namesInferred: Bool

    package init(path: String, bytes: Int, lines: Int, coreDataLines: Int, garbledLines: Int, truncatedLines: Int, namesInferred: Bool) {
        self.path = path
        self.bytes = bytes
        self.lines = lines
        self.coreDataLines = coreDataLines
        self.garbledLines = garbledLines
        self.truncatedLines = truncatedLines
        self.namesInferred = namesInferred
    }
}

/// run.json: where, when and how a run was made, so that its numbers can be trusted and reproduced.
package struct RunInfo: Codable, Sendable {
    /// The command that made the run, as typed (`bench run --all --profile default ...`).
    package var command: String {
        commandLine.isEmpty ? "bench run" : (["bench"] + commandLine.dropFirst()).joined(separator: " ")
    }

    /// The commit the bench binary was built from (`binaryCommit`, recorded at build time).
    package var gitCommit: String
    package var utcTime: String
    package var host: String
    package var cpuCount: Int
    package var memoryBytes: UInt64
    package var swiftVersion: String
    package var sqliteVersion: String
    package var buildConfiguration: BuildConfiguration
    package var profile: Profile
    package var seed: UInt64
    package var commandLine: [String]
    /// SQLite settings every strategy used: page cache, journal mode, synchronous, transaction size.
    package var sqliteSettings: [String: String]
    package var scenarios: [ScenarioName]
    /// Where each scenario was defined (absent in runs before it was recorded).
    package var scenarioOrigins: [String: Scenario.Origin]?
    package var status: RunStatus
    package var finishedRepetitions: Int
    package var plannedRepetitions: Int
    /// What measured the phases: wall-clock time, or instructions for a `--instructions` run.
    package var measurement: MeasurementKind?
    /// The deliberate regressions injected into the run (`RELBENCH_INJECT_*` and their values); empty for a real run.
    package var injections: [String: String]?
    /// The commit the bench binary was built from (with `-dirty` when its checkout had changes), recorded at build time.
    package var binaryCommit: String?
    /// Metrics the run's platform could not measure (`Metric.unmeasurableHere`); nil in runs before it was recorded.
    package var unmeasurableMetrics: [Metric]?
    /// The sizes, repetitions and warmups each scenario ran with (its profile's, or the command line's); nil in runs
    /// before it was recorded.
    package var schedules: [String: Schedule]?
    /// The log a `bench log --output` folder was read from; nil for a run.
    package var deviceLog: DeviceLogSource?
    /// The costs `bench run --device-costs FILE` priced the phases with (`predicted_device_ms`); nil without.
    package var deviceCosts: DeviceCosts?

    /// Content hashes of each scenario's file and model (absent in runs before they were recorded).
    package var definitionHashes: [String: DefinitionHash]?

    /// A new identifier for every run folder made (a merge's too): a copy of a folder (`cp -r`) keeps it, so that the copy
    /// is not taken for another run. Absent in runs before it was recorded.
    package var identifier: String?
    /// The files of the folder written whole when run.json was last written, in the order written (run.json itself
    /// aside): what a run marked interrupted or failed holds. Absent in runs before it was recorded.
    package var files: [String]?

    /// What one scenario of a run was measured at.
    package struct Schedule: Codable, Sendable, Equatable {
        package let sizes: [Int]
        package let repetitions: Int
        package let warmup: Int
        /// Whether the arms a claim compares on time or memory went on, round by round, until a look of its
        /// sequential design decided or its cap was reached (`repetitions` is then the fewest each series ran); nil
        /// (runs before it, or of `--repetitions`) for fixed repetitions.
        package var sequential: Bool?

        package init(sizes: [Int], repetitions: Int, warmup: Int, sequential: Bool? = nil) {
            self.sizes = sizes
            self.repetitions = repetitions
            self.warmup = warmup
            self.sequential = sequential
        }
    }

    /// Whether the run's numbers stand for the code: a release build with nothing injected (or a device's log, which
    /// no build of bench measured).
    package var isRepresentative: Bool { unrepresentativeReason == nil }

    /// Why the run's numbers do not stand for the code (for baseline save and the history), or nil.
    package var unrepresentativeReason: String? {
        if let injections, !injections.isEmpty {
            return "it ran with injected regressions ("
                + injections.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        }
        if buildConfiguration != .release && measurement != .deviceLog {
            return "it is a \(buildConfiguration.rawValue) build's, whose timings mislead"
        }
        return nil
    }

    /// The facts of this process and machine, for a run with the given settings.
    package static func current(
        profile: Profile, seed: UInt64, settings: StoreSettings, scenarios: [ScenarioName], plannedRepetitions: Int,
        origins: [String: Scenario.Origin]? = nil
    ) -> RunInfo {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let options = settings.storeOptions
        let readPageCacheKiB = settings.readPageCacheKiB
        return RunInfo(
            gitCommit: binaryCommit, utcTime: formatter.string(from: Date()), host: ProcessInfo.processInfo.hostName,
            cpuCount: ProcessInfo.processInfo.processorCount, memoryBytes: ProcessInfo.processInfo.physicalMemory,
            swiftVersion: swiftVersion(), sqliteVersion: PersistentStore.sqliteVersion, buildConfiguration: .current,
            profile: profile, seed: seed, commandLine: CommandLine.arguments,
            sqliteSettings: [
                "journal_mode": options.journalMode,
                "synchronous": options.synchronous,
                "cache_size_kib_bulk": options.pageCacheKiB.map(String.init) ?? "SQLite default (2000 KiB)",
                "cache_size_kib_read": readPageCacheKiB.map(String.init) ?? "SQLite default (2000 KiB)",
                "transaction": "one per save (ObjectGraph), one per insert phase (peers)",
            ],
            scenarios: scenarios, scenarioOrigins: origins, status: .running, finishedRepetitions: 0,
            plannedRepetitions: plannedRepetitions,
            measurement: .wallClock, injections: Injection.variables(ProcessInfo.processInfo.environment),
            binaryCommit: binaryCommit, unmeasurableMetrics: Metric.unmeasurableHere)
    }

    /// `bench --version`: the binary's commit and build configuration (and `git describe`'s name, when a tag gives one).
    package static var version: String {
        let described = BuildInfo.described
        let named = described == "unknown" || binaryCommit.hasPrefix(described.replacingOccurrences(of: "-dirty", with: ""))
        return "\(binaryCommit) (\(BuildConfiguration.current.rawValue) build\(named ? "" : ", version \(described)"))"
    }

    /// The commit the binary was built from, recorded at build time (Plugins/BuildInfo): `-dirty` when the checkout had
    /// changes, "unknown" when it was built outside git. Whatever checkout or folder the binary later runs in.
    package static var binaryCommit: String { BuildInfo.commit }

    package func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// The run.json of the run folder `folder`: nil when it has none, an error when it has one this binary cannot read
    /// (a reader that went on without it would judge the run without its settings and say nothing).
    package static func loadIfPresent(folder: String) throws -> RunInfo? {
        let path = (folder as NSString).appendingPathComponent("run.json")
        return FileManager.default.fileExists(atPath: path) ? try load(path) : nil
    }

    /// The run.json at `path`, or in the run folder `path`; a run "running" that no live process writes any more is
    /// read as interrupted.
    package static func load(_ path: String) throws -> RunInfo {
        var isDirectory: ObjCBool = false
        let path =
            FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            ? (path as NSString).appendingPathComponent("run.json") : path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput("cannot read \(path); give a run folder written by 'bench run'")
        }
        do {
            var info = try JSONDecoder().decode(RunInfo.self, from: data)
            // Its writer was killed (SIGKILL, a power cut): no process holds the folder any more.
            if info.status == .running && !FolderClaim.isHeld(folder(of: path)) { info.status = .interrupted }
            return info
        } catch let error as DecodingError {
            throw BenchError.invalidInput(
                "\(path): not a RelBench run.json: \(error.plainDescription(of: data)); give a run folder written by 'bench run'")
        }
    }

    private static func folder(of file: String) -> String {
        let folder = (file as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// `swift --version`'s first line. The driver leaves an empty `TemporaryDirectory.*` in TMPDIR each time it
    /// runs, so it runs with a TMPDIR of its own, removed after it.
    static func swiftVersion() -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relbench-version-\(getpid())-\(UUID().uuidString.prefix(8))"
        ).path
        guard StopCleanup.make(scratch, with: { mkdir(scratch, 0o700) == 0 }) else { return "unknown" }
        defer { StopCleanup.remove(scratch) }
        return run("swift", ["--version"], environment: ["TMPDIR": scratch])?.split(separator: "\n").first.map(String.init) ?? "unknown"
    }

    /// The standard output of a command, or nil if it cannot run or fails; `environment` is added to this process's.
    static func run(_ command: String, _ arguments: [String], environment: [String: String] = [:]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
