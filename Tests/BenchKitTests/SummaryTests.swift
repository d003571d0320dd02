import Foundation
import Testing

@testable import BenchKit

@Suite struct SummaryTests {
    private func sample(_ strategy: Strategy, _ variant: String, _ repetition: Int, _ metric: Metric, _ value: Double?) -> SampleRecord {
        SampleRecord(key: .of("query", strategy, variant, size: 1000, phase: "walk", metric: metric), repetition: repetition, value: value)
    }

    /// Every strategy divides by the floor of the same variant (the same modelling): the replay of ObjectGraph's
    /// statements. A series whose floor did not run gets no ratio, and none for a metric the floor cannot measure.
    @Test func ratioToTheFloorOfTheSameVariant() {
        var samples: [SampleRecord] = []
        for (repetition, floor, graph) in [(1, 10.0, 18.0), (2, 12.0, 20.0), (3, 11.0, 22.0)] {
            samples.append(sample(.sqlReplay, "modelling=many-to-one", repetition, .wallMs, floor))
            samples.append(sample(.sqlReplay, "modelling=many-to-many", repetition, .wallMs, floor * 4))
            samples.append(sample(.objectGraph, "modelling=many-to-one", repetition, .wallMs, graph))
            samples.append(sample(.objectGraph, "modelling=many-to-many", repetition, .wallMs, graph * 4))
            samples.append(sample(.grdb, "modelling=many-to-many", repetition, .wallMs, graph * 8))
            samples.append(sample(.objectGraph, "modelling=many-to-nil", repetition, .wallMs, graph))
            samples.append(sample(.grdb, "modelling=many-to-one", repetition, .objectFaults, nil))
        }
        let rows = SummaryFile.summarize(samples)
        func row(_ strategy: Strategy, _ variant: String, _ metric: Metric = .wallMs) -> SummaryRow? {
            rows.first { $0.key.strategy == strategy && $0.key.variant.description == variant && $0.key.metric == metric }
        }
        #expect(row(.sqlReplay, "modelling=many-to-one")?.ratioToFloor == nil) // the floor is not its own floor
        #expect(row(.objectGraph, "modelling=many-to-one")?.ratioToFloor == 20.0 / 11.0)
        #expect(row(.objectGraph, "modelling=many-to-many")?.ratioToFloor == 20.0 / 11.0)
        #expect(row(.objectGraph, "modelling=many-to-many")?.floor == .sqlReplay)
        #expect(row(.grdb, "modelling=many-to-many")?.ratioToFloor == 40.0 / 11.0)
        #expect(row(.objectGraph, "modelling=many-to-nil")?.ratioToFloor == nil)
        #expect(row(.objectGraph, "modelling=many-to-nil")?.floor == nil)
        let unmeasured = row(.grdb, "modelling=many-to-one", .objectFaults)
        #expect(unmeasured?.summary == nil && unmeasured?.ratioToFloor == nil)
    }

    /// A table per scenario, each once, also when the run's scenarios are not given (an --instructions run).
    @Test func thePrintedSummaryShowsEachScenarioOnce() {
        var samples: [SampleRecord] = []
        for repetition in 1...2 {
            for variant in ["modelling=many-to-one", "modelling=many-to-nil"] {
                samples.append(sample(.objectGraph, variant, repetition, .wallMs, 3))
                samples.append(sample(.objectGraph, variant, repetition, .sqlStatements, 2))
            }
        }
        let text = SummaryTable.render(SummaryFile.summarize(samples), scenarios: [])
        #expect(text.split(separator: "\n").filter { $0 == "query" }.count == 1)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("objectgraph  modelling=many-to-one ") }.count == 1)
        #expect(text.hasSuffix(SummaryTable.fidelity))
    }

    /// An --instructions run prints one table: instruction counts in the time column, its header once.
    @Test func anInstructionRunPrintsOneTable() {
        var samples: [SampleRecord] = []
        for strategy in [Strategy.objectGraph, .sqlReplay] {
            samples.append(sample(strategy, "", 1, .instructions, 3_000_000))
            samples.append(sample(strategy, "", 1, .sqlStatements, 2))
        }
        let text = SummaryTable.render(SummaryFile.summarize(samples), scenarios: [])
        #expect(text.components(separatedBy: "instructions (median)").count == 2)
        #expect(text.split(separator: "\n").filter { $0 == "query" }.count == 1)
        #expect(!text.contains("own x floor"))
    }

    /// The allocator's instructions are shown with their share, and the ratio to the floor of the rest.
    @Test func anInstructionRunSplitsOffTheAllocator() throws {
        var samples: [SampleRecord] = []
        for (strategy, all, allocator) in [(Strategy.objectGraph, 2_500_000.0, 500_000.0), (.sqlReplay, 1_604_000, 4_000)] {
            samples.append(sample(strategy, "", 1, .instructions, all))
            samples.append(sample(strategy, "", 1, .allocatorInstructions, allocator))
        }
        let text = SummaryTable.render(SummaryFile.summarize(samples), scenarios: [])
        let lines = text.split(separator: "\n")
        func words(_ prefix: String) throws -> [Substring] {
            try #require(lines.first { $0.hasPrefix(prefix) }).split(separator: " ", omittingEmptySubsequences: true)
        }
        #expect(try words("strategy ").suffix(4) == ["allocator", "own", "x", "floor"])
        // 2,000,000 own instructions against the floor's 1,600,000; 1.56 with the allocator's.
        let objectGraph = try words("objectgraph ")
        #expect(objectGraph.contains("1.56") && objectGraph.suffix(3) == ["500000", "(20%)", "1.25"])
        #expect(try words("sql-replay ").suffix(3) == ["4000", "(0%)", "-"])
        #expect(text.contains(SummaryTable.allocatorLegend))
    }

    @Test func csvFilesRoundTrip() throws {
        let samples = [
            sample(.objectGraph, "batch=20;access=first-screen", 1, .wallMs, 1.25),
            sample(.objectGraph, "batch=20;access=first-screen", 1, .objectFaults, nil),
            SampleRecord(key: .of("odd, \"quoted\"", .grdb, "", size: 5, phase: "p", metric: .rowsRead), repetition: 2, value: 3),
        ]
        let text = try SamplesFile.encode(samples)
        #expect(text.hasPrefix("scenario,strategy,variant,size,repetition,phase,metric,value,unit\n"))
        #expect(try SamplesFile.decode(text, file: "samples.csv").samples == samples)
        let rows = SummaryFile.summarize(samples)
        let decoded = try SummaryFile.decode(try SummaryFile.encode(rows), file: "summary.csv").rows
        #expect(decoded.map(\.key) == rows.map(\.key))
        #expect(decoded[0].summary?.median == 1.25)
        #expect(decoded[1].summary == nil)
    }

    /// A row naming a metric or strategy this binary does not know is kept aside as unknown, never read as something
    /// else; a counter that is negative or fractional is refused with its line, as a byte order mark is read.
    @Test func unknownSeriesAndDamagedCountersReadBackHonestly() throws {
        let header = "scenario,strategy,variant,size,repetition,phase,metric,value,unit\n"
        let contents = try SamplesFile.decode(
            "\u{FEFF}" + header
                + "query,objectgraph,,10,1,walk,sql_statmnts,3,count\nquery,many-to-one,,10,1,walk,sql_statements,3,count\nquery,objectgraph,,10,1,walk,sql_statements,3,count\n",
            file: "s.csv")
        #expect(contents.samples.count == 1)
        #expect(contents.unknown.map(\.reason).sorted() == ["metric 'sql_statmnts' is unknown", "strategy 'many-to-one' is unknown"])
        for bad in ["-5", "2.5"] {
            #expect(throws: BenchError.self) {
                try SamplesFile.decode(header + "query,objectgraph,,10,1,walk,sql_statements,\(bad),count\n", file: "s.csv")
            }
        }
    }

    @Test func numbersAreWrittenCompactly() {
        #expect(formatNumber(1_000_000) == "1000000")
        #expect(formatNumber(0.5) == "0.5")
        #expect(formatNumber(1.0 / 3.0) == "0.333333")
    }

    /// A scenario without variants to compare (a generated suite) is headlined by the phase running the most
    /// statements per row read, the slowest of those, not by the first phase in the alphabet.
    @Test func aSuiteWithoutVariantsHeadlinesItsCostliestPhase() {
        var samples: [SampleRecord] = []
        for (phase, statements, time) in [("a", 2.0, 1.0), ("b", 40.0, 3.0), ("c", 40.0, 5.0)] {
            let key = SeriesKey.of("suite", .objectGraph, "", size: 100, phase: PhaseName(phase), metric: .wallMs)
            samples.append(SampleRecord(key: key, repetition: 1, value: time))
            samples.append(SampleRecord(key: key.with(.sqlStatements), repetition: 1, value: statements))
        }
        #expect(
            FirstScreen.render(samples, scenarios: []) == [
                "suite (1 variant, size 100)", "  3 phases; the most statements per row read: c: 40 statements, 5 ms at 100",
            ])
    }

    /// The suite's setup (its insert) is not a screen: a headline never names it, however many statements it runs; the
    /// phase with the most statements per row read does, or among the phases the advice points at, the one of those.
    @Test func aSuiteIsHeadlinedByItsCostliestPhasePerRowRead() {
        var values: [SeriesKey: [Double]] = [:]
        for (phase, statements, rows) in [("insert", 721.0, 9.0), ("walk", 145.0, 188.0), ("find", 10.0, 10.0), ("count", 100.0, 144.0)] {
            let key = SeriesKey.of("suite", .objectGraph, "", size: 100, phase: PhaseName(phase), metric: .wallMs)
            values[key] = [1]
            values[key.with(.sqlStatements)] = [statements]
            values[key.with(.rowsRead)] = [rows]
        }
        let headline = { (pointed: Set<PhaseName>) in
            FirstScreen.headline("suite", values: values, work: [:], setup: ["insert"], pointedAt: pointed)
        }
        #expect(
            headline([])
                == "3 phases besides the setup (insert); the most statements per row read: find: 10 statements, 10 rows read, 1 ms at 100")
        #expect(
            headline(["walk", "count"])
                == "3 phases besides the setup (insert); the most statements per row read among the 2 the advice or a refused save points at: walk: 145 statements, 188 rows read, 1 ms at 100"
        )
    }

    /// Arms with as many statements are said to run the same SQL only where statements.csv shows the same shapes,
    /// plans and rows (then the time difference is ObjectGraph's own); an index that changes the plan is other SQL.
    @Test func aHeadlineSaysWhetherArmsOfEqualCountsRunTheSameSQL() {
        var samples: [SampleRecord] = []
        for (variant, time) in [("index=on", 1.0), ("index=off", 600.0)] {
            let key = SeriesKey.of("pgor", .objectGraph, variant, size: 100, phase: "from-b", metric: .wallMs)
            for repetition in 1...3 {
                samples.append(SampleRecord(key: key, repetition: repetition, value: time))
                samples.append(SampleRecord(key: key.with(.sqlStatements), repetition: repetition, value: 1))
            }
        }
        func statements(_ variant: String, plan: String) -> PhaseStatements {
            PhaseStatements(
                key: .init(scenario: "pgor", variant: Variant(parsing: variant)!, size: 100, phase: "from-b"),
                fingerprints: [
                    "SELECT t0.Z_PK FROM ZB t0 WHERE (SELECT COUNT(*) FROM Z_1AS t1 WHERE t1.Z_2BS = t0.Z_PK) = ?": .init(
                        statements: 1, rows: 10, plan: plan)
                ])
        }
        let other = FirstScreen.render(
            samples, scenarios: [],
            statements: [statements("index=on", plan: "SEARCH t1 USING INDEX"), statements("index=off", plan: "SCAN t1")])
        #expect(
            other.last
                == "  from-b: index=on against index=off, both 1 statement, other SQL, plans or rows: 600× faster (3 repetitions: no interval) at 100"
        )
        let same = FirstScreen.render(
            samples, scenarios: [], statements: [statements("index=on", plan: "SCAN t1"), statements("index=off", plan: "SCAN t1")])
        #expect(
            same.last
                == "  from-b: index=on against index=off, the same SQL (1 statement), so ObjectGraph's own difference: 600× faster (3 repetitions: no interval) at 100"
        )
    }

    /// One repetition a side is no comparison: its direction is one sample's noise (issue 36 item 9); counts still
    /// are, and the floor's ratio is left empty until both sides have three repetitions.
    @Test func aRatioNeedsThreeRepetitionsASide() {
        var samples: [SampleRecord] = []
        for (variant, time, statements) in [("derived=on", 1.0, 41.0), ("derived=off", 1.8, 91.0)] {
            let key = SeriesKey.of("chat", .objectGraph, variant, size: 100, phase: "list", metric: .wallMs)
            samples.append(SampleRecord(key: key, repetition: 1, value: time))
            samples.append(SampleRecord(key: key.with(.sqlStatements), repetition: 1, value: statements))
            let floor = SeriesKey.of("chat", .sqlReplay, variant, size: 100, phase: "list", metric: .wallMs)
            samples.append(SampleRecord(key: floor, repetition: 1, value: time / 2))
        }
        #expect(
            FirstScreen.render(samples, scenarios: []).last
                == "  list: derived=on ran 41 statements against 91 for derived=off, n = 1: no comparison (3 repetitions needed) at 100")
        #expect(SummaryFile.summarize(samples).allSatisfy { $0.ratioToFloor == nil })
        for repetition in 2...3 {
            for sample in samples where sample.repetition == 1 {
                samples.append(SampleRecord(key: sample.key, repetition: repetition, value: sample.value))
            }
        }
        let ratios = SummaryFile.summarize(samples).filter { $0.key.strategy == .objectGraph && $0.key.metric == .wallMs }
        #expect(ratios.map(\.ratioToFloor) == [2, 2])
    }

    /// A headline's factor never shows an exponent (the smoke run printed "6e+02× faster").
    @Test func factorsAreWrittenAsAPersonReadsThem() {
        #expect(formatFactor(2.345) == "2.3")
        #expect(formatFactor(44.2) == "44")
        #expect(formatFactor(603.7) == "600")
        #expect(formatFactor(12_345) == "12,000")
        #expect(formatFactor(.infinity) == "-")
    }

    /// A command printed for a person to paste keeps a folder with a space or a quote one word.
    @Test func commandWordsAreQuotedOnlyWhenNeeded() {
        #expect(shellWord("/tmp/user28/before") == "/tmp/user28/before")
        #expect(shellWord("/Users/me/My App/Scenarios") == "'/Users/me/My App/Scenarios'")
        #expect(shellWord("it's") == "'it'\\''s'")
    }
}
