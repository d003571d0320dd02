import ArgumentParser
import BenchKit
import Foundation

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract:
            "Print the SQL schema Core Data would create for an Xcode model: tables, indexes, triggers and system tables, in the store's order."
    )

    @Argument(help: "The model: a .xcdatamodeld or .xcdatamodel folder, or its contents file.")
    var model: String

    func run() throws {
        let file = try ModelFile(path: model)
        for note in file.notes { print("-- note: \(note)") }
        for statement in file.schemaSQL { print(statement + ";") }
    }
}

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Xcode's warnings for a model, CloudKit's rules for the entities it syncs, and RelBench's advice on its relationships, delete rules and indexes with the reason and the fix; with --against, what lightweight migration from an older version cannot infer or will lose, and with --data or --counts what fails on the rows of a copy migrated as it would. Exit 0 with no findings (with --data: when the rows migrate cleanly), 1 with findings, 64 for an unreadable model or store."
    )

    @Argument(help: "The model: a .xcdatamodeld (its current version) or .xcdatamodel folder, or its contents file.")
    var model: String

    @Option(
        help:
            "The older version to migrate from: a model path, or a version name of the model's .xcdatamodeld (e.g. 'Shop 2'); lists only what migration cannot infer or will lose."
    )
    var against: String?

    @Option(
        help:
            "With --against: a store of the older version (Core Data's or ObjectGraph's .sqlite, its -wal and -shm beside it) whose copy is migrated as lightweight migration would, naming the rows that fail; the store itself is only read."
    )
    var data: String?

    @Option(
        help:
            "With --against: migrate the data bench run --model makes for the older version with these counts (e.g. Customer=1000,Order=4000) instead of a store.",
        transform: parseCounts)
    var counts: [String: Int]?

    func validate() throws {
        guard data == nil || counts == nil else {
            throw BenchError.invalidInput("--data and --counts both give the rows to migrate; give one of them")
        }
        guard against != nil || (data == nil && counts == nil) else {
            throw BenchError.invalidInput(
                "--\(data != nil ? "data" : "counts") gives rows of the older version to migrate; name that version with --against OLD")
        }
    }

    func run() throws {
        let file = try ModelFile(path: model)
        let findings: [ModelLint.Finding]
        var dryRun: MigrationDryRun.Report?
        if let against {
            let previous = try file.olderVersion(against)
            let migration = try file.migration(from: previous)
            // The dry run refuses a store that is not the older version's before anything is printed.
            if let source = data.map(MigrationDryRun.Source.store) ?? counts.map(MigrationDryRun.Source.counts) {
                dryRun = try MigrationDryRun.run(new: file, old: previous, source: source)
            }
            print("\(file.heading), against \(migration.heading.dropFirst("model ".count))")
            for note in migration.notes { print("note: \(note)") }
            findings = migration.findings
        } else {
            print(file.heading)
            for note in file.adjustments { print("note: \(note)") }
            findings = file.findings
        }
        for finding in findings { print(finding) }
        print(findings.isEmpty ? "no findings" : counted(findings.count, "finding"))
        if let dryRun {
            for line in dryRun.summary(modelFindings: findings) { print(line) }
            if !dryRun.passes(modelFindings: findings) { throw ExitCode(1) }
        } else if !findings.isEmpty {
            throw ExitCode(1)
        }
    }
}
