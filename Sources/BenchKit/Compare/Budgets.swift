import Foundation

/// A maximum a team sets for a screen: "the feed never runs more than 2 statements". A budget file is a JSON
/// array of them (`Codable`: an entry decodes and encodes as the file writes it); `bench compare --budgets FILE` and
/// `bench budget RUN` check a run against it, one line per breach.
package struct Budget: Sendable, Equatable {
    package let scenario: ScenarioName
    package let phase: PhaseName
    /// Axis values the series' variant must have (the others any); empty: every variant.
    package let variant: [AxisName: String]
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

    /// `prefetch=off;count=queries`, axes in name order.
    var variantText: String { variant.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";") }

    /// `social-feed feed prefetch=off at every size: sql_statements at most 2` (its strategy named when not objectgraph).
    package var description: String {
        let variantText = variant.isEmpty ? "" : " " + variantText
        let strategyText = strategy == .objectGraph ? "" : " \(strategy)"
        return
            "\(scenario) \(phase)\(strategyText)\(variantText) \(size.map { "size \(formatCount($0))" } ?? "at every size"): \(metric.rawValue) at most \(formatNumber(maximum))"
    }
}

extension Budget: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable { case scenario, phase, variant, size, metric, strategy, maximum }

    /// What is wrong with one entry, in the words of the file; `BudgetFile.load` says which file and entry.
    struct Problem: Error {
        let entry: Int
        let reason: String
    }

    /// Reads one entry, refusing an unknown key, a missing name, a metric that does not transfer to a device, and
    /// values of the wrong kind, each with what to write instead.
    package init(from decoder: any Decoder) throws {
        let entry = (decoder.codingPath.last?.intValue ?? 0) + 1
        func fail(_ reason: String) -> Problem { Problem(entry: entry, reason: reason) }
        guard case let .object(object) = try JSONValue(from: decoder) else { throw fail("expected an object") }
        if let unknown = object.keys.sorted().first(where: { CodingKeys(rawValue: $0) == nil }) {
            throw fail(BenchError.unknown("key", unknown, among: CodingKeys.allCases.map(\.rawValue).sorted()).description)
        }
        guard let scenario = object["scenario"]?.string, !scenario.isEmpty, let phase = object["phase"]?.string, !phase.isEmpty else {
            throw fail("needs \"scenario\" and \"phase\" (names as bench list prints them)")
        }
        guard let maximum = object["maximum"]?.number, maximum.isFinite, maximum >= 0 else {
            throw fail("needs \"maximum\", a number of 0 or more")
        }
        var metric = Metric.sqlStatements
        if let raw = object["metric"] {
            do { metric = try Metric.named(raw.string ?? raw.description) } catch { throw fail("\(error)") }
        }
        // A budget is a promise about the app: ObjectGraph's time and bytes on this machine are not the device's.
        guard metric.transfers else {
            throw fail(
                "\"metric\": \(metric.rawValue) is ObjectGraph's on this machine, not what a device does; a budget takes a count that transfers (\(Metric.allCases.filter(\.transfers).map(\.rawValue).joined(separator: ", ")))"
            )
        }
        var strategy = Strategy.objectGraph
        if let raw = object["strategy"] {
            do { strategy = try Strategy.named(raw.string ?? raw.description) } catch { throw fail("\(error)") }
        }
        var size: Int?
        if let raw = object["size"] {
            guard let number = raw.number, number >= 0, number.rounded() == number, number < 1e12 else {
                let got = raw.string.map { "the text \"\($0)\" (write a number without quotes)" } ?? "\(raw)"
                throw fail("\"size\" must be a whole number of 0 or more, got \(got)")
            }
            size = Int(number)
        }
        var variant: [AxisName: String] = [:]
        if let raw = object["variant"] {
            guard let text = raw.string else { throw fail("\"variant\" must be text such as \"prefetch=off;counts=queries\"") }
            for part in text.split(whereSeparator: { $0 == ";" || $0 == "," }) where !part.isEmpty {
                let halves = part.split(separator: "=", maxSplits: 1).map(String.init)
                guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty else {
                    throw fail("\"variant\" parts are AXIS=VALUE, got '\(part)'")
                }
                variant[AxisName(halves[0])] = halves[1]
            }
        }
        self.init(
            scenario: ScenarioName(scenario), phase: PhaseName(phase), variant: variant, size: size, metric: metric, strategy: strategy,
            maximum: maximum, entry: entry)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(phase, forKey: .phase)
        if !variant.isEmpty { try container.encode(variantText, forKey: .variant) }
        try container.encodeIfPresent(size, forKey: .size)
        try container.encode(metric, forKey: .metric)
        if strategy != .objectGraph { try container.encode(strategy, forKey: .strategy) }
        try container.encode(maximum, forKey: .maximum)
    }
}

/// Reading a budget file and checking a run against it.
package enum BudgetFile {
    /// The budgets of `path`; a malformed entry is an error naming the file, the entry and what to write.
    package static func load(_ path: String) throws -> [Budget] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput("cannot read the budget file \(path); give a JSON array of budgets (see README, Budgets)")
        }
        let example = #"[{"scenario": "social-feed", "phase": "feed", "metric": "sql_statements", "maximum": 2}]"#
        do {
            let budgets = try JSONDecoder().decode([Budget].self, from: data)
            // An empty file of budgets checks nothing and lets everything through.
            guard !budgets.isEmpty else {
                throw BenchError.invalidInput("\(path) holds no budgets (an empty array checks nothing); write \(example)")
            }
            return budgets
        } catch let problem as Budget.Problem {
            throw BenchError.invalidInput("\(path): budget \(problem.entry): \(problem.reason)")
        } catch let error as DecodingError {
            // Foundation refuses a number beyond a Double (1e400) like a syntax error or a wrong type: say which.
            let numbers = String(decoding: data, as: UTF8.self).matches(of: #/-?\d+(?:\.\d+)?[eE][+]?\d{3,}/#)
            if let huge = numbers.first(where: { Double(String($0.0))?.isFinite != true }) {
                throw BenchError.invalidInput(
                    "\(path): the number \(huge.0) is out of range (a JSON number here is at most about 1.8e308); write a smaller one")
            }
            if case .typeMismatch = error {
                throw BenchError.invalidInput(
                    "\(path): not a JSON array; write [{\"scenario\": \"social-feed\", \"phase\": \"feed\", \"metric\": \"sql_statements\", \"maximum\": 2}]"
                )
            }
            throw BenchError.invalidInput("\(path): \(error.plainDescription(of: data))")
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
            return "no variant of the run has \(budget.variantText) (its variants: \(listed(ofMetric.map(\.variant))))"
        }
        return
            "the run did not measure size \(budget.size.map(formatCount) ?? "any") (its sizes: \(listed(keys.map(\.size).sorted().map(formatCount))))"
    }
}
