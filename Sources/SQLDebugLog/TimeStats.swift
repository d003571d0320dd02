/// A summary of times the log measured (seconds): how many, their sum, median, 95th percentile and maximum.
public struct TimeStats: Sendable, Equatable, Codable {
    public var count: Int
    public var totalSeconds: Double
    /// The median (nearest rank); 0 when there are none.
    public var p50Seconds: Double
    /// The 95th percentile (nearest rank); 0 when there are none.
    public var p95Seconds: Double
    public var maxSeconds: Double

    public init(count: Int = 0, totalSeconds: Double = 0, p50Seconds: Double = 0, p95Seconds: Double = 0, maxSeconds: Double = 0) {
        self.count = count
        self.totalSeconds = totalSeconds
        self.p50Seconds = p50Seconds
        self.p95Seconds = p95Seconds
        self.maxSeconds = maxSeconds
    }

    public var totalMilliseconds: Double { totalSeconds * 1000 }
}

/// Times kept as counts per distinct value, in bounded memory: the log prints times with four decimals, so
/// exact percentiles need only one counter per distinct value. Past 4,096 distinct values, new values are
/// rounded to two significant digits (1% precision), which bounds the keys to a few hundred per decade.
struct TimeHistogram: Sendable {
    /// Up to `smallLimit` distinct values, the first inline and the others in a small array searched linearly (most
    /// statements show a handful of times, a statement of a log of distinct ones only one; profiled: a dictionary per
    /// histogram, four per statement, cost 5% of reading a log, and an array for one value 2% of reading a log of
    /// distinct statements), then a dictionary.
    private var firstKey: Int64 = 0
    private var firstCount = 0
    private var small: [(key: Int64, count: Int)] = []
    private var counts: [Int64: Int] = [:]
    private(set) var count = 0
    private(set) var total: Double = 0
    private(set) var maximum: Double = 0
    private var coarse = false

    static let smallLimit = 16

    mutating func add(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        count += 1
        total += seconds
        maximum = max(maximum, seconds)
        var key = Int64((min(seconds, 1e9) * 100_000).rounded()) // 10 µs ticks
        if coarse { key = Self.coarsen(key) }
        insert(key, 1, coarsensWhenFull: true)
    }

    /// Counts `number` more of the value `key` (a merge, as before, leaves coarsening to the next value added).
    private mutating func insert(_ key: Int64, _ number: Int, coarsensWhenFull: Bool = false) {
        if counts.isEmpty {
            if firstCount == 0 {
                firstKey = key
                firstCount = number
                return
            }
            if firstKey == key {
                firstCount += number
                return
            }
            for index in small.indices where small[index].key == key {
                small[index].count += number
                return
            }
            if small.count + 1 < Self.smallLimit {
                small.append((key, number))
                return
            }
            counts[firstKey] = firstCount
            for (value, count) in small { counts[value, default: 0] += count }
            firstCount = 0
            small = []
        }
        counts[key, default: 0] += number
        if coarsensWhenFull, !coarse, counts.count > 4096 {
            coarse = true
            var merged: [Int64: Int] = [:]
            for (value, count) in counts { merged[Self.coarsen(value), default: 0] += count }
            counts = merged
        }
    }

    /// Every distinct value with its count.
    private var entries: [(key: Int64, count: Int)] {
        guard counts.isEmpty else { return counts.map { ($0.key, $0.value) } }
        return firstCount == 0 ? [] : [(key: firstKey, count: firstCount)] + small
    }

    mutating func merge(_ other: TimeHistogram) {
        if other.counts.isEmpty {
            if other.firstCount > 0 { insert(coarse ? Self.coarsen(other.firstKey) : other.firstKey, other.firstCount) }
            for (key, number) in other.small { insert(coarse ? Self.coarsen(key) : key, number) }
        } else {
            for (key, number) in other.counts { insert(coarse ? Self.coarsen(key) : key, number) }
        }
        count += other.count
        total += other.total
        maximum = max(maximum, other.maximum)
    }

    private static func coarsen(_ key: Int64) -> Int64 {
        guard key >= 100 else { return key }
        var scale: Int64 = 1
        var value = key
        while value >= 100 {
            value /= 10
            scale *= 10
        }
        return value * scale
    }

    /// The value at `fraction` by nearest rank, in `sorted` (the entries by value).
    private func percentile(_ fraction: Double, of sorted: [(key: Int64, count: Int)]) -> Double {
        guard count > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for entry in sorted {
            seen += entry.count
            if seen >= rank { return Double(entry.key) / 100_000 }
        }
        return maximum
    }

    /// The value at `fraction` by nearest rank.
    func percentile(_ fraction: Double) -> Double {
        percentile(fraction, of: entries.sorted { $0.key < $1.key })
    }

    var stats: TimeStats {
        guard count > 0 else { return TimeStats(count: 0, totalSeconds: total, p50Seconds: 0, p95Seconds: 0, maxSeconds: maximum) }
        // One value (a statement run once): no list to make and sort.
        if counts.isEmpty, small.isEmpty, firstCount > 0 {
            let value = Double(firstKey) / 100_000
            return TimeStats(count: count, totalSeconds: total, p50Seconds: value, p95Seconds: value, maxSeconds: maximum)
        }
        let sorted = entries.sorted { $0.key < $1.key }
        return TimeStats(
            count: count, totalSeconds: total, p50Seconds: percentile(0.5, of: sorted), p95Seconds: percentile(0.95, of: sorted),
            maxSeconds: maximum)
    }
}

/// A sum and maximum of times, where no percentile is asked for (a fingerprint's measured time over its runs): what
/// `TimeHistogram` gives for them, without its counts (profiled: a histogram kept for them cost 1% of reading a log).
struct TimeTotal: Sendable {
    private(set) var total: Double = 0
    private(set) var maximum: Double = 0

    mutating func add(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        total += seconds
        maximum = max(maximum, seconds)
    }

    mutating func merge(_ other: TimeTotal) {
        total += other.total
        maximum = max(maximum, other.maximum)
    }
}
