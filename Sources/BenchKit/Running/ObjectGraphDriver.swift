import Foundation
import ObjectGraph

/// ObjectGraph running a phase's declared steps on one store (`PhaseDriver`): the steps prepared before the timed
/// region, what the count, save and count-links steps found recorded after it; in the untimed pass that logs every
/// statement (`log`), each phase's statements with SQLite's plan for each distinct one.
final class ObjectGraphDriver: PhaseDriver {
    private var executor: StepExecutor?
    private let repetition: Runner.RepetitionContext
    private let log: StatementLog?
    /// Told each phase's logged statements (with `log`).
    private let logged: (PhaseName, [StatementLog.Entry], PhaseStatements) -> Void
    /// The saves refused before the phase.
    private var failedBefore = 0

    /// Opens ObjectGraph's store at `opening` (on the prepared store with the read page cache, its write-ahead log
    /// kept on close so that a copy can be restored); with `log`, every statement is logged (the untimed pass) and each
    /// phase's are handed to `logged`.
    init(
        _ opening: StoreOpening, repetition: Runner.RepetitionContext, options: StoreOptions, log: StatementLog?,
        logged: @escaping (PhaseName, [StatementLog.Entry], PhaseStatements) -> Void = { _, _, _ in }, statementLog: StatementLog?,
        trace: ((String) -> Void)?, traceLevel: Int, traceExact: Bool
    ) throws {
        var storeOptions = options
        if opening.phase.store == .prepared {
            storeOptions.pageCacheKiB = opening.pageCacheKiB
            storeOptions.keepsWriteAheadLogOnClose = true
        }
        let store = try PersistentStore(model: repetition.plan.model, location: .file(opening.path), options: storeOptions)
        if opening.undoable { store.beginUndoableChanges() }
        store.logStatements(into: log ?? statementLog)
        let executor = StepExecutor(store: store)
        if let trace, log == nil {
            store.sqlTrace = SQLTrace(level: traceLevel, exact: traceExact, sink: trace)
            // Not a line Core Data logs: marked as RelBench's, so that a diff with a device's log can filter it out.
            executor.refusal = { trace("RelBench: save refused: \($0)") }
        }
        self.executor = executor
        self.repetition = repetition
        self.log = log
        self.logged = logged
    }

    func readings() -> CounterReadings { executor?.readings() ?? CounterReadings() }

    var rowsChanged: Int { executor?.store.rowsChanged ?? 0 }

    func prepare(_ phase: DeclaredScenario.Phase) throws -> () throws -> Void {
        guard let executor else { throw BenchError.io("ObjectGraph's store of \(repetition.scenario) was closed before '\(phase.name)'") }
        var preparer = StepPreparer(
            plan: repetition.plan, data: repetition.graph, keys: phase.store == .fresh ? FilledKeys() : try repetition.template.keys,
            store: executor.store, seed: repetition.seed, size: repetition.size)
        let steps = try preparer.prepare(
            phase.steps, phase: phase.name.rawValue, variables: phase.variables,
            rounds: max(1, phase.rounds.value(size: repetition.size)))
        _ = log?.take()
        executor.extraStatementPerObject = log == nil && Injection.current.addsStatement(scenario: repetition.scenario, phase: phase.name)
        executor.lastCount = nil
        executor.lastLinks = nil
        failedBefore = executor.failedSaves
        return { try executor.run(steps) }
    }

    func finish(_ phase: DeclaredScenario.Phase, recorder: PhaseRecorder?) throws {
        guard let executor else { return }
        if let recorder {
            if phase.reports(.countStep) {
                recorder.record(phase.name, .countResult, executor.lastCount.map(Double.init))
            }
            if phase.reports(.mayFailSave) {
                recorder.record(phase.name, .failedSaves, Double(executor.failedSaves - failedBefore))
            }
            if let links = executor.lastLinks {
                recorder.record(phase.name, .linksIntended, Double(links.intended))
                recorder.record(phase.name, .linksPersisted, Double(links.persisted))
                recorder.record(phase.name, .linksLost, Double(links.intended - links.persisted))
                recorder.record(
                    phase.name, .lossRate, links.intended == 0 ? 0 : Double(links.intended - links.persisted) / Double(links.intended))
            }
        }
        if let log {
            let entries = log.take()
            let key = PhaseStatements.Key(
                scenario: repetition.scenario, variant: repetition.variant, size: repetition.size, phase: phase.name)
            logged(phase.name, entries, PhaseStatements(key: key, log: entries, plan: executor.store.work))
        }
    }

    /// The same store, a new context (the previous phase's objects released, untimed).
    func startNewContext() { executor?.release() }

    /// The same store as it was opened, in a new context (untimed).
    func undoChanges() throws -> Bool {
        guard let executor, executor.store.changesAreUndoable else { return false }
        executor.release()
        return try executor.store.undoChanges()
    }

    func close() -> Bool {
        weak var store = executor?.store
        executor?.release()
        executor = nil
        return store == nil
    }
}

extension Runner {
    /// What the untimed pass logged: each phase's statements, and their fingerprints, rows and plans.
    struct LoggedPass {
        var entries: [PhaseName: [StatementLog.Entry]] = [:]
        var statements: [PhaseStatements] = []
    }

    /// The phases on ObjectGraph, timed by `recorder` (or untimed without one); with `log`, every statement is logged
    /// by phase (the untimed pass the replay and statements.csv read).
    @discardableResult
    func runObjectGraph(_ repetition: RepetitionContext, recorder: PhaseRecorder?, log: StatementLog?) throws -> LoggedPass {
        var logged = LoggedPass()
        try runPhases(repetition, recorder: recorder) { opening in
            try ObjectGraphDriver(
                opening, repetition: repetition, options: request.options, log: log,
                logged: { phase, entries, statements in
                    logged.entries[phase] = entries
                    logged.statements.append(statements)
                }, statementLog: statementLog, trace: trace, traceLevel: traceLevel, traceExact: traceExact)
        }
        return logged
    }

    /// The untimed pass of `repetition`'s variant and size, made once: the replay's statements, and the run's
    /// statements.csv rows.
    func logged(_ repetition: RepetitionContext) throws -> LoggedPass {
        if let made = logs[repetition.key] { return made }
        let made = try runObjectGraph(repetition, recorder: nil, log: StatementLog())
        logs[repetition.key] = made
        folder?.record(made.statements)
        return made
    }
}
