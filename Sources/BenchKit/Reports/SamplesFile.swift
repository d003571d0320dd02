import Foundation

/// samples.csv: tidy long form, one row per measured value.
public enum SamplesFile {
    public static let columns = ["scenario", "strategy", "variant", "size", "repetition", "phase", "metric", "value", "unit"]

    public static func encode(_ samples: [SampleRecord], header: Bool = true) throws -> String {
        try CSVFiles.encode(header: header ? columns : nil, rows: samples.map { sample in
            [sample.scenario, sample.strategy, sample.variant, String(sample.size), String(sample.repetition), sample.phase,
             sample.metric, sample.value.map(formatNumber) ?? "", sample.unit]
        })
    }

    /// Reads samples.csv back; a row that does not parse is an error naming the file and line.
    public static func decode(_ text: String, file: String) throws -> [SampleRecord] {
        try CSVFiles.decode(text, expected: columns, file: file).enumerated().map { index, row in
            guard let size = Int(row["size"]!), let repetition = Int(row["repetition"]!) else {
                throw BenchError.invalidInput("\(file): line \(index + 2): size and repetition must be integers")
            }
            let rawValue = row["value"]!
            guard rawValue.isEmpty || Double(rawValue)?.isFinite == true else {
                throw BenchError.invalidInput("\(file): line \(index + 2): value '\(rawValue)' is not a finite number")
            }
            return SampleRecord(scenario: row["scenario"]!, strategy: row["strategy"]!, variant: row["variant"]!, size: size,
                                repetition: repetition, phase: row["phase"]!, metric: row["metric"]!,
                                value: rawValue.isEmpty ? nil : Double(rawValue), unit: row["unit"]!)
        }
    }

    public static func load(_ path: String) throws -> [SampleRecord] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput("cannot read \(path)")
        }
        return try decode(String(decoding: data, as: UTF8.self), file: path)
    }
}
