import Foundation

/// A store's shape beside the generated data's (`--shape-from`): rows per entity, then each to-many's histogram of
/// members per owner, as owners and shares, long tails in power-of-two buckets. Printed by `bench run --model` and
/// `bench explain --model`, and written to the run folder as shape.txt.
package enum ShapeReport {
    package static func text(store: StoreShape, generated: StoreShape, size: Int) -> String {
        var lines = ["shape of \(store.path) (read from a copy, counts only) beside the data generated at size \(formatCount(size)):"]
        var rows = TextTable(header: ["entity", "store rows", "generated rows"])
        for entity in Set(store.rows.keys).union(generated.rows.keys).sorted() {
            rows.add([entity, formatCount(store.rows[entity] ?? 0), formatCount(generated.rows[entity] ?? 0)])
        }
        lines.append(rows.rendered)
        for name in Set(store.fanouts.keys).union(generated.fanouts.keys).sorted() {
            let mine = store.fanouts[name] ?? Histogram()
            let theirs = generated.fanouts[name] ?? Histogram()
            guard mine.ownerCount > 0 || theirs.ownerCount > 0 else { continue }
            lines.append("")
            lines.append(
                "\(name): members per owner (mean \(String(format: "%.2f", mine.mean)) in the store, \(String(format: "%.2f", theirs.mean)) generated)"
            )
            var table = TextTable(header: ["members", "store owners", "share", "generated owners", "share"])
            let labels = buckets(mine, theirs)
            for (label, stored, made) in labels {
                table.add([label, formatCount(stored), share(stored, mine.ownerCount), formatCount(made), share(made, theirs.ownerCount)])
            }
            lines.append(table.rendered)
        }
        return lines.joined(separator: "\n")
    }

    /// The two histograms' owners on the same rows: each fan-out when both have 12 or fewer, else buckets.
    static func buckets(_ a: Histogram, _ b: Histogram) -> [(String, Int, Int)] {
        let fanouts = Set(a.owners.keys).union(b.owners.keys).sorted()
        if fanouts.count <= 12 { return fanouts.map { (String($0), a.owners[$0] ?? 0, b.owners[$0] ?? 0) } }
        guard let highest = fanouts.last else { return [] }
        return zip(a.buckets(upTo: highest), b.buckets(upTo: highest)).map { ($0.label, $0.owners, $1.owners) }.filter {
            $0.1 > 0 || $0.2 > 0
        }
    }

    private static func share(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "-" : String(format: "%.1f%%", Double(part) * 100 / Double(whole))
    }
}
