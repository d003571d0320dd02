import Foundation
import Testing

@testable import BenchKit

@Suite struct StatisticsTests {
    @Test func quantilesInterpolateLikeRType7() {
        let sorted: [Double] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        #expect(Statistics.quantile(sorted, 0.5) == 5.5)
        #expect(Statistics.quantile(sorted, 0.9) == 9.1)
        #expect(Statistics.quantile([4], 0.9) == 4)
        #expect(Statistics.median([3, 1, 2]) == 2)
    }

    @Test func medianConfidenceRanksMatchTheBinomialTable() {
        // Known 95% order-statistic intervals for the median (1-based): n=6 -> (1,6), n=10 -> (2,9), n=20 -> (6,15).
        #expect(Statistics.medianConfidenceRanks(n: 5, level: 0.95) == (0, 4))
        #expect(Statistics.medianConfidenceRanks(n: 6, level: 0.95) == (0, 5))
        #expect(Statistics.medianConfidenceRanks(n: 10, level: 0.95) == (1, 8))
        #expect(Statistics.medianConfidenceRanks(n: 20, level: 0.95) == (5, 14))
    }

    @Test func summaryOfAKnownSeries() throws {
        let summary = try #require(SampleSummary([2, 4, 4, 4, 5, 5, 7, 9]))
        #expect(summary.n == 8)
        #expect(summary.median == 4.5)
        #expect(summary.mean == 5)
        #expect(abs(summary.stddev - 2.138089935299395) < 1e-12)
        #expect(summary.min == 2 && summary.max == 9)
        #expect(abs(summary.p90 - 7.6) < 1e-12)
        #expect(summary.ciLow == 2 && summary.ciHigh == 9)
        #expect(SampleSummary([]) == nil)
    }

    @Test func complexityFitsSyntheticSeries() throws {
        let sizes: [Double] = [1_000, 10_000, 100_000, 1_000_000]
        func best(_ f: (Double) -> Double) throws -> ComplexityFit.Model {
            try #require(ComplexityFit.fit(sizes: sizes, values: sizes.map(f))).first!.model
        }
        #expect(try best { _ in 7 } == .constant)
        #expect(try best { 3 * log2($0) } == .logarithmic)
        #expect(try best { 0.02 * $0 } == .linear)
        #expect(try best { 0.001 * $0 * log2($0) } == .linearithmic)
        #expect(try best { 1e-6 * $0 * $0 } == .quadratic)
        // A linear series with 5% noise still fits O(n), with a small error.
        let noisy = zip(sizes, [1.05, 0.95, 1.03, 0.98]).map { 0.02 * $0 * $1 }
        let fits = try #require(ComplexityFit.fit(sizes: sizes, values: noisy))
        #expect(fits[0].model == .linear && fits[0].error < 0.1)
        #expect(ComplexityFit.fit(sizes: [1, 2], values: [1, 2]) == nil)
    }

    @Test func editDistanceSuggestsNearNames() {
        #expect(editDistance("kitten", "sitting") == 3)
        #expect(nearNames("sql-replya", in: Strategy.allCases.map(\.rawValue)) == ["sql-replay"])
        #expect(nearNames("gdrb", in: Strategy.allCases.map(\.rawValue)) == ["grdb"])
        #expect(nearNames("zzzzzzzzz", in: Strategy.allCases.map(\.rawValue)).isEmpty)
    }
}
