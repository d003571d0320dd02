import Foundation
import SQLDebugLog

/// A device's Core Data costs fitted to its own SQLDebug log (`bench log LOG --fit-costs FILE`): milliseconds per
/// statement of each kind the log times and per row read, with the fit's error on statements held out of the fit.
/// `bench run --device-costs FILE` prices each ObjectGraph phase with them (`predicted_device_ms`).
package struct DeviceCosts: Codable, Sendable, Equatable {
    /// What the file's fields mean; a file of another format is refused.
    package var format = 1
    /// The log the costs were fitted to.
    package var source: String
    /// Milliseconds per statement by kind (`select`, `pragma`, ...), for the kinds the log times.
    package var statementMs: [String: Double]
    /// Milliseconds per row a statement returned.
    package var rowMs: Double
    /// Kinds the log ran without a time (Core Data times no write or transaction statement): they cost 0 here.
    package var untimedKinds: [String]
    package var fit: Fit

    /// How well the costs predict the log's own times.
    package struct Fit: Codable, Sendable, Equatable {
        /// Timed units (a statement with the prefetches its fetch ran) the costs were fitted to, and held out.
        package var units: Int
        package var heldOutUnits: Int
        /// The held-out units' measured and predicted total milliseconds.
        package var heldOutMeasuredMs: Double
        package var heldOutPredictedMs: Double
        /// The root mean square of the held-out units' errors, in milliseconds.
        package var heldOutRMSMs: Double

        package init(units: Int, heldOutUnits: Int, heldOutMeasuredMs: Double, heldOutPredictedMs: Double, heldOutRMSMs: Double) {
            self.units = units
            self.heldOutUnits = heldOutUnits
            self.heldOutMeasuredMs = heldOutMeasuredMs
            self.heldOutPredictedMs = heldOutPredictedMs
            self.heldOutRMSMs = heldOutRMSMs
        }

        /// (predicted - measured) / measured over the held-out units' total; nil when none were held out.
        package var heldOutRelativeError: Double? {
            heldOutMeasuredMs > 0 ? (heldOutPredictedMs - heldOutMeasuredMs) / heldOutMeasuredMs : nil
        }
    }

    package init(source: String, statementMs: [String: Double], rowMs: Double, untimedKinds: [String], fit: Fit) {
        self.source = source
        self.statementMs = statementMs
        self.rowMs = rowMs
        self.untimedKinds = untimedKinds
        self.fit = fit
    }

    /// The milliseconds these costs predict for `statements` statements of each kind reading `rows` rows.
    package func predictedMs(statements: [SQLStatementKind: Int], rows: Int) -> Double {
        var total = Double(rows) * rowMs
        for (kind, count) in statements { total += Double(count) * (statementMs[kind.rawValue] ?? 0) }
        return total
    }

    /// The held-out error as a percentage (`+4.2%`), or a phrase when nothing was held out.
    package var errorText: String {
        guard let error = fit.heldOutRelativeError else { return "no held-out statements: error unknown" }
        return String(format: "%+.1f%% on %d held-out statements", abs(error) < 0.0005 ? 0.0 : error * 100, fit.heldOutUnits)
    }

    /// What a predicted time is, for the line under a table that shows one.
    package var label: String {
        let untimed = untimedKinds.isEmpty ? "" : "; \(untimedKinds.joined(separator: ", ")) statements are not timed by the log and cost 0"
        return "device ms (pred.): a prediction of their device's time from the costs fitted to \(source) "
            + "(\(errorText)\(untimed)), not a measurement"
    }

    /// What `bench log --fit-costs` prints: the costs, the kinds left out and the held-out error.
    package func text(file: String) -> String {
        var lines = [
            "device costs fitted to \(source) (\(fit.units) timed statements, \(fit.heldOutUnits) held out)\(file.isEmpty ? "" : ", written to \(file)"):"
        ]
        for kind in SQLStatementKind.allCases {
            if let cost = statementMs[kind.rawValue] {
                lines.append("  \(kind.rawValue): " + String(format: "%.4g ms per statement", cost))
            }
        }
        lines.append(String(format: "  per row: %.4g ms", rowMs))
        if !untimedKinds.isEmpty { lines.append("  not timed by the log (cost 0): \(untimedKinds.joined(separator: ", "))") }
        if fit.heldOutUnits > 0 {
            lines.append(
                "  held-out error: \(errorText) "
                    + String(
                        format: "(measured %.4g ms, predicted %.4g ms), RMS %.3g ms per statement", fit.heldOutMeasuredMs,
                        fit.heldOutPredictedMs, fit.heldOutRMSMs))
        } else {
            lines.append("  held-out error: unknown (fewer than 5 timed statements, none held out)")
        }
        return lines.joined(separator: "\n")
    }

    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// The costs file at `path`, or one line saying what is wrong with it.
    package static func load(_ path: String) throws -> DeviceCosts {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput("cannot read --device-costs \(path); write one with 'bench log LOG --fit-costs \(path)'")
        }
        let costs: DeviceCosts
        do {
            costs = try JSONDecoder().decode(DeviceCosts.self, from: data)
        } catch let error as DecodingError {
            throw BenchError.invalidInput(
                "--device-costs \(path) is not a costs file (\(error.plainDescription)); write one with 'bench log LOG --fit-costs FILE'")
        }
        guard costs.format == 1 else {
            throw BenchError.invalidInput("--device-costs \(path) has format \(costs.format), this bench reads format 1; fit it again")
        }
        let numbers = Array(costs.statementMs.values) + [costs.rowMs]
        guard numbers.allSatisfy({ $0.isFinite && $0 >= 0 }),
            costs.statementMs.keys.allSatisfy({ SQLStatementKind(rawValue: $0) != nil })
        else {
            throw BenchError.invalidInput(
                "--device-costs \(path) holds a negative, infinite or unknown cost; fit it again with 'bench log LOG --fit-costs FILE'")
        }
        return costs
    }
}

extension DeviceCosts {
    /// A `predicted_device_ms` sample for every ObjectGraph repetition of a phase whose statements the run recorded:
    /// its statements by kind (the recorded kinds' shares of its `sql_statements`) and its `rows_read`, priced.
    package func predictions(_ samples: [SampleRecord], statements: [PhaseStatements]) -> [SampleRecord] {
        var kinds: [PhaseStatements.Key: [SQLStatementKind: Int]] = [:]
        for phase in statements {
            var counts: [SQLStatementKind: Int] = [:]
            for (fingerprint, use) in phase.fingerprints { counts[SQLStatementKind.of(fingerprint), default: 0] += use.statements }
            kinds[phase.key] = counts
        }
        var rows: [SeriesKey: [Int: Double]] = [:]
        for sample in samples where sample.key.metric == .rowsRead {
            if let value = sample.value { rows[sample.key.with(.sqlStatements), default: [:]][sample.repetition] = value }
        }
        var predictions: [SampleRecord] = []
        for sample in samples where sample.key.strategy == .objectGraph && sample.key.metric == .sqlStatements {
            let key = sample.key
            let phase = PhaseStatements.Key(scenario: key.scenario, variant: key.variant, size: key.size, phase: key.phase)
            guard let statementCount = sample.value, let counts = kinds[phase],
                let read = rows[key]?[sample.repetition]
            else { continue }
            let recorded = counts.values.reduce(0, +)
            var scaled: [SQLStatementKind: Int] = [:]
            for (kind, count) in counts {
                scaled[kind] = recorded == 0 ? 0 : Int((Double(count) * statementCount / Double(recorded)).rounded())
            }
            predictions.append(
                SampleRecord(
                    key: key.with(.predictedDeviceMs), repetition: sample.repetition,
                    value: (predictedMs(statements: scaled, rows: Int(read)) * 1000).rounded() / 1000))
        }
        return predictions
    }
}
