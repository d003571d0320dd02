import Foundation

/// samples.csv: tidy long form, one row per measured value.
package enum SamplesFile {
    package static let columns = ["scenario", "strategy", "variant", "size", "repetition", "phase", "metric", "value", "unit"]

    /// What a samples.csv holds: the samples this binary can type, and the series it cannot (unknown strategy or metric).
    package struct Contents: Sendable {
        package var samples: [SampleRecord]
        package var unknown: Set<UnknownSeries>
    }

    package static func encode(_ samples: [SampleRecord], header: Bool = true) throws -> String {
        try CSVFiles.encode(
            header: header ? columns : nil,
            rows: samples.map { sample in
                let key = sample.key
                return [
                    key.scenario.rawValue, key.strategy.rawValue, key.variant.description, String(key.size), String(sample.repetition),
                    key.phase.rawValue, key.metric.rawValue, sample.value.map(formatNumber) ?? "", key.metric.unit.rawValue,
                ]
            })
    }

    /// Reads samples.csv back; a row that does not parse is an error naming the file and line.
    package static func decode(_ text: String, file: String) throws -> Contents {
        var contents = Contents(samples: [], unknown: [])
        let rows = try CSVFiles.decode(text, expected: columns, file: file)
        for (index, row) in rows.enumerated() {
            let line = "\(file): line \(index + 2)"
            guard let size = Int(row["size"]), size >= 0, let repetition = Int(row["repetition"]), repetition >= 0 else {
                throw BenchError.invalidInput("\(line): size and repetition must be whole numbers of 0 or more")
            }
            let rawValue = row["value"]
            guard rawValue.isEmpty || Double(rawValue)?.isFinite == true else {
                throw BenchError.invalidInput("\(line): value '\(rawValue)' is not a finite number")
            }
            let value = rawValue.isEmpty ? nil : Double(rawValue)
            switch SeriesKey.parse(
                scenario: row["scenario"], strategy: row["strategy"], variant: row["variant"], size: size,
                phase: row["phase"], metric: row["metric"])
            {
            case let .success(key):
                guard row["unit"] == key.metric.unit.rawValue else {
                    throw BenchError.invalidInput(
                        "\(line): unit '\(row["unit"])' is not \(key.metric.rawValue)'s (\(key.metric.unit.rawValue)); is the row cut short or edited?"
                    )
                }
                if let value, key.metric.isExact, key.metric.isCount, value < 0 || value.rounded() != value {
                    throw BenchError.invalidInput(
                        "\(line): \(key.metric.rawValue) \(rawValue) is no count (a whole number of 0 or more); is the file damaged?")
                }
                contents.samples.append(SampleRecord(key: key, repetition: repetition, value: value))
            case let .failure(unknown):
                contents.unknown.insert(unknown)
            }
        }
        return contents
    }

    package static func load(_ path: String) throws -> Contents {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput("cannot read \(path)")
        }
        return try decode(String(decoding: data, as: UTF8.self), file: path)
    }
}
