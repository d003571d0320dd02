import Foundation

/// `bench compare`'s output: a text table for the terminal and Markdown for a CI job summary.
public enum ComparisonReport {
    public static func text(_ comparison: Comparison, baseline: String, current: String) -> String {
        var lines = ["compare \(baseline) -> \(current): \(comparison.compared) series compared, "
                     + "\(comparison.regressions.count) regression(s), \(comparison.improvements.count) improvement(s)"
                     + (comparison.options.countersOnly ? " (exact counters only)" : "")]
        lines += comparison.notes.map { "note: \($0)" }
        if !comparison.changes.isEmpty {
            var table = TextTable(header: ["verdict", "scenario", "strategy", "variant", "size", "phase", "metric", "baseline", "current",
                                           "change", "p (adj.)", "threshold"])
            for change in sorted(comparison.changes) {
                table.add(row(change))
            }
            lines.append(table.rendered)
        }
        lines += presence(comparison)
        return lines.joined(separator: "\n")
    }

    public static func markdown(_ comparison: Comparison, baseline: String, current: String) -> String {
        var lines = ["## RelBench comparison", "",
                     "`\(baseline)` → `\(current)`: \(comparison.compared) series compared, **\(comparison.regressions.count) regression(s)**, "
                        + "\(comparison.improvements.count) improvement(s)" + (comparison.options.countersOnly ? " (exact counters only)." : "."), ""]
        lines += comparison.notes.map { "> \($0)" }
        if !comparison.changes.isEmpty {
            lines.append("| verdict | scenario | strategy | variant | size | phase | metric | baseline | current | change | p (adj.) | threshold |")
            lines.append("|---|---|---|---|---:|---|---|---:|---:|---:|---:|---:|")
            for change in sorted(comparison.changes) {
                var cells = row(change)
                cells[0] = change.verdict == .regression ? "❌ regression" : change.verdict == .improvement ? "✅ improvement" : cells[0]
                lines.append("| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |")
            }
        } else {
            lines.append("No change.")
        }
        let presence = presence(comparison)
        if !presence.isEmpty { lines += [""] + presence.map { "- " + $0 } }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func sorted(_ changes: [Comparison.Change]) -> [Comparison.Change] {
        let order: [Comparison.Verdict: Int] = [.regression: 0, .improvement: 1, .changed: 2, .noise: 3]
        return changes.sorted { (order[$0.verdict]!, $0.key) < (order[$1.verdict]!, $1.key) }
    }

    private static func row(_ change: Comparison.Change) -> [String] {
        let relative = change.relative.isInfinite ? "new" : String(format: "%+.1f%%", change.relative * 100)
        return [change.verdict.rawValue, change.key.scenario, change.key.strategy, change.key.variant.isEmpty ? "-" : change.key.variant,
                String(change.key.size), change.key.phase, change.key.metric, formatNumber(change.baseline), formatNumber(change.current),
                relative, change.pValue.map { String(format: "%.3g", $0) } ?? "-",
                change.threshold.map { String(format: "%.1f%%", $0 * 100) } ?? "exact"]
    }

    private static func presence(_ comparison: Comparison) -> [String] {
        func describe(_ keys: [SeriesKey]) -> String {
            let groups = Set(keys.map { "\($0.scenario) \($0.strategy)\($0.variant.isEmpty ? "" : " \($0.variant)") n=\($0.size)" })
            let list = groups.sorted()
            return list.prefix(8).joined(separator: "; ") + (list.count > 8 ? "; and \(list.count - 8) more" : "")
        }
        var lines: [String] = []
        if !comparison.onlyInBaseline.isEmpty {
            lines.append("only in the baseline (not failed): \(describe(comparison.onlyInBaseline))")
        }
        if !comparison.onlyInCurrent.isEmpty {
            lines.append("only in the current run (not failed): \(describe(comparison.onlyInCurrent))")
        }
        return lines
    }
}
