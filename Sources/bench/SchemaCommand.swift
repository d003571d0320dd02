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
            "Xcode's warnings for a model, CloudKit's rules for the entities it syncs, and RelBench's advice on its relationships with the reason and the fix; exit 0 with no findings, 1 with findings, 64 for an unreadable model."
    )

    @Argument(help: "The model: a .xcdatamodeld or .xcdatamodel folder, or its contents file.")
    var model: String

    func run() throws {
        let file = try ModelFile(path: model)
        for note in file.notes { print("note: \(note)") }
        for finding in file.findings { print(finding) }
        print(file.findings.isEmpty ? "no findings" : "\(file.findings.count) finding(s)")
        if !file.findings.isEmpty { throw ExitCode(1) }
    }
}
