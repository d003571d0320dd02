import CProcessControl
import Foundation

/// `bench run --instructions`: the same run executed once under valgrind's callgrind, collection switched on
/// only inside each phase's timed body (`callgrindMeasuredPhase`) and dumped after it, so that every phase's
/// instruction count is its own. For the same build, data and seed the counts repeat to within a few thousand
/// instructions per phase (0.2% for phases at size 1,000), whatever else the machine does; wall time and peak
/// memory under valgrind mean nothing and are left out.
package enum InstructionCount {
    /// The mangled name of `callgrindMeasuredPhase` (every specialization starts with it). Tried here: callgrind
    /// honours `--dump-after` only with the mangled name spelled out, and ignores it when `--toggle-collect` is
    /// given the very same pattern, so the two patterns differ.
    static let phaseSymbol = "$s8BenchKit22callgrindMeasuredPhase"

    /// The environment variable that tells a run it is the child under callgrind, naming its parent's process id.
    static let parentVariable = "RELBENCH_CALLGRIND_PARENT"

    /// Runs `child` (a timed run's plan) once under callgrind and writes its counts to `output` (nil: a new folder under
    /// Results/runs), which is claimed before valgrind starts. The child reads its plan from a file in the work folder
    /// (`bench run --plan FILE`). Ctrl-C or SIGTERM stop the child, whose finished repetitions are counted into `output`,
    /// marked interrupted.
    package static func run(_ child: ChildRunPlan, output: String?, quiet: Bool) throws -> RunFolder {
        let arguments = child.arguments
        guard RunInfo.run("valgrind", ["--version"]) != nil else {
            throw BenchError.invalidInput(
                "--instructions needs valgrind; install it (apt-get install valgrind) or run without --instructions")
        }
        var placeholder = RunInfo.current(
            profile: arguments.profile, seed: arguments.seed, settings: arguments.settings, scenarios: [], plannedRepetitions: 0)
        placeholder.measurement = .instructions
        let folder = try output.map { try RunFolder(path: $0, info: placeholder) } ?? RunFolder.atDefaultPath(info: placeholder)
        let work = try TemporaryFolders.make("callgrind")
        defer { if ProcessInfo.processInfo.environment["RELBENCH_KEEP_CALLGRIND"] == nil { TemporaryFolders.remove(work) } }
        let childRun = (work as NSString).appendingPathComponent("run")
        let dumps = (work as NSString).appendingPathComponent("callgrind.out")
        let log = (work as NSString).appendingPathComponent("valgrind.log")
        let planFile = (work as NSString).appendingPathComponent("plan.json")
        var plan = child
        plan.output = childRun
        try plan.write(to: planFile)

        // Started through this binary (`followParent`), which makes itself die with this process and then becomes
        // valgrind: a SIGKILL here ends valgrind too, even during its seconds of start-up.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executablePath())
        process.arguments =
            [
                // --vgdb=no: no gdbserver, so no vgdb-pipe-* files for a SIGKILL to leave behind in /tmp.
                "valgrind", "--tool=callgrind", "--vgdb=no", "--collect-atstart=no", "--toggle-collect=*callgrindMeasuredPhase*",
                "--dump-after=\(phaseSymbol)*", "--callgrind-out-file=\(dumps)", "--log-file=\(log)",
                executablePath(), "run", "--plan", planFile,
            ]
        // Swift seeds its hashing per process; a fixed seed makes dictionary work (GRDB's caches) repeat too.
        process.environment = ProcessInfo.processInfo.environment.merging([
            "SWIFT_DETERMINISTIC_HASHING": "1", parentVariable: String(getpid()), execVariable: "1",
        ]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = quiet ? FileHandle.nullDevice : FileHandle.standardError
        if !quiet {
            FileHandle.standardError.write(Data("counting instructions under callgrind (about 40 times slower than a timed run)...\n".utf8))
        }
        // The child runs in a process group of its own, which a terminal's Ctrl-C does not reach: stop it here; it
        // ends its own run folder interrupted, and what it finished is counted.
        try Interruption.guarding({ signal in
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
            let outcome: String
            do {
                try collect(childRun, dumps: dumps, into: folder, partial: true)
                outcome = "\(folder.path) holds the \(folder.info.finishedRepetitions) repetitions counted before"
            } catch {
                outcome = folder.abandon(status: .interrupted) + " (none counted: \(error))"
            }
            FileHandle.standardError.write(Data("\nbench: \(Interruption.describe(signal)); \(outcome)\n".utf8))
        }) {
            try process.run()
            process.waitUntilExit()
            Interruption.parkIfStopping()
        }
        guard process.terminationStatus == 0 else {
            let tail = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").suffix(5).joined(separator: "\n") ?? ""
            folder.abandon(status: .failed)
            throw BenchError.io("the run under callgrind failed (exit \(process.terminationStatus)):\n\(tail)")
        }
        do {
            try collect(childRun, dumps: dumps, into: folder, partial: false)
        } catch {
            folder.abandon(status: .failed)
            throw error
        }
        return folder
    }

    /// Puts the child's samples, their timings replaced by the dumps' counts, into `folder` with the child's status;
    /// `partial`: the child was stopped, and dumps past its last finished repetition are left out.
    private static func collect(_ childRun: String, dumps: String, into folder: RunFolder, partial: Bool) throws {
        let child = try RunInfo.load((childRun as NSString).appendingPathComponent("run.json"))
        let samples = try SamplesFile.load((childRun as NSString).appendingPathComponent("samples.csv")).samples
        let merged = try attach(try phaseCounts(dumps, partial: partial), to: samples, partial: partial)
        var info = folder.info.reporting(child)
        if partial && info.status == .complete { info.status = .interrupted }
        try folder.adopt(info)
        try folder.append(merged, countsAsRepetition: false)
        // A whole run is closed by its conclusion (`RunPipeline.conclude`), a stopped one here.
        if partial { try folder.finish(status: info.status) } else { try folder.finishMeasuring(status: info.status) }
    }

    /// Set for the process that becomes valgrind (`followParent`).
    static let execVariable = "RELBENCH_CALLGRIND_EXEC"

    /// Makes this process, when `run` started it, die with the bench that did (SIGKILL of the parent would
    /// otherwise leave valgrind running); exits at once when that parent is already gone. The first such process
    /// then becomes valgrind with its arguments (the death signal outlives the exec), whose run of bench comes
    /// here again and goes on.
    package static func followParent() {
        let environment = ProcessInfo.processInfo.environment
        guard let parent = environment[parentVariable].flatMap(Int32.init) else { return }
        _ = relbench_die_with_parent()
        if getppid() != parent { Foundation.exit(128 + SIGKILL) }
        guard environment[execVariable] != nil else { return }
        unsetenv(execVariable)
        let arguments = Array(CommandLine.arguments.dropFirst())
        var argv = arguments.map { strdup($0) } + [nil]
        execvp(arguments.first ?? "valgrind", &argv)
        FileHandle.standardError.write(Data("bench: error: cannot run valgrind (\(String(cString: strerror(errno))))\n".utf8))
        Foundation.exit(127)
    }

    /// Each dump's counts (`callgrind.out.1`, `.2`, ...: one per phase, in order); `partial`: up to the first dump
    /// that cannot be read (the one a stopped valgrind was writing).
    static func phaseCounts(_ prefix: String, partial: Bool = false) throws -> [CallgrindDump] {
        let folder = (prefix as NSString).deletingLastPathComponent
        let base = (prefix as NSString).lastPathComponent + "."
        let parts = (try FileManager.default.contentsOfDirectory(atPath: folder)).compactMap { name -> (Int, String)? in
            guard name.hasPrefix(base), let number = Int(name.dropFirst(base.count)) else { return nil }
            return (number, (folder as NSString).appendingPathComponent(name))
        }.sorted { $0.0 < $1.0 }
        var counts: [CallgrindDump] = []
        for (_, path) in parts {
            guard let dump = CallgrindDump(contentsOf: path) else {
                if partial { break }
                throw BenchError.io("\(path) has no totals line; is valgrind's callgrind working?")
            }
            counts.append(dump)
        }
        return counts
    }

    /// The samples without timings and memory, with each phase's instruction counts (all, and the allocator's) after
    /// its counters; `partial` allows more counts than phases (those of a repetition that did not finish).
    static func attach(_ counts: [CallgrindDump], to samples: [SampleRecord], partial: Bool = false) throws -> [SampleRecord] {
        var result: [SampleRecord] = []
        var phaseIndex = -1
        var currentPhase: String?
        func close(_ last: SampleRecord?) {
            guard let last, phaseIndex >= 0, phaseIndex < counts.count else { return }
            let dump = counts[phaseIndex]
            result.append(SampleRecord(key: last.key.with(.instructions), repetition: last.repetition, value: dump.instructions))
            result.append(
                SampleRecord(key: last.key.with(.allocatorInstructions), repetition: last.repetition, value: dump.allocatorInstructions))
        }
        var previous: SampleRecord?
        for sample in samples {
            let phase = "\(sample.key.phaseKey)|\(sample.key.size)|\(sample.repetition)"
            if phase != currentPhase {
                close(previous)
                currentPhase = phase
                phaseIndex += 1
            }
            previous = sample
            if sample.key.metric == .wallMs || sample.key.metric == .peakRSSBytes { continue }
            result.append(sample)
        }
        close(previous)
        guard phaseIndex + 1 == counts.count || (partial && phaseIndex + 1 < counts.count) else {
            throw BenchError.io(
                "callgrind dumped \(counts.count) phases but the run measured \(phaseIndex + 1); the counts cannot be matched")
        }
        return result
    }

    /// This executable's path, for running it again under valgrind.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

extension RunInfo {
    /// This process's record (commit, time, host, build, command line: what the child under valgrind cannot know or
    /// would say of valgrind) with what the child planned and measured: its scenarios, their definitions and schedules,
    /// its repetitions and status.
    fileprivate func reporting(_ child: RunInfo) -> RunInfo {
        var record = self
        record.profile = child.profile
        record.seed = child.seed
        record.sqliteSettings = child.sqliteSettings
        record.scenarios = child.scenarios
        record.scenarioOrigins = child.scenarioOrigins
        record.schedules = child.schedules
        record.definitionHashes = child.definitionHashes
        record.plannedRepetitions = child.plannedRepetitions
        record.finishedRepetitions = child.finishedRepetitions
        record.unmeasurableMetrics = child.unmeasurableMetrics
        record.status = child.status
        record.measurement = .instructions
        return record
    }
}
