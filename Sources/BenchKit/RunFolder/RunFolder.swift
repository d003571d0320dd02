import Foundation
import Synchronization

/// A run's folder (Results/runs/<UTC timestamp>/ by default): samples.csv, summary.csv, complexity.csv,
/// statements.csv and run.json.
///
/// Linear in the run's length: each finished repetition's samples are appended to samples.csv with one `write`
/// of whole lines (a process killed at any moment leaves only whole rows), and run.json (a few hundred bytes) is
/// replaced; summary.csv and complexity.csv are written once, when the run finishes, is interrupted or fails.
/// (Rewriting every report after each repetition took three quarters of a smoke run's CPU time, profiled with
/// perf: the summary of every sample so far, sorted and encoded 486 times.)
///
/// Safe to finish from a signal handler's thread while the run appends: one lock orders the writes.
package final class RunFolder: @unchecked Sendable {
    package let path: String
    /// The reports every run folder holds (baselines hold just these).
    package static let reportFiles = ["samples.csv", "summary.csv", "complexity.csv", "statements.csv", "run.json"]
    /// Reports a run made before they existed may lack.
    package static let optionalReportFiles: Set<String> = ["statements.csv"]
    private let lock = NSLock()
    private var _info: RunInfo
    private var _samples: [SampleRecord] = []
    private var _statements: [PhaseStatements.Key: PhaseStatements] = [:]
    /// samples.csv, open for appending.
    private var samplesFile: Int32 = -1
    /// samples.csv's length after the last whole write: a failed write is cut back to it.
    private var samplesLength: off_t = 0
    /// Whether this run made the folder (and so may remove it when it cannot be left whole).
    private var createdFolder = false
    /// This process's hold on the folder, for as long as the folder is open.
    private var claim: FolderClaim?
    /// Set once the run has its final status: nothing more is written.
    private var closed = false
    /// Set once its samples' summaries are written (`finishMeasuring`): no more samples, run.json still "running".
    private var measured = false
    /// The status `writeFinalStatus` gives the run once its conclusions are written too.
    private var intendedStatus = RunStatus.complete
    /// The files written whole so far (besides run.json), in the order written: run.json's `files`.
    private var written: [String] = []

    package var info: RunInfo { lock.withLock { _info } }
    package var samples: [SampleRecord] { lock.withLock { _samples } }
    /// The summary of every sample so far (as written to summary.csv when the run finished).
    package var summary: [SummaryRow] {
        lock.withLock {
            if let summary = _summary { return summary }
            let summary = SummaryFile.summarize(_samples)
            _summary = summary
            return summary
        }
    }
    private var _summary: [SummaryRow]?

    /// Creates the folder (or claims an existing empty one) before anything runs, and holds it until the process
    /// ends: a folder that holds anything, or that another run or merge is writing, is refused. run.json says
    /// "running" until `finish`, whatever `info.status` says. `new`: the folder must not exist yet (this process makes
    /// it), else `Taken` is thrown (`atDefaultPath` then tries the next name). `option` is how the user gave the folder
    /// (nil: merge's first argument), for the messages that say what to do.
    package init(path: String, info: RunInfo, new: Bool = false, option: String? = "--output") throws {
        let named = option.map { "\($0) folder" } ?? "output folder (merge's first argument)"
        let given = option.map { "with \($0)" } ?? "as merge's first argument"
        self.path = path
        _info = info
        _info.status = .running
        // A new folder is a new run, whatever record it starts from (a merge's is its first shard's).
        _info.identifier = UUID().uuidString
        _info.files = nil
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        var made = false
        if !manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            let parent = (path as NSString).deletingLastPathComponent
            if let reason = parent.isEmpty ? nil : Self.makeDirectories(parent) {
                throw BenchError.invalidInput("cannot create the output folder \(path) (\(reason)); choose a writable \(named)")
            }
            // Until the folder is whole and registered below, a signal's exit removes it rather than leave it half made.
            if StopCleanup.make(path, with: { mkdir(path, 0o755) == 0 }) {
                made = true
            } else if errno == EEXIST && new {
                throw Taken()
            } else if errno != EEXIST {
                throw BenchError.invalidInput(
                    "cannot create the output folder \(path) (\(String(cString: strerror(errno)))); choose a writable \(named)")
            }
        }
        if new && !made { throw Taken() }
        // A folder made here but refused below (another process claimed it first) is not this process's to remove.
        defer { if made { StopCleanup.forget(path) {} } }
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            // A link whose target is missing is not a file: say where it points.
            if let target = try? manager.destinationOfSymbolicLink(atPath: path), !manager.fileExists(atPath: path) {
                throw BenchError.invalidInput(
                    "output \(path) is a symbolic link to \(target), which does not exist; create \(target) or give another folder \(given)"
                )
            }
            throw BenchError.invalidInput("output \(path) is a file; give a folder \(given)")
        }
        guard let claim = try FolderClaim(folder: path) else {
            throw BenchError.invalidInput(
                "another bench process is writing into \(path); wait for it to end or choose another \(named)")
        }
        self.claim = claim
        let contents = (try? manager.contentsOfDirectory(atPath: path)) ?? []
        if contents.contains("samples.csv") || contents.contains("run.json") {
            throw BenchError.invalidInput(
                "output folder \(path) already holds a run; choose another \(named) so that nothing is overwritten")
        }
        if !contents.isEmpty {
            let shown = contents.sorted().prefix(3).joined(separator: ", ") + (contents.count > 3 ? ", ..." : "")
            throw BenchError.invalidInput(
                "output folder \(path) is not empty (it holds \(shown)); give a new or empty folder \(given) so that nothing is overwritten"
            )
        }
        createdFolder = made
        guard manager.isWritableFile(atPath: path) else {
            throw BenchError.invalidInput("the output folder \(path) is not writable; choose another \(given)")
        }
        do {
            let header = try CSVFiles.encode(header: SamplesFile.columns, rows: [])
            try AtomicFile.write(header, to: file("samples.csv"))
            samplesFile = open(file("samples.csv"), O_WRONLY | O_APPEND | O_CLOEXEC)
            guard samplesFile >= 0 else {
                throw BenchError.io("cannot open \(file("samples.csv")) for appending (\(String(cString: strerror(errno))))")
            }
            samplesLength = off_t(header.utf8.count)
            written = ["samples.csv"]
            _info.files = written
            try AtomicFile.write(_info.encoded(), to: file("run.json"))
            StopCleanup.forget(path) { Self.registry.withLock { $0.append(Weak(self)) } }
        } catch {
            // Nothing half-made stays: a folder this run made goes, one given is left empty.
            if createdFolder {
                StopCleanup.remove(path)
            } else {
                for name in ["samples.csv", "run.json"] { try? manager.removeItem(atPath: file(name)) }
            }
            throw error
        }
    }

    deinit {
        if samplesFile >= 0 { close(samplesFile) }
    }

    private struct Weak {
        weak var folder: RunFolder?
        init(_ folder: RunFolder) { self.folder = folder }
    }
    private static let registry = Mutex<[Weak]>([])

    /// Ends every run folder of this process still without a final status (a signal stops the process): what a
    /// command's own handler did not end. Returns one line per folder it ended.
    package static func abandonOpen(status: RunStatus) -> [String] {
        let folders = registry.withLock { $0.compactMap(\.folder) }
        return folders.filter { folder in folder.lock.withLock { !folder.closed } }.map { $0.abandon(status: status) }
    }

    /// `mkdir -p`: nil on success, else the system's reason.
    package static func makeDirectories(_ path: String) -> String? {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
        }
        return nil
    }

    /// The default folder for a run started now: Results/runs/<UTC timestamp>.
    package static func defaultPath(resultsFolder: String = "Results") -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return "\(resultsFolder)/runs/\(formatter.string(from: Date()))"
    }

    package func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Ends a run that stopped early (`failed`, `interrupted`) so that the folder is whole: its reports, or at least
    /// run.json with the status and the files that are whole; when not even that can be written (a full disk), the
    /// folder this run made is removed. Returns what was done, for one line on standard error.
    @discardableResult
    package func abandon(status: RunStatus) -> String {
        guard let wasMeasured = lock.withLock({ closed ? nil : measured }) else { return "\(path) is \(info.status.rawValue)" }
        if !wasMeasured, (try? finish(status: status)) != nil {
            return "\(path) holds the \(info.finishedRepetitions) repetitions that finished"
        }
        let marked: Bool = lock.withLock {
            var marked = _info
            marked.status = status
            marked.files = written
            guard (try? AtomicFile.write(marked.encoded(), to: file("run.json"))) != nil else { return false }
            _info = marked
            closed = true
            return true
        }
        if marked {
            return lock.withLock({ measured })
                ? "\(path) is marked \(status.rawValue): its measurements are whole (\(written.joined(separator: ", "))), its conclusions are not"
                : "\(path) holds the \(info.finishedRepetitions) repetitions that finished, without summaries"
        }
        if createdFolder, (try? FileManager.default.removeItem(atPath: path)) != nil {
            return "\(path) was removed: not even its status could be written"
        }
        return "\(path) could not be marked \(status.rawValue): do not use it"
    }

    /// Removes what this process wrote (the folder, when it made it): for a folder whose content can be made again
    /// (a merge of shards that still exist), which a failure would otherwise leave without its summaries.
    package func discard() {
        lock.withLock {
            closed = true
            if createdFolder {
                try? FileManager.default.removeItem(atPath: path)
            } else {
                for name in Self.reportFiles { try? FileManager.default.removeItem(atPath: file(name)) }
            }
        }
    }

    /// Replaces what run.json says of the run (a run under callgrind learns it from its child), its status kept.
    package func adopt(_ info: RunInfo) throws {
        try lock.withLock {
            if closed { throw BenchError.io("the run in \(path) is \(_info.status.rawValue); nothing more is written to it") }
            var adopted = info
            adopted.status = _info.status
            adopted.identifier = _info.identifier
            adopted.files = _info.files
            try AtomicFile.write(adopted.encoded(), to: file("run.json"))
            _info = adopted
        }
    }

    /// Appends a finished repetition's samples to samples.csv (whole lines, one write) and updates run.json; a
    /// repetition `beyondPlan` (a sequential round) is counted as planned too.
    package func append(_ repetition: [SampleRecord], countsAsRepetition: Bool = true, beyondPlan: Bool = false) throws {
        try lock.withLock {
            if closed || measured {
                throw BenchError.io("the run in \(path) is \(_info.status.rawValue); nothing more is written to it")
            }
            try appendLines(SamplesFile.encode(repetition, header: false))
            _samples += repetition
            _summary = nil
            if countsAsRepetition { _info.finishedRepetitions += 1 }
            if countsAsRepetition && beyondPlan { _info.plannedRepetitions += 1 }
            try AtomicFile.write(_info.encoded(), to: file("run.json"))
        }
    }

    /// ObjectGraph's statements of some phases (one untimed pass per variant and size), for statements.csv.
    package func record(_ statements: [PhaseStatements]) {
        lock.withLock { for phase in statements where _statements[phase.key] == nil { _statements[phase.key] = phase } }
    }

    package var statements: [PhaseStatements] { lock.withLock { _statements.values.sorted { $0.key < $1.key } } }

    /// Marks the run complete (or interrupted, or failed): `finishMeasuring`, then `writeFinalStatus`. A run that has conclusions
    /// to write (verdicts, advice, its page) calls the two apart, so that run.json takes its status after all of them.
    package func finish(status: RunStatus) throws {
        try finishMeasuring(status: status)
        try writeFinalStatus()
    }

    /// Writes summary.csv, complexity.csv and statements.csv; the folder then takes no more samples. run.json still
    /// says "running" (read as interrupted if this process dies) until `writeFinalStatus` gives it `status`.
    package func finishMeasuring(status: RunStatus) throws {
        try lock.withLock {
            if closed || measured {
                throw BenchError.io("the run in \(path) is \(_info.status.rawValue); nothing more is written to it")
            }
            let summary = SummaryFile.summarize(_samples)
            _summary = summary
            try writeWhole(SummaryFile.encode(summary), named: "summary.csv")
            try writeWhole(ComplexityFile.encode(ComplexityFit.fits(summary)), named: "complexity.csv")
            try writeWhole(StatementsFile.encode(Array(_statements.values)), named: "statements.csv")
            measured = true
            intendedStatus = status
            var progress = _info
            progress.files = written
            try AtomicFile.write(progress.encoded(), to: file("run.json"))
            _info = progress
        }
    }

    /// Writes `text` as the folder's file `name` (summary.txt, verdicts.json, ...: a conclusion of a measured run), whole
    /// or not at all, and lists it in run.json's `files` when the run closes.
    package func writeFile(_ text: String, named name: String) throws {
        try lock.withLock {
            if closed { throw BenchError.io("the run in \(path) is \(_info.status.rawValue); nothing more is written to it") }
            try writeWhole(text, named: name)
        }
    }

    /// Gives run.json the run's final status (complete, or what `finishMeasuring` was told) and the list of the files
    /// written whole: the last byte the run writes, so that a folder marked complete has every one of them.
    package func writeFinalStatus() throws {
        try lock.withLock {
            if closed { throw BenchError.io("the run in \(path) is \(_info.status.rawValue); nothing more is written to it") }
            guard measured else { throw BenchError.io("the run in \(path) has no summaries yet; it cannot be closed") }
            var finished = _info
            finished.status = intendedStatus
            finished.files = written
            try AtomicFile.write(finished.encoded(), to: file("run.json"))
            _info = finished
            closed = true
        }
    }

    /// The files written whole so far, in order.
    package var files: [String] { lock.withLock { written } }

    /// What run.json will say once `writeFinalStatus` writes it: the status given to `finishMeasuring` (for the page written
    /// just before).
    package var closingInfo: RunInfo {
        lock.withLock {
            var info = _info
            if measured && !closed { info.status = intendedStatus }
            return info
        }
    }

    private func writeWhole(_ text: String, named name: String) throws {
        try AtomicFile.write(text, to: file(name))
        if !written.contains(name) { written.append(name) }
    }

    /// Writes `text` at the end of samples.csv; on a short write (a full disk), cuts the file back to its last
    /// whole line and throws, so that no partial row is ever left behind.
    private func appendLines(_ text: String) throws {
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                buffer.baseAddress.map { write(samplesFile, $0 + written, buffer.count - written) } ?? 0
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                let reason = String(cString: strerror(errno))
                _ = ftruncate(samplesFile, samplesLength)
                throw BenchError.io("cannot append to \(file("samples.csv")) (\(reason)); it keeps the repetitions written before")
            }
            written += result
        }
        samplesLength += off_t(bytes.count)
        bytes.removeAll()
    }
}
