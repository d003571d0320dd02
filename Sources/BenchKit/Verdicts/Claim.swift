/// A claim of a seed article or of a published Core Data measurement, the series of a run that test it and the
/// rule that decides it. Claims live in `ClaimCatalog`; verdicts are computed, never written.
package struct Claim: Sendable {
    /// A short stable name (`fig7-insert`), for JSON and links.
    package let id: String
    /// The claim in the source's terms.
    package let statement: String
    /// Where it comes from: seed and section, or the publication.
    package let source: String
    /// The scenarios whose series the rule reads.
    package let scenarios: [String]
    /// The figure of the report that shows the evidence (a plot file's stem under plots/), if any.
    package let figure: String?
    package let rule: Rule
    /// The profile that measures it with enough repetitions (`bench run SCENARIOS --profile PROFILE`).
    package var profile = "default"

    /// The command that measures the claim.
    package var command: String { "bench run \(scenarios.joined(separator: " ")) --profile \(profile)" }
}

/// The series of a run a rule reads: a scenario, strategy (ObjectGraph unless said), variant (the axes named; the
/// others must not exist or must be given) and phase.
package struct SeriesSelector: Sendable, CustomStringConvertible {
    package let scenario: ScenarioName
    package let strategy: Strategy
    /// Axis = value pairs the series' variant must have exactly.
    package let variant: [(axis: String, value: String)]
    package let phase: PhaseName

    package init(_ scenario: ScenarioName, _ variant: [(String, String)] = [], phase: PhaseName, strategy: Strategy = .objectGraph) {
        self.scenario = scenario
        self.strategy = strategy
        self.variant = variant.map { (axis: $0.0, value: $0.1) }
        self.phase = phase
    }

    /// `query objectgraph modelling=many-to-one;prefetch=off walk`.
    package var description: String {
        ([scenario.rawValue, strategy.rawValue] + (variant.isEmpty ? [] : [variant.map { "\($0.axis)=\($0.value)" }.joined(separator: ";")])
            + [phase.rawValue]).joined(separator: " ")
    }

    /// What tells this series from `other`, for evidence: the strategy, the variant values or the phase that differ.
    func label(against other: SeriesSelector) -> String {
        var parts: [String] = []
        if strategy != other.strategy { parts.append(strategy.rawValue) }
        let differing = variant.filter { pair in !other.variant.contains { $0.axis == pair.axis && $0.value == pair.value } }
        parts += differing.map { "\($0.axis)=\($0.value)" }
        if phase != other.phase { parts.append(phase.rawValue) }
        if scenario != other.scenario { parts.insert(scenario.rawValue, at: 0) }
        return parts.isEmpty ? description : parts.joined(separator: " ")
    }

    /// Whether `key` is this series (at any size and metric): the same axes and values, in any order.
    func matches(_ key: SeriesKey) -> Bool {
        guard key.scenario == scenario, key.strategy == strategy, key.phase == phase, key.variant.values.count == variant.count else {
            return false
        }
        return variant.allSatisfy { wanted in key.variant[wanted.axis]?.description == wanted.value }
    }
}

/// What a rule decided.
package enum Outcome: Sendable, Equatable {
    case holds
    case doesNotHold
    /// Holds at this size and every larger one measured, not below.
    case holdsFrom(size: Int)
    case holdsForStatementsNotTime
    case holdsForTimeNotStatements
    /// Some parts hold and others do not (named in the text).
    case partly(String)
    /// The run lacks a series or enough repetitions; the reason says which.
    case notMeasured(String)
    /// RelBench's store cannot test it honestly; the reason says why.
    case cannotTest(String)

    /// `holds`, `holds from size 10,000`, ...
    package var label: String {
        switch self {
        case .holds: return "holds"
        case .doesNotHold: return "does not hold"
        case let .holdsFrom(size): return "holds from size \(formatCount(size))"
        case .holdsForStatementsNotTime: return "holds for statements but not for time"
        case .holdsForTimeNotStatements: return "holds for time but not for statements"
        case .partly: return "partly holds"
        case .notMeasured: return "not measured in this run"
        case .cannotTest: return "cannot be tested here"
        }
    }

    /// A short name for JSON and tables.
    package var kind: String {
        switch self {
        case .holds: return "holds"
        case .doesNotHold: return "does-not-hold"
        case .holdsFrom: return "holds-from-size"
        case .holdsForStatementsNotTime: return "holds-for-statements-not-time"
        case .holdsForTimeNotStatements: return "holds-for-time-not-statements"
        case .partly: return "partly"
        case .notMeasured: return "not-measured"
        case .cannotTest: return "cannot-test"
        }
    }

    /// What a partial verdict holds for and what not; empty otherwise.
    package var detail: String {
        if case let .partly(text) = self { return text }
        return ""
    }

    /// Whether the run decided the claim (true or false), as opposed to lacking what it needs.
    package var isDecided: Bool {
        switch self {
        case .notMeasured, .cannotTest: return false
        default: return true
        }
    }
}

/// A claim judged from a run: the outcome, the evidence (numbers with units and sizes) and the rule applied.
package struct Verdict: Sendable {
    package let claim: Claim
    package let outcome: Outcome
    package let evidence: [String]
    /// The rule in words, as applied.
    package let rule: String
}
