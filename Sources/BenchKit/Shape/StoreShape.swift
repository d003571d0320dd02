import Foundation
import ObjectGraph

/// A store's shape without its content (`--shape-from`): how many rows each entity has, how many members each owner
/// of a to-many has (a histogram), and how often each to-one is set. What the generated suite's data follows.
package struct StoreShape: Sendable, Equatable, Codable {
    /// The store file read, as given.
    package var path: String
    /// Rows per concrete entity.
    package var rows: [String: Int]
    /// Per to-many, by its declaring entity (`Customer.orders`): owners per number of members.
    package var fanouts: [String: Histogram]
    /// Per to-one (`Order.customer`): the share of its entity's rows that have a destination.
    package var filled: [String: Double]

    package init(path: String, rows: [String: Int] = [:], fanouts: [String: Histogram] = [:], filled: [String: Double] = [:]) {
        self.path = path
        self.rows = rows
        self.fanouts = fanouts
        self.filled = filled
    }

    /// The entity with the most rows and their number: what a run's size scales (that entity gets `size` objects).
    package var largest: (entity: String, rows: Int)? {
        rows.filter { $0.value > 0 }.max { ($0.value, $1.key) < ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }
}

/// Owners per fan-out: `owners[3] == 40` is 40 owners with 3 members each.
package struct Histogram: Sendable, Equatable, Codable {
    package var owners: [Int: Int]

    package init(_ owners: [Int: Int] = [:]) { self.owners = owners.filter { $0.value > 0 } }

    package var ownerCount: Int { owners.values.reduce(0, +) }
    package var memberCount: Int { owners.reduce(0) { $0 + $1.key * $1.value } }
    package var mean: Double { ownerCount == 0 ? 0 : Double(memberCount) / Double(ownerCount) }

    /// The fan-outs with owners, smallest first.
    package var bins: [(fanout: Int, owners: Int)] { owners.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }

    /// Owners per bucket up to `limit` (default: the largest fan-out): each fan-out up to 4 alone, then powers of two
    /// (`5-8`, `9-16`, ...), for a histogram with a long tail to print in a few lines.
    package func buckets(upTo limit: Int? = nil) -> [(label: String, owners: Int)] {
        let highest = max(limit ?? 0, owners.keys.max() ?? 0)
        guard highest > 4 else { return (0...highest).map { (String($0), owners[$0] ?? 0) } }
        var result: [(String, Int)] = (0...4).map { fanout in (String(fanout), owners[fanout] ?? 0) }
        var low = 5
        var high = 8
        while low <= highest {
            let count = owners.filter { $0.key >= low && $0.key <= high }.reduce(0) { $0 + $1.value }
            result.append(("\(low)-\(high)", count))
            low = high + 1
            high *= 2
        }
        return result
    }

    private enum CodingKeys: String, CodingKey { case owners }

    package init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode([String: Int].self, forKey: .owners)
        var owners: [Int: Int] = [:]
        for (key, value) in text {
            guard let fanout = Int(key), fanout >= 0, value >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .owners, in: container, debugDescription: "fan-out '\(key)' is not a count")
            }
            owners[fanout] = value
        }
        self.init(owners)
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Dictionary(uniqueKeysWithValues: owners.map { (String($0.key), $0.value) }), forKey: .owners)
    }
}
