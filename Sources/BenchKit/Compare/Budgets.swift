import Foundation

/// A maximum a team sets for a screen: "the feed never runs more than 2 statements". A budget file is a JSON
/// array of them; `bench compare --budgets FILE` and `bench budget RUN` check a run against it, one line per breach.
package struct Budget: Sendable, Equatable {
    package let scenario: ScenarioName
    package let phase: PhaseName
    /// Axis values the series' variant must have (the others any); empty: every variant.
    package let variant: [String: String]
    /// nil: every size.
    package let size: Int?
    package let metric: Metric
    package let strategy: Strategy
    package let maximum: Double
    /// Its place in the file (1-based), for messages.
    package let entry: Int

    func matches(_ key: SeriesKey) -> Bool {
        key.scenario == scenario && key.phase == phase && key.metric == metric && key.strategy == strategy
            && (size == nil || key.size == size) && variant.allSatisfy { key.variant[$0.key]?.description == $0.value }
    }

    /// `social-feed feed prefetch=off at every size: sql_statements at most 2` (its strategy named when not objectgraph).
    package var description: String {
        let variantText = variant.isEmpty ? "" : " " + variant.keys.sorted().map { "\($0)=\(variant[$0]!)" }.joined(separator: ";")
        let strategyText = strategy == .objectGraph ? "" : " \(strategy)"
        return
            "\(scenario) \(phase)\(strategyText)\(variantText) \(size.map { "size \(formatCount($0))" } ?? "at every size"): \(metric.rawValue) at most \(formatNumber(maximum))"
    }
}

/// Reading a budget file and checking a run against it.
package enum BudgetFile {
    static let keys: Set<String> = ["scenario", "phase", "variant", "size", "metric", "strategy", "maximum"]

    /// The budgets of `path`; a malformed entry is an error naming the file, the entry and what to write.
    package static func load(_ path: String) throws -> [Budget] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput("cannot read the budget file \(path); give a JSON array of budgets (see README, Budgets)")
        }
        let example = #"[{"scenario": "social-feed", "phase": "feed", "metric": "sql_statements", "maximum": 2}]"#
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            // Foundation refuses a number beyond a Double (1e400) like a syntax error: say which.
            let huge = String(decoding: data, as: UTF8.self).firstMatch(of: #/-?\d+(?:\.\d+)?[eE][+]?\d{3,}/#).map { String($0.0) }
            throw BenchError.invalidInput(
                huge.map { "\(path): the number \($0) is out of range (a JSON number here is at most about 1.8e308); write a smaller one" }
                    ?? "\(path): not valid JSON (\((error as NSError).localizedDescription)); write \(example)")
        }
        guard let array = parsed as? [Any] else {
            throw BenchError.invalidInput("\(path): not a JSON array; write \(example)")
        }
        // An empty file of budgets checks nothing and lets everything through.
        guard !array.isEmpty else {
            throw BenchError.invalidInput("\(path) holds no budgets (an empty array checks nothing); write \(example)")
        }
        return try array.enumerated().map { index, raw in
            let entry = index + 1
            func fail(_ reason: String) -> BenchError { .invalidInput("\(path): budget \(entry): \(reason)") }
            guard let object = raw as? [String: Any] else { throw fail("expected an object") }
            if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
                let near = nearNames(unknown, in: keys.sorted())
                throw fail(
                    "unknown key '\(unknown)'"
                        + (near.isEmpty ? "; the keys are \(keys.sorted().joined(separator: ", "))" : " (did you mean '\(near[0])'?)"))
            }
            guard let scenario = object["scenario"] as? String, !scenario.isEmpty, let phase = object["phase"] as? String, !phase.isEmpty
            else {
                throw fail("needs \"scenario\" and \"phase\" (names as bench list prints them)")
            }
            guard let maximum = (object["maximum"] as? NSNumber)?.doubleValue, maximum.isFinite, maximum >= 0,
                !(object["maximum"] is Bool)
            else { throw fail("needs \"maximum\", a number of 0 or more") }
            let metric =
                try (object["metric"] as? String).map { name in
                    do { return try Metric.named(name) } catch { throw fail("\(error)") }
                } ?? .sqlStatements
            // A budget is a promise about the app: ObjectGraph's time and bytes on this machine are not the device's.
            guard metric.transfers else {
                throw fail(
                    "\"metric\": \(metric.rawValue) is ObjectGraph's on this machine, not what a device does; a budget takes a count that transfers (\(Metric.allCases.filter(\.transfers).map(\.rawValue).joined(separator: ", ")))"
                )
            }
            let strategy =
                try (object["strategy"] as? String).map { name in
                    do { return try Strategy.named(name) } catch { throw fail("\(error)") }
                } ?? .objectGraph
            var size: Int?
            if let raw = object["size"] {
                guard let number = (raw as? NSNumber)?.doubleValue, !(raw is Bool), number >= 0, number.rounded() == number, number < 1e12
                else {
                    let got = raw is String ? "the text \"\(raw)\" (write a number without quotes)" : "\(raw)"
                    throw fail("\"size\" must be a whole number of 0 or more, got \(got)")
                }
                size = Int(number)
            }
            var variant: [String: String] = [:]
            if let raw = object["variant"] {
                guard let text = raw as? String else { throw fail("\"variant\" must be text such as \"prefetch=off;counts=queries\"") }
                for part in text.split(whereSeparator: { $0 == ";" || $0 == "," }) where !part.isEmpty {
                    let halves = part.split(separator: "=", maxSplits: 1).map(String.init)
                    guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty else {
                        throw fail("\"variant\" parts are AXIS=VALUE, got '\(part)'")
                    }
                    variant[halves[0]] = halves[1]
                }
            }
            return Budget(
                scenario: ScenarioName(scenario), phase: PhaseName(phase), variant: variant, size: size, metric: metric,
                strategy: strategy, maximum: maximum, entry: entry)
        }
    }

    /// One line per series over its budget, and one per budget that matches no series of the run (a budget that
    /// silently checks nothing is a gate that lets everything through).
    package static func check(_ budgets: [Budget], against run: RunData, file: String) -> [String] {
        var lines: [String] = []
        for budget in budgets {
            let series = run.series.filter { budget.matches($0.key) && !$0.value.isEmpty }
            guard !series.isEmpty else {
                lines.append(
                    "budget \(budget.entry) of \(file) matches no series of the run: \(budget.description): \(unmatched(budget, in: run)); fix the budget or measure what it names"
                )
                continue
            }
            for (key, values) in series.sorted(by: { ComparisonReport.naturalLess($0.key, $1.key) }) {
                let median = Statistics.median(values)
                if median > budget.maximum {
                    lines.append(
                        "over budget: \(key.scenario) \(key.strategy) \(key.variant.description.isEmpty ? "" : "\(key.variant) ")size \(formatCount(key.size)) \(key.phase): \(key.metric.rawValue) \(formatNumber(median)) > \(formatNumber(budget.maximum)) (budget \(budget.entry) of \(file))"
                    )
                }
            }
        }
        return lines
    }

    /// The first of the budget's names, in the order scenario, phase, strategy, metric, variant, size, that no series of
    /// the run (among those matching the names before it) has, with the ones it has.
    static func unmatched(_ budget: Budget, in run: RunData) -> String {
        func listed<T: CustomStringConvertible>(_ values: some Sequence<T>) -> String {
            Set(values.map(\.description)).sorted().joined(separator: ", ")
        }
        var keys = run.series.filter { !$0.value.isEmpty }.map(\.key)
        let ofScenario = keys.filter { $0.scenario == budget.scenario }
        guard !ofScenario.isEmpty else {
            return "the run did not measure the scenario '\(budget.scenario)' (it measured \(listed(keys.map(\.scenario))))"
        }
        keys = ofScenario.filter { $0.phase == budget.phase }
        guard !keys.isEmpty else {
            return "\(budget.scenario) has no phase '\(budget.phase)' in the run (its phases: \(listed(ofScenario.map(\.phase))))"
        }
        let ofPhase = keys
        keys = keys.filter { $0.strategy == budget.strategy }
        guard !keys.isEmpty else {
            return "the run did not measure the strategy \(budget.strategy) (it ran \(listed(ofPhase.map(\.strategy))))"
        }
        let ofStrategy = keys
        keys = keys.filter { $0.metric == budget.metric }
        guard !keys.isEmpty else {
            return "the run has no \(budget.metric.rawValue) for \(budget.strategy) (it has \(listed(ofStrategy.map(\.metric.rawValue))))"
        }
        let ofMetric = keys
        keys = keys.filter { key in budget.variant.allSatisfy { key.variant[$0.key]?.description == $0.value } }
        guard !keys.isEmpty else {
            return
                "no variant of the run has \(budget.variant.keys.sorted().map { "\($0)=\(budget.variant[$0]!)" }.joined(separator: ";")) (its variants: \(listed(ofMetric.map(\.variant))))"
        }
        return
            "the run did not measure size \(budget.size.map(formatCount) ?? "any") (its sizes: \(listed(keys.map(\.size).sorted().map(formatCount))))"
    }
}
