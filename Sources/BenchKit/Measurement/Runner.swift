import Foundation
import ObjectGraph

/// Runs a plan: each repetition on a fresh database, data built outside the timed region and shared by every
/// strategy of a size, samples handed to the run folder as soon as a repetition finishes.
public final class Runner {
    public let request: RunRequest
    public let plan: RunPlan
    private let folder: RunFolder?
    private let progress: Progress?
    private var dataKey: (String, Int)?
    private var data: SchoolData?
    private var databaseCount = 0
    private let runID = UUID().uuidString.prefix(8)
    /// For `bench explain`: every statement, and the start and end of each phase.
    public var trace: ((String) -> Void)?
    public var traceLevel = 2
    public var observer: PhaseRecorder.Observer?

    public init(request: RunRequest, plan: RunPlan, folder: RunFolder?, progress: Progress?) {
        self.request = request
        self.plan = plan
        self.folder = folder
        self.progress = progress
    }

    /// Runs every planned repetition; returns the measured samples (warmups are not recorded).
    @discardableResult
    public func run() throws -> [SampleRecord] {
        var samples: [SampleRecord] = []
        for (index, repetition) in plan.repetitions.enumerated() {
            progress?.starting(index: index, repetition)
            let records = try run(repetition)
            if !repetition.isWarmup {
                samples += records
                try folder?.append(records)
            }
            progress?.finished(index: index, repetition)
        }
        progress?.done()
        return samples
    }

    /// Runs one repetition and returns its samples.
    public func run(_ repetition: PlannedRepetition) throws -> [SampleRecord] {
        let scenario = repetition.scenario
        let seed = request.seed &+ UInt64(repetition.size)
        if dataKey.map({ $0 != (scenario.name, repetition.size) }) ?? true {
            data = nil
            data = scenario.workload.makeData(size: repetition.size, parameters: scenario.parameters, seed: seed)
            dataKey = (scenario.name, repetition.size)
        }
        let data = self.data!
        let (location, directory) = try freshDatabase()
        defer { if let directory { try? FileManager.default.removeItem(atPath: directory) } }
        let input = RepetitionInput(strategy: repetition.strategy, variant: repetition.variant, size: repetition.size,
                                    parameters: scenario.parameters, seed: seed, location: location, options: request.options,
                                    data: { data }, trace: trace, traceLevel: traceLevel)
        let recorder = PhaseRecorder()
        recorder.observer = observer
        do {
            try scenario.workload.run(input, recorder: recorder)
        } catch {
            throw BenchError.io("\(scenario.name) \(repetition.strategy) \(repetition.variant) n=\(repetition.size) failed: \(error)")
        }
        return recorder.measurements.map { measurement in
            SampleRecord(scenario: scenario.name, strategy: repetition.strategy.rawValue, variant: repetition.variant.description,
                         size: repetition.size, repetition: repetition.repetition, phase: measurement.phase,
                         metric: measurement.metric.rawValue, value: measurement.value, unit: measurement.metric.unit)
        }
    }

    private func freshDatabase() throws -> (StoreLocation, String?) {
        if request.inMemory { return (.inMemory, nil) }
        databaseCount += 1
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("relbench-\(ProcessInfo.processInfo.processIdentifier)-\(runID)-\(databaseCount)").path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw BenchError.io("cannot create a temporary database folder \(directory): \(error.localizedDescription)")
        }
        return (.file((directory as NSString).appendingPathComponent("store.sqlite")), directory)
    }
}
