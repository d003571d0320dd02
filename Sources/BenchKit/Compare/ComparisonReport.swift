import Foundation

/// `bench compare`'s output: a text table for the terminal and Markdown (GitHub-flavoured) for a CI job summary.
/// Regressions, missing series and improvements come first; `noise` and `changed` rows only when asked for.
package enum ComparisonReport {
    package static func text(_ comparison: Comparison, baseline: String, current: String, all: Bool = false) -> String {
        var lines = [headline(comparison, baseline: baseline, current: current)]
        lines += comparison.notes.map { "note: \($0)" }
        let shown = rows(comparison, all: all)
        if !shown.isEmpty {
            var table = TextTable(header: header)
            for change in shown { table.add(row(change)) }
            lines.append(table.rendered)
        }
        if let hidden = hiddenNote(comparison, all: all) { lines.append(hidden) }
        lines += why(comparison)
        lines += presence(comparison)
        return lines.joined(separator: "\n")
    }

    /// For each phase whose counts changed, the statements added and removed, and the command that shows them.
    static func why(_ comparison: Comparison, markdown: Bool = false) -> [String] {
        var lines: [String] = []
        var done = Set<String>()
        for change in rows(comparison, all: false) {
            guard let why = comparison.why[change.key], !why.lines().isEmpty else { continue }
            let key = change.key
            let place =
                "\(key.scenario) \(key.variant.description.isEmpty ? "" : "\(key.variant) ")size \(formatCount(key.size)) \(key.phase)"
            guard done.insert(place).inserted else { continue }
            let changed = rows(comparison, all: false).filter {
                $0.key.scenario == key.scenario && $0.key.variant == key.variant && $0.key.size == key.size && $0.key.phase == key.phase
                    && $0.key.strategy == key.strategy && comparison.why[$0.key] != nil
            }.map(\.key.metric.rawValue)
            lines.append("\(markdown ? "**" : "")why \(changed.joined(separator: ", ")) changed in \(place)\(markdown ? "**" : ""):")
            lines += why.lines().map { markdown ? "- `\($0)`" : "  \($0)" }
            lines.append(markdown ? "- see: `\(why.explain)`" : "  see: \(why.explain)")
        }
        return lines
    }

    package static func markdown(_ comparison: Comparison, baseline: String, current: String, all: Bool = false) -> String {
        var lines = ["## RelBench comparison", "", headline(comparison, baseline: "`\(baseline)`", current: "`\(current)`"), ""]
        // Notes, the table and the lists are separated by blank lines: a table right under a quote is part of the quote.
        for note in comparison.notes { lines += ["> \(note)", ""] }
        let shown = rows(comparison, all: all)
        if !shown.isEmpty {
            lines.append("| " + header.joined(separator: " | ") + " |")
            lines.append("|---|---|---|---|---:|---|---|---:|---:|---:|---:|---:|")
            for change in shown {
                var cells = row(change)
                cells[0] = change.verdict == .regression ? "❌ regression" : change.verdict == .improvement ? "✅ improvement" : cells[0]
                lines.append("| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
            }
            lines.append("")
        } else {
            lines += ["No significant change.", ""]
        }
        if let hidden = hiddenNote(comparison, all: all) { lines += [hidden, ""] }
        let why = why(comparison, markdown: true)
        if !why.isEmpty { lines += why + [""] }
        let presence = presence(comparison)
        if !presence.isEmpty { lines += presence.map { "- " + $0 } + [""] }
        return lines.joined(separator: "\n")
    }

    static let header = [
        "verdict", "scenario", "strategy", "variant", "size", "phase", "metric", "baseline", "current", "change", "p (adj.)", "threshold",
    ]

    private static func headline(_ comparison: Comparison, baseline: String, current: String) -> String {
        "compare \(baseline) -> \(current): \(comparison.compared) series compared, \(counted(comparison.regressions.count, "regression")), "
            + (comparison.missing.isEmpty ? "" : "\(comparison.missing.count) missing series, ")
            + counted(comparison.improvements.count, "improvement")
            + (comparison.options.countersOnly
                ? " (the counts that transfer to a device\(comparison.options.gateAllocations ? ", and allocations" : ""))" : "")
    }

    /// The rows shown: regressions and improvements always, noise and neutral changes with `all`; in order of
    /// verdict, then scenario, strategy, variant and size with numbers compared as numbers.
    private static func rows(_ comparison: Comparison, all: Bool) -> [Comparison.Change] {
        let order: [Comparison.Verdict: Int] = [.regression: 0, .improvement: 1, .changed: 2, .noise: 3]
        return comparison.changes.filter { all || $0.verdict == .regression || $0.verdict == .improvement }.sorted { a, b in
            if a.verdict != b.verdict { return order[a.verdict, default: 4] < order[b.verdict, default: 4] }
            return naturalLess(a.key, b.key)
        }
    }

    private static func hiddenNote(_ comparison: Comparison, all: Bool) -> String? {
        guard !all else { return nil }
        let hidden = comparison.changes.filter { $0.verdict == .noise || $0.verdict == .changed }.count
        return hidden == 0
            ? nil
            : "\(hidden) series moved without being a regression or an improvement (noise, or a metric that judges nothing); --all shows them"
    }

    /// Series keys in reading order: `batch=10` before `batch=100`, size 100 before 1,000.
    static func naturalLess(_ a: SeriesKey, _ b: SeriesKey) -> Bool {
        for (x, y) in [
            (a.scenario.rawValue, b.scenario.rawValue), (a.strategy.rawValue, b.strategy.rawValue),
            (a.variant.description, b.variant.description),
        ] where x != y {
            return x.localizedStandardCompare(y) == .orderedAscending
        }
        if a.size != b.size { return a.size < b.size }
        if a.phase != b.phase { return a.phase < b.phase }
        return a.metric < b.metric
    }

    private static func row(_ change: Comparison.Change) -> [String] {
        let relative = change.relative.isInfinite ? "new" : String(format: "%+.1f%%", change.relative * 100)
        let key = change.key
        let metric = key.metric
        return [
            change.verdict.rawValue, key.scenario.rawValue, key.strategy.rawValue, key.variant.isEmpty ? "-" : key.variant.description,
            formatCount(key.size), key.phase.rawValue, metric.rawValue, metric.format(change.baseline, .quantity),
            metric.format(change.current, .quantity),
            relative, change.pValue.map { String(format: "%.3g", $0) } ?? "-",
            change.threshold.map { String(format: "%.1f%%", $0 * 100) } ?? "exact",
        ]
    }

    private static func presence(_ comparison: Comparison) -> [String] {
        // One entry per series group; a group that lost only a few metrics (a counter left empty) names them.
        func describe(_ keys: [SeriesKey]) -> String {
            let groups = Dictionary(grouping: keys) { (key: SeriesKey) -> String in
                "\(key.scenario) \(key.strategy)\(key.variant.isEmpty ? "" : " \(key.variant)") n=\(key.size)"
            }
            let list = groups.map { group, keys in
                keys.count > 3
                    ? group : group + " (" + keys.map { "\($0.phase) \($0.metric.rawValue)" }.sorted().joined(separator: ", ") + ")"
            }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
            return list.prefix(8).joined(separator: "; ") + (list.count > 8 ? "; and \(list.count - 8) more" : "")
        }
        var lines: [String] = []
        if !comparison.onlyInBaseline.isEmpty {
            lines.append(
                comparison.options.allowMissing
                    ? "only in the baseline (allowed by --allow-missing): \(describe(comparison.onlyInBaseline))"
                    : "missing from the run (fails: exit 3; pass --allow-missing for a run of fewer scenarios): \(describe(comparison.onlyInBaseline))"
            )
        }
        if !comparison.unreadable.isEmpty {
            let names = comparison.unreadable.prefix(5).map { "\($0) (\($0.reason))" }.joined(separator: "; ")
            lines.append(
                "unreadable in the baseline (fails: exit 3; this bench does not know them, so it cannot gate them): \(names)"
                    + (comparison.unreadable.count > 5 ? "; and \(comparison.unreadable.count - 5) more" : ""))
        }
        if !comparison.onlyInCurrent.isEmpty {
            lines.append("only in the current run (new, not judged): \(describe(comparison.onlyInCurrent))")
        }
        return lines
    }
}
