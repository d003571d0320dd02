import Foundation
import Testing
@testable import BenchKit

@Suite struct SummaryTests {
    private func sample(_ strategy: String, _ variant: String, _ repetition: Int, _ metric: String, _ value: Double?) -> SampleRecord {
        SampleRecord(scenario: "query", strategy: strategy, variant: variant, size: 1000, repetition: repetition, phase: "walk",
                     metric: metric, value: value, unit: metric == "wall_ms" ? "ms" : "count")
    }

    @Test func ratioToRawOnAHandMadeSummary() {
        var samples: [SampleRecord] = []
        for (repetition, raw, graph) in [(1, 10.0, 18.0), (2, 12.0, 20.0), (3, 11.0, 22.0)] {
            samples.append(sample("raw-sqlite:many-to-one", "prefetch=on", repetition, "wall_ms", raw))
            samples.append(sample("many-to-one", "prefetch=on", repetition, "wall_ms", graph))
            samples.append(sample("many-to-one", "prefetch=off", repetition, "wall_ms", graph * 2))
            samples.append(sample("grdb", "prefetch=on", repetition, "object_faults", nil))
        }
        let rows = SummaryFile.summarize(samples)
        func ratio(_ strategy: String, _ variant: String) -> Double? {
            rows.first { $0.key.strategy == strategy && $0.key.variant == variant }?.ratioToRaw
        }
        #expect(ratio("raw-sqlite:many-to-one", "prefetch=on") == 1)
        #expect(ratio("many-to-one", "prefetch=on") == 20.0 / 11.0)
        // No raw row for this variant, and none for a metric raw cannot measure: empty, not zero.
        #expect(ratio("many-to-one", "prefetch=off") == nil)
        #expect(ratio("grdb", "prefetch=on") == nil)
        let unmeasured = rows.first { $0.key.strategy == "grdb" }!
        #expect(unmeasured.summary == nil)
        #expect(rows.first { $0.key.strategy == "many-to-one" && $0.key.variant == "prefetch=on" }?.floor == "raw-sqlite:many-to-one")
    }

    /// Each modelling divides by the raw peer storing the same modelling; a modelling whose floor did not run gets
    /// no ratio (another modelling's floor would be the unfair comparison).
    @Test func eachModellingDividesByItsOwnFloor() {
        var samples: [SampleRecord] = []
        for repetition in 1...3 {
            samples.append(sample("raw-sqlite:many-to-one", "", repetition, "wall_ms", 10))
            samples.append(sample("raw-sqlite:many-to-many", "", repetition, "wall_ms", 40))
            samples.append(sample("many-to-one", "", repetition, "wall_ms", 15))
            samples.append(sample("many-to-many", "", repetition, "wall_ms", 60))
            samples.append(sample("grdb:many-to-many", "", repetition, "wall_ms", 120))
            samples.append(sample("many-to-nil", "", repetition, "wall_ms", 16))
        }
        let rows = SummaryFile.summarize(samples)
        func row(_ strategy: String) -> SummaryRow? { rows.first { $0.key.strategy == strategy } }
        #expect(row("many-to-one")?.ratioToRaw == 1.5)
        #expect(row("many-to-many")?.ratioToRaw == 1.5)
        #expect(row("many-to-many")?.floor == "raw-sqlite:many-to-many")
        #expect(row("grdb:many-to-many")?.ratioToRaw == 3)
        #expect(row("raw-sqlite:many-to-many")?.ratioToRaw == 1)
        #expect(row("many-to-nil")?.ratioToRaw == nil)
        #expect(row("many-to-nil")?.floor == nil)
    }

    /// A table per scenario, each once, also when the run's scenarios are not given (an --instructions run).
    @Test func thePrintedSummaryShowsEachScenarioOnce() {
        var samples: [SampleRecord] = []
        for repetition in 1...2 {
            for strategy in ["many-to-one", "many-to-nil"] {
                samples.append(sample(strategy, "", repetition, "wall_ms", 3))
                samples.append(sample(strategy, "", repetition, "sql_statements", 2))
            }
        }
        let text = SummaryTable.render(SummaryFile.summarize(samples), scenarios: [])
        #expect(text.split(separator: "\n").filter { $0 == "query" }.count == 1)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("many-to-one ") }.count == 1)
        #expect(text.hasSuffix(SummaryTable.fidelity))
    }

    /// An --instructions run prints one table: instruction counts in the time column, its header once.
    @Test func anInstructionRunPrintsOneTable() {
        var samples: [SampleRecord] = []
        for strategy in ["many-to-one", "raw-sqlite:many-to-one"] {
            samples.append(sample(strategy, "", 1, "instructions", 3_000_000))
            samples.append(sample(strategy, "", 1, "sql_statements", 2))
        }
        let text = SummaryTable.render(SummaryFile.summarize(samples), scenarios: [])
        #expect(text.components(separatedBy: "instructions (median)").count == 2)
        #expect(text.split(separator: "\n").filter { $0 == "query" }.count == 1)
    }

    @Test func csvFilesRoundTrip() throws {
        let samples = [
            sample("many-to-one", "batch=20;access=first-screen", 1, "wall_ms", 1.25),
            sample("many-to-one", "batch=20;access=first-screen", 1, "object_faults", nil),
            SampleRecord(scenario: "odd, \"quoted\"", strategy: "x", variant: "", size: 5, repetition: 2, phase: "p", metric: "m",
                         value: 3, unit: "count"),
        ]
        let text = try SamplesFile.encode(samples)
        #expect(text.hasPrefix("scenario,strategy,variant,size,repetition,phase,metric,value,unit\n"))
        #expect(try SamplesFile.decode(text, file: "samples.csv") == samples)
        let rows = SummaryFile.summarize(samples)
        let decoded = try SummaryFile.decode(try SummaryFile.encode(rows), file: "summary.csv")
        #expect(decoded.map(\.key) == rows.map(\.key))
        #expect(decoded[0].summary?.median == 1.25)
        #expect(decoded[1].summary == nil)
    }

    @Test func numbersAreWrittenCompactly() {
        #expect(formatNumber(1_000_000) == "1000000")
        #expect(formatNumber(0.5) == "0.5")
        #expect(formatNumber(1.0 / 3.0) == "0.333333")
    }
}
