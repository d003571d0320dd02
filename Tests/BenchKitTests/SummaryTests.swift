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
            samples.append(sample("raw-sqlite", "prefetch=on", repetition, "wall_ms", raw))
            samples.append(sample("many-to-one", "prefetch=on", repetition, "wall_ms", graph))
            samples.append(sample("many-to-one", "prefetch=off", repetition, "wall_ms", graph * 2))
            samples.append(sample("grdb", "prefetch=on", repetition, "object_faults", nil))
        }
        let rows = SummaryFile.summarize(samples)
        func ratio(_ strategy: String, _ variant: String) -> Double? {
            rows.first { $0.key.strategy == strategy && $0.key.variant == variant }?.ratioToRaw
        }
        #expect(ratio("raw-sqlite", "prefetch=on") == 1)
        #expect(ratio("many-to-one", "prefetch=on") == 20.0 / 11.0)
        // No raw row for this variant, and none for a metric raw cannot measure: empty, not zero.
        #expect(ratio("many-to-one", "prefetch=off") == nil)
        #expect(ratio("grdb", "prefetch=on") == nil)
        let unmeasured = rows.first { $0.key.strategy == "grdb" }!
        #expect(unmeasured.summary == nil)
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
