import Foundation
import ObjectGraph

/// ObjectGraph's phases and their replay (`sql-replay`, the floor): each phase on its store, its steps prepared
/// before the timed region.
extension Runner {
    /// The phases on ObjectGraph; with `log`, every statement is logged by phase (the untimed pass of the replay),
    /// with SQLite's plan for each distinct statement.
    @discardableResult
    func runObjectGraph(
        _ repetition: RepetitionContext, recorder: PhaseRecorder?, log: StatementLog?
    ) throws -> LoggedPass {
        let plan = repetition.plan
        var logged = LoggedPass()
        var executor: StepExecutor?
        var paths: [String] = []
        var copies = TemplateCopies()
        defer {
            executor?.release()
            executor = nil
            for path in paths { removeDatabase(path) }
        }
        for phase in plan.phases {
            if !phase.store.continues || executor == nil {
                if executor != nil {
                    let changed = executor!.store.rowsChanged > 0
                    weak var store = executor!.store
                    executor!.release()
                    executor = nil
                    copies.done(changed: changed, closed: store == nil)
                }
                let path: String
                if phase.store == .fresh {
                    // A new file: the first save into a new store checks auto-vacuum, as Core Data's does.
                    path = try newPath()
                    paths.append(path)
                } else {
                    path = try copies.next { try newCopy(of: repetition.template, listedIn: &paths) }
                }
                var storeOptions = request.options
                if phase.store == .prepared {
                    storeOptions.pageCacheKiB = request.readPageCacheKiB
                    storeOptions.keepsWriteAheadLogOnClose = true
                }
                let store = try PersistentStore(model: plan.model, location: .file(path), options: storeOptions)
                store.logStatements(into: log ?? statementLog)
                executor = StepExecutor(store: store)
                if let trace, log == nil {
                    store.sqlTrace = SQLTrace(level: traceLevel, exact: traceExact, sink: trace)
                    // Not a line Core Data logs: marked as RelBench's, so that a diff with a device's log can filter it out.
                    executor?.refusal = { trace("RelBench: save refused: \($0)") }
                }
            } else if phase.store == .continued {
                // The same store, a new context (the previous phase's objects released, untimed).
                executor!.release()
            }
            let runner = executor!
            var preparer = StepPreparer(
                plan: plan, data: repetition.graph, keys: phase.store == .fresh ? FilledKeys() : try repetition.template.keys,
                store: runner.store,
                seed: repetition.seed, size: repetition.size)
            let steps = try preparer.prepare(
                phase.steps, phase: phase.name.rawValue, variables: phase.variables,
                rounds: max(1, phase.rounds.value(size: repetition.size)))
            _ = log?.take()
            runner.extraStatementPerObject = log == nil && Injection.current.addsStatement(scenario: repetition.scenario, phase: phase.name)
            if let recorder {
                try measure(phase, runner, steps, recorder)
            } else {
                try runner.run(steps)
            }
            if let log {
                let entries = log.take()
                logged.entries[phase.name] = entries
                let key = PhaseStatements.Key(
                    scenario: repetition.scenario, variant: repetition.variant, size: repetition.size, phase: phase.name)
                logged.statements.append(PhaseStatements(key: key, log: entries, plan: runner.store.queryPlan))
            }
        }
        return logged
    }

    /// What the untimed pass logged: each phase's statements, and their fingerprints, rows and plans.
    struct LoggedPass {
        var entries: [PhaseName: [StatementLog.Entry]] = [:]
        var statements: [PhaseStatements] = []
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

    /// Times one phase's steps and records what its count, save and count-links steps found.
    private func measure(_ phase: DeclaredScenario.Phase, _ runner: StepExecutor, _ steps: [PreparedStep], _ recorder: PhaseRecorder) throws
    {
        runner.lastCount = nil
        runner.lastLinks = nil
        let failed = runner.failedSaves
        try recorder.measure(phase.name, runner) { try runner.run(steps) }
        if phase.reports(.countStep) {
            recorder.record(phase.name, .countResult, runner.lastCount.map(Double.init))
        }
        if phase.reports(.mayFailSave) {
            recorder.record(phase.name, .failedSaves, Double(runner.failedSaves - failed))
        }
        if let links = runner.lastLinks {
            recorder.record(phase.name, .linksIntended, Double(links.intended))
            recorder.record(phase.name, .linksPersisted, Double(links.persisted))
            recorder.record(phase.name, .linksLost, Double(links.intended - links.persisted))
            recorder.record(
                phase.name, .lossRate, links.intended == 0 ? 0 : Double(links.intended - links.persisted) / Double(links.intended))
        }
    }

    /// The timed pass of `sql-replay`: each phase's statements, logged once in an untimed pass of ObjectGraph, on a copy
    /// of the same store.
    func replay(_ repetition: RepetitionContext, recorder: PhaseRecorder) throws {
        let log = try logged(repetition).entries
        var replayer: SQLReplayer?
        var paths: [String] = []
        var copies = TemplateCopies()
        defer {
            replayer = nil
            for path in paths { removeDatabase(path) }
        }
        for phase in repetition.plan.phases {
            if !phase.store.continues || replayer == nil {
                if let replayer { copies.done(changed: replayer.rowsChanged > 0, closed: false) }
                replayer = nil
                let path: String
                if phase.store == .fresh {
                    path = try newPath()
                    paths.append(path)
                    // The empty store ObjectGraph creates (schema, Z_PRIMARYKEY, Z_METADATA), untimed: a new store,
                    // not a copy, so that the replayed first save finds what ObjectGraph's found.
                    _ = try PersistentStore(model: repetition.plan.model, location: .file(path), options: request.options)
                } else {
                    path = try copies.next { try newCopy(of: repetition.template, listedIn: &paths) }
                }
                replayer = try SQLReplayer(
                    path: path, pageCacheKiB: phase.store == .prepared ? request.readPageCacheKiB : request.options.pageCacheKiB)
                if let trace { replayer!.trace(trace) }
            }
            let runner = replayer!
            let entries = log[phase.name] ?? []
            try recorder.measure(phase.name, runner) { try runner.replay(entries) }
        }
    }
}
