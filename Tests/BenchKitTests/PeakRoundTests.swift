import Foundation
import Testing

@testable import BenchKit

/// The peak resident memory is measured in the first round of each series only (its warmup where it has one), so
/// that no measured repetition times the first touch of a heap trimmed for the peak.
@Suite struct PeakRoundTests {
    static let scenariosFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios").path

    static func samples(warmup: Int) throws -> [SampleRecord] {
        let catalog = try ScenarioCatalog(folder: scenariosFolder)
        var request = RunRequest(scenarios: catalog.scenarios.filter { $0.name.rawValue == "insert" })
        request.sizes = [100]
        request.repetitions = 3
        request.warmup = warmup
        request.strategies = [.objectGraph, .sqlReplay]
        return try Runner(request: request, plan: try RunPlan(request), folder: nil, progress: nil).run()
    }

    @Test(arguments: [0, 1, 2])
    func onlyTheFirstRoundOfASeriesRecordsItsPeak(warmup: Int) throws {
        let samples = try Self.samples(warmup: warmup)
        let peaks = samples.filter { $0.key.metric == .peakRSSBytes }
        let times = samples.filter { $0.key.metric == .wallMs }
        let series = Set(times.map { $0.key.with(.peakRSSBytes) })
        #expect(!series.isEmpty)
        // One peak a series, as its first round's, whether a warmup or the first measured repetition measured it.
        #expect(peaks.count == series.count)
        #expect(Set(peaks.map(\.key)) == series)
        #expect(peaks.allSatisfy { $0.repetition == 1 })
        // Every measured repetition is timed, each once.
        #expect(times.count == series.count * 3)
        #expect(Set(times.map(\.repetition)) == [1, 2, 3])
    }

    @Test func theFirstRoundIsTheOneThatMeasuresThePeak() throws {
        let catalog = try ScenarioCatalog(folder: Self.scenariosFolder)
        var request = RunRequest(scenarios: catalog.scenarios.filter { $0.name.rawValue == "insert" })
        request.sizes = [100, 1000]
        request.repetitions = 2
        request.warmup = 1
        let plan = try RunPlan(request)
        for repetition in plan.repetitions {
            #expect(repetition.measuresPeak == repetition.isWarmup, "\(repetition.strategy) \(repetition.size) \(repetition.repetition)")
        }
        request.warmup = 0
        for repetition in try RunPlan(request).repetitions {
            let label = "\(repetition.strategy) \(repetition.size) \(repetition.repetition)"
            #expect(repetition.measuresPeak == (repetition.repetition == 1), "\(label)")
        }
    }
}
