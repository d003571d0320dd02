import ArgumentParser
import BenchKit
import Foundation

struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline", abstract: "Manage the committed baseline run CI compares against.", subcommands: [Save.self])

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "save", abstract: "Copy a run's reports into Results/baseline/ (the newest run under Results/runs by default).")

        @Argument(help: "The run folder to save (default: the newest under Results/runs).")
        var runFolder: String?

        @Option(help: "Where the baseline lives.")
        var to: String = "Results/baseline"

        @Option(help: "The profile CI runs; a baseline of another profile is refused unless --any-profile.")
        var profile: Profile = .smoke

        @Flag(help: "Save a run of any profile.")
        var anyProfile = false

        func run() throws {
            let folder = try runFolder ?? newestRun()
            let info = try RunInfo.load(folder)
            guard info.status == .complete else {
                throw BenchError.invalidInput("\(folder) is \(info.status.rawValue), not complete; save a run that finished")
            }
            // The status is written last, after every file it lists: one that is missing was removed since.
            if let missing = (info.files ?? []).first(where: {
                !FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent($0))
            }) {
                throw BenchError.invalidInput(
                    "\(folder) says it is complete but lacks \(missing), which its run.json lists; save a run folder as the run left it")
            }
            if let reason = info.unrepresentativeReason {
                throw BenchError.invalidInput(
                    "\(folder) cannot be the baseline: \(reason); save a release build's run made without RELBENCH_INJECT_* set")
            }
            guard anyProfile || info.profile == profile || info.measurement == .deviceLog else {
                throw BenchError.invalidInput(
                    "\(folder) ran profile \(info.profile.rawValue), but CI compares the \(profile.rawValue) profile; run 'bench run --all --profile \(profile.rawValue)' and save that (or pass --any-profile)"
                )
            }
            try Self.readBack(folder)
            try Baseline.save(from: folder, to: to)
            print("saved \(folder) as the baseline in \(to) (commit \(info.gitCommit), profile \(info.profile.rawValue))")
        }

        /// Reads every CSV report the baseline will hold: a damaged one (a column named twice, a torn row, a negative
        /// count) is refused now rather than by CI's next compare.
        static func readBack(_ folder: String) throws {
            func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
            _ = try SamplesFile.load(path("samples.csv"))
            _ = try SummaryFile.load(folder)
            _ = try StatementsFile.load(folder: folder)
            if let data = FileManager.default.contents(atPath: path("complexity.csv")) {
                _ = try CSVFiles.decode(String(decoding: data, as: UTF8.self), expected: [], file: path("complexity.csv"))
            }
        }

        private func newestRun() throws -> String {
            let runs = (try? FileManager.default.contentsOfDirectory(atPath: "Results/runs"))?.sorted() ?? []
            guard let newest = runs.last else {
                throw BenchError.invalidInput(
                    "no run under Results/runs; run 'bench run --all --profile smoke' first, or name the run folder")
            }
            return "Results/runs/\(newest)"
        }
    }
}
