import Foundation
import ObjectGraph

/// `bench lint NEW --against OLD --data STORE` (or `--counts` for data generated for OLD): a copy of the store
/// migrated as Core Data's lightweight migration would (the inferred mapping: entities and properties matched by name
/// or renaming identifier, new attributes given their default or nil, removed ones dropped, rows moved to their
/// hierarchy's table with their new Z_ENT), then every row of the copy checked against NEW: required values that are
/// nil, uniqueness constraints' duplicates, values outside the model's ranges, lengths and patterns, to-many counts.
/// The user's store is only read: it is copied (with its -wal and -shm) into a temporary folder, removed afterwards.
package enum MigrationDryRun {
    /// Where OLD's rows come from.
    package enum Source: Sendable, Equatable {
        /// A store Core Data or ObjectGraph wrote for OLD.
        case store(String)
        /// The data `bench run --model OLD --counts ...` makes.
        case counts([String: Int])

        var option: String {
            switch self {
            case .store: return "--data"
            case .counts: return "--counts"
            }
        }
    }

    /// What the dry run found.
    package struct Report {
        /// `dry run: ...` lines: what was migrated, from where, and the rows of each entity checked.
        package var lines: [String] = []
        /// What the reader should know: a WAL store without its -wal, rows dropped with a removed entity.
        package var warnings: [String] = []
        /// One per failing rule, each with its counts and up to 5 example Z_PKs.
        package var findings: [ModelLint.Finding] = []
        /// Why no row could be migrated: lightweight migration cannot infer the mapping. Nil when it ran.
        package var refusal: String?
        /// Why the rows were not checked although the migration works: a mapping model migrates this step.
        package var skipped: String?
    }

    /// The example primary keys a finding quotes.
    static let examples = 5

    /// Migrates a copy of `source`'s rows of `old` to `new` and checks them.
    package static func run(new: ModelFile, old: ModelFile, source: Source) throws -> Report {
        let oldModel: ObjectModel
        let newModel: ObjectModel
        do {
            oldModel = try old.xcode.makeModel()
            newModel = try new.xcode.makeModel()
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(error)")
        }
        let mapping = Mapping(
            before: ModelMigration.Version(model: oldModel, renaming: old.xcode.renamingIdentifiers),
            after: ModelMigration.Version(model: newModel, renaming: new.xcode.renamingIdentifiers))
        var report = Report()
        let storePath: String
        var generated: URL?
        defer { if let generated { try? FileManager.default.removeItem(at: generated) } }
        switch source {
        case let .store(path):
            storePath = path
        case let .counts(counts):
            let folder = try generatedStore(old, counts: counts)
            generated = folder
            storePath = folder.appendingPathComponent("generated.sqlite").path
        }
        let store = try ReadOnlyStore(path: storePath, option: source.option)
        report.warnings += store.warnings
        let numbers = try storeNumbers(
            store, model: oldModel, path: storePath, modelName: old.heading.dropFirst("model ".count).description, option: source.option)
        // The store is checked first: a wrong one is refused even where its rows would not be migrated.
        if let model = new.mappingModel(from: old) {
            report.skipped =
                "not run: \(model.name) migrates this step, and Core Data infers no mapping; the rows were not checked (a custom mapping's own rules apply)"
            return report
        }
        if let refusal = mapping.refusal {
            report.refusal = refusal
            return report
        }
        let oldVersion = ModelFile.version(of: old) ?? old.path
        let what: String
        switch source {
        case .store: what = "a copy of \(storePath) (a store of \(oldVersion))"
        case let .counts(counts):
            what =
                "the data made for \(oldVersion) with --counts \(counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))"
        }
        let database = try ScratchDatabase(path: store.folder.appendingPathComponent("migrated.sqlite").path, option: source.option)
        let migrated = try migrate(store, into: database, mapping: mapping, numbers: numbers)
        report.warnings += migrated.warnings
        report.findings += migrated.findings
        let checked = newModel.entities.filter { !$0.isAbstract && mapping.oldEntity(for: $0) != nil }
        var counts: [String] = []
        for entity in checked {
            let rows = try database.integer("SELECT count(*) FROM \(entity.tableName) WHERE Z_ENT = \(entity.number)")
            counts.append("\(entity.name) \(formatCount(rows))")
        }
        report.lines.append(
            "dry run: \(what), migrated to \(ModelFile.version(of: new) ?? new.path) as lightweight migration infers; rows checked: "
                + (counts.isEmpty ? "none (no entity of the model was in the older one)" : counts.joined(separator: ", ")))
        let outcome = try check(database, model: newModel, mapping: mapping)
        report.findings += outcome.findings
        report.warnings += outcome.warnings
        return report
    }

    /// The store's number (Z_ENT) of each of `model`'s entities, after checking that the store is one of `model`: its
    /// Z_PRIMARYKEY names `model`'s entities with their parents, and its tables have `model`'s columns.
    static func storeNumbers(
        _ store: ReadOnlyStore, model: ObjectModel, path: String, modelName: String, option: String
    ) throws
        -> [String: Int]
    {
        guard try store.hasTable("Z_PRIMARYKEY") else {
            throw BenchError.invalidInput(
                "\(option): \(path) has no Z_PRIMARYKEY table, so it is no Core Data or SwiftData store; give the app's store file of the older version"
            )
        }
        var numbers: [String: Int] = [:]
        var parents: [String: Int] = [:]
        for row in try store.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < \(StoreShape.firstSystemEntity)") {
            guard let number = row[0].flatMap({ Int($0) }), let name = row[1] else { continue }
            numbers[name] = number
            parents[name] = row[2].flatMap { Int($0) } ?? 0
        }
        try StoreShape.checkEntities(numbers: numbers, parents: parents, model: model, path: path, modelName: modelName, option: option)
        try StoreShape.checkTables(store, model: model, path: path, modelName: modelName)
        return numbers
    }

    /// A temporary folder holding `generated.sqlite`: the data `--counts` makes for `model` (what `bench run --model`
    /// runs on), saved by ObjectGraph.
    static func generatedStore(_ model: ModelFile, counts: [String: Int]) throws -> URL {
        let scenario = try GeneratedSuite.scenario(xcode: model.xcode, path: model.path, options: GeneratedSuite.Options(counts: counts))
        let plan = scenario.declared.first
        let size = scenario.sizes[.default]?.first ?? 1
        let data = plan.generator.make(size: size, seed: 42 &+ UInt64(size))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relbench-dry-run-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try GraphFiller.fill(
                data, model: plan.model, location: .file(folder.appendingPathComponent("generated.sqlite").path),
                options: StoreOptions(journalMode: "DELETE"))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw BenchError.io("--counts: the data generated for \(model.path) cannot be saved (\(error))")
        }
        return folder
    }
}
