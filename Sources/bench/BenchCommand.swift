import ArgumentParser
import BenchKit
import Foundation

@main
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure how Core Data relationship modelling behaves: time, SQL statements, faults, rows and memory.",
        subcommands: [ListCommand.self, RunCommand.self, ExplainCommand.self, CompareCommand.self, BaselineCommand.self,
                      MergeCommand.self, HistoryCommand.self, SchemaCommand.self, LintCommand.self, AdviseCommand.self, VerdictsCommand.self])

    /// Parses and runs a command; any error is one line on standard error and a non-zero exit code.
    /// `bench compare` keeps its documented codes (0, 2, 4, 5) and uses 1 for every other error.
    static func main() {
        let comparing = CommandLine.arguments.dropFirst().first == "compare"
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as BenchError {
            fail(error.description, code: comparing ? 1 : error.exitCode)
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error)
            }
            let message = self.message(for: error)
            fail(message.isEmpty ? "\(error)" : message + " (see 'bench --help')", code: comparing ? 1 : code.rawValue)
        }
    }

    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("bench: error: \(message)\n".utf8))
        Foundation.exit(code)
    }
}

extension BenchError {
    /// 64 (EX_USAGE) for bad input, 1 for anything else.
    var exitCode: Int32 {
        if case .invalidInput = self { return 64 }
        return 1
    }
}
