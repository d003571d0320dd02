import Foundation

/// The Mann-Whitney U test: do two samples come from distributions with the same location?
///
/// Exact for small samples without ties (the distribution of U counted by dynamic programming), otherwise the
/// normal approximation with tie and continuity corrections. Two-sided.
package enum MannWhitney {
    /// The two-sided p-value for samples `a` and `b`; 1 when either is empty.
    package static func pValue(_ a: [Double], _ b: [Double]) -> Double {
        let n1 = a.count
        let n2 = b.count
        guard n1 > 0, n2 > 0 else { return 1 }
        let (u, tieTerm) = statistic(a, b)
        if tieTerm == 0, n1 + n2 <= 40 {
            return exactPValue(u: u, n1: n1, n2: n2)
        }
        let n = Double(n1 + n2)
        let mean = Double(n1 * n2) / 2
        let variance = Double(n1 * n2) / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return 1 }
        let z = max(0, abs(u - mean) - 0.5) / variance.squareRoot()
        return min(1, erfc(z / 2.squareRoot()))
    }

    /// The smallest two-sided p-value samples of these sizes can give: 2 / C(n1 + n2, n1), for two samples
    /// that do not overlap at all (1 when either is empty). Below 5 a side it exceeds 0.01.
    package static func smallestPValue(_ n1: Int, _ n2: Int) -> Double {
        guard n1 > 0, n2 > 0 else { return 1 }
        var arrangements = 1.0
        for step in 0..<min(n1, n2) { arrangements = arrangements * Double(n1 + n2 - step) / Double(step + 1) }
        return min(1, 2 / arrangements)
    }

    /// U for sample `a` (ranks averaged over ties), and the tie correction term Σ(t³ - t).
    static func statistic(_ a: [Double], _ b: [Double]) -> (u: Double, tieTerm: Double) {
        let pooled = (a.map { ($0, true) } + b.map { ($0, false) }).sorted { $0.0 < $1.0 }
        var ranks = [Double](repeating: 0, count: pooled.count)
        var tieTerm = 0.0
        var start = 0
        while start < pooled.count {
            var end = start
            while end + 1 < pooled.count, pooled[end + 1].0 == pooled[start].0 { end += 1 }
            let rank = Double(start + end) / 2 + 1
            for index in start...end { ranks[index] = rank }
            let ties = Double(end - start + 1)
            tieTerm += ties * ties * ties - ties
            start = end + 1
        }
        let rankSum = zip(pooled, ranks).filter { $0.0.1 }.reduce(0) { $0 + $1.1 }
        let n1 = Double(a.count)
        return (rankSum - n1 * (n1 + 1) / 2, tieTerm)
    }

    /// 2 · min(P(U ≤ u), P(U ≥ u)) under the null hypothesis, from the exact distribution of U.
    static func exactPValue(u: Double, n1: Int, n2: Int) -> Double {
        let counts = distribution(n1: n1, n2: n2)
        let total = counts.reduce(0, +)
        let observed = Int(u.rounded())
        let lower = counts[0...min(observed, counts.count - 1)].reduce(0, +)
        let upper = counts[max(0, observed)...].reduce(0, +)
        return min(1, 2 * min(lower, upper) / total)
    }

    /// How many arrangements of n1 + n2 distinct values give each U = 0 ... n1·n2.
    static func distribution(n1: Int, n2: Int) -> [Double] {
        // ways[i][j][u]: arrangements of i values of the first sample and j of the second with statistic u.
        var ways = [[[Double]]](repeating: [[Double]](repeating: [], count: n2 + 1), count: n1 + 1)
        for i in 0...n1 {
            for j in 0...n2 {
                var row = [Double](repeating: 0, count: i * j + 1)
                if i == 0 || j == 0 {
                    row[0] = 1
                } else {
                    // The largest value is from the first sample (it beats all j) or from the second.
                    for (u, count) in ways[i - 1][j].enumerated() { row[u + j] += count }
                    for (u, count) in ways[i][j - 1].enumerated() { row[u] += count }
                }
                ways[i][j] = row
            }
        }
        return ways[n1][n2]
    }
}
