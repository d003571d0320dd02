import Foundation
import ObjectGraph

/// The hand-written peers' phases: each School phase run by the peer's implementation of it (`SchoolPhase`), on the
/// same store ObjectGraph starts from (a copy of the filled template, or a new file for a phase on a fresh store).
extension Runner {
    func runPeer(_ strategy: Strategy, _ repetition: RepetitionContext, recorder: PhaseRecorder) throws {
        let plan = repetition.plan
        guard let schema = SchoolSchema(model: plan.model, manualKeys: plan.manualKeys) else {
            throw BenchError.invalidInput("\(strategy) runs the School model's scenarios only")
        }
        let data =
            schools[repetition.key]
            ?? {
                let made = SchoolData(graph: repetition.graph)
                schools[repetition.key] = made
                return made
            }()
        var school: SchoolStore?
        var paths: [String] = []
        var copies = TemplateCopies()
        defer {
            school?.releaseObjects()
            school = nil
            for path in paths { removeDatabase(path) }
        }
        for phase in plan.phases {
            guard let operation = SchoolPhase(scenario: repetition.scenario.rawValue, phase: phase) else {
                throw BenchError.invalidInput("\(strategy) has no implementation of \(repetition.scenario)'s phase '\(phase.name)'")
            }
            if !phase.store.continues || school == nil {
                if let school { copies.done(changed: school.rowsChanged > 0, closed: false) }
                school?.releaseObjects()
                school = nil
                let path: String
                if phase.store == .fresh {
                    path = try newPath()
                    paths.append(path)
                } else {
                    path = try copies.next { try newCopy(of: repetition.template, listedIn: &paths) }
                }
                let cache = phase.store == .prepared ? request.readPageCacheKiB : request.options.pageCacheKiB
                school = try open(strategy, schema, path: path, pageCacheKiB: cache)
            } else if phase.store == .continued {
                school!.releaseObjects()
            }
            let peer = school!
            let targets = try findTargets(operation, phase, repetition)
            try recorder.measure(phase.name, peer) { try operation.run(on: peer, data: data, targets: targets) }
            if phase.store != .sameContext { peer.releaseObjects() }
        }
    }

    private func open(_ strategy: Strategy, _ schema: SchoolSchema, path: String, pageCacheKiB: Int?) throws -> SchoolStore {
        switch strategy {
        case .rawSQLite:
            let school = try RawSQLiteSchool(schema: schema, location: .file(path), pageCacheKiB: pageCacheKiB)
            if let trace { school.connection.trace(trace) }
            return school
        case .grdb:
            return try makeGRDBSchool(schema, location: .file(path), pageCacheKiB: pageCacheKiB, trace: trace)
        case .objectGraph, .sqlReplay, .device:
            throw BenchError.invalidInput("\(strategy) is not a hand-written peer")
        }
    }

    /// A find's targets, round by round: the class and student names ObjectGraph's steps look for, chosen alike.
    private func findTargets(
        _ operation: SchoolPhase, _ phase: DeclaredScenario.Phase, _ repetition: RepetitionContext
    ) throws
        -> [(className: String, studentName: String)]
    {
        guard case .find = operation else { return [] }
        var preparer = StepPreparer(
            plan: repetition.plan, data: repetition.graph, keys: try repetition.template.keys, store: nil,
            seed: repetition.seed, size: repetition.size)
        return try preparer.values(
            of: phase.variables, phase: phase.name.rawValue, rounds: max(1, phase.rounds.value(size: repetition.size))
        ).map { values in
            guard case let .string(className)? = values["className"], case let .string(studentName)? = values["studentName"] else {
                throw BenchError.invalidInput("find-member's phase needs the variables className and studentName")
            }
            return (className, studentName)
        }
    }
}
