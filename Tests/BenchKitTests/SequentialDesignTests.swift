import Foundation
import Testing

@testable import BenchKit

/// The sequential design's stated error rates, checked by simulation: seeded experiments on known distributions, their
/// wrong decisions counted exactly and held to the binomial bound of the stated rate (deterministic, not timed).
@Suite struct SequentialDesignTests {
    static let experiments = 2000
    /// The design without a budget (a simulation has no cost): every extension look is taken.
    static let design = SequentialDesign.starting(at: SequentialDesign.firstLook, budgetSeconds: nil)
    /// The design before the extension: the six looks to 40 rounds spending all 5%.
    static let capAt40 = SequentialDesign(looks: Array(design.looks.prefix(6)))

    /// The largest count of wrong decisions in `experiments` that a true rate `rate` exceeds with probability below
    /// 0.001 (the exact binomial tail).
    static func bound(rate: Double, experiments: Int = experiments) -> Int {
        var cumulative = 0.0
        for k in 0...experiments {
            cumulative += exp(Statistics.logChoose(experiments, k) + Double(k) * log(rate) + Double(experiments - k) * log(1 - rate))
            if cumulative >= 0.999 { return k }
        }
        return experiments
    }

    /// One experiment's rounds, as many as the design's cap: a machine level shared by the round's pair, each arm's own
    /// noise (`noise` the standard deviation of its log; heavy-tailed with `spikes`: a tenth of the values three times
    /// slower), and arm a's true ratio to b.
    static func rounds(
        _ generator: inout SplitMix64, ratio: Double, count: Int = design.cap, noise sd: Double = 0.1, spikes: Bool = false
    ) -> [(Double, Double)] {
        (0..<count).map { _ in
            let level = exp(0.3 * generator.normal())
            func noise(_ generator: inout SplitMix64) -> Double {
                let spike = spikes && generator.uniform() < 0.1 ? 3.0 : 1.0
                return exp(sd * generator.normal()) * spike
            }
            return (ratio * level * noise(&generator), level * noise(&generator))
        }
    }

    /// How often each finding came out of `experiments` experiments of `ratio`, decided by the design.
    static func findings(
        ratio: Double, question: SequentialComparison.Question, seed: UInt64, spikes: Bool = false, design: SequentialDesign = design
    ) -> (lower: Int, higher: Int, equivalent: Int, undecided: Int, rounds: Int) {
        var generator = SplitMix64(seed: seed)
        var counts = (lower: 0, higher: 0, equivalent: 0, undecided: 0, rounds: 0)
        for _ in 0..<experiments {
            let pairs = rounds(&generator, ratio: ratio, spikes: spikes)
            let result = SequentialComparison.decide(
                pairs: pairs, first: pairs.map(\.0), second: pairs.map(\.1), design: design, margin: 0.10, question: question)!
            counts.rounds += result.rounds
            switch result.finding {
            case .lower: counts.lower += 1
            case .higher: counts.higher += 1
            case .equivalent: counts.equivalent += 1
            case .undecided: counts.undecided += 1
            }
        }
        return counts
    }

    @Test func theDesignLooksAt7_10_14_20_28And40ThenExtendsTo160AndSpends5PercentInAll() {
        #expect(Self.design.looks == [7, 10, 14, 20, 28, 40, 56, 80, 113, 160])
        #expect(Self.design.mainLooks == 6 && Self.design.mainCap == 40)
        #expect(SequentialDesign.starting(at: 15).looks == [15, 21, 30, 43, 60, 86, 120, 171, 242, 343])
        let spent = (0..<10).map { Self.design.spending($0) }
        print("spending at \(Self.design.looksText): \(spent.map { String(format: "%.4f", $0) }.joined(separator: ", "))")
        #expect(abs(spent.reduce(0, +) - 0.05) < 1e-12)
        #expect(abs(Self.design.spent(through: 5) - 0.04) < 1e-12)
        #expect(spent.allSatisfy { $0 > 0 })
        // The first look spends 1/64: 7 pairs all one way (2/128) decide, at the same 98.4% interval as with more.
        #expect(spent[0] == 1.0 / 64)
        let allOneWay = PairedShiftInterval((0..<7).map { _ in (1.0, 2.0) }, level: 1 - spent[0])
        #expect(allOneWay?.coverage == 1 - 2.0 / 128)
        // Pocock-type over the main rounds after the first look: the later looks' shares grow slowly, none below 0.003.
        #expect(zip(spent[1..<6], spent[2..<6]).allSatisfy { $0 < $1 })
        #expect(spent[1] > 0.003)
        // The extension looks spend the last 1% in equal shares.
        #expect(spent[6...].allSatisfy { abs($0 - 0.0025) < 1e-12 })
        #expect(SequentialDesign.fixed(rounds: 9).spending(0) == 0.05)
        #expect(SequentialDesign(looks: [7, 10, 14, 20]).spent(through: 3) == 0.05)
        // A look's share does not depend on whether later looks are affordable: the budget only stops early.
        #expect(SequentialDesign.starting(at: 7).spending(4) == spent[4])
    }

    /// The budget: an extension look is taken only if its rounds × the median cost of a round so far fits in 120 s.
    @Test func anExtensionLookIsTakenOnlyWithinTheBudget() {
        let design = SequentialDesign.starting(at: 7)
        #expect(design.budgetSeconds == 120)
        // 0.57 s a round (chat-list at 10,000, both arms): 160 rounds cost 91 s, all taken.
        let cheap = [Double](repeating: 570, count: 160)
        #expect((6..<10).allSatisfy { design.affordable($0, roundCosts: cheap).taken })
        // 1.5 s a round: 56 (84 s) and 80 (120 s), not 113 (170 s).
        let dear = [Double](repeating: 1500, count: 160)
        #expect((6..<10).map { design.affordable($0, roundCosts: dear).taken } == [true, true, false, false])
        // The main looks are always taken; without a cost no extension look is.
        #expect(design.affordable(5, roundCosts: nil).taken)
        #expect(!design.affordable(6, roundCosts: nil).taken)
    }

    /// A true ratio inside the band of ±10% (1, and 0.95 near its edge): "beyond the margin" (holds or the opposite) in
    /// at most 5% of the experiments.
    @Test func beyondTheMarginWhenTheRatioIsInsideTheBandAtMost5Percent() {
        for (seed, ratio, spikes) in [(UInt64(1), 1.0, false), (UInt64(2), 1.0, true), (UInt64(8), 0.95, true)] {
            let counts = Self.findings(ratio: ratio, question: .difference, seed: seed, spikes: spikes)
            let wrong = counts.lower + counts.higher
            print(
                "ratio \(ratio) (spikes \(spikes)): \(wrong) of \(Self.experiments) beyond ±10% (bound \(Self.bound(rate: 0.05))); \(counts.equivalent) no difference, \(counts.undecided) undecided; \(Double(counts.rounds) / Double(Self.experiments)) rounds on average"
            )
            #expect(wrong <= Self.bound(rate: 0.05))
        }
    }

    /// The true ratio at the band's edges (1.1, 1/1.1) and outside it (0.8): "no difference" in at most 5% of the
    /// experiments; at an edge, the difference beyond it in at most 5% too.
    @Test func noDifferenceAtOrOutsideTheBandsEdgeAtMost5Percent() {
        for (seed, ratio) in [(UInt64(3), 1.1), (UInt64(4), 1 / 1.1), (UInt64(9), 0.8)] {
            let counts = Self.findings(ratio: ratio, question: .difference, seed: seed, spikes: true)
            let beyond = ratio > 1 ? counts.higher : counts.lower
            print(
                "ratio \(ratio): \(counts.equivalent) of \(Self.experiments) no difference (bound \(Self.bound(rate: 0.05))); \(beyond) beyond the edge, \(counts.undecided) undecided"
            )
            #expect(counts.equivalent <= Self.bound(rate: 0.05))
            if ratio != 0.8 { #expect(beyond <= Self.bound(rate: 0.05)) }
        }
    }

    /// Two runs of one comparison whose true ratio sits inside the band near its edge (0.93, as derived-count's time at
    /// 10,000): the zones cannot overlap, so the two never decide differently unless one errs (at most 2 × 5%).
    @Test func twoRunsOfARatioNearTheEdgeDisagreeOnlyByError() {
        var generator = SplitMix64(seed: 10)
        var contrary = 0
        var same = 0
        var oneUndecided = 0
        func decided(_ finding: SequentialComparison.Finding) -> Bool {
            if case .undecided = finding { return false }
            return true
        }
        for _ in 0..<Self.experiments {
            let runs = (0..<2).map { _ in
                let pairs = Self.rounds(&generator, ratio: 0.93, spikes: true)
                return SequentialComparison.decide(
                    pairs: pairs, first: [], second: [], design: Self.design, margin: 0.10, question: .difference)!.finding
            }
            if decided(runs[0]) && decided(runs[1]) {
                if runs[0] == runs[1] { same += 1 } else { contrary += 1 }
            } else if decided(runs[0]) != decided(runs[1]) {
                oneUndecided += 1
            }
        }
        print(
            "two runs at 0.93: \(contrary) of \(Self.experiments) pairs decided differently (bound \(Self.bound(rate: 0.10))); \(same) decided alike, \(oneUndecided) with one undecided"
        )
        #expect(contrary <= Self.bound(rate: 0.10))
    }

    /// Non-inferiority at its edge (a / b = 1/1.1): "holds" (not lower) in at most 2.5%.
    @Test func notLowerAtTheMarginsEdgeAtMost2Point5Percent() {
        let counts = Self.findings(ratio: 1 / 1.1, question: .notLower, seed: 5, spikes: true)
        print("not lower at 1/1.1: \(counts.higher) of \(Self.experiments) hold (bound \(Self.bound(rate: 0.025)))")
        #expect(counts.higher <= Self.bound(rate: 0.025))
    }

    /// The simulation can see an inflated error: looking at the same rounds with 95% and 90% at every look to 40 rounds
    /// (no spending), a true ratio at the band's edge (1/1.1) is decided wrongly (lower, or no difference) more often than
    /// the 5% bound allows.
    @Test func lookingWithoutSpendingIsWrongMoreOften() {
        var generator = SplitMix64(seed: 6)
        var wrong = 0
        for _ in 0..<Self.experiments {
            let pairs = Self.rounds(&generator, ratio: 1 / 1.1, spikes: true)
            let decided = Self.capAt40.looks.contains { look in
                let result = SequentialComparison.decide(
                    pairs: Array(pairs.prefix(look)), first: [], second: [], design: .fixed(rounds: look), margin: 0.10,
                    question: .difference)!
                return result.finding == .lower || result.finding == .equivalent
            }
            if decided { wrong += 1 }
        }
        print("peeking at 95% at every look: \(wrong) of \(Self.experiments) decided at the edge 1/1.1 (bound \(Self.bound(rate: 0.05)))")
        #expect(wrong > Self.bound(rate: 0.05))
    }

    /// A real difference (0.7, against each arm's 10% noise) is decided, most often at the first look.
    @Test func aClearDifferenceIsDecidedEarly() {
        let counts = Self.findings(ratio: 0.7, question: .difference, seed: 7)
        print(
            "ratio 0.7: \(counts.lower) lower, \(counts.undecided) undecided; \(Double(counts.rounds) / Double(Self.experiments)) rounds on average"
        )
        #expect(counts.lower >= Self.experiments * 99 / 100)
        // A difference must lie beyond the band (below 1/1.1), not only apart from 1: a few take the second look.
        #expect(counts.rounds <= Self.experiments * 17 / 2)
    }

    /// Two runs of each of `experiments` comparisons of a true `ratio`: how often the first run is undecided, how often
    /// a run decides wrongly (anything but higher for a ratio beyond 1.1), how often the two runs' findings differ, and
    /// the rounds a run takes on average.
    static func twoRuns(
        ratio: Double, noise: Double, spikes: Bool, design: SequentialDesign, seed: UInt64
    ) -> (undecided: Int, wrong: Int, differ: Int, rounds: Double) {
        var generator = SplitMix64(seed: seed)
        var counts = (undecided: 0, wrong: 0, differ: 0, rounds: 0.0)
        for _ in 0..<experiments {
            let runs = (0..<2).map { _ in
                let pairs = rounds(&generator, ratio: ratio, noise: noise, spikes: spikes)
                return SequentialComparison.decide(
                    pairs: pairs, first: [], second: [], design: design, margin: 0.10, question: .difference)!
            }
            if case .undecided = runs[0].finding { counts.undecided += 1 }
            for run in runs {
                counts.rounds += Double(run.rounds) / Double(2 * experiments)
                if run.finding == .lower || run.finding == .equivalent { counts.wrong += 1 }
            }
            if runs[0].finding != runs[1].finding { counts.differ += 1 }
        }
        return counts
    }

    /// A true ratio 5% past the band's edge (1.15 against 1.1, as hand-kept-key's list-items at 1,000), each arm's noise
    /// 3% (as that claim's rounds without spikes) or 10%, with and without spikes: the looks at 28 and 40 rounds decide
    /// what a cap of 20 (the same spending rule over 7, 10, 14 and 20 rounds) left undecided, never wrongly beyond the 5%
    /// bound. The new design (its extension to 160, 4% spent to 40) decides at least as many as a cap of 20.
    @Test func aRatioJustPastTheEdgeGoesOnTo40Rounds() {
        let capAt20 = SequentialDesign(looks: Array(Self.design.looks.prefix(4)))
        for (seed, noise, spikes) in [
            (UInt64(11), 0.03, false), (UInt64(12), 0.03, true), (UInt64(13), 0.1, false), (UInt64(14), 0.1, true),
        ] {
            let old = Self.twoRuns(ratio: 1.15, noise: noise, spikes: spikes, design: capAt20, seed: seed)
            let at40 = Self.twoRuns(ratio: 1.15, noise: noise, spikes: spikes, design: Self.capAt40, seed: seed)
            let new = Self.twoRuns(ratio: 1.15, noise: noise, spikes: spikes, design: Self.design, seed: seed)
            print(
                String(
                    format:
                        "ratio 1.15, noise %.2f, spikes %@: cap 20: %d undecided, %d differ, %.1f rounds; cap 40: %d undecided, %d differ, %.1f rounds; cap 160: %d undecided, %d differ, %.1f rounds; %d wrong (bound %d)",
                    noise, "\(spikes)", old.undecided, old.differ, old.rounds, at40.undecided, at40.differ, at40.rounds, new.undecided,
                    new.differ, new.rounds, new.wrong,
                    Self.bound(rate: 0.05, experiments: 2 * Self.experiments)))
            #expect(new.wrong <= Self.bound(rate: 0.05, experiments: 2 * Self.experiments))
            #expect(new.undecided <= old.undecided)
            // Where the noise is small against the 5% to the edge (as the claim's own rounds: 3% an arm), two runs
            // differ less often; where it is large, the later looks decide some comparisons and two runs differ more
            // often (each run decides with a probability nearer one half), never wrongly.
            if noise < 0.05 { #expect(new.differ < old.differ) }
            if noise < 0.05 && !spikes { #expect(new.undecided * 20 <= Self.experiments) }
        }
    }

    /// Rounds short of the first look, or between looks, name the next look; past the cap the finding stays undecided.
    @Test func undecidedNamesTheNextLook() {
        // Ratios spread either side of the band's edge (1.1): every look's interval reaches across it.
        let close: [(Double, Double)] = (0..<160).map { index in
            let sign: Double = index % 2 == 0 ? 1 : -1
            let spread: Double = 0.2 * (1 + Double(index % 5) / 5)
            return (1.1 * exp(sign * spread), 1.0)
        }
        func decided(_ rounds: Int, costs: [Double]? = nil, design: SequentialDesign = Self.design) -> SequentialComparison.Result {
            SequentialComparison.decide(
                pairs: Array(close.prefix(rounds)), first: [], second: [], design: design, margin: 0.10, question: .difference,
                roundCosts: costs)!
        }
        #expect(decided(6).finding == .undecided(next: 7))
        #expect(decided(12).finding == .undecided(next: 14))
        #expect(decided(20).finding == .undecided(next: 28))
        // Past the main cap the extension looks follow, to the cap of 160.
        #expect(decided(40).finding == .undecided(next: 56))
        let all = decided(160)
        #expect(all.finding == .undecided(next: nil))
        #expect(all.rounds == 160 && all.beyondBudget == nil)
        // With the budget: 0.57 s a round takes every look; 3 s a round stops at 40, naming the look it cannot afford.
        let budgeted = SequentialDesign.starting(at: 7)
        #expect(decided(40, costs: [Double](repeating: 570, count: 160), design: budgeted).finding == .undecided(next: 56))
        let dear = decided(40, costs: [Double](repeating: 3000, count: 40), design: budgeted)
        #expect(dear.finding == .undecided(next: nil))
        #expect(dear.rounds == 40 && dear.look == 6)
        #expect(dear.beyondBudget?.next == 56 && dear.beyondBudget?.seconds == 168)
    }

    /// A true ratio 2% inside the band's edge (0.929 against 1/1.1 = 0.909, as derived-count's time at 10,000), each
    /// paired log-ratio's noise 5% (as that comparison's 40 rounds): at a cap of 40 rounds two runs often differ (one
    /// decides "no difference", the other is undecided); the extension to 160 decides most of them, so two runs agree,
    /// and none decides "lower" beyond the 5% bound. Without a budget (a simulation has no cost).
    @Test func aRatioJustInsideTheEdgeIsDecidedByTheExtension() {
        let experiments = 1000
        let noise = 0.05 / 2.0.squareRoot()
        let newAt40 = SequentialDesign(looks: Array(Self.design.looks.prefix(6)), extensionLooks: [], alpha: 0.04)
        var lines: [String] = []
        var results: [String: (equivalent: Int, lower: Int, differ: Int, rounds: Double)] = [:]
        for (name, design) in [("cap 40 (5% to 40)", Self.capAt40), ("cap 40 (4% to 40)", newAt40), ("cap 160", Self.design)] {
            var generator = SplitMix64(seed: 15)
            var counts = (equivalent: 0, lower: 0, differ: 0, rounds: 0.0)
            for _ in 0..<experiments {
                let runs = (0..<2).map { _ in
                    let pairs = Self.rounds(&generator, ratio: 0.929, count: 160, noise: noise)
                    return SequentialComparison.decide(
                        pairs: pairs, first: [], second: [], design: design, margin: 0.10, question: .difference)!
                }
                for run in runs {
                    if run.finding == .equivalent { counts.equivalent += 1 }
                    if run.finding == .lower { counts.lower += 1 }
                    counts.rounds += Double(run.rounds) / Double(2 * experiments)
                }
                if runs[0].finding != runs[1].finding { counts.differ += 1 }
            }
            results[name] = counts
            lines.append(
                String(
                    format:
                        "ratio 0.929, 5%% a log-ratio, %@: %d of %d runs no difference, %d lower (bound %d); %d of %d pairs differ; %.1f rounds a run",
                    name, counts.equivalent, 2 * experiments, counts.lower, Self.bound(rate: 0.05, experiments: 2 * experiments),
                    counts.differ, experiments, counts.rounds))
        }
        print(lines.joined(separator: "\n"))
        let old = results["cap 40 (5% to 40)"]!
        let new = results["cap 160"]!
        #expect(new.lower <= Self.bound(rate: 0.05, experiments: 2 * experiments))
        #expect(new.equivalent > old.equivalent)
        #expect(new.differ < old.differ)
    }
}

/// The simulation's draws from BenchKit's seeded generator: the same stream on every machine.
extension SplitMix64 {
    /// A value in (0, 1), never 0, so that its logarithm is finite.
    mutating func uniform() -> Double { (Double(next() >> 11) + 0.5) / Double(1 << 53) }
    /// A standard normal value (Box-Muller).
    mutating func normal() -> Double { (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform()) }
}
