import Foundation
import ObjectGraph

/// The replay of a phase's SQL (`sql-replay`, the floor; `PhaseDriver`): the statements ObjectGraph ran for it,
/// logged once in an untimed pass, replayed on a copy of the same store.
final class ReplayDriver: PhaseDriver {
    private var replayer: SQLReplayer?
    private let entries: [PhaseName: [StatementLog.Entry]]

    /// Opens the replay's connection at `opening`; a fresh store first gets the empty store ObjectGraph creates
    /// (schema, Z_PRIMARYKEY, Z_METADATA), untimed, so that the replayed first save finds what ObjectGraph's found.
    init(
        _ opening: StoreOpening, model: ObjectModel, options: StoreOptions, entries: [PhaseName: [StatementLog.Entry]],
        trace: ((String) -> Void)?
    )
        throws
    {
        if opening.isFresh { _ = try PersistentStore(model: model, location: .file(opening.path), options: options) }
        let replayer = try SQLReplayer(path: opening.path, pageCacheKiB: opening.pageCacheKiB)
        if let trace { replayer.trace(trace) }
        self.replayer = replayer
        self.entries = entries
    }

    func readings() -> CounterReadings { replayer?.readings() ?? CounterReadings() }

    var rowsChanged: Int { replayer?.rowsChanged ?? 0 }

    func prepare(_ phase: DeclaredScenario.Phase) throws -> () throws -> Void {
        guard let replayer else { throw BenchError.io("the replay's store was closed before '\(phase.name)'") }
        let statements = entries[phase.name] ?? []
        return { try replayer.replay(statements) }
    }

    func finish(_ phase: DeclaredScenario.Phase, recorder: PhaseRecorder?) throws {}

    /// The replay has no context: its connection goes on.
    func startNewContext() {}

    /// The replay restores no store in place: each prepared phase gets a copy.
    func undoChanges() -> Bool { false }

    /// Closes the connection; reported open, as the replay never restores a copy by removing its log.
    func close() -> Bool {
        replayer = nil
        return false
    }
}

extension Runner {
    /// The timed pass of `sql-replay`: each phase's statements, logged once in an untimed pass of ObjectGraph, on a copy
    /// of the same store.
    func replay(_ repetition: RepetitionContext, recorder: PhaseRecorder) throws {
        let entries = try logged(repetition).entries
        try runPhases(repetition, recorder: recorder) { opening in
            try ReplayDriver(opening, model: repetition.plan.model, options: request.options, entries: entries, trace: trace)
        }
    }
}
