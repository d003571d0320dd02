import Foundation

/// The summary of one series of samples: center, spread, and a 95% confidence interval of the median.
package struct SampleSummary: Equatable, Sendable {
    /// The fewest repetitions of each side before a measured ratio is shown ("× faster", × floor): with fewer, one
    /// noisy sample decides the direction (the same SQL read 1.8× slower in one run and 1.8× faster in the next).
    /// Exact metrics (instructions, counts) need one.
    package static let repetitionsForARatio = 3

    package let n: Int
    package let median: Double
    package let mean: Double
    package let stddev: Double
    package let min: Double
    package let max: Double
    package let p90: Double
    /// A distribution-free 95% interval of the median from order statistics (binomial ranks). With fewer than
    /// six samples no such interval exists; it is then [min, max], whose coverage is 1 - 2^(1-n).
    package let ciLow: Double
    package let ciHigh: Double

    /// Summarizes `samples`; nil when there are none.
    package init?(_ samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        n = sorted.count
        median = Statistics.quantile(sorted, 0.5)
        let count = sorted.count
        let average = sorted.reduce(0, +) / Double(count)
        mean = average
        stddev = count > 1 ? (sorted.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(count - 1)).squareRoot() : 0
        min = sorted[0]
        max = sorted[n - 1]
        p90 = Statistics.quantile(sorted, 0.9)
        let (low, high) = Statistics.medianConfidenceRanks(n: n, level: 0.95)
        ciLow = sorted[low]
        ciHigh = sorted[high]
    }
}

/// Statistical functions used by summaries and comparisons.
package enum Statistics {
    /// The `q` quantile of sorted samples, interpolating linearly between order statistics (R's type 7).
    package static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        guard sorted.count > 1 else { return sorted.first ?? .nan }
        let position = q * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    package static func median(_ samples: [Double]) -> Double { quantile(samples.sorted(), 0.5) }

    /// 0-based ranks (l, u) of sorted samples that bound the median with at least `level` confidence: the
    /// interval [x(l), x(n-1-l)] covers the median with probability 1 - 2 P(B <= l-1) for B ~ Binomial(n, 1/2);
    /// l is the largest rank keeping that at or above `level` (0 when even [min, max] falls short).
    package static func medianConfidenceRanks(n: Int, level: Double) -> (Int, Int) {
        let tail = (1 - level) / 2
        var cumulative = 0.0
        var lower = -1
        for k in 0..<n {
            cumulative += binomialProbability(n: n, k: k)
            if cumulative <= tail { lower = k } else { break }
        }
        let low = Swift.max(0, lower)
        let high = Swift.min(n - 1, n - 1 - low)
        return low <= high ? (low, high) : (0, n - 1)
    }

    /// P(B = k) for B ~ Binomial(n, 1/2).
    static func binomialProbability(n: Int, k: Int) -> Double {
        exp(logChoose(n, k) - Double(n) * log(2.0))
    }

    static func logChoose(_ n: Int, _ k: Int) -> Double {
        lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
    }
}
