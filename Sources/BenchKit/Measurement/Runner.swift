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
    /// Filled databases by "scenario strategy size", copied for each repetition (file databases only).
    private var templates: [String: String] = [:]
    private var templateFolder: String?
    /// For `bench explain`: every statement, and the start and end of each phase.
    public var trace: ((String) -> Void)?
    public var traceLevel = 2
    /// Trace as Core Data's SQLDebug log writes statements, to diff against a device's log.
    public var traceExact = false
    public var observer: PhaseRecorder.Observer?
    /// For the N+1 detector: every statement ObjectGraph runs, with why (untimed passes only).
    package var statementLog: StatementLog?
    private var declaredRunner: DeclaredRunner?

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
        guard let workload = scenario.workload else { return try runDeclared(repetition, seed: seed) }
        if dataKey.map({ $0 != (scenario.name, repetition.size) }) ?? true {
            data = nil
            removeTemplates()
            data = workload.makeData(size: repetition.size, parameters: scenario.parameters, seed: seed)
            dataKey = (scenario.name, repetition.size)
        }
        let data = self.data!
        let (location, directory) = try freshDatabase()
        defer { if let directory { TemporaryFolders.remove(directory) } }
        var input = RepetitionInput(strategy: repetition.strategy, variant: repetition.variant, size: repetition.size,
                                    parameters: scenario.parameters, seed: seed, location: location, options: request.options,
                                    data: { data }, trace: trace, traceLevel: traceLevel, traceExact: traceExact)
        input.readPageCacheKiB = request.readPageCacheKiB
        input.statementLog = statementLog
        if !request.inMemory && trace == nil {
            let key = "\(scenario.name) \(repetition.strategy) \(repetition.size)"
            input.preparedSchoolProvider = { [unowned self] input, relationship, fill in
                try self.preparedSchool(key: key, input: input, relationship: relationship, fill: fill)
            }
        }
        let recorder = PhaseRecorder()
        recorder.observer = observer
        recorder.scenario = scenario.name
        do {
            try workload.run(input, recorder: recorder)
        } catch {
            throw BenchError.io("\(scenario.name) \(repetition.strategy) \(repetition.variant) n=\(repetition.size) failed: \(error)")
        }
        return records(recorder, repetition)
    }

    /// A repetition of a scenario that declares its own model, data and phases.
    private func runDeclared(_ repetition: PlannedRepetition, seed: UInt64) throws -> [SampleRecord] {
        let scenario = repetition.scenario
        let runner = try declaredRunner ?? DeclaredRunner(options: request.options, readPageCacheKiB: request.readPageCacheKiB)
        declaredRunner = runner
        runner.trace = trace
        runner.traceLevel = traceLevel
        runner.traceExact = traceExact
        runner.statementLog = statementLog
        let recorder = PhaseRecorder()
        recorder.observer = observer
        recorder.scenario = scenario.name
        do {
            try runner.run(repetition, declared: scenario.declared!, seed: seed, recorder: recorder)
        } catch let error as BenchError {
            throw BenchError.io("\(scenario.name) \(repetition.strategy) \(repetition.variant) n=\(repetition.size) failed: \(error)")
        } catch {
            throw BenchError.io("\(scenario.name) \(repetition.strategy) \(repetition.variant) n=\(repetition.size) failed: \(error)")
        }
        return records(recorder, repetition)
    }

    private func records(_ recorder: PhaseRecorder, _ repetition: PlannedRepetition) -> [SampleRecord] {
        let scenario = repetition.scenario
        return recorder.measurements.map { measurement in
            SampleRecord(scenario: scenario.name, strategy: repetition.strategy.rawValue, variant: repetition.variant.description,
                         size: repetition.size, repetition: repetition.repetition, phase: measurement.phase,
                         metric: measurement.metric.rawValue, value: measurement.value, unit: measurement.metric.unit)
        }
    }

    /// A fresh copy of the database `fill` made for this scenario, strategy and size, made on first use.
    /// The filled database is closed before it is copied, so that its WAL is checkpointed into the file.
    private func preparedSchool(key: String, input: RepetitionInput, relationship: SchoolRelationship,
                                fill: (SchoolStore, SchoolData) throws -> Void) throws -> SchoolStore {
        guard case let .file(path) = input.location else { throw BenchError.io("a prepared school needs a file database") }
        let manager = FileManager.default
        if templates[key] == nil {
            let folder = try templateFolder ?? TemporaryFolders.make("templates")
            templateFolder = folder
            let template = (folder as NSString).appendingPathComponent("\(templates.count + 1).sqlite")
            do {
                let school = try input.openSchool(relationship, location: .file(template))
                try fill(school, input.data())
                school.releaseObjects()
            }
            templates[key] = template
        }
        do {
            try manager.copyItem(atPath: templates[key]!, toPath: path)
        } catch {
            throw BenchError.io("cannot copy the prepared database to \(path) (\(describe(error)))")
        }
        return try input.openSchool(relationship, forReading: true)
    }

    private func removeTemplates() {
        if let templateFolder { TemporaryFolders.remove(templateFolder) }
        templateFolder = nil
        templates = [:]
    }

    deinit { removeTemplates() }

    private func freshDatabase() throws -> (StoreLocation, String?) {
        if request.inMemory { return (.inMemory, nil) }
        let directory = try TemporaryFolders.make("database")
        return (.file((directory as NSString).appendingPathComponent("store.sqlite")), directory)
    }
}
