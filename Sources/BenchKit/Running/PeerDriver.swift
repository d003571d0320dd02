import Foundation
import ObjectGraph

/// A hand-written peer (raw SQLite, GRDB) running each phase's `SchoolOperation` on one store (`PhaseDriver`): the
/// same store ObjectGraph starts from (a copy of the filled template, or a new file for a phase on a fresh store).
final class PeerDriver: PhaseDriver {
    private var school: SchoolStore?
    private let model: School
    private let data: SchoolData
    private let repetition: Runner.RepetitionContext
    private let strategy: Strategy

    init(_ school: SchoolStore, model: School, data: SchoolData, repetition: Runner.RepetitionContext, strategy: Strategy) {
        self.school = school
        self.model = model
        self.data = data
        self.repetition = repetition
        self.strategy = strategy
    }

    func readings() -> CounterReadings { school?.readings() ?? CounterReadings() }

    var rowsChanged: Int { school?.rowsChanged ?? 0 }

    func prepare(_ phase: DeclaredScenario.Phase) throws -> () throws -> Void {
        guard let operation = SchoolOperation(phase: phase, school: model) else {
            throw BenchError.invalidInput("\(strategy) has no implementation of \(repetition.scenario)'s phase '\(phase.name)'")
        }
        guard let school else { throw BenchError.io("\(strategy)'s store was closed before '\(phase.name)'") }
        let targets = try findTargets(operation, phase)
        let data = data
        return { try operation.run(on: school, data: data, targets: targets) }
    }

    /// What a phase read or made is dropped after it, untimed, unless the next phase goes on in its context.
    func finish(_ phase: DeclaredScenario.Phase, recorder: PhaseRecorder?) throws {
        if phase.store != .sameContext { school?.releaseObjects() }
    }

    func startNewContext() { school?.releaseObjects() }

    /// A peer restores no store in place: each prepared phase gets a copy.
    func undoChanges() -> Bool { false }

    func close() -> Bool {
        school?.releaseObjects()
        school = nil
        return false
    }

    /// A find's targets, round by round: the class and student names ObjectGraph's steps look for, chosen alike.
    private func findTargets(
        _ operation: SchoolOperation, _ phase: DeclaredScenario.Phase
    ) throws -> [(className: String, studentName: String)] {
        guard case .find = operation else { return [] }
        var preparer = StepPreparer(
            plan: repetition.plan, data: repetition.graph, keys: try repetition.template.keys, store: nil, seed: repetition.seed,
            size: repetition.size)
        return try preparer.values(
            of: phase.variables, phase: phase.name.rawValue, rounds: max(1, phase.rounds.value(size: repetition.size))
        )
        .map { values in
            guard case let .string(className)? = values["className"], case let .string(studentName)? = values["studentName"] else {
                throw BenchError.invalidInput("find-member's phase needs the variables className and studentName")
            }
            return (className, studentName)
        }
    }
}

extension Runner {
    /// The hand-written peer `strategy` running each phase's School operation.
    func runPeer(_ strategy: Strategy, _ repetition: RepetitionContext, recorder: PhaseRecorder) throws {
        let plan = repetition.plan
        guard let school = School(model: plan.model, manualKeys: plan.manualKeys), let schema = SchoolSchema(school, model: plan.model)
        else {
            throw BenchError.invalidInput("\(strategy) runs the School model's scenarios only")
        }
        let data =
            schools[repetition.key]
            ?? {
                let made = SchoolData(graph: repetition.graph)
                schools[repetition.key] = made
                return made
            }()
        try runPhases(repetition, recorder: recorder) { opening in
            let store: SchoolStore
            switch strategy {
            case .rawSQLite:
                let raw = try RawSQLiteSchool(schema: schema, location: .file(opening.path), pageCacheKiB: opening.pageCacheKiB)
                if let trace { raw.connection.trace(trace) }
                store = raw
            case .grdb:
                store = try makeGRDBSchool(schema, location: .file(opening.path), pageCacheKiB: opening.pageCacheKiB, trace: trace)
            case .objectGraph, .sqlReplay, .device:
                throw BenchError.invalidInput("\(strategy) is not a hand-written peer")
            }
            return PeerDriver(store, model: school, data: data, repetition: repetition, strategy: strategy)
        }
    }
}
