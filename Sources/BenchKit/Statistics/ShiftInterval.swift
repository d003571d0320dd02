import Foundation

/// How much larger one sample's values are than another's, as a ratio: the Hodges-Lehmann estimate of the shift in
/// log values, with its distribution-free confidence interval (Moses): the pairwise differences between the
/// sorted order statistics the exact Mann-Whitney distribution of the two sample sizes gives, so the coverage is
/// exact, never assumed. Judging on a ratio keeps a 10% change 10% at 0.1 ms and at 100 ms.
package struct ShiftInterval: Sendable, Equatable {
    /// The estimated ratio a / b (the median of all pairwise ratios).
    package let ratio: Double
    /// The interval of the ratio, and its exact coverage (0.95 asked gives 0.952 at 7 against 7).
    package let low: Double
    package let high: Double
    package let coverage: Double

    /// The interval at `level` (e.g. 0.95) for samples `a` and `b`; nil when the samples are too few for any
    /// interval at that level (3 against 3 cannot give 95%). By default the values must be positive and the shift
    /// is taken in log values; with `scale` (values that may be zero or negative: memory a phase held), the shift is
    /// taken in the values themselves and given as a ratio 1 + shift / scale.
    package init?(_ a: [Double], _ b: [Double], level: Double, scale: Double? = nil) {
        guard !a.isEmpty, !b.isEmpty, (a + b).allSatisfy(\.isFinite) else { return nil }
        if scale == nil, !(a + b).allSatisfy({ $0 > 0 }) { return nil }
        guard let (rank, coverage) = Self.rank(n1: a.count, n2: b.count, level: level) else { return nil }
        var differences: [Double] = []
        differences.reserveCapacity(a.count * b.count)
        for x in a { for y in b { differences.append(scale == nil ? log(x) - log(y) : x - y) } }
        differences.sort()
        func ratio(_ shift: Double) -> Double { scale.map { 1 + shift / $0 } ?? exp(shift) }
        self.ratio = ratio(sortedMedian(differences))
        low = ratio(differences[rank])
        high = ratio(differences[differences.count - 1 - rank])
        self.coverage = coverage
    }

    /// The 0-based index i of the interval [d(i), d(nm-1-i)] and its coverage under the exact distribution of the
    /// Mann-Whitney U for these sample sizes; nil when even P(U = 0) is larger than the tail.
    static func rank(n1: Int, n2: Int, level: Double) -> (Int, Double)? {
        exactTailRank(MannWhitney.distribution(n1: n1, n2: n2), level: level)
    }
}

/// The 0-based index i of an interval [d(i), d(N-1-i)] of sorted estimates and its coverage 1 - 2·P(S < i + 1), from
/// `counts` (how many outcomes give each value 0, 1, ... of a statistic S): the largest i with P(S ≤ i) ≤ (1 - level)
/// / 2; nil when even P(S = 0) is larger. Shared by the unpaired (Mann-Whitney) and paired (signed-rank) intervals.
func exactTailRank(_ counts: [Double], level: Double) -> (Int, Double)? {
    let total = counts.reduce(0, +)
    let tail = (1 - level) / 2
    var cumulative = 0.0
    var k = 0
    for count in counts {
        cumulative += count / total
        if cumulative <= tail * (1 + 1e-12) { k += 1 } else { break }
    }
    guard k >= 1 else { return nil }
    return (k - 1, 1 - 2 * counts[0..<k].reduce(0, +) / total)
}

/// The middle of sorted values (the mean of the two middle ones for an even count).
private func sortedMedian(_ sorted: [Double]) -> Double {
    let count = sorted.count
    return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2
}

/// The ratio of two arms measured in the same rounds (the runner interleaves the repetitions of a scenario's arms,
/// round by round): the Hodges-Lehmann estimate of the median log ratio of each round's pair, with the exact
/// interval of the Wilcoxon signed-rank test (Walsh averages). Pairing by round takes out what a round shares, such
/// as the machine's level for a minute, which unpaired samples carry into the interval.
package struct PairedShiftInterval: Sendable, Equatable {
    package let ratio: Double
    package let low: Double
    package let high: Double
    package let coverage: Double

    /// `pairs` of positive values (a, b) of one round each; nil for too few pairs for `level` (5 cannot give 95%).
    package init?(_ pairs: [(Double, Double)], level: Double, scale: Double? = nil) {
        guard let walsh = WalshAverages(pairs, scale: scale) else { return nil }
        self.init(walsh, level: level)
    }

    /// The interval at `level` from Walsh averages already sorted: a sequential look takes two levels of one set.
    package init?(_ walsh: WalshAverages, level: Double) {
        guard let (rank, coverage) = exactTailRank(SignedRank.distribution(n: walsh.n), level: level) else { return nil }
        let sorted = walsh.sorted
        self.ratio = walsh.ratio(sortedMedian(sorted))
        low = walsh.ratio(sorted[rank])
        high = walsh.ratio(sorted[sorted.count - 1 - rank])
        self.coverage = coverage
    }
}

/// The Walsh averages (dᵢ + dⱼ) / 2, i ≤ j, of the pairs' differences (in log values, or in the values with a scale),
/// sorted: the estimates whose order statistics are the paired interval's ends.
package struct WalshAverages: Sendable {
    let sorted: [Double]
    let n: Int
    let scale: Double?

    /// nil for fewer than two pairs, a value that is not finite, or (without `scale`) one that is not positive.
    package init?(_ pairs: [(Double, Double)], scale: Double? = nil) {
        guard pairs.count >= 2, pairs.allSatisfy({ $0.0.isFinite && $0.1.isFinite }) else { return nil }
        if scale == nil, !pairs.allSatisfy({ $0.0 > 0 && $0.1 > 0 }) { return nil }
        let differences = pairs.map { scale == nil ? log($0.0) - log($0.1) : $0.0 - $0.1 }
        let n = differences.count
        var walsh: [Double] = []
        walsh.reserveCapacity(n * (n + 1) / 2)
        for i in 0..<n { for j in i..<n { walsh.append((differences[i] + differences[j]) / 2) } }
        walsh.sort()
        self.sorted = walsh
        self.n = n
        self.scale = scale
    }

    func ratio(_ shift: Double) -> Double { scale.map { 1 + shift / $0 } ?? exp(shift) }
}

/// The exact distribution of Wilcoxon's signed-rank statistic: how many of the 2ⁿ subsets of the ranks 1...n have each
/// sum. It depends on n alone, and computing it takes n·n(n+1)/2 additions (2 million at 160 pairs, a sequential
/// comparison's cap: about 66 ms in a debug build, against 11 ms to sort its Walsh averages), so each n is computed once.
enum SignedRank {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [Int: [Double]] = [:]

    static func distribution(n: Int) -> [Double] {
        lock.lock()
        defer { lock.unlock() }
        if let known = cache[n] { return known }
        var counts = [Double](repeating: 0, count: n * (n + 1) / 2 + 1)
        counts[0] = 1
        for rank in stride(from: 1, through: n, by: 1) {
            for sum in stride(from: counts.count - 1, through: rank, by: -1) { counts[sum] += counts[sum - rank] }
        }
        cache[n] = counts
        return counts
    }
}
