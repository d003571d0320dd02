import ArgumentParser
import BenchKit
import Foundation

@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure how Core Data relationship modelling behaves: time, SQL statements, faults, rows and memory.",
        version: RunInfo.version,
        subcommands: [
            ListCommand.self, RunCommand.self, ExplainCommand.self, CompareCommand.self, BaselineCommand.self,
            MergeCommand.self, HistoryCommand.self, SchemaCommand.self, LintCommand.self, AdviseCommand.self, VerdictsCommand.self,
            BudgetCommand.self, ReportCommand.self,
            LogCommand.self, ScanCommand.self,
        ])

    /// Parses and runs a command; any error is one line on standard error and the exit code its type says: 64 for
    /// bad input (`BenchError.invalidInput`, and argument-parser's usage errors), 1 for a failure while running,
    /// and a command's documented codes (`CommandFailure`, `ExitCode`).
    static func main() {
        // Before parsing: the process `run --instructions` starts becomes valgrind with arguments of its own.
        InstructionCount.followParent()
        do {
            try checkHelpTopic(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            Interruption.install()
            try command.run()
            Interruption.parkIfStopping()
        } catch let exit as ExitCode {
            Interruption.parkIfStopping()
            Foundation.exit(exit.rawValue)
        } catch {
            Interruption.parkIfStopping()
            if let failure = CommandFailure(error) { fail(failure.message, code: failure.code) }
            let code = exitCode(for: error)
            if code == .success { exit(withError: error) }
            let message = self.message(for: error)
            fail(message.isEmpty ? "\(error)" : message + " (see 'bench --help')", code: code == .validationFailure ? 64 : code.rawValue)
        }
    }

    /// `bench help NAME` for a command that does not exist is an error, not the root help.
    static func checkHelpTopic(_ arguments: [String]) throws {
        guard arguments.first == "help", arguments.count >= 2 else { return }
        var subcommands: [any ParsableCommand.Type] = configuration.subcommands
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            var names: [String] = []
            var next: (any ParsableCommand.Type)?
            for candidate in subcommands {
                let commandName = commandName(of: candidate)
                names.append(commandName)
                if commandName == name { next = candidate }
            }
            guard let next else {
                throw BenchError(
                    problem: "no command '\(name)'", nearest: nearNames(name, in: names).first,
                    allowed: "the commands are \(names.joined(separator: ", "))")
            }
            subcommands = subcommandsOf(next)
        }
    }

    private static func commandName(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? ""
    }

    private static func subcommandsOf(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        command.configuration.subcommands
    }

    /// Writes the error line; a long word of it (a user's 200 KB predicate, quoted) is cut to its start and end.
    static func fail(_ message: String, code: Int32) -> Never {
        let line = message.split(separator: " ", omittingEmptySubsequences: false).map { shortened(String($0), limit: 240) }.joined(
            separator: " ")
        FileHandle.standardError.write(Data("bench: error: \(line)\n".utf8))
        Foundation.exit(code)
    }
}

/// An error the user sees as one line with the exit code its type documents: `BenchError.invalidInput` 64, other
/// `BenchError`s 1, a compare failure 1. Found also inside argument-parser's wrapping of errors thrown by option
/// transforms and `validate()`, so that those read exactly as written.
struct CommandFailure: Error {
    let message: String
    let code: Int32

    init(message: String, code: Int32) {
        self.message = message
        self.code = code
    }

    init?(_ error: any Error) {
        guard let found = Self.find(error, depth: 0) else { return nil }
        self = found
    }

    private static func find(_ value: Any, depth: Int) -> CommandFailure? {
        if let failure = value as? CommandFailure { return failure }
        if let error = value as? BenchError { return CommandFailure(message: error.description, code: error.exitCode) }
        guard depth < 6 else { return nil }
        for child in Mirror(reflecting: value).children {
            if let found = find(child.value, depth: depth + 1) { return found }
        }
        return nil
    }
}

extension BenchError {
    /// 64 (EX_USAGE) for bad input, 1 for anything else.
    var exitCode: Int32 { kind == .invalidInput ? 64 : 1 }
}
