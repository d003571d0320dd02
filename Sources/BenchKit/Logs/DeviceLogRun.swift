// Dictionary lookups of keys collected just before; issue 35 item 1 (one analysis of SQL) rewrites this file.
// swift-format-ignore-file: NeverForceUnwrap
import Foundation
import SQLDebugLog

/// A device's log as a run: its counters per segment under the metric names runs use, so that `bench baseline save`
/// and `bench compare --counters-only` gate it as they gate runs. Strategy `device`, the scenario named by the
/// caller, one phase per segment name (segments of one name added up), the size given, one repetition.
package struct DeviceLogRun {
    package let log: DeviceLog
    package let scenario: ScenarioName
    package let size: Int

    /// The metrics a log gives, in the order runs write them.
    package static let metrics: [Metric] = [.sqlStatements, .fetchRequests, .objectFaults, .relationshipFaults, .rowsRead]

    package init(log: DeviceLog, scenario: ScenarioName, size: Int) {
        self.log = log
        self.scenario = scenario
        self.size = size
    }

    /// `feed-screen.log` gives the scenario `feed-screen`; standard input `device-log`.
    package static func defaultScenario(forLog path: String) -> ScenarioName {
        guard path != "-" else { return "device-log" }
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return ScenarioName(name.isEmpty ? "device-log" : name)
    }

    private func key(_ phase: String, _ metric: Metric) -> SeriesKey {
        SeriesKey(scenario: scenario, strategy: .device, variant: Variant([]), size: size, phase: PhaseName(phase), metric: metric)
    }

    /// One sample per phase and metric the log reports: a phase whose rows the log does not report has no
    /// `rows_read` (a gate then sees it missing, never 0).
    package var samples: [SampleRecord] {
        log.phases.flatMap { phase in
            Self.metrics.compactMap { metric in
                Self.value(metric, phase.counters).map {
                    SampleRecord(key: key(phase.name, metric), repetition: 1, value: Double($0))
                }
            }
        }
    }

    /// The log's count of `metric`; nil for a metric a SQLDebug log does not hold (times, memory, ObjectGraph's own), and
    /// for rows when the log does not report them.
    static func value(_ metric: Metric, _ counters: LogCounters) -> Int? {
        switch metric {
        case .sqlStatements: return counters.sqlStatements
        case .fetchRequests: return counters.fetchRequests
        case .objectFaults: return counters.objectFaults
        case .relationshipFaults: return counters.relationshipFaults
        case .rowsRead: return counters.reportedRowsRead
        case .wallMs, .cpuUserMs, .cpuSystemMs, .pageFaults, .cacheHits, .cacheMisses, .objectsRegistered, .peakRSSBytes, .allocations,
            .allocatedBytes, .retainedBytes, .countResult, .failedSaves, .linksIntended, .linksPersisted, .linksLost, .lossRate,
            .instructions, .allocatorInstructions, .predictedDeviceMs:
            return nil
        }
    }

    /// Each phase's statements by fingerprint, for statements.csv (what compare names when a count grows).
    package var statements: [PhaseStatements] {
        log.phases.map { phase in
            var uses: [String: PhaseStatements.Use] = [:]
            for fingerprint in phase.fingerprints {
                uses[fingerprint.fingerprint, default: PhaseStatements.Use(statements: 0, rows: 0)].statements += fingerprint.count
                uses[fingerprint.fingerprint]?.rows += fingerprint.rowsRead
            }
            let key = PhaseStatements.Key(scenario: scenario, variant: Variant([]), size: size, phase: PhaseName(phase.name))
            return PhaseStatements(key: key, fingerprints: uses)
        }
    }

    /// Writes the run folder at `path` (samples.csv, summary.csv, complexity.csv, statements.csv, run.json); an
    /// existing run there is never overwritten.
    package func write(to path: String) throws {
        let analysis = log.analysis
        var info = RunInfo(
            gitCommit: RunInfo.binaryCommit, utcTime: ISO8601DateFormatter().string(from: Date()), host: ProcessInfo.processInfo.hostName,
            cpuCount: ProcessInfo.processInfo.processorCount, memoryBytes: ProcessInfo.processInfo.physicalMemory,
            swiftVersion: RunInfo.swiftVersion(), sqliteVersion: "the device's", buildConfiguration: .current, profile: .smoke, seed: 0,
            commandLine: CommandLine.arguments, sqliteSettings: [:], scenarios: [scenario], status: .running, finishedRepetitions: 0,
            plannedRepetitions: 1, measurement: .deviceLog)
        info.schedules = [scenario.rawValue: RunInfo.Schedule(sizes: [size], repetitions: 1, warmup: 0)]
        info.binaryCommit = RunInfo.binaryCommit
        info.deviceLog = DeviceLogSource(
            path: log.path, bytes: analysis.bytesRead, lines: analysis.lines, coreDataLines: analysis.coreDataLines,
            garbledLines: analysis.garbledLines, truncatedLines: analysis.truncatedLines, namesInferred: analysis.namesInferred)
        let folder = try RunFolder(path: path, info: info)
        do {
            try folder.append(samples)
            folder.record(statements)
            try folder.finish(status: .complete)
        } catch {
            folder.abandon(status: .failed)
            throw error
        }
    }

    /// Everything the analysis holds as versioned JSON (`LogDocument`; schema: Schemas/bench-log.schema.json).
    package func json() throws -> String {
        try LogDocument(log.analysis, log: log.path, scenario: scenario.rawValue, size: size).json()
    }

    /// `json()` as bytes, for writing out without a copy into a String.
    package func jsonData() throws -> Data {
        try LogDocument(log.analysis, log: log.path, scenario: scenario.rawValue, size: size).jsonData()
    }

    /// `jsonData()` written into `sink` piece by piece, never held whole (`LogDocument.write`).
    package func writeJSON(to sink: @escaping ([UInt8]) throws -> Void) throws {
        try LogDocument.write(log.analysis, log: log.path, scenario: scenario.rawValue, size: size, to: sink)
    }
}
