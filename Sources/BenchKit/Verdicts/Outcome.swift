/// What a rule found about a claim. Each says what was found; none is a catch-all: a claim whose arms differ the
/// other way is `opposite`, arms equal within the claim's margin are `noDifference`, too little data is `undecided`.
package indirect enum Outcome: Sendable, Equatable {
    case holds
    /// The arms differ, the other way round.
    case opposite
    /// Equal (counts), or within the claim's margin by two one-sided tests (times, memory).
    case noDifference
    /// Not enough data to tell (too few repetitions, a size outside the claim's, an interval across the edge of the
    /// margin's band): the reason; the verdict names the command that would decide it.
    case undecided(String)
    /// An emulation cannot judge it: the computed reason (both arms run the same SQL), or why ObjectGraph cannot.
    case cannotJudge(String)
    /// A figure that says nothing about the arm alone (a peak is the whole process's): out of the verdicts, and why.
    case notJudged(String)
    /// The run lacks a series the rule reads.
    case notMeasured(String)
    /// The outcome differs by size: a crossover, or a size undecided.
    case bySize([SizeOutcome])
    /// A claim of several parts, each judged.
    case parts([PartOutcome])

    package struct SizeOutcome: Sendable, Equatable {
        package let size: Int
        package let outcome: Outcome
    }

    package struct PartOutcome: Sendable, Equatable {
        package let label: String
        package let outcome: Outcome
    }

    /// A short name for JSON and tables.
    package var kind: String {
        switch self {
        case .holds: return "holds"
        case .opposite: return "opposite"
        case .noDifference: return "no-difference"
        case .undecided: return "undecided"
        case .cannotJudge: return "cannot-judge"
        case .notJudged: return "not-judged"
        case .notMeasured: return "not-measured"
        case .bySize: return "by-size"
        case .parts: return "parts"
        }
    }

    /// `holds`, `the opposite holds`, `holds at 1,000; the opposite from 10,000`, `partly: ...`.
    package var label: String {
        switch self {
        case .holds: return "holds"
        case .opposite: return "the opposite holds"
        case .noDifference: return "no difference"
        case .undecided: return "undecided"
        case .cannotJudge: return "cannot be judged on an emulation"
        case .notJudged: return "not judged"
        case .notMeasured: return "not measured"
        case let .bySize(sizes):
            var groups: [(sizes: [Int], label: String)] = []
            for entry in sizes {
                if let last = groups.last, last.label == entry.outcome.label {
                    groups[groups.count - 1].sizes.append(entry.size)
                } else {
                    groups.append(([entry.size], entry.outcome.label))
                }
            }
            return groups.enumerated().map { index, group in
                let at: String
                if group.sizes.count == 1 {
                    at = "at \(formatCount(group.sizes[0]))"
                } else if index == groups.count - 1 {
                    at = "from \(formatCount(group.sizes[0]))"
                } else {
                    at = "from \(formatCount(group.sizes[0])) to \(formatCount(group.sizes[group.sizes.count - 1]))"
                }
                return "\(group.label) \(at)"
            }.joined(separator: "; ")
        case let .parts(parts):
            return "partly: " + parts.map { "\($0.label) \($0.outcome.label)" }.joined(separator: "; ")
        }
    }

    /// Why it is undecided, cannot be judged or not measured (for each size or part that is), or nil.
    package var reason: String? {
        switch self {
        case let .undecided(text), let .cannotJudge(text), let .notJudged(text), let .notMeasured(text): return text
        case let .bySize(sizes):
            let reasons = sizes.compactMap { entry in entry.outcome.reason.map { "at \(formatCount(entry.size)): \($0)" } }
            return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
        case let .parts(parts):
            let reasons = parts.compactMap { part in part.outcome.reason.map { "\(part.label): \($0)" } }
            return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
        default: return nil
        }
    }

    /// Whether more data (more repetitions, other sizes, the scenario run at all) could change it.
    package var needsMoreData: Bool {
        switch self {
        case .undecided, .notMeasured: return true
        case .holds, .opposite, .noDifference, .cannotJudge, .notJudged: return false
        case let .bySize(sizes): return sizes.contains { $0.outcome.needsMoreData }
        case let .parts(parts): return parts.contains { $0.outcome.needsMoreData }
        }
    }

    /// Whether an emulation cannot judge it, wholly or in part.
    package var isEmulationLimited: Bool {
        switch self {
        case .cannotJudge: return true
        case let .bySize(sizes): return sizes.contains { $0.outcome.isEmulationLimited }
        case let .parts(parts): return parts.contains { $0.outcome.isEmulationLimited }
        default: return false
        }
    }

    /// One outcome for several sizes: the common one, or each size's.
    static func combining(_ sizes: [SizeOutcome]) -> Outcome {
        guard let first = sizes.first?.outcome else { return .notMeasured("no size measured the series") }
        if sizes.allSatisfy({ $0.outcome == first }) { return first }
        // The same reason in other words at each size is one outcome.
        if sizes.allSatisfy({ $0.outcome.kind == first.kind && $0.outcome.kind != "by-size" && $0.outcome.kind != "parts" }) {
            switch first {
            case .undecided:
                return .undecided(sizes.map { "at \(formatCount($0.size)): \($0.outcome.reason ?? "")" }.joined(separator: "; "))
            case .cannotJudge:
                return .cannotJudge(sizes.map { "at \(formatCount($0.size)): \($0.outcome.reason ?? "")" }.joined(separator: "; "))
            case .notJudged:
                return .notJudged(sizes.map { "at \(formatCount($0.size)): \($0.outcome.reason ?? "")" }.joined(separator: "; "))
            default: break
            }
        }
        return .bySize(sizes)
    }

    /// One outcome for several parts: the common one when every part has it (undecided or not measured for the
    /// same kind of reason, joined), else each part's.
    static func combining(_ parts: [PartOutcome]) -> Outcome {
        guard let first = parts.first?.outcome else { return .notMeasured("no part") }
        if parts.allSatisfy({ $0.outcome == first }) && first.reason == nil { return first }
        let joined = parts.map { "\($0.label): \($0.outcome.reason ?? $0.outcome.label)" }.joined(separator: "; ")
        if parts.allSatisfy({ $0.outcome.kind == "undecided" }) { return .undecided(joined) }
        if parts.allSatisfy({ $0.outcome.kind == "not-measured" }) { return .notMeasured(joined) }
        if parts.allSatisfy({ $0.outcome.kind == "cannot-judge" }) { return .cannotJudge(joined) }
        if parts.allSatisfy({ $0.outcome.kind == "not-judged" }) { return .notJudged(joined) }
        return .parts(parts)
    }

    /// The outcome in a word or two: `holds`, `differs by size`, `partly`.
    package var headline: String {
        switch self {
        case .bySize: return "differs by size"
        case .parts: return "partly"
        default: return label
        }
    }
}

/// A claim judged from a run: the outcome, the evidence (numbers with units, sizes and the real coverage of each
/// interval), the rule applied, what it rests on, and the command that would decide what is undecided.
/// Where one comparison of time or memory stopped: after how many rounds, at which of its design's looks, and why
/// (`decided`, `cap` reached undecided, `budget`: undecided where its next look was beyond the budget, or `pending`: the
/// run ended before its next look).
package struct ComparisonStop: Sendable, Encodable, Equatable {
    /// The claim's part, where it has parts.
    package let part: String?
    package let size: Int
    /// The rounds the finding rests on (the stopping look's), and the rounds the run had.
    package let rounds: Int
    package let roundsRun: Int
    /// 1-based; 0 when no look was reached.
    package let look: Int
    /// The design's looks in rounds: one for a run of fixed repetitions.
    package let looks: [Int]
    package let stopped: String
}

package struct Verdict: Sendable {
    package let claim: Claim
    package let outcome: Outcome
    package let evidence: [String]
    /// The rule in words, as applied.
    package let rule: String
    /// The profile, sizes, repetitions and warmups the verdict rests on.
    package let basis: String
    /// The `bench run` that measures what is missing or undecided; nil when nothing is.
    package let decider: DecidingRun?
    /// How each comparison of time or memory stopped: its rounds, its looks, and why.
    package var stops: [ComparisonStop] = []

    package var command: String? { decider?.description }

    /// The outcome in a word or two, naming the inference it turns on where there is one: `holds (inferred: the
    /// to-one prefetch's SQL)`.
    package var headline: String { outcome.headline + inferenceNote }

    /// The outcome in full, naming the inference it turns on where there is one.
    package var label: String { outcome.label + inferenceNote }

    /// ` (inferred: ...)` for an outcome of a claim whose outcome turns on an inference, ` (tested as RelBench's
    /// reading: ...)` for one that rests on RelBench's reading of the source; empty otherwise and for a claim the run
    /// did not measure.
    package var inferenceNote: String {
        guard outcome.kind != "not-measured" else { return "" }
        let notes = [
            claim.decidingReading.map { "tested as RelBench's reading: \($0)" }, claim.decidingInference.map { "inferred: \($0)" },
        ]
        let present = notes.compactMap { $0 }
        return present.isEmpty ? "" : " (" + present.joined(separator: "; ") + ")"
    }
}
