/// A claim of a seed article or of a published Core Data measurement, what it asserts, the sizes it is about, the
/// series of a run that test it and the rule that decides it. Claims live in `ClaimCatalog`; verdicts are computed,
/// never written.
package struct Claim: Sendable {
    /// A short stable name (`fig7-insert`), for JSON and links.
    package let id: String
    /// The claim, in RelBench's words.
    package let statement: String
    /// How RelBench tests it, where that is RelBench's reading rather than the source's words.
    package var test: String?
    package let source: ClaimSource
    package let asserts: Assertion
    /// The sizes the claim is about (the source's scale where it gives one); a run's other sizes are not judged.
    package var sizes: SizeScope = .any
    /// Two timings or memory figures within this share of each other are no difference (two one-sided tests).
    package var margin = 0.10
    /// The repetitions a timing needs a series: 6 give a 95% interval; a claim about small differences in a
    /// sub-millisecond phase needs more to tell them from the machine's spikes.
    package var repetitions = Rule.repetitionsForAnInterval
    /// The scenarios whose series the rule reads.
    package let scenarios: [ScenarioName]
    /// The figure of the report that shows the evidence (a plot file's stem under plots/), if any.
    package let figure: String?
    package let rule: Rule
    /// Where the verdict rests on behaviour ObjectGraph infers rather than observed Core Data doing: one line each.
    package var inferred: [String] = []
    /// The inferred behaviour the outcome turns on, named in the verdict's headline (`holds (inferred: the to-one
    /// prefetch's SQL)`); nil where an inference only colours the evidence.
    package var decidingInference: String?
    /// Where the outcome rests on RelBench's reading of the source rather than the source's own test (its code cannot
    /// run on Core Data as written), that reading, named in the headline (`holds (tested as RelBench's reading: ...)`).
    package var decidingReading: String?

    package init(
        id: String, statement: String, test: String? = nil, source: ClaimSource, asserts: Assertion, sizes: SizeScope = .any,
        margin: Double = 0.10, repetitions: Int = Rule.repetitionsForAnInterval, scenarios: [ScenarioName], figure: String?, rule: Rule,
        inferred: [String] = [], decidingInference: String? = nil, decidingReading: String? = nil
    ) {
        self.repetitions = repetitions
        self.id = id
        self.statement = statement
        self.test = test
        self.source = source
        self.asserts = asserts
        self.sizes = sizes
        self.margin = margin
        self.scenarios = scenarios
        self.figure = figure
        self.rule = rule
        self.inferred = inferred
        self.decidingInference = decidingInference
        self.decidingReading = decidingReading
    }
}

/// What a claim asserts, which decides what of a run can judge it.
package enum Assertion: String, Sendable, Codable {
    /// Statements, fetches, faults, rows, links lost: what transfers to an app where ObjectGraph is faithful.
    case counts
    /// A direction of time or memory that follows from a difference in counts: judged only where the two arms give
    /// SQLite different work (statements, plans or rows); arms running the same SQL differ only in ObjectGraph.
    case directionFromCounts = "direction-from-counts"
    /// A magnitude of ObjectGraph's own (memory it holds as the input grows): said as ObjectGraph's, not Core Data's.
    case magnitude

    package var text: String {
        switch self {
        case .counts: return "counts (statements, faults, rows): what transfers to an app where ObjectGraph is faithful"
        case .directionFromCounts:
            return "a direction of time or memory that follows from different SQL; judged only where the arms' SQL differs"
        case .magnitude: return "a magnitude of ObjectGraph's own on this machine, not a figure of Core Data's"
        }
    }
}

/// The sizes a claim is about.
package enum SizeScope: Sendable, Equatable {
    case any
    case atLeast(Int)
    case within(Int, Int)

    package func contains(_ size: Int) -> Bool {
        switch self {
        case .any: return true
        case let .atLeast(low): return size >= low
        case let .within(low, high): return size >= low && size <= high
        }
    }

    package var text: String {
        switch self {
        case .any: return "any size"
        case let .atLeast(low): return "\(formatCount(low)) and more"
        case let .within(low, high): return low == high ? formatCount(low) : "\(formatCount(low)) to \(formatCount(high))"
        }
    }
}

/// Where a claim comes from, as data: every output shows it and the report links it. The numbers are the source's,
/// in RelBench's words.
package struct ClaimSource: Sendable, Encodable {
    package let title: String
    package var author: String?
    package var url: String?
    package var date: String?
    /// The device or OS the source measured on, where it says or can be told.
    package var device: String?
    /// The sizes the source measured.
    package var sizes: String?
    /// The source's own numbers, paraphrased.
    package var numbers: String?

    package init(
        _ title: String, author: String? = nil, url: String? = nil, date: String? = nil, device: String? = nil, sizes: String? = nil,
        numbers: String? = nil
    ) {
        self.title = title
        self.author = author
        self.url = url
        self.date = date
        self.device = device
        self.sizes = sizes
        self.numbers = numbers
    }

    /// `Marcus S. Zarra, Core Data, 2nd edition, chapter 4 (2013)`.
    package var citation: String {
        ([author, title].compactMap { $0 }.joined(separator: ", ")) + (date.map { " (\($0))" } ?? "")
    }

    /// `seed 000 II.B`, `Zarra 2013`: for a line that names it.
    package var short: String {
        if let range = title.range(of: "(seed ") {
            let seed = title[range.lowerBound...].dropFirst().prefix { $0 != ")" }
            let section = title[range.upperBound...].drop { $0 != ")" }.dropFirst().drop { $0 == "," || $0 == " " }
            return section.isEmpty ? String(seed) : "\(seed) \(section)"
        }
        let name = (author ?? title).components(separatedBy: " (").first ?? title
        var year: String?
        if let date { year = date.split(whereSeparator: { !$0.isNumber }).map(String.init).first { $0.count == 4 } }
        return year.map { "\(name), \($0)" } ?? name
    }

    /// Device, sizes and numbers in one line, for the evidence; nil when the source gives none.
    package var measured: String? {
        let parts = [device.map { "on \($0)" }, sizes, numbers].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

/// The series of a run a rule reads: a scenario, strategy (ObjectGraph unless said), variant (the axes named; the
/// others must not exist or must be given) and phase.
package struct SeriesSelector: Sendable, CustomStringConvertible {
    package let scenario: ScenarioName
    package let strategy: Strategy
    /// Axis = value pairs the series' variant must have exactly.
    package let variant: [(axis: AxisName, value: String)]
    package let phase: PhaseName

    package init(_ scenario: ScenarioName, _ variant: [(AxisName, String)] = [], phase: PhaseName, strategy: Strategy = .objectGraph) {
        self.scenario = scenario
        self.strategy = strategy
        self.variant = variant.map { (axis: $0.0, value: $0.1) }
        self.phase = phase
    }

    /// The same series replayed by the SQL replay (the statements ObjectGraph ran, without ObjectGraph).
    init(replaying series: SeriesSelector) {
        self.scenario = series.scenario
        self.strategy = .sqlReplay
        self.variant = series.variant
        self.phase = series.phase
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

    /// Whether `key` is of this series' arm (scenario, strategy and variant), in any phase.
    func matchesArm(_ key: SeriesKey) -> Bool {
        guard key.scenario == scenario, key.strategy == strategy, key.variant.values.count == variant.count else { return false }
        return variant.allSatisfy { wanted in key.variant[wanted.axis]?.description == wanted.value }
    }

    /// Whether `variant` has exactly the axes and values the selector names.
    func matches(variant: Variant) -> Bool {
        variant.values.count == self.variant.count && self.variant.allSatisfy { variant[$0.axis]?.description == $0.value }
    }

    /// Whether `key` (of statements.csv) is this series' variant and phase.
    func matches(_ key: PhaseStatements.Key) -> Bool {
        guard key.scenario == scenario, key.phase == phase, key.variant.values.count == variant.count else { return false }
        return variant.allSatisfy { wanted in key.variant[wanted.axis]?.description == wanted.value }
    }
}
