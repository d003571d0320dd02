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

    /// What to read with.
    package struct Options {
        package var mapping: NameMapping?
        package var analysis = AnalysisOptions()
        package var fitsCosts = false

        package init() {}
    }

    /// Reads the log at `path` (`-`: standard input) in one streaming pass.
    package init(path: String, options: Options = Options()) throws {
        self.path = path
        let started = DispatchTime.now().uptimeNanoseconds
        var fit = options.fitsCosts ? CostFit() : nil
        let analysis: LogAnalysis
        do {
            if path == "-" {
                analysis = try LogAnalyzer.analyze(handle: .standardInput, mapping: options.mapping, options: options.analysis) {
                    fit?.add($0)
                }
            } else {
                try Self.checkReadable(path)
                analysis = try LogAnalyzer.analyze(path: path, mapping: options.mapping, options: options.analysis) { fit?.add($0) }
            }
        } catch let error as LogReadError {
            throw BenchError.invalidInput("\(error); give a readable SQLDebug log (or - for standard input)")
        }
        seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
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
            guard let costs = fit.costs(source: path == "-" ? "standard input" : (path as NSString).lastPathComponent) else {
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

    /// `read N MB, L lines in S s: X MB/s`, for standard error under `--timing`.
    package var timingLine: String {
        let megabytes = Double(analysis.bytesRead) / 1_000_000
        return String(
            format: "read %.1f MB, %d lines in %.2f s: %.1f MB/s", megabytes, analysis.lines, seconds, megabytes / max(seconds, 1e-9))
    }

    /// The segments as phases: each name once, the counters of segments of the same name added up, in order of first
    /// appearance.
    package var phases: [(name: String, counters: LogCounters, fingerprints: [FingerprintStats], occurrences: Int)] {
        var order: [String] = []
        var merged: [String: (counters: LogCounters, fingerprints: [FingerprintStats], occurrences: Int)] = [:]
        for segment in analysis.segments {
            guard var entry = merged[segment.name] else {
                order.append(segment.name)
                merged[segment.name] = (segment.counters, segment.fingerprints, 1)
                continue
            }
            entry.counters.add(segment.counters)
            entry.fingerprints += segment.fingerprints
            entry.occurrences += 1
            merged[segment.name] = entry
        }
        return order.map { ($0, merged[$0]!.counters, merged[$0]!.fingerprints, merged[$0]!.occurrences) }
    }
}
