import Foundation
import GRDB

/// Results/history.sqlite: every finished run's summary, keyed by commit and time, so that a metric can be
/// followed over commits (`bench history`, scripts/plot.py).
package final class HistoryStore {
    package struct Entry: Sendable {
        package let time: String
        package let commit: String
        package let profile: Profile
        package let key: SeriesKey
        package let n: Int
        package let median: Double
        package let ciLow: Double
        package let ciHigh: Double
    }

    private let queue: DatabaseQueue
    private let path: String

    /// Opens the history at `path`, creating it when `create` (to add runs); a reader's `create: false` leaves a
    /// file that holds no history untouched and says so.
    package init(path: String, create: Bool = true) throws {
        self.path = path
        try Self.refuseNonFile(path)
        do {
            // Runs that end together wait for each other (up to a minute) rather than fail with "database is locked".
            var configuration = Configuration()
            configuration.busyMode = .timeout(60)
            queue = try DatabaseQueue(path: path, configuration: configuration)
            // Another program's database is left alone rather than given our tables.
            let tables = try queue.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
            if !tables.isEmpty && !tables.contains("grdb_migrations") {
                throw BenchError.invalidInput(
                    "\(path) is another program's SQLite database (tables \(tables.prefix(3).joined(separator: ", "))), not a RelBench history store; give another --history path"
                )
            }
            if tables.isEmpty && !create {
                throw BenchError.invalidInput("\(path) holds no history yet; every completed 'bench run' of a release build adds to it")
            }
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                try db.create(table: "run") { table in
                    table.autoIncrementedPrimaryKey("id")
                    table.column("commitHash", .text).notNull()
                    table.column("time", .text).notNull()
                    table.column("profile", .text).notNull()
                    table.column("host", .text).notNull()
                    table.column("seed", .integer).notNull()
                    table.column("folder", .text).notNull()
                }
                try db.create(table: "series") { table in
                    table.column("run", .integer).notNull().references("run", onDelete: .cascade)
                    table.column("scenario", .text).notNull()
                    table.column("strategy", .text).notNull()
                    table.column("variant", .text).notNull()
                    table.column("size", .integer).notNull()
                    table.column("phase", .text).notNull()
                    table.column("metric", .text).notNull()
                    table.column("unit", .text).notNull()
                    table.column("n", .integer).notNull()
                    table.column("median", .double).notNull()
                    table.column("ciLow", .double).notNull()
                    table.column("ciHigh", .double).notNull()
                }
                try db.create(index: "series_by_scenario_metric", on: "series", columns: ["scenario", "metric"])
            }
            migrator.registerMigration("v2: build and injections") { db in
                try db.alter(table: "run") { table in
                    table.add(column: "buildConfiguration", .text).notNull().defaults(to: "release")
                    table.add(column: "injections", .text).notNull().defaults(to: "")
                }
            }
            // A reader leaves the file as it is: a v1 store reads as well (its columns are a subset).
            if create { try Self.migrate(queue, with: migrator) }
        } catch let error as BenchError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            throw BenchError.invalidInput(
                "\(path) is not a RelBench history store (\(error.message ?? "not a database")); give another --history path, or move it away to start a new one"
            )
        } catch let error as DatabaseError
            where [.SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH].contains(error.resultCode)
        {
            throw BenchError.invalidInput(
                "cannot open the history store \(path) (\(error.message ?? "\(error.resultCode)")); check its path and permissions, or give another --history path"
            )
        } catch {
            throw BenchError.io("cannot open the history store \(path): \(error)")
        }
    }

    /// Applies the migrations; another process applying them at the same moment (GRDB reads which are applied
    /// outside their transactions) makes one attempt fail, and the next finds them applied.
    private static func migrate(_ queue: DatabaseQueue, with migrator: DatabaseMigrator) throws {
        var attempt = 1
        while true {
            do {
                return try migrator.migrate(queue)
            } catch is DatabaseError where attempt < 20 {
                attempt += 1
                usleep(50_000)
            }
        }
    }

    /// The scenarios the history has, for "did you mean".
    package func scenarios() throws -> [String] {
        try queue.read { db in try String?.fetchAll(db, sql: "SELECT DISTINCT scenario FROM series ORDER BY scenario").compactMap { $0 } }
    }

    /// Appends a run's summary (series with a value only). A debug build's run or one with injected regressions is
    /// refused: its numbers do not stand for the code.
    package func append(info: RunInfo, folder: String, summary: [SummaryRow]) throws {
        if let reason = info.unrepresentativeReason {
            throw BenchError.invalidInput("not added to the history: \(reason)")
        }
        // One immediate transaction: it takes the write lock before reading anything, so that the busy timeout
        // applies (a deferred one upgrading its lock gets "database is locked" at once).
        try queue.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try insert(db, info: info, folder: folder, summary: summary)
                return .commit
            }
        }
    }

    private func insert(_ db: Database, info: RunInfo, folder: String, summary: [SummaryRow]) throws {
        try db.execute(
            sql:
                "INSERT INTO run (commitHash, time, profile, host, seed, folder, buildConfiguration, injections) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [
                info.gitCommit, info.utcTime, info.profile.rawValue, info.host, Int64(bitPattern: info.seed), folder,
                info.buildConfiguration.rawValue, (info.injections ?? [:]).keys.sorted().joined(separator: ","),
            ])
        let run = db.lastInsertedRowID
        for row in summary {
            guard let stats = row.summary else { continue }
            try db.execute(
                sql: """
                    INSERT INTO series (run, scenario, strategy, variant, size, phase, metric, unit, n, median, ciLow, ciHigh)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    run, row.key.scenario.rawValue, row.key.strategy.rawValue, row.key.variant.description, row.key.size,
                    row.key.phase.rawValue, row.key.metric.rawValue, row.unit.rawValue, stats.n, stats.median, stats.ciLow, stats.ciHigh,
                ])
        }
    }

    /// A metric of a scenario over the recorded runs, series by series and oldest first, optionally narrowed down;
    /// `skipped` counts rows of older runs whose strategy or variant this bench cannot read (the names before a change
    /// of vocabulary), which are left out rather than misread.
    package func entries(
        scenario: ScenarioName, metric: Metric, strategy: Strategy? = nil, variant: String? = nil, size: Int? = nil,
        phase: PhaseName? = nil, profile: Profile? = nil
    ) throws -> (entries: [Entry], skipped: Int) {
        try queue.read { db in
            var sql = """
                SELECT run.time, run.commitHash, run.profile, series.* FROM series JOIN run ON run.id = series.run
                WHERE series.scenario = ? AND series.metric = ?
                """
            var arguments: StatementArguments = [scenario.rawValue, metric.rawValue]
            if let strategy {
                sql += " AND series.strategy = ?"
                arguments += [strategy.rawValue]
            }
            if let variant {
                sql += " AND series.variant = ?"
                arguments += [variant]
            }
            if let size {
                sql += " AND series.size = ?"
                arguments += [size]
            }
            if let phase {
                sql += " AND series.phase = ?"
                arguments += [phase.rawValue]
            }
            if let profile {
                sql += " AND run.profile = ?"
                arguments += [profile.rawValue]
            }
            sql += " ORDER BY series.strategy, series.variant, series.size, series.phase, run.time, run.id"
            var entries: [Entry] = []
            var skipped = 0
            for row in try Row.fetchAll(db, sql: sql, arguments: arguments) {
                // Throwing accessors: a database that only looks like ours (NULLs, wrong types) is an error, not a trap.
                let parsed: Result<SeriesKey, UnknownSeries>
                let profileName: String
                do {
                    profileName = try row.decode(forColumn: "profile")
                    parsed = SeriesKey.parse(
                        scenario: try row.decode(forColumn: "scenario"), strategy: try row.decode(forColumn: "strategy"),
                        variant: try row.decode(forColumn: "variant"), size: try row.decode(forColumn: "size"),
                        phase: try row.decode(forColumn: "phase"), metric: try row.decode(forColumn: "metric"))
                    guard case let .success(key) = parsed, let profile = Profile(rawValue: profileName) else {
                        skipped += 1
                        continue
                    }
                    let entry = Entry(
                        time: try row.decode(forColumn: "time"), commit: try row.decode(forColumn: "commitHash"), profile: profile,
                        key: key, n: try row.decode(forColumn: "n"), median: try row.decode(forColumn: "median"),
                        ciLow: try row.decode(forColumn: "ciLow"), ciHigh: try row.decode(forColumn: "ciHigh"))
                    // A run never records inf or NaN; one read back would print "-nan%" as a change.
                    guard entry.median.isFinite, entry.ciLow.isFinite, entry.ciHigh.isFinite else {
                        throw BenchError.invalidInput(
                            "\(path): the \(key.metric.rawValue) row of \(key.scenario) \(key.strategy) size \(key.size) \(key.phase) of the run at \(entry.time) holds a median or interval that is not a finite number (\(entry.median)); is the store damaged?"
                        )
                    }
                    entries.append(entry)
                } catch let error as BenchError {
                    throw error
                } catch {
                    throw BenchError.invalidInput(
                        "\(path) is not a RelBench history store (a row does not decode: \(error)); give another --history path")
                }
            }
            return (entries, skipped)
        }
    }
}
