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
            "Xcode's warnings for a model, CloudKit's rules for the entities it syncs, and RelBench's advice on its relationships, delete rules and indexes with the reason and the fix; with --against, what lightweight migration from an older version cannot infer or will lose. Exit 0 with no findings, 1 with findings, 64 for an unreadable model."
    )

    @Argument(help: "The model: a .xcdatamodeld (its current version) or .xcdatamodel folder, or its contents file.")
    var model: String

    @Option(
        help:
            "The older version to migrate from: a model path, or a version name of the model's .xcdatamodeld (e.g. 'Shop 2'); lists only what migration cannot infer or will lose."
    )
    var against: String?

    func run() throws {
        let file = try ModelFile(path: model)
        let findings: [ModelLint.Finding]
        if let against {
            let migration = try file.migration(from: against)
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
        if !findings.isEmpty { throw ExitCode(1) }
    }
}
