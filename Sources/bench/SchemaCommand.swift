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
            "Xcode's warnings for a model, CloudKit's rules for the entities it syncs, and RelBench's advice on its relationships, delete rules and indexes with the reason and the fix; with --against, what lightweight migration from an older version cannot infer or will lose.",
        discussion: """
            Each finding reads 'SEVERITY [RULE-ID] SUBJECT: what it costs. Fix: what to change.' Severities: problem (a \
            save, a migration or the store's loading will fail, or data is lost), risk (likely slow or fragile), \
            suggestion (a guess about how the app uses the model, such as a list showing counts). Suggestions are \
            summed up in one line unless --suggestions is given. A finding Xcode also warns about is said once, by \
            RelBench, with the fix.

            Exit codes: 0 when no new finding has a severity of --fail-on (default problem,risk; suggestions never fail \
            by default), and after --write-baseline; 1 when one has; 64 for an unreadable model, a bad option or a \
            baseline that is missing, unreadable or not lint's.
            """
    )

    @Argument(help: "The model: a .xcdatamodeld (its current version) or .xcdatamodel folder, or its contents file.")
    var model: String

    @Option(
        help:
            "The older version to migrate from: a model path, or a version name of the model's .xcdatamodeld (e.g. 'Shop 2'); lists only what migration cannot infer or will lose."
    )
    var against: String?

    @Flag(help: "Print each suggestion (a guess about how the app uses the model) instead of one line summing them up.")
    var suggestions = false

    @OptionGroup var gateOptions: GateOptions

    func run() throws {
        let baseline = try gateOptions.prepare(command: "lint")
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
        let known = baseline?.fingerprints ?? []
        for line in ModelLint.lines(findings, known: known, suggestions: suggestions) { print(line) }
        try gateOptions.finish(findings, baseline: baseline, command: "lint", always: true)
    }
}
