import Foundation
import ObjectGraph

/// Runs a plan's repetitions: a scenario's data generated once per variant and size, a store filled from it once and
/// copied for every repetition, inputs of each step built before its phase is timed, samples handed to the run folder
/// as soon as a repetition finishes. One runner and one store loop (`runPhases`) for every strategy, each a
/// `PhaseDriver`: ObjectGraph runs the declared steps, `sql-replay` the statements they ran (logged in an untimed
/// pass), the hand-written peers their implementation of each phase.
package final class Runner {
    struct Key: Hashable {
        let scenario: ScenarioName
        let variant: Variant
        let size: Int
    }

    /// A store the data fills, and the keys its objects got: filled the first time a phase needs it, so that a
    /// scenario whose phases all start on fresh stores (data-loss) fills none.
    final class Template {
        private let fill: () throws -> (path: String, keys: FilledKeys)
        private(set) var filled: (path: String, keys: FilledKeys)?

        init(fill: @escaping () throws -> (path: String, keys: FilledKeys)) { self.fill = fill }

        private func made() throws -> (path: String, keys: FilledKeys) {
            if let filled { return filled }
            let made = try fill()
            filled = made
            return made
        }

        var path: String { get throws { try made().path } }
        var keys: FilledKeys { get throws { try made().keys } }
    }

    package let request: RunRequest
    package let plan: RunPlan
    let folder: RunFolder?
    private let progress: Progress?
    /// For `bench explain`: every statement, and the start and end of each phase.
    package var trace: ((String) -> Void)?
    package var traceLevel = 2
    /// Whether phases measure memory (`PhaseRecorder.measuresMemory`); `bench explain` does without.
    package var measuresMemory = true
    /// Trace as Core Data's SQLDebug log writes statements, to diff against a device's log.
    package var traceExact = false
    package var observer: PhaseRecorder.Observer?
    /// Whether a prepared phase after others on a copy of the template goes on with their store, its changes undone
    /// (`PersistentStore+Undo`), instead of opening a new copy: for passes whose times are not shown (`bench explain`,
    /// the advice), where the counters are the same and opening a copy again would parse the model's whole schema once
    /// per phase (profiled: O(n²) for the generated suite of n entities, which deletes from each in a phase of its own).
    /// ObjectGraph only: the other strategies open a copy as before.
    package var undoesChanges = false
    /// For the N+1 detector: every statement ObjectGraph runs, with why (untimed passes only).
    package var statementLog: StatementLog?
    /// Sequential rounds (`RunRequest.sequential`): given a scenario and size's samples so far (its planned rounds and
    /// the sequential rounds after them), the arms (strategy, variant) to run one more round, none when every claim's
    /// comparison there is decided or at its cap. Set by the pipeline, which knows the claims.
    package var nextRound: ((_ samples: [SampleRecord], _ scenario: Scenario, _ size: Int) -> [(Strategy, Variant)])?

    private var data: [Key: GraphData] = [:]
    private var templates: [Key: Template] = [:]
    var logs: [Key: LoggedPass] = [:]
    var schools: [Key: SchoolData] = [:]
    private var workFolder: String?
    private var fileCount = 0

    package init(request: RunRequest, plan: RunPlan, folder: RunFolder?, progress: Progress?) {
        self.request = request
        self.plan = plan
        self.folder = folder
        self.progress = progress
    }

    deinit {
        if let workFolder { TemporaryFolders.remove(workFolder) }
    }

    /// Runs every planned repetition; returns the measured samples (warmups are not recorded).
    @discardableResult
    package func run() throws -> [SampleRecord] {
        var samples: [SampleRecord] = []
        // The samples of the scenario and size being run, which its sequential rounds are decided on.
        var block: [SampleRecord] = []
        for (index, repetition) in plan.repetitions.enumerated() {
            progress?.starting(index: index, repetition)
            let records = try run(repetition)
            if !repetition.isWarmup {
                samples += records
                block += records
                try folder?.append(records)
            } else if repetition.measuresPeak {
                // The warmup that measured the series' peak: its peaks are the series' (as its first round's), its
                // times are not kept.
                let peaks = records.filter { $0.key.metric == .peakRSSBytes }.map {
                    SampleRecord(key: $0.key, repetition: 1, value: $0.value)
                }
                samples += peaks
                block += peaks
                try folder?.append(peaks, countsAsRepetition: false)
            }
            progress?.finished(index: index, repetition)
            let next = index + 1 < plan.repetitions.count ? plan.repetitions[index + 1] : nil
            if next?.scenario.name != repetition.scenario.name || next?.size != repetition.size {
                if request.sequential { samples += try runSequentialRounds(repetition.scenario, size: repetition.size, after: block) }
                block = []
            }
        }
        progress?.done()
        return samples
    }

    /// Runs rounds of the arms `nextRound` names, one round at a time (each arm once, the order rotated by one place a
    /// round, as the planned rounds are), numbered on from the scenario's last planned round, until it names none.
    private func runSequentialRounds(_ scenario: Scenario, size: Int, after planned: [SampleRecord]) throws -> [SampleRecord] {
        guard let nextRound else { return [] }
        var block = planned
        var added: [SampleRecord] = []
        let last = planned.map(\.repetition).max() ?? 0
        var round = last
        // No design looks past 100 rounds more: a guard against an arm that records no value and so never decides.
        while round < last + 100 {
            let arms = nextRound(block, scenario, size)
            if arms.isEmpty { break }
            round += 1
            let shift = round % arms.count
            for (strategy, variant) in Array(arms[shift...]) + Array(arms[..<shift]) {
                let repetition = PlannedRepetition(
                    scenario: scenario, size: size, strategy: strategy, variant: variant, isWarmup: false, repetition: round)
                progress?.sequential(repetition)
                let records = try run(repetition)
                block += records
                added += records
                try folder?.append(records, beyondPlan: true)
            }
        }
        return added
    }

    /// Runs one repetition and returns its samples.
    package func run(_ repetition: PlannedRepetition) throws -> [SampleRecord] {
        let scenario = repetition.scenario
        let recorder = PhaseRecorder()
        recorder.measuresMemory = measuresMemory
        recorder.measuresPeak = repetition.measuresPeak
        recorder.observer = observer
        recorder.scenario = scenario.name
        do {
            let plan = try scenario.declared.plan(for: repetition.variant)
            let key = Key(scenario: scenario.name, variant: repetition.variant, size: repetition.size)
            keepOnly(key)
            let seed = request.seed &+ UInt64(repetition.size)
            let graph =
                data[key]
                ?? {
                    let made = plan.generator.make(size: repetition.size, seed: seed)
                    data[key] = made
                    return made
                }()
            let template =
                templates[key]
                ?? {
                    let made = Template { [unowned self] in try fill(graph, plan: plan) }
                    templates[key] = made
                    return made
                }()
            let context = RepetitionContext(
                scenario: scenario.name, key: key, variant: repetition.variant, plan: plan, graph: graph, template: template, seed: seed,
                size: repetition.size)
            // A run records what ObjectGraph's statements are (statements.csv) from the pass the replay needs anyway.
            if folder != nil, repetition.strategy == .objectGraph { _ = try logged(context) }
            switch repetition.strategy {
            case .objectGraph: try runObjectGraph(context, recorder: recorder, log: nil)
            case .sqlReplay: try replay(context, recorder: recorder)
            case .rawSQLite, .grdb: try runPeer(repetition.strategy, context, recorder: recorder)
            case .device: throw BenchError.invalidInput("device series are read from a log with 'bench log', not run")
            }
        } catch {
            throw BenchError.io("\(scenario.name) \(repetition.strategy) \(repetition.variant) n=\(repetition.size) failed: \(error)")
        }
        return recorder.measurements.map { measurement in
            SampleRecord(
                key: SeriesKey(
                    scenario: scenario.name, strategy: repetition.strategy, variant: repetition.variant,
                    size: repetition.size, phase: measurement.phase, metric: measurement.metric),
                repetition: repetition.repetition, value: measurement.value)
        }
    }

    /// What the phases of one repetition start from.
    struct RepetitionContext {
        let scenario: ScenarioName
        let key: Key
        let variant: Variant
        let plan: DeclaredScenario.Plan
        let graph: GraphData
        let template: Template
        let seed: UInt64
        let size: Int
    }

    /// Forgets the data and stores of other scenarios and sizes than `key`'s (they are built in order).
    private func keepOnly(_ key: Key) {
        func other(_ old: Key) -> Bool { old.scenario != key.scenario || old.size != key.size }
        for old in data.keys where other(old) { data[old] = nil }
        for old in templates.keys where other(old) {
            if let filled = templates[old]?.filled { removeDatabase(filled.path) }
            templates[old] = nil
        }
        for old in logs.keys where other(old) { logs[old] = nil }
        for old in schools.keys where other(old) { schools[old] = nil }
    }

    /// A database file the data fills once, closed (its WAL checkpointed) before repetitions copy it.
    private func fill(_ graph: GraphData, plan: DeclaredScenario.Plan) throws -> (path: String, keys: FilledKeys) {
        let path = try newPath()
        let keys = try GraphFiller.fill(graph, model: plan.model, location: .file(path), options: request.options)
        return (path, keys)
    }

    /// A new file path in this runner's temporary folder.
    func newPath() throws -> String {
        let folder = try workFolder ?? TemporaryFolders.make("run")
        workFolder = folder
        fileCount += 1
        return (folder as NSString).appendingPathComponent("\(fileCount).sqlite")
    }

    func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A new copy of the template, listed for removal at the end of the repetition.
    func newCopy(of template: Template, listedIn paths: inout [String]) throws -> String {
        let path = try newPath()
        paths.append(path)
        try TemplateCopies.copy(try template.path, to: path)
        return path
    }
}
