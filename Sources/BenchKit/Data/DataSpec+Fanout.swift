import Foundation

extension DataSpec {
    /// How many destinations each source of a to-many gets.
    enum Fanout: Sendable, Equatable {
        case fixed(Count)
        case uniform(Int, Int)
        /// Zipf with exponent `s` over 1...max: most sources get few, some get many.
        case zipf(Double, Int)
        /// A store's histogram (`--shape-from`): `owners` sources of each fan-out, in proportion to the sources there
        /// are (rounded by largest remainders, so that the proportions hold at every size), dealt in a seeded order.
        case histogram([Bin])

        /// One bar of a histogram: how many sources have `fanout` destinations.
        struct Bin: Sendable, Equatable, Codable {
            let fanout: Int
            let owners: Int
        }

        /// `3`, `"size/10"`, `{"uniform": [0, 4]}`, `{"zipf": 1.2, "max": 200}` or `{"histogram": {"0": 7, "1": 7, "100": 1}}`;
        /// `fail` takes what was expected.
        static func parse(_ per: JSONValue, fail: (String) -> BenchError) throws -> Fanout {
            if per.object == nil, let count = Count.parse(per) { return .fixed(count) }
            if let range = per.object?["uniform"]?.array?.compactMap(\.number), per.object?.count == 1, range.count == 2,
                range[0] >= 0, range[0] <= range[1], range[1] <= 1_000_000
            {
                return .uniform(Int(range[0]), Int(range[1]))
            }
            if let options = per.object, let exponent = options["zipf"]?.number, exponent > 0,
                let maximum = (options["max"] ?? .number(1000)).number, maximum >= 1, maximum <= 1_000_000,
                Set(options.keys).isSubset(of: ["zipf", "max"])
            {
                return .zipf(exponent, Int(maximum))
            }
            if let options = per.object, options.count == 1, let bars = options["histogram"]?.object {
                var bins: [Bin] = []
                for (key, value) in bars {
                    guard let fanout = Int(key), (0...1_000_000).contains(fanout), let owners = value.number, owners >= 0,
                        owners.rounded() == owners, owners <= 100_000_000
                    else {
                        throw fail(
                            "{\"histogram\": {\"fan-out\": sources, ...}} takes whole numbers from 0 (fan-outs up to 1000000), got \"\(key)\": \(value)"
                        )
                    }
                    bins.append(Bin(fanout: fanout, owners: Int(owners)))
                }
                guard bins.contains(where: { $0.owners > 0 }) else {
                    throw fail("a histogram needs at least one fan-out with sources, {\"histogram\": {\"0\": 7, \"1\": 7, \"2\": 4}}")
                }
                return .histogram(bins.sorted { $0.fanout < $1.fanout })
            }
            throw fail(
                "expected a count (3, \"size\", \"size/10\"), {\"uniform\": [min, max]} (0 <= min <= max <= 1000000), {\"zipf\": exponent above 0, \"max\": n from 1 to 1000000} or {\"histogram\": {\"0\": 7, \"1\": 7}}, got \(per)"
            )
        }

        /// The fan-out of each of `sources` sources, as the histogram deals them: its proportions scaled by largest
        /// remainders (ties to the smaller fan-out), shuffled with `random`.
        static func deal(_ bins: [Bin], sources: Int, random: inout SplitMix64) -> [Int] {
            let total = bins.reduce(0) { $0 + $1.owners }
            guard total > 0, sources > 0 else { return Array(repeating: 0, count: sources) }
            var counts = bins.map { $0.owners * sources / total }
            let remainders = bins.indices.map { (bins[$0].owners * sources) % total }
            let order = bins.indices.sorted { (remainders[$0], -bins[$0].fanout) > (remainders[$1], -bins[$1].fanout) }
            for index in order.prefix(sources - counts.reduce(0, +)) { counts[index] += 1 }
            var deck = zip(bins, counts).flatMap { bin, count in Array(repeating: bin.fanout, count: count) }
            deck.shuffle(using: &random)
            return deck
        }
    }
}
