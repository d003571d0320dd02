// Dictionary lookups of keys collected just before; issue 35 item 1 (one analysis of SQL) rewrites this file.
// swift-format-ignore-file: NeverForceUnwrap
import Foundation
import SQLDebugLog

/// A device's SQLDebug log read for `bench log`: the analysis, and the costs fitted to its timed statements when
/// asked; one line for a log that cannot be read or holds no Core Data line.
package struct DeviceLog {
    /// The log's path, `-` for standard input.
    package let path: String
    package let analysis: LogAnalysis
    /// The costs fitted to it (`--fit-costs`), nil when not asked.
    package let costs: DeviceCosts?
    /// Seconds the reading took (for `--timing`).
    package let seconds: Double
    /// The process's heap allocations while reading, and the heap held once the analysis was made (for `--timing`:
    /// the work a log costs, counted, and the memory it keeps); nil where allocations are not counted.
    package let allocations: (count: UInt64, bytes: UInt64, heapHeld: UInt64)?

    /// What to read with.
    package struct Options {
        package var mapping: NameMapping?
        /// What each segment is declared to read (`--model-of`: the scenario's phases).
        package var access: [String: SegmentAccess] = [:]
        package var analysis = AnalysisOptions()
        package var fitsCosts = false

        package init() {}
    }

    /// Reads the log at `path` (`-`: standard input) in one streaming pass.
    package init(path: String, options: Options = Options()) throws {
        self.path = path
        let before = AllocationCounter.read(heap: false)
        let started = DispatchTime.now().uptimeNanoseconds
        var fit = options.fitsCosts ? CostFit() : nil
        // Finished statements are handed out only to fit costs (profiled: one made per statement cost 3% of a big log).
        let collect: ((FinishedStatement) -> Void)? = options.fitsCosts ? { fit?.add($0) } : nil
        let analysis: LogAnalysis
        do {
            if path == "-" {
                analysis = try LogAnalyzer.analyze(
                    handle: .standardInput, mapping: options.mapping, options: options.analysis, access: options.access,
                    eachStatement: collect)
            } else {
                try Self.checkReadable(path)
                analysis = try LogAnalyzer.analyze(
                    path: path, mapping: options.mapping, options: options.analysis, access: options.access, eachStatement: collect)
            }
        } catch let error as LogReadError {
            throw BenchError.invalidInput(
                error.isSystemError
                    ? "\(error); give a readable SQLDebug log (or - for standard input)"
                    : "\(error); give a SQLDebug log as Xcode, Console.app or log show prints it (see the README)")
        }
        seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if let before, let after = AllocationCounter.read(heap: true) {
            allocations = (after.allocations - before.allocations, after.bytes - before.bytes, after.heapInUse)
        } else {
            allocations = nil
        }
        let name = path == "-" ? "standard input" : path
        guard analysis.coreDataLines > 0 else {
            throw BenchError.invalidInput(
                analysis.bytesRead == 0
                    ? "\(name) is empty; capture a log with the launch argument -com.apple.CoreData.SQLDebug 1 (see the README)"
                    : "\(name) holds no Core Data line (\(analysis.lines) lines read); capture a log with the launch argument -com.apple.CoreData.SQLDebug 1 (see the README)"
            )
        }
        self.analysis = analysis
        if let fit {
            let fitted: DeviceCosts?
            do {
                fitted = try fit.costs(source: path == "-" ? "standard input" : (path as NSString).lastPathComponent)
            } catch let refusal as CostFit.Refusal {
                throw BenchError.invalidInput("--fit-costs: \(refusal)")
            }
            guard let costs = fitted else {
                throw BenchError.invalidInput(
                    "\(name) times no statement (\(analysis.totals.sqlStatements) statements, none with a connection, execution or total fetch time), so no cost can be fitted; capture it with -com.apple.CoreData.SQLDebug 1 or higher"
                )
            }
            self.costs = costs
        } else {
            costs = nil
        }
    }

    /// A folder or a missing file is refused before reading (reading a folder fails only after it opened).
    private static func checkReadable(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BenchError.invalidInput(
                "\(path.isEmpty ? "''" : path) does not exist; give a SQLDebug log file (or - for standard input)")
        }
        if isDirectory.boolValue {
            throw BenchError.invalidInput("\(path) is a folder; give a SQLDebug log file (or - for standard input)")
        }
    }

    /// The summary per segment with its findings, then what could not be read (`LogReport`).
    package var report: String { LogReport.text(analysis) }

    /// The report with `known ` before the findings whose ids are in `known` (a baseline's).
    package func report(known: Set<String>) -> String { LogReport.text(analysis, known: known) }

    /// `read N MB, L lines in S s: X MB/s; A allocations (B bytes), heap held H bytes`, for standard error under
    /// `--timing`.
    package var timingLine: String {
        let megabytes = Double(analysis.bytesRead) / 1_000_000
        let speed = String(
            format: "read %.1f MB, %d lines in %.2f s: %.1f MB/s", megabytes, analysis.lines, seconds, megabytes / max(seconds, 1e-9))
        guard let allocations else { return speed }
        return speed + "; \(allocations.count) allocations (\(allocations.bytes) bytes), heap held \(allocations.heapHeld) bytes"
    }

    /// The segments as phases: each name once (the analysis adds up segments of one name), in order of first
    /// appearance.
    package var phases: [LogSegment] { analysis.segments }

    /// What the reader should know before trusting the counts: markers that do not pair, and a model that does not
    /// describe the log (none of the tables the log reads, or some of them missing).
    package func warnings(mapping: NameMapping?, modelName: String?) -> [String] {
        var warnings: [String] = []
        let problems = analysis.markerProblems
        if problems.count > 0 {
            let named = problems.first.prefix(3).map { "'\($0.name)' \($0.kind.rawValue) at line \($0.line)" }
            warnings.append(
                "\(counted(problems.count, "segment marker")) did not pair (\(named.joined(separator: "; "))\(problems.count > 3 ? "; ..." : "")): "
                    + "check that every 'RelBench: begin NAME' has its 'RelBench: end NAME'")
        }
        if let mapping, let modelName {
            let tables = Set(analysis.segments.flatMap { $0.entities.map(\.table) }).filter { $0.hasPrefix("Z") && !$0.hasPrefix("Z_") }
            let known = Set(mapping.entities.keys)
            let missing = tables.subtracting(known).sorted()
            if !tables.isEmpty, tables.isDisjoint(with: known) {
                warnings.append(
                    "\(modelName) has none of the \(counted(tables.count, "table")) the log reads (\(missing.prefix(5).joined(separator: ", "))\(missing.count > 5 ? ", ..." : "")): "
                        + "is it the model of the app that printed this log? Names are inferred where it has none")
            } else if !missing.isEmpty {
                warnings.append(
                    "\(modelName) has no entity for \(missing.prefix(5).joined(separator: ", "))\(missing.count > 5 ? ", ..." : "") that the log reads: "
                        + "an older or newer version of the model? Those names are inferred")
            }
        }
        return warnings
    }
}
