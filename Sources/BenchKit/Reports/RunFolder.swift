import Foundation

/// A run's folder (Results/runs/<UTC timestamp>/ by default): samples.csv, summary.csv, complexity.csv and
/// run.json, all rewritten atomically after each finished repetition.
///
/// Safe to finish from a signal handler's thread while the run appends: one lock orders the writes.
public final class RunFolder: @unchecked Sendable {
    public let path: String
    private let lock = NSLock()
    private var _info: RunInfo
    private var _samples: [SampleRecord] = []
    /// samples.csv's lines so far, each encoded once: a flush writes them out without encoding them again.
    private var encodedSamples = ""

    public var info: RunInfo { lock.withLock { _info } }
    public var samples: [SampleRecord] { lock.withLock { _samples } }
    /// The summary of every sample so far, as last written to summary.csv.
    public var summary: [SummaryRow] { lock.withLock { _summary } }
    private var _summary: [SummaryRow] = []

    /// Creates the folder (or checks an existing empty one is writable) before anything runs.
    public init(path: String, info: RunInfo) throws {
        self.path = path
        _info = info
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw BenchError.invalidInput("output \(path) is a file; give a folder with --output") }
            if manager.fileExists(atPath: (path as NSString).appendingPathComponent("samples.csv")) {
                throw BenchError.invalidInput("output folder \(path) already holds a run; choose another --output folder so that nothing is overwritten")
            }
        } else {
            if let reason = Self.makeDirectories(path) {
                throw BenchError.invalidInput("cannot create the output folder \(path) (\(reason)); choose a writable --output folder")
            }
        }
        guard manager.isWritableFile(atPath: path) else {
            throw BenchError.invalidInput("the output folder \(path) is not writable; choose another with --output")
        }
        try flush()
    }

    /// `mkdir -p`: nil on success, else the system's reason.
    static func makeDirectories(_ path: String) -> String? {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
        }
        return nil
    }

    /// The default folder for a run started now: Results/runs/<UTC timestamp>.
    public static func defaultPath(resultsFolder: String = "Results") -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return "\(resultsFolder)/runs/\(formatter.string(from: Date()))"
    }

    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Adds a finished repetition's samples and rewrites every report.
    public func append(_ repetition: [SampleRecord], countsAsRepetition: Bool = true) throws {
        try lock.withLock {
            _samples += repetition
            encodedSamples += try SamplesFile.encode(repetition, header: false)
            if countsAsRepetition { _info.finishedRepetitions += 1 }
            try flush()
        }
    }

    /// Marks the run complete (or interrupted) and writes the reports a last time.
    public func finish(status: String) throws {
        try lock.withLock {
            _info.status = status
            try flush()
        }
    }

    /// Rewrites every report; the caller holds the lock (or is the initializer).
    private func flush() throws {
        try AtomicFile.write(CSVFiles.encode(header: SamplesFile.columns, rows: []) + encodedSamples, to: file("samples.csv"))
        _summary = SummaryFile.summarize(_samples)
        try AtomicFile.write(SummaryFile.encode(_summary), to: file("summary.csv"))
        try AtomicFile.write(ComplexityFile.encode(ComplexityFit.fits(_summary)), to: file("complexity.csv"))
        try AtomicFile.write(_info.encoded(), to: file("run.json"))
    }
}
