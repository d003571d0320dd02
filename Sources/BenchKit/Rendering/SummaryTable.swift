import Foundation

/// Every series of a run as text (summary.txt, and `bench run --verbose`): per scenario, one line per (strategy,
/// variant, size, phase) with the median time and its interval (95% from 6 repetitions, else the range and its real
/// coverage), the ratio to the floor, the exact counters, the process's peak memory in MiB and the growth fit; then
/// what each phase covers, where the scenario says.
package enum SummaryTable {
    /// What the numbers mean off a device, under every table of results.
    /// What the memory column measures, under every table that has it.
    package static let memoryLegend =
        "process peak MiB: the peak resident memory of the whole bench process during the phase (Linux's VmHWM, reset before it; 1 MiB = 1,048,576 bytes), the harness and the data it holds included: compare phases and strategies, not a device's footprint."

    package static let fidelity =
        "Core Data does not run on Linux: times and memory are ObjectGraph's on this machine; the sql, faults and rows counts are what transfers to an app, where ObjectGraph is faithful to Core Data."

    /// What the allocator columns of an instruction count's table say.
    package static let allocatorLegend =
        "allocator: the phase's instructions in the heap allocator (malloc and free, the Swift runtime's allocation entry points, the counting interposer) and their share; own x floor: the ratio to the floor of the instructions outside the allocator, the strategy's own work."

    /// An instruction count's allocator instructions with their share, and the ratio to the floor without them.
    static func allocatorColumns(_ key: SeriesKey, _ byKey: [SeriesKey: SummaryRow]) -> [String] {
        func median(_ key: SeriesKey) -> Double? { byKey[key]?.summary?.median }
        guard let all = median(key), let allocator = median(key.with(.allocatorInstructions)) else { return ["-", "-"] }
        let share = all > 0 ? String(format: " (%.0f%%)", allocator / all * 100) : ""
        var ratio = "-"
        if key.strategy != Strategy.floor, let floorAll = median(key.with(Strategy.floor)),
            let floorAllocator = median(key.with(Strategy.floor).with(.allocatorInstructions)), floorAll - floorAllocator > 0
        {
            ratio = String(format: "%.2f", (all - allocator) / (floorAll - floorAllocator))
        }
        return [formatNumber(allocator) + share, ratio]
    }

    /// With `deviceCosts`, phases priced with them show their predicted device time, labelled as a prediction.
    package static func render(_ rows: [SummaryRow], scenarios: [Scenario], deviceCosts: DeviceCosts? = nil) -> String {
        let fits = ComplexityFit.fits(rows)
        var byKey: [SeriesKey: SummaryRow] = [:]
        for row in rows { byKey[row.key] = row }
        var output: [String] = []
        let order = scenarios.map(\.name) + rows.map(\.key.scenario).filter { name in !scenarios.contains { $0.name == name } }
        // Each name once, in first-seen order (NSOrderedSet does not dedupe Swift strings on Linux).
        var seen = Set<ScenarioName>()
        for scenario in order where seen.insert(scenario).inserted {
            // A --instructions run has no timings: its instruction counts take the time column.
            var measure = Metric.wallMs
            var timing = rows.filter { $0.key.scenario == scenario && $0.key.metric == .wallMs }
            if timing.isEmpty {
                measure = .instructions
                timing = rows.filter { $0.key.scenario == scenario && $0.key.metric == .instructions }
            }
            guard !timing.isEmpty else { continue }
            let description = scenarios.first { $0.name == scenario }?.description ?? ""
            output.append("\(scenario)\(description.isEmpty ? "" : ": \(description)")")
            let measureHeader = measure == .wallMs ? "wall ms (median [95% CI])" : "instructions (median)"
            let predicted = rows.contains { $0.key.scenario == scenario && $0.key.metric == .predictedDeviceMs }
            // Counted instructions come with the allocator's: the ratio to the floor without them is the strategy's own.
            let split = measure == .instructions && rows.contains { $0.key.scenario == scenario && $0.key.metric == .allocatorInstructions }
            var table = TextTable(
                header: [
                    "strategy", "variant", "size", "phase", measureHeader, "x floor", "sql", "faults obj/rel",
                    "rows", "process peak MiB", "growth",
                ] + (predicted ? ["device ms (pred.)"] : []) + (split ? ["allocator", "own x floor"] : []))
            var previousGroup: (Strategy, Variant, Int)?
            var fewest = Int.max
            var close = false
            for row in timing {
                func value(_ metric: Metric) -> String { byKey[row.key.with(metric)]?.summary.map { formatNumber($0.median) } ?? "-" }
                let peak = byKey[row.key.with(.peakRSSBytes)]?.summary.map { String(format: "%.1f", $0.median / 1_048_576) } ?? "-"
                // A distribution-free 95% interval of the median needs 6 samples; fewer show the median alone.
                let measured =
                    row.summary.map { stats -> String in
                        fewest = min(fewest, stats.n)
                        guard measure == .wallMs else { return formatNumber(stats.median) }
                        return stats.n >= 6
                            ? String(format: "%.3g [%.3g, %.3g]", stats.median, stats.ciLow, stats.ciHigh)
                            : String(format: "%.3g", stats.median) + " (n=\(stats.n))"
                    } ?? "-"
                // A phase whose save a delete rule or validation refused measured the refusal, not the work.
                let refused = byKey[row.key.with(.failedSaves)]?.summary.map { $0.median > 0 } ?? false
                let time = refused ? "refused save: \(measured)" : measured
                let fit = fits.first {
                    $0.scenario == scenario && $0.strategy == row.key.strategy && $0.variant == row.key.variant
                        && $0.phase == row.key.phase && $0.metric == measure
                }
                // Two fits within 10% of each other's error cannot be told apart: "~" says so.
                let growth =
                    fit.map { fit -> String in
                        let uncertain = fit.fits.count > 1 && fit.fits[1].error <= fit.best.error * 1.1 + 0.005
                        if uncertain { close = true }
                        return (uncertain ? "~" : "") + fit.best.model.rawValue
                    } ?? "-"
                let faults = value(.objectFaults) == "-" ? "-" : "\(value(.objectFaults))/\(value(.relationshipFaults))"
                // One group per strategy, variant and size: its phases follow without repeating them.
                let group = (row.key.strategy, row.key.variant, row.key.size)
                let continues = previousGroup.map { $0 == group } ?? false
                previousGroup = group
                table.add(
                    [
                        continues ? "" : row.key.strategy.rawValue,
                        continues ? "" : (row.key.variant.isEmpty ? "-" : row.key.variant.description),
                        continues ? "" : formatCount(row.key.size), row.key.phase.rawValue, time,
                        row.floorRatioText, value(.sqlStatements), faults, value(.rowsRead),
                        peak, growth,
                    ]
                        + (predicted
                            ? [byKey[row.key.with(.predictedDeviceMs)]?.summary.map { String(format: "%.3g", $0.median) } ?? "-"] : [])
                        + (split ? allocatorColumns(row.key, byKey) : []))
            }
            output.append(table.rendered)
            if predicted, let deviceCosts { output.append(deviceCosts.label) }
            if split { output.append(allocatorLegend) }
            if measure == .wallMs && fewest < 6 {
                output.append(
                    "(n=\(fewest)): medians of \(fewest) repetition(s); a 95% interval of the median needs 6 or more (--repetitions 6)")
            }
            if close { output.append("~: the second-best growth fits almost as well (within 10%); see complexity.csv") }
            output.append(memoryLegend)
            let described = (scenarios.first { $0.name == scenario }?.phaseDescriptions ?? []).filter { phase in
                timing.contains { $0.key.phase == phase.name }
            }
            if !described.isEmpty {
                output.append("phases:")
                output += described.map { "  \($0.name): \($0.description)" }
            }
            let losses = rows.filter { $0.key.scenario == scenario && $0.key.metric == .lossRate }
            if !losses.isEmpty {
                var lossTable = TextTable(header: [
                    "strategy", "variant", "size", "phase", "links intended", "persisted", "lost", "loss rate",
                ])
                for row in losses {
                    func value(_ metric: Metric) -> String { byKey[row.key.with(metric)]?.summary.map { formatNumber($0.median) } ?? "-" }
                    lossTable.add([
                        row.key.strategy.rawValue, row.key.variant.isEmpty ? "-" : row.key.variant.description, String(row.key.size),
                        row.key.phase.rawValue,
                        value(.linksIntended), value(.linksPersisted), value(.linksLost),
                        row.summary.map { String(format: "%.4f", $0.median) } ?? "-",
                    ])
                }
                output.append(lossTable.rendered)
            }
            output.append("")
        }
        if !output.isEmpty { output.append(Self.fidelity) }
        return output.joined(separator: "\n")
    }
}
