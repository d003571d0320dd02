import Foundation
import ObjectGraph

/// Runs repetitions of declared scenarios: data generated once per variant and size, a store filled once from it
/// and copied for every repetition, inputs of each step built before its phase is timed, and for `sql-replay` the
/// statements ObjectGraph ran logged once in an untimed pass and replayed in the timed one.
final class DeclaredRunner {
    private struct Key: Hashable {
        let scenario: String
        let variant: String
        let size: Int
    }

    private struct Template {
        let path: String
        let keys: FilledKeys
    }

    private let options: StoreOptions
    private let readPageCacheKiB: Int?
    private var data: [Key: GraphData] = [:]
    private var templates: [Key: Template] = [:]
    private var logs: [Key: [String: [StatementLog.Entry]]] = [:]
    private let folder: String
    private var fileCount = 0
    /// Where `bench explain` wants every statement; nil otherwise.
    var trace: ((String) -> Void)?
    /// Where ObjectGraph's timed pass logs its statements for the N+1 detector (untimed runs only).
    var statementLog: StatementLog?
    var traceLevel = 2
    var traceExact = false

    init(options: StoreOptions, readPageCacheKiB: Int?) throws {
        self.options = options
        self.readPageCacheKiB = readPageCacheKiB
        folder = try TemporaryFolders.make("declared")
    }

    deinit { TemporaryFolders.remove(folder) }

    /// Forgets the data and stores of other scenarios and sizes than `key`'s (they are built in order).
    private func keepOnly(_ key: Key) {
        for old in data.keys where old.scenario != key.scenario || old.size != key.size { data[old] = nil }
        for old in templates.keys where old.scenario != key.scenario || old.size != key.size {
            try? FileManager.default.removeItem(atPath: templates[old]!.path)
            templates[old] = nil
        }
        for old in logs.keys where old.scenario != key.scenario || old.size != key.size { logs[old] = nil }
    }

    private func newPath() -> String {
        fileCount += 1
        return (folder as NSString).appendingPathComponent("\(fileCount).sqlite")
    }

    private func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Runs one repetition and records its phases.
    func run(_ repetition: PlannedRepetition, declared: DeclaredScenario, seed: UInt64, recorder: PhaseRecorder) throws {
        let plan = declared.plan(for: repetition.variant)
        let key = Key(scenario: repetition.scenario.name, variant: repetition.variant.description, size: repetition.size)
        keepOnly(key)
        let graph = data[key] ?? {
            let made = plan.generator.make(size: repetition.size, seed: seed)
            data[key] = made
            return made
        }()
        let template = try templates[key] ?? {
            let path = newPath()
            var fill = options
            fill.pageCacheKiB = options.pageCacheKiB
            let keys = try GraphFiller.fill(graph, model: plan.model, location: .file(path), options: fill)
            let made = Template(path: path, keys: keys)
            templates[key] = made
            return made
        }()
        switch repetition.strategy.implementation {
        case .sqlReplay:
            let log = try logs[key] ?? {
                let made = try record(plan, graph: graph, template: template, seed: seed, size: repetition.size)
                logs[key] = made
                return made
            }()
            try replay(plan, log: log, template: template, recorder: recorder)
        default:
            try runObjectGraph(plan, graph: graph, template: template, seed: seed, size: repetition.size, recorder: recorder, log: nil)
        }
    }

    /// The phases on ObjectGraph; with `log`, every statement is logged by phase (the untimed pass of the replay).
    @discardableResult
    private func runObjectGraph(_ plan: DeclaredScenario.Plan, graph: GraphData, template: Template, seed: UInt64, size: Int,
                                recorder: PhaseRecorder?, log: StatementLog?) throws -> [String: [StatementLog.Entry]] {
        var logged: [String: [StatementLog.Entry]] = [:]
        var executor: StepExecutor?
        var paths: [String] = []
        var copies = TemplateCopies()
        defer {
            executor?.release()
            executor = nil
            for path in paths { removeDatabase(path) }
        }
        for phase in plan.phases {
            var keys = template.keys
            if !phase.store.continues || executor == nil {
                if let executor { copies.done(changed: executor.store.rowsChanged > 0) }
                executor?.release()
                executor = nil
                let path: String
                if phase.store == .fresh {
                    keys = FilledKeys()
                    path = newPath()
                    paths.append(path)
                } else {
                    path = try copies.next { try newCopy(of: template, listedIn: &paths) }
                }
                var storeOptions = options
                if phase.store == .prepared { storeOptions.pageCacheKiB = readPageCacheKiB }
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
            var preparer = StepPreparer(plan: plan, data: graph, keys: phase.store == .fresh ? FilledKeys() : keys, store: runner.store,
                                        seed: seed, size: size)
            let steps = try preparer.prepare(phase.steps, phase: phase.name, variables: phase.variables)
            _ = log?.take()
            if let recorder {
                runner.lastCount = nil
                let failed = runner.failedSaves
                try recorder.measure(phase.name, runner) { try runner.run(steps) }
                if phase.steps.contains(where: { if case .count = $0 { return true } else { return false } }) {
                    recorder.record(phase.name, .countResult, runner.lastCount.map(Double.init))
                }
                if phase.steps.contains(where: { if case .save(true) = $0 { return true } else { return false } }) {
                    recorder.record(phase.name, .failedSaves, Double(runner.failedSaves - failed))
                }
            } else {
                try runner.run(steps)
            }
            if let log { logged[phase.name] = log.take() }
        }
        return logged
    }

    /// The untimed pass: ObjectGraph runs every phase on its own copies, logging the statements of each.
    private func record(_ plan: DeclaredScenario.Plan, graph: GraphData, template: Template, seed: UInt64, size: Int) throws -> [String: [StatementLog.Entry]] {
        try runObjectGraph(plan, graph: graph, template: template, seed: seed, size: size, recorder: nil, log: StatementLog())
    }

    /// The timed pass of `sql-replay`: each phase's logged statements on a copy of the same store.
    private func replay(_ plan: DeclaredScenario.Plan, log: [String: [StatementLog.Entry]], template: Template, recorder: PhaseRecorder) throws {
        var replayer: SQLReplayer?
        var paths: [String] = []
        var copies = TemplateCopies()
        defer {
            replayer = nil
            for path in paths { removeDatabase(path) }
        }
        for phase in plan.phases {
            if !phase.store.continues || replayer == nil {
                if let replayer { copies.done(changed: replayer.rowsChanged > 0) }
                replayer = nil
                let path: String
                if phase.store == .fresh {
                    path = newPath()
                    paths.append(path)
                    // The empty store ObjectGraph creates (schema, Z_PRIMARYKEY, Z_METADATA), untimed.
                    _ = try PersistentStore(model: plan.model, location: .file(path), options: options)
                } else {
                    path = try copies.next { try newCopy(of: template, listedIn: &paths) }
                }
                replayer = try SQLReplayer(path: path, pageCacheKiB: phase.store == .prepared ? readPageCacheKiB : options.pageCacheKiB)
                if let trace { replayer!.trace(trace) }
            }
            let runner = replayer!
            let entries = log[phase.name] ?? []
            try recorder.measure(phase.name, runner) { try runner.replay(entries) }
        }
    }

    /// The copies of the prepared store that a repetition's phases start on. A phase that changed no row (a fetch,
    /// a count, a walk) leaves its copy as the template is, so the next prepared phase reopens that file instead of
    /// copying the template again: a screen's read phase followed by a delete phase (chat-list) copies once. Each
    /// phase still opens its own connection, with a cold page cache, as on a fresh copy. (The generated suite's
    /// read phases continue one store already; its copies are for deletes, which `copy` makes cheap.)
    private struct TemplateCopies {
        /// The copy the last phase on a copy left unchanged, or nil.
        private var unchanged: String?
        /// The copy in use, until `done`.
        private var current: String?

        /// The copy for a prepared phase: the unchanged one, or a new one `make` copies.
        mutating func next(_ make: () throws -> String) throws -> String {
            let path = try unchanged ?? make()
            unchanged = nil
            current = path
            return path
        }

        /// The phases on the current copy (prepared, and any continuing it) are over.
        mutating func done(changed: Bool) {
            if let current, !changed { unchanged = current }
            current = nil
        }
    }

    /// A new copy of the template, listed for removal at the end of the repetition.
    private func newCopy(of template: Template, listedIn paths: inout [String]) throws -> String {
        let path = newPath()
        paths.append(path)
        try copy(template.path, to: path)
        return path
    }

    /// Copies the prepared database in as few system calls as the kernel allows: `sendfile` over the whole file
    /// (profiled: FileManager.copyItem sends 4 KiB a call, 3,932 calls for WordPress's 16 MB store at 1,000
    /// objects, and copying was 27% of that run's samples); FileManager where the kernel refuses.
    private func copy(_ source: String, to path: String) throws {
        if sendWhole(source, to: path) { return }
        do {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: source, toPath: path)
        } catch {
            throw BenchError.io("cannot copy the prepared database to \(path) (\(describe(error)))")
        }
    }

    private func sendWhole(_ source: String, to path: String) -> Bool {
        #if os(Linux)
        let input = open(source, O_RDONLY)
        guard input >= 0 else { return false }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { return false }
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard output >= 0 else { return false }
        defer { close(output) }
        var remaining = Int(status.st_size)
        while remaining > 0 {
            let copied = sendfile(output, input, nil, remaining)
            guard copied > 0 else { return false }
            remaining -= copied
        }
        return true
        #else
        // Darwin's sendfile writes to sockets only: FileManager copies there.
        return false
        #endif
    }
}
