import Foundation

/// A run read back for comparison: from a run folder, its samples.csv, or only its summary.csv.
package struct RunData {
    package let source: String
    /// Per series, every sample's value (nil where the strategy cannot measure it).
    package let series: [SeriesKey: [Double]]
    /// Series the files name that this binary cannot type (a strategy or metric it does not know).
    package let unknown: Set<UnknownSeries>
    /// False when only summary.csv was given: each series is then its median alone.
    package let hasSamples: Bool
    /// What the run's platform could not measure, from its run.json; nil when unknown (a CSV file alone, an old run).
    package var unmeasurable: Set<Metric>?
    /// The run's run.json, when a run folder was given.
    package var info: RunInfo?
    /// ObjectGraph's statements per phase (statements.csv), when a run folder that has them was given.
    package var statements: [PhaseStatements.Key: PhaseStatements] = [:]

    /// Reads `path`: a run folder, a samples.csv or a summary.csv. Throws a message naming what is missing.
    package static func load(_ path: String) throws -> RunData {
        let data = try read(path)
        guard !data.series.isEmpty || !data.unknown.isEmpty else {
            throw BenchError.invalidInput(
                "\(path) holds no samples (a run stopped before its first repetition?); compare a run that measured something")
        }
        return data
    }

    private static func read(_ path: String) throws -> RunData {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw BenchError.invalidInput("\(path) does not exist")
        }
        if isDirectory.boolValue {
            let samples = (path as NSString).appendingPathComponent("samples.csv")
            let summary = (path as NSString).appendingPathComponent("summary.csv")
            let info = try RunInfo.loadIfPresent(folder: path)
            var data: RunData?
            if FileManager.default.fileExists(atPath: samples) {
                data = try fromSamples(samples)
            } else if FileManager.default.fileExists(atPath: summary) {
                data = try fromSummary(summary)
            }
            if var data {
                data.unmeasurable = info?.unmeasurableMetrics.map(Set.init)
                data.info = info
                for phase in try StatementsFile.load(folder: path) { data.statements[phase.key] = phase }
                return data
            }
            throw BenchError.invalidInput("\(path) holds neither samples.csv nor summary.csv; is it a run folder?")
        }
        if path.hasSuffix("summary.csv") { return try fromSummary(path) }
        return try fromSamples(path)
    }

    static func fromSamples(_ path: String) throws -> RunData {
        var series: [SeriesKey: [Double]] = [:]
        let contents = try SamplesFile.load(path)
        for sample in contents.samples {
            series[sample.key, default: []] += sample.value.map { [$0] } ?? []
        }
        return RunData(source: path, series: series, unknown: contents.unknown, hasSamples: true)
    }

    static func fromSummary(_ path: String) throws -> RunData {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError.invalidInput("cannot read \(path)") }
        var series: [SeriesKey: [Double]] = [:]
        let contents = try SummaryFile.decode(String(decoding: data, as: UTF8.self), file: path)
        for row in contents.rows { series[row.key] = row.summary.map { [$0.median] } ?? [] }
        return RunData(source: path, series: series, unknown: contents.unknown, hasSamples: false)
    }
}
