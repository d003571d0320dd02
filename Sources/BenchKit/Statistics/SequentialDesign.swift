import Foundation

/// When a comparison of two arms looks at its rounds, and the error it spends at each look: a group-sequential design.
///
/// The arms run round by round; after `looks[k]` rounds the ratio's exact interval is computed at the level that look
/// spends, and the comparison stops at the first look that decides. The looks are √2 apart (7, 10, 14, 20, 28, 40), so
/// each halves the variance of the last look but one: a ratio whose interval still reaches across the band's edge at
/// 20 rounds goes on to 28 and 40 rather than stopping undecided (only such comparisons pay for the later looks). A
/// comparison still undecided at 40 rounds may go on to the extension looks, 56, 80, 113 and 160 (√2 apart again),
/// each only while it is affordable: look L is taken only if L × the median cost of one round of both arms (from the
/// rounds of the look before) stays within `budgetSeconds`. The budget reads the cost, never the ratio.
///
/// The error spent, fixed in advance: the first look spends 1/64, the least its 7 pairs can use (7 pairs all one way
/// have a two-sided level of 2/128; any share up to 1/32 buys the same interval, the extreme Walsh averages); the main
/// looks after it spend Pocock-type (Lan-DeMets) the rest of α_main = 4%: α(s) = 1/64 + (α_main − 1/64)·ln(1 + (e − 1)·s),
/// s = (looks[k] − looks[0]) / (looks[main cap] − looks[0]); and the four extension looks spend the remaining
/// α − α_main = 1% in equal shares (0.25% each: the extension is for ratios within a few percent of the band's edge,
/// which need the narrow interval of many rounds more than a large share at any one look). (Pocock-type spending over
/// the whole cap, t = looks[k] / cap, would give the first look 0.013 at a cap of 40: below 1/64, so 7 pairs could
/// never decide and every comparison would pay for 10 rounds.)
///
/// Why the overall error stays at α: the interval of look k is exact (distribution-free: Wilcoxon signed-rank for
/// pairs, Mann-Whitney otherwise), so it misses the true ratio with probability at most αₖ, whatever the other looks
/// saw. A wrong decision needs some look's interval to miss it, so its probability is at most Σ αₖ ≤ α (Bonferroni
/// over the looks: conservative, never above α, whichever look stops the comparison and why). It holds whichever looks
/// a comparison actually takes: one that stops before the cap (decided, out of budget, or the run ended) took fewer
/// looks and so spent less, never more, and a look's share never depends on whether later looks are taken. With the
/// band of practical equivalence (±margin) the decisions are apart: "lower" needs look k's interval (level 1 − αₖ)
/// wholly below 1/(1 + margin), "no difference" its narrower interval (1 − 2αₖ) wholly inside the band, "higher" the
/// interval wholly above 1 + margin. Whatever the true ratio, every wrong decision needs the narrower interval to miss
/// it on one side (probability ≤ αₖ at look k), so a comparison decides wrongly with probability at most α = 5%, and
/// two runs reach different decisions with probability at most 2α; a true ratio near the band's edge is left undecided
/// at the cap rather than decided either way. The looks are fixed in advance, in rounds, so the data cannot move them.
/// O'Brien-Fleming spending was rejected: its first looks spend below 0.001, which 7 pairs of an exact rank test cannot
/// reach (the smallest two-sided level of 7 pairs is 1/64).
package struct SequentialDesign: Sendable, Equatable {
    /// The rounds after which the comparison looks, increasing: the main looks, then the extension looks; the last is
    /// its cap.
    package let looks: [Int]
    /// How many of `looks` are main looks (always taken); the rest are extension looks, taken within the budget.
    package let mainLooks: Int
    /// The overall error of a comparison's decision: of "beyond the margin" (either side), of "within the margin", and
    /// of "not below 1/(1 + margin)" (one-sided).
    package let alpha: Double
    /// The share of `alpha` the main looks spend; the extension looks spend the rest in equal shares.
    package let mainAlpha: Double
    /// What a comparison may spend on its rounds (both arms, every phase), in seconds; nil: no limit (simulations).
    package let budgetSeconds: Double?

    package init(looks: [Int], extensionLooks: [Int] = [], alpha: Double = 0.05, mainAlpha: Double? = nil, budgetSeconds: Double? = nil) {
        self.looks = looks + extensionLooks
        self.mainLooks = looks.count
        self.alpha = alpha
        self.mainAlpha = extensionLooks.isEmpty ? alpha : min(mainAlpha ?? Self.mainShare, alpha)
        self.budgetSeconds = budgetSeconds
    }

    /// The fewest rounds of a claim's first look: 7 pairs are the fewest whose exact interval can exclude a ratio at the
    /// level the first look spends (2/128 = `firstSpending`).
    package static let firstLook = 7

    /// The error the first look spends: the smallest two-sided level of `firstLook` pairs (all of them one way), 1/64.
    package static let firstSpending = 2 / Double(1 << firstLook)

    /// The share of the 5% the main looks (up to 40 rounds) spend; the extension looks spend the other 1%.
    package static let mainShare = 0.04

    /// What one comparison may spend on its rounds to take an extension look: 120 s of both arms' measured phases, a
    /// seventh of the default profile's whole run (about 14 minutes), in which one comparison or none reaches 40
    /// rounds undecided. At chat-list's 10,000 (about 0.57 s a round of both arms) all four extension looks fit (160
    /// rounds: 92 s); at 1.5 s a round, 56 and 80 rounds (84 s, 120 s) but not 113; above 2.14 s a round none.
    package static let budget = 120.0

    /// The design of a comparison whose first look is after `first` rounds: looks at 1, 10/7, 2, 20/7, 4 and 40/7 times
    /// it (7, 10, 14, 20, 28, 40; 15, 21, 30, 43, 60, 86), the last main look the main cap, then extension looks at 8,
    /// 80/7, 80√2/7 and 160/7 times it (56, 80, 113, 160; 120, 171, 242, 343), taken within `budget`.
    package static func starting(at first: Int, budgetSeconds: Double? = budget) -> SequentialDesign {
        let first = max(first, 1)
        func scaled(_ multiples: [Double], after last: Int) -> [Int] {
            var looks: [Int] = []
            for multiple in multiples {
                let look = Int((Double(first) * multiple).rounded())
                if look > (looks.last ?? last) { looks.append(look) }
            }
            return looks
        }
        let main = scaled([1.0, 10.0 / 7, 2, 20.0 / 7, 4, 40.0 / 7], after: 0)
        let more = scaled([8.0, 80.0 / 7, 80 * 2.0.squareRoot() / 7, 160.0 / 7], after: main.last ?? 0)
        return SequentialDesign(looks: main, extensionLooks: more, budgetSeconds: budgetSeconds)
    }

    /// One look after `rounds` rounds, spending all of α there: the fixed-sample test of a run that did not adapt.
    package static func fixed(rounds: Int) -> SequentialDesign { SequentialDesign(looks: [max(rounds, 1)]) }

    package var cap: Int { looks.last ?? 0 }
    /// The last main look's rounds: the cap of a comparison that cannot afford the extension.
    package var mainCap: Int { looks[max(mainLooks - 1, 0)] }
    package var isFixed: Bool { looks.count == 1 }
    package var hasExtension: Bool { looks.count > mainLooks }

    /// The error spent by the end of look `index` (0-based): 1/64 at the first look, then 1/64 + (α_main − 1/64)·ln(1 +
    /// (e − 1)·s) with s the share of the main rounds after the first look, α_main at the last main look, then an equal
    /// share of the rest at each extension look.
    package func spent(through index: Int) -> Double {
        guard index >= 0 else { return 0 }
        if index >= looks.count - 1 { return alpha }
        if index >= mainLooks - 1 {
            let extensions = looks.count - mainLooks
            return mainAlpha + (alpha - mainAlpha) * Double(index - (mainLooks - 1)) / Double(extensions)
        }
        let first = min(Self.firstSpending, mainAlpha)
        if index == 0 { return first }
        let s = Double(looks[index] - looks[0]) / Double(mainCap - looks[0])
        return first + (mainAlpha - first) * log(1 + (exp(1) - 1) * s)
    }

    /// The error look `index` (0-based) spends.
    package func spending(_ index: Int) -> Double { spent(through: index) - spent(through: index - 1) }

    /// Whether extension look `index` is affordable: its rounds × the median cost of one round (both arms, in ms) of
    /// the rounds up to the look before it, within the budget; its projected cost in seconds either way. Main looks
    /// are always taken. nil cost (no round cost known) takes no extension look.
    package func affordable(_ index: Int, roundCosts: [Double]?) -> (taken: Bool, seconds: Double?) {
        guard index >= mainLooks, let budgetSeconds else { return (true, nil) }
        let before = roundCosts.map { Array($0.prefix(looks[index - 1])) } ?? []
        guard let median = SampleSummary(before)?.median else { return (false, nil) }
        let seconds = Double(looks[index]) * median / 1000
        return (seconds <= budgetSeconds, seconds)
    }

    /// `7, 10, 14, 20, 28 and 40 rounds` for evidence, `7, 10, 14, 20, 28 and 40 rounds, then 56, 80, 113 and 160
    /// within 120 s` with an extension.
    package var looksText: String {
        func list(_ looks: ArraySlice<Int>) -> String {
            let list = looks.map(String.init)
            return list.count == 1 ? list[0] : list.dropLast().joined(separator: ", ") + " and \(list.last ?? "")"
        }
        let main = list(looks.prefix(mainLooks)) + " rounds"
        guard hasExtension else { return main }
        let budget = budgetSeconds.map { " while they cost at most \(formatNumber($0)) s" } ?? ""
        return main + ", then " + list(looks.dropFirst(mainLooks)) + budget
    }

    /// The spending in words: `Pocock spending` (one phase), or naming the extension's share.
    package var spendingText: String {
        guard hasExtension else { return "Pocock spending" }
        return
            "Pocock spending of \(formatNumber(mainAlpha * 100))% to \(mainCap) rounds, \(formatNumber((alpha - mainAlpha) * 100 / Double(looks.count - mainLooks)))% at each extension look"
    }
}

/// A comparison of two arms decided under a `SequentialDesign`: the one function both the runner (whether to run
/// another round) and the verdicts (what was decided) use, so that the rule that decides is the rule whose error is
/// stated.
package enum SequentialComparison {
    /// What is asked of the ratio a / b.
    package enum Question: Sendable {
        /// Beyond ±margin (lower: the interval below 1/(1 + margin); higher: above 1 + margin), or within ±margin (two
        /// one-sided tests on the narrower interval). The three zones are apart: a true ratio in the band can only be
        /// decided "no difference", one outside it only lower or higher, so two runs that both decide agree unless one
        /// of them errs (each at most α; see `SequentialDesign`).
        case difference
        /// Not below 1/(1 + margin) (non-inferiority, one-sided 2.5% overall), or below it.
        case notLower
    }

    package enum Finding: Sendable, Equatable {
        case lower, higher, equivalent
        /// No look decided: `next` is the rounds of the next look, nil when the cap was reached.
        case undecided(next: Int?)
    }

    /// The interval a look computed.
    package struct Interval: Sendable, Equatable {
        package let ratio: Double
        package let low: Double
        package let high: Double
        package let coverage: Double
        /// The narrower interval of the equivalence test at the same look.
        package let narrowLow: Double
        package let narrowHigh: Double
    }

    package struct Result: Sendable {
        package let finding: Finding
        /// The 1-based look that decided, or the last look taken.
        package let look: Int
        /// The rounds the finding rests on (the look's), and the rounds there were.
        package let rounds: Int
        package let available: Int
        /// The last look's interval; nil when no look could be taken.
        package let interval: Interval?
        package let paired: Bool
        /// Where the comparison stopped because its next look was beyond the budget: that look's rounds, and what its
        /// rounds would cost in seconds (nil when no round's cost is known).
        package var beyondBudget: (next: Int, seconds: Double?)?
    }

    /// Replays the design's looks over `pairs` (each round's values of a and b, in round order) or, without pairs, over
    /// the first values of `first` and `second`; stops at the first look that decides, or before an extension look
    /// the budget cannot afford (`roundCosts`: each round's cost of both arms in ms, in the same order). nil when no
    /// value is usable (a non-positive value without `scale`).
    package static func decide(
        pairs: [(Double, Double)]?, first: [Double], second: [Double], design: SequentialDesign, margin: Double, question: Question,
        scale: Double? = nil, roundCosts: [Double]? = nil
    ) -> Result? {
        let available = pairs?.count ?? min(first.count, second.count)
        var lastInterval: Interval?
        var lastLook = 0
        for (index, rounds) in design.looks.enumerated() {
            let (affordable, seconds) = design.affordable(index, roundCosts: roundCosts)
            guard affordable else {
                // The cap of this comparison: the last look it could afford, undecided.
                var result = Result(
                    finding: .undecided(next: nil), look: lastLook, rounds: design.looks[index - 1], available: available,
                    interval: lastInterval, paired: pairs != nil)
                result.beyondBudget = (rounds, seconds)
                return result
            }
            guard rounds <= available else {
                return Result(
                    finding: .undecided(next: rounds), look: lastLook, rounds: lastLook == 0 ? available : design.looks[lastLook - 1],
                    available: available, interval: lastInterval, paired: pairs != nil)
            }
            let spend = design.spending(index)
            let wideLevel = 1 - spend
            let narrowLevel = 1 - 2 * spend
            let interval: Interval?
            if let pairs {
                let walsh = WalshAverages(Array(pairs.prefix(rounds)), scale: scale)
                if let walsh, let wide = PairedShiftInterval(walsh, level: wideLevel),
                    let narrow = PairedShiftInterval(walsh, level: narrowLevel)
                {
                    interval = Interval(
                        ratio: wide.ratio, low: wide.low, high: wide.high, coverage: wide.coverage, narrowLow: narrow.low,
                        narrowHigh: narrow.high)
                } else {
                    interval = nil
                }
            } else {
                let a = Array(first.prefix(rounds))
                let b = Array(second.prefix(rounds))
                if let wide = ShiftInterval(a, b, level: wideLevel, scale: scale),
                    let narrow = ShiftInterval(a, b, level: narrowLevel, scale: scale)
                {
                    interval = Interval(
                        ratio: wide.ratio, low: wide.low, high: wide.high, coverage: wide.coverage, narrowLow: narrow.low,
                        narrowHigh: narrow.high)
                } else {
                    interval = nil
                }
            }
            lastLook = index + 1
            guard let interval else {
                // Too few rounds for this look's level (or a value without a ratio): the look decides nothing.
                if scale == nil, !(first + second).allSatisfy({ $0 > 0 }) { return nil }
                continue
            }
            lastInterval = interval
            let edge = 1 + margin
            let finding: Finding?
            switch question {
            case .difference:
                // Zones that cannot overlap: a difference needs the whole interval beyond the band of ±margin, no
                // difference the whole narrower interval inside it; an interval across the band's edge decides nothing.
                if interval.high < 1 / edge {
                    finding = .lower
                } else if interval.low > edge {
                    finding = .higher
                } else if interval.narrowLow >= 1 / edge && interval.narrowHigh <= edge {
                    finding = .equivalent
                } else {
                    finding = nil
                }
            case .notLower:
                finding = interval.low >= 1 / edge ? .higher : interval.high < 1 / edge ? .lower : nil
            }
            if let finding {
                return Result(
                    finding: finding, look: index + 1, rounds: rounds, available: available, interval: interval, paired: pairs != nil)
            }
        }
        return Result(
            finding: .undecided(next: nil), look: lastLook, rounds: design.cap, available: available, interval: lastInterval,
            paired: pairs != nil)
    }
}
