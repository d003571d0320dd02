import Foundation
import Testing
@testable import BenchKit

/// Every rule on hand-made runs, where it must hold, not hold, hold from a size, or lack what it needs; and the
/// claim catalog against a real run.
@Suite struct VerdictTests {
    /// A summary row of `values` (the samples) for the series of arm `arm` (a variant axis) of scenario "s", phase "p".
    static func row(_ arm: String, size: Int, _ values: [Double], metric: Metric = .wallMs) -> SummaryRow {
        SummaryRow(key: .of("s", .objectGraph, "arm=\(arm)", size: size, phase: "p", metric: metric), summary: SampleSummary(values))
    }

    static func arm(_ name: String) -> SeriesSelector { SeriesSelector("s", [("arm", name)], phase: "p") }

    static let a = arm("a")
    static let b = arm("b")

    static func outcome(_ rule: Rule, _ rows: [SummaryRow]) -> Outcome {
        rule.evaluate(RunView(rows)).outcome
    }

    @Test func lowerHoldsWhenTheIntervalsAreApartAtEverySize() {
        let rows = [
            Self.row("a", size: 100, [1, 1.1, 1.2]), Self.row("b", size: 100, [2, 2.1, 2.2]),
            Self.row("a", size: 1000, [10, 11, 12]), Self.row("b", size: 1000, [20, 21, 22]),
        ]
        #expect(Self.outcome(.lower(Self.a, than: Self.b, .wallMs), rows) == .holds)
        #expect(Self.outcome(.lower(Self.b, than: Self.a, .wallMs), rows) == .doesNotHold)
    }

    @Test func overlappingIntervalsDoNotHold() {
        let rows = [Self.row("a", size: 100, [1, 1.5, 3]), Self.row("b", size: 100, [1.2, 2, 2.5])]
        #expect(Self.outcome(.lower(Self.a, than: Self.b, .wallMs), rows) == .doesNotHold)
    }

    @Test func holdsFromTheSizeWhereItStartsHolding() {
        let rows = [
            Self.row("a", size: 100, [5, 5.1, 5.2]), Self.row("b", size: 100, [1, 1.1, 1.2]),
            Self.row("a", size: 1000, [10, 11, 12]), Self.row("b", size: 1000, [20, 21, 22]),
            Self.row("a", size: 10000, [100, 101, 102]), Self.row("b", size: 10000, [300, 301, 302]),
        ]
        #expect(Self.outcome(.lower(Self.a, than: Self.b, .wallMs), rows) == .holdsFrom(size: 1000))
        // Increasingly with size: the ratio falls from 0.52 to 0.34.
        #expect(Self.outcome(.lower(Self.a, than: Self.b, .wallMs, growing: true), rows) == .holdsFrom(size: 1000))
        let flat = [
            Self.row("a", size: 100, [1, 1.1, 1.2]), Self.row("b", size: 100, [2, 2.1, 2.2]),
            Self.row("a", size: 1000, [10, 11, 12]), Self.row("b", size: 1000, [20, 21, 22]),
        ]
        if case .partly = Self.outcome(.lower(Self.a, than: Self.b, .wallMs, growing: true), flat) {
        } else {
            Issue.record("a constant ratio does not grow with the size")
        }
    }

    @Test func missingSeriesAndTooFewRepetitionsAreNotMeasured() {
        let rows = [Self.row("a", size: 100, [1, 1.1, 1.2])]
        guard case let .notMeasured(reason) = Self.outcome(.lower(Self.a, than: Self.b, .wallMs), rows) else {
            Issue.record("a missing series is not measured")
            return
        }
        #expect(reason.contains("no series s objectgraph arm=b p"))
        let single = [Self.row("a", size: 100, [1]), Self.row("b", size: 100, [2])]
        guard case let .notMeasured(few) = Self.outcome(.lower(Self.a, than: Self.b, .wallMs), single) else {
            Issue.record("one repetition cannot decide a time")
            return
        }
        #expect(few.contains("3 or more repetitions"))
        // Counters are exact: one repetition decides them.
        let counters = [Self.row("a", size: 100, [2], metric: .sqlStatements), Self.row("b", size: 100, [21], metric: .sqlStatements)]
        #expect(Self.outcome(.lower(Self.a, than: Self.b, .sqlStatements), counters) == .holds)
    }

    @Test func countersCompareExactlyAndAllocationsWithTheirTolerance() {
        let rows = [Self.row("a", size: 100, [2], metric: .sqlStatements), Self.row("b", size: 100, [2], metric: .sqlStatements)]
        #expect(Self.outcome(.equals(Self.a, .sqlStatements, 2), rows) == .holds)
        #expect(Self.outcome(.equals(Self.a, .sqlStatements, 3), rows) == .doesNotHold)
        #expect(Self.outcome(.same(Self.a, as: Self.b, .sqlStatements), rows) == .holds)
        #expect(Self.outcome(.atLeast(Self.a, .sqlStatements, 1), rows) == .holds)
        // 1% less heap is within the tolerance; half as much is not.
        let heap = [
            Self.row("a", size: 100, [990_000], metric: .allocatedBytes), Self.row("b", size: 100, [1_000_000], metric: .allocatedBytes),
            Self.row("a", size: 1000, [500_000], metric: .allocatedBytes), Self.row("b", size: 1000, [1_000_000], metric: .allocatedBytes),
        ]
        #expect(Self.outcome(.lower(Self.a, than: Self.b, .allocatedBytes), heap) == .holdsFrom(size: 1000))
        // A claim of parts none of which holds whole names each part's outcome, and no "holds for none".
        let parts: Rule = .all([
            ("heap", .lower(Self.a, than: Self.b, .allocatedBytes)), ("statements", .equals(Self.a, .sqlStatements, 3)),
        ])
        #expect(Self.outcome(parts, heap + rows) == .partly("heap holds from size 1,000, statements does not hold"))
    }

    @Test func statementsAndTimeAreJudgedApart() {
        var rows = [
            Self.row("a", size: 100, [2], metric: .sqlStatements), Self.row("b", size: 100, [21], metric: .sqlStatements),
            Self.row("a", size: 100, [5, 5.1, 5.2]), Self.row("b", size: 100, [5, 5.1, 5.2]),
        ]
        #expect(Self.outcome(.fewerAndFaster(Self.a, than: Self.b), rows) == .holdsForStatementsNotTime)
        rows[3] = Self.row("b", size: 100, [9, 9.1, 9.2])
        #expect(Self.outcome(.fewerAndFaster(Self.a, than: Self.b), rows) == .holds)
        rows[1] = Self.row("b", size: 100, [2], metric: .sqlStatements)
        #expect(Self.outcome(.fewerAndFaster(Self.a, than: Self.b), rows) == .holdsForTimeNotStatements)
    }

    @Test func orderingsSmallestOptionsAsymmetryAndTrends() {
        let c = Self.arm("c")
        let rows = [
            Self.row("a", size: 100, [1, 1.1, 1.2]), Self.row("b", size: 100, [2, 2.1, 2.2]), Self.row("c", size: 100, [30, 31, 32]),
        ]
        #expect(Self.outcome(.ordered([("a", Self.a), ("b", Self.b), ("c", c)], .wallMs), rows) == .holds)
        #expect(
            Self.outcome(.ordered([("b", Self.b), ("a", Self.a), ("c", c)], .wallMs), rows)
                == .partly("holds for a < c; b < a does not hold"))
        #expect(Self.outcome(.asymmetric(Self.a, c, .wallMs, factor: 10), rows) == .holds)
        #expect(Self.outcome(.asymmetric(Self.a, Self.b, .wallMs, factor: 10), rows) == .doesNotHold)
        // Batch sizes: 20 is within 10% of the best (50), so the smallest good one is 20.
        let batches = [
            Self.row("b10", size: 100, [3, 3.1, 3.2]), Self.row("b20", size: 100, [2.1, 2.1, 2.2]),
            Self.row("b50", size: 100, [2, 2, 2.1]),
        ]
        let options = [10, 20, 50].map { (label: $0, series: Self.arm("b\($0)")) }
        #expect(Self.outcome(.smallestWithin(options, .wallMs, within: 0.1, atMost: 40), batches) == .holds)
        #expect(Self.outcome(.smallestWithin(options, .wallMs, within: 0.1, atMost: 10), batches) == .doesNotHold)
        let loss = [
            Self.row("l0", size: 100, [0], metric: .lossRate), Self.row("l1", size: 100, [0.01], metric: .lossRate),
            Self.row("l2", size: 100, [0.1], metric: .lossRate),
        ]
        let rising = ["l0", "l1", "l2"].map { Self.arm($0) }
        #expect(Self.outcome(.increasing(rising, .lossRate), loss) == .holds)
        #expect(Self.outcome(.increasing(rising.reversed(), .lossRate), loss) == .doesNotHold)
        #expect(Self.outcome(.untestable("why"), loss) == .cannotTest("why"))
    }

    /// A variant is matched axis by axis, whatever the order the run wrote them in.
    @Test func selectorsMatchVariantsByAxis() {
        let selector = SeriesSelector("s", [("prefetch", "on"), ("keyPath", "to-one")], phase: "p")
        #expect(selector.matches(.of("s", .objectGraph, "keyPath=to-one;prefetch=on", size: 1, phase: "p", metric: .wallMs)))
        #expect(!selector.matches(.of("s", .objectGraph, "keyPath=to-one;prefetch=off", size: 1, phase: "p", metric: .wallMs)))
        #expect(!selector.matches(.of("s", .objectGraph, "keyPath=to-one", size: 1, phase: "p", metric: .wallMs)))
        #expect(!selector.matches(.of("s", .sqlReplay, "keyPath=to-one;prefetch=on", size: 1, phase: "p", metric: .wallMs)))
    }

    /// The catalog names only series the shipped scenarios run: each claim's scenarios exist and declare the strategies,
    /// variants and phases its rule reads.
    @Test func everyClaimReadsSeriesTheScenariosRun() throws {
        let catalog = try ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder)
        for claim in ClaimCatalog.all {
            for name in claim.scenarios { #expect((try? catalog.scenario(named: name)) != nil, "\(claim.id): no scenario \(name)") }
        }
        #expect(Set(ClaimCatalog.all.map(\.id)).count == ClaimCatalog.all.count)
        #expect(ClaimCatalog.all.count >= 20)
    }
}
