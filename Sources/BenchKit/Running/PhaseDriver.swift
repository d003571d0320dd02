import Foundation
import ObjectGraph

/// What runs a scenario's phases on one store for one strategy: ObjectGraph running the declared steps
/// (`ObjectGraphDriver`), the replay of the SQL they ran (`ReplayDriver`), a hand-written peer's operations
/// (`PeerDriver`). The runner's one store loop (`Runner.runPhases`) opens each store a phase starts on, has the
/// driver prepare the phase outside the timed region, times what `prepare` returns, and releases the store; a driver
/// knows only its own store.
protocol PhaseDriver: CounterSource {
    /// Rows changed since the store opened: a copy of the template nothing changed is used again.
    var rowsChanged: Int { get }
    /// Untimed: the phase's inputs (its steps prepared, a peer's targets), and the work to time.
    func prepare(_ phase: DeclaredScenario.Phase) throws -> () throws -> Void
    /// Untimed, after the timed work: what the phase found besides its counters (a count's result, refused saves,
    /// links kept), or the statements an untimed pass logged.
    func finish(_ phase: DeclaredScenario.Phase, recorder: PhaseRecorder?) throws
    /// Untimed: a `continued` phase goes on with the same store in a new context.
    func startNewContext()
    /// Untimed, with `Runner.undoesChanges`: a prepared phase goes on with the same store, its changes undone and a new
    /// context, instead of a new copy; false when the driver cannot (the runner then closes it and opens a copy).
    func undoChanges() throws -> Bool
    /// Untimed: drops everything the phases kept and lets the store go; returns whether its database is closed now
    /// (a copy whose changes are all in its write-ahead log is then restored by removing the log).
    func close() -> Bool
}

/// Where a phase's store is: the file, whether the phase made it new (`fresh`), and SQLite's page cache for it.
struct StoreOpening {
    let path: String
    let phase: DeclaredScenario.Phase
    /// The page cache: the read one for a phase on the prepared store, the bulk one otherwise.
    let pageCacheKiB: Int?
    /// Whether the store is opened so that the prepared phases after this one can undo its changes
    /// (`Runner.undoesChanges`, on a prepared phase).
    var undoable = false

    var isFresh: Bool { phase.store == .fresh }
}

extension Runner {
    /// The one store loop: each phase on a copy of the filled template (reused when the phase before changed nothing),
    /// a new file (`fresh`), or the store the phase before left (`continued`, `same-context`); timed by `recorder`,
    /// or run untimed without one.
    func runPhases(
        _ repetition: RepetitionContext, recorder: PhaseRecorder?, open: (StoreOpening) throws -> any PhaseDriver
    ) throws {
        var driver: (any PhaseDriver)?
        var paths: [String] = []
        var copies = TemplateCopies()
        defer {
            _ = driver?.close()
            driver = nil
            for path in paths { removeDatabase(path) }
        }
        // Whether the open driver's store is a copy of the template whose changes it can undo.
        var undoable = false
        for phase in repetition.plan.phases {
            let current: any PhaseDriver
            if let open = driver, phase.store.continues {
                current = open
                if phase.store == .continued { current.startNewContext() }
            } else if let open = driver, undoable, phase.store == .prepared, try open.undoChanges() {
                current = open
            } else {
                if let previous = driver {
                    driver = nil
                    let changed = previous.rowsChanged > 0
                    copies.done(changed: changed, closed: previous.close())
                }
                let path: String
                if phase.store == .fresh {
                    // A new file: the first save into a new store checks auto-vacuum, as Core Data's does.
                    path = try newPath()
                    paths.append(path)
                } else {
                    path = try copies.next { try newCopy(of: repetition.template, listedIn: &paths) }
                }
                let cache = phase.store == .prepared ? request.readPageCacheKiB : request.options.pageCacheKiB
                undoable = undoesChanges && phase.store == .prepared
                current = try open(StoreOpening(path: path, phase: phase, pageCacheKiB: cache, undoable: undoable))
                driver = current
            }
            let work = try current.prepare(phase)
            if let recorder {
                try recorder.measure(phase.name, current, work)
            } else {
                try work()
            }
            try current.finish(phase, recorder: recorder)
        }
    }
}
