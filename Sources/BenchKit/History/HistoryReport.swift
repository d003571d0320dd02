/// `bench history`'s output: one block per series (strategy, variant, size, phase) with its unit, its runs oldest
/// first, and the change against the series' first run.
package enum HistoryReport {
    package static func text(_ entries: [HistoryStore.Entry], metric: Metric) -> String {
        var blocks: [String] = []
        var index = 0
        let sorted = entries.enumerated().sorted { a, b in
            let x = a.element.key
            let y = b.element.key
            if x.strategy != y.strategy { return x.strategy < y.strategy }
            if x.variant != y.variant { return x.variant.description.localizedStandardCompare(y.variant.description) == .orderedAscending }
            if x.size != y.size { return x.size < y.size }
            if x.phase != y.phase { return x.phase < y.phase }
            return a.offset < b.offset
        }.map(\.element)
        while index < sorted.count {
            let key = sorted[index].key
            var end = index
            while end < sorted.count && sorted[end].key == key { end += 1 }
            let series = sorted[index..<end]
            let title =
                "\(key.scenario) \(key.strategy)" + (key.variant.isEmpty ? "" : " \(key.variant)")
                + " size \(formatCount(key.size)) \(key.phase): \(metric.rawValue) (\(metric.unit.rawValue))"
            var table = TextTable(header: ["time (UTC)", "commit", "profile", "n", "median", "interval", "vs first"])
            let first = series.first?.median ?? 0
            for entry in series {
                let interval = entry.n >= 6 ? "[\(formatSignificant(entry.ciLow)), \(formatSignificant(entry.ciHigh))]" : "n<6: none"
                let change =
                    first == 0 || !first.isFinite || !entry.median.isFinite
                    ? "-" : String(format: "%+.1f%%", (entry.median - first) / first * 100)
                table.add([
                    String(entry.time.prefix(16)).replacingOccurrences(of: "T", with: " "), String(entry.commit.prefix(10)),
                    entry.profile.rawValue,
                    String(entry.n), formatSignificant(entry.median), interval, change,
                ])
            }
            blocks.append(title + "\n" + table.rendered)
            index = end
        }
        return blocks.joined(separator: "\n\n")
    }
}
