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
    /// Up to `smallLimit` distinct values in a small array searched linearly (most statements show a handful of
    /// times; profiled: a dictionary per histogram, four per statement, cost 5% of reading a log), then a dictionary.
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
        if counts.isEmpty {
            for index in small.indices where small[index].key == key {
                small[index].count += 1
                return
            }
            if small.count < Self.smallLimit {
                small.append((key, 1))
                return
            }
            for (value, number) in small { counts[value, default: 0] += number }
            small = []
        }
        counts[key, default: 0] += 1
        if !coarse, counts.count > 4096 {
            coarse = true
            var merged: [Int64: Int] = [:]
            for (value, number) in counts { merged[Self.coarsen(value), default: 0] += number }
            counts = merged
        }
    }

    /// Every distinct value with its count.
    private var entries: [(key: Int64, count: Int)] { counts.isEmpty ? small : counts.map { ($0.key, $0.value) } }

    mutating func merge(_ other: TimeHistogram) {
        for (key, number) in other.entries {
            let value = coarse ? Self.coarsen(key) : key
            if counts.isEmpty, let index = small.firstIndex(where: { $0.key == value }) {
                small[index].count += number
            } else if counts.isEmpty, small.count < Self.smallLimit {
                small.append((value, number))
            } else {
                if counts.isEmpty {
                    for (key, count) in small { counts[key, default: 0] += count }
                    small = []
                }
                counts[value, default: 0] += number
            }
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

    /// The value at `fraction` by nearest rank.
    func percentile(_ fraction: Double) -> Double {
        guard count > 0 else { return 0 }
        let rank = max(1, Int((fraction * Double(count)).rounded(.up)))
        var seen = 0
        for entry in entries.sorted(by: { $0.key < $1.key }) {
            seen += entry.count
            if seen >= rank { return Double(entry.key) / 100_000 }
        }
        return maximum
    }

    var stats: TimeStats {
        TimeStats(count: count, totalSeconds: total, p50Seconds: percentile(0.5), p95Seconds: percentile(0.95), maxSeconds: maximum)
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
