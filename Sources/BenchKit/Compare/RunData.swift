import Foundation

/// A run read back for comparison: from a run folder, its samples.csv, or only its summary.csv.
public struct RunData {
    public let source: String
    /// Per series, every sample's value (nil where the strategy cannot measure it).
    public let series: [SeriesKey: [Double]]
    public let units: [SeriesKey: String]
    /// False when only summary.csv was given: each series is then its median alone.
    public let hasSamples: Bool
    /// What the run's platform could not measure, from its run.json; nil when unknown (a CSV file alone, an old run).
    public var unmeasurable: Set<Metric>?

    /// Reads `path`: a run folder, a samples.csv or a summary.csv. Throws a message naming what is missing.
    public static func load(_ path: String) throws -> RunData {
        let data = try read(path)
        guard !data.series.isEmpty else {
            throw BenchError.invalidInput("\(path) holds no samples (a run stopped before its first repetition?); compare a run that measured something")
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
            let info = try? RunInfo.load((path as NSString).appendingPathComponent("run.json"))
            var data: RunData?
            if FileManager.default.fileExists(atPath: samples) { data = try fromSamples(samples) }
            else if FileManager.default.fileExists(atPath: summary) { data = try fromSummary(summary) }
            if var data {
                data.unmeasurable = info?.unmeasurableMetrics.map(Set.init)
                return data
            }
            throw BenchError.invalidInput("\(path) holds neither samples.csv nor summary.csv; is it a run folder?")
        }
        if path.hasSuffix("summary.csv") { return try fromSummary(path) }
        return try fromSamples(path)
    }

    static func fromSamples(_ path: String) throws -> RunData {
        var series: [SeriesKey: [Double]] = [:]
        var units: [SeriesKey: String] = [:]
        for sample in try SamplesFile.load(path) {
            let key = sample.seriesKey
            units[key] = sample.unit
            if series[key] == nil { series[key] = [] }
            if let value = sample.value { series[key]!.append(value) }
        }
        return RunData(source: path, series: series, units: units, hasSamples: true)
    }

    static func fromSummary(_ path: String) throws -> RunData {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError.invalidInput("cannot read \(path)") }
        var series: [SeriesKey: [Double]] = [:]
        var units: [SeriesKey: String] = [:]
        for row in try SummaryFile.decode(String(decoding: data, as: UTF8.self), file: path) {
            series[row.key] = row.summary.map { [$0.median] } ?? []
            units[row.key] = row.unit
        }
        return RunData(source: path, series: series, units: units, hasSamples: false)
    }
}
