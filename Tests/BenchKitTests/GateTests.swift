import Foundation
import Testing

@testable import BenchKit

/// The CI gate through the real binary: it gates the counts that transfer, says which statements changed, refuses
/// options it would ignore, checks budgets, and notices a changed scenario file.
@Suite(.serialized) struct GateTests {
    /// A scenario folder with one screen (`screen`): classes and their students, walked with or without prefetching.
    static func folder(prefetch: Bool, description: String = "a screen") throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-gate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("models"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CommandLineTests.root.appendingPathComponent("Scenarios/models/School.xcdatamodeld"),
            to: folder.appendingPathComponent("models/School.xcdatamodeld"))
        let scenario = """
            {"name": "screen", "description": "\(description)", "model": "models/School.xcdatamodeld",
             "data": {"entities": {"Class": "size/10", "Student": "size"}, "relationships": {"Class.students": {"per": 10}},
                      "attributes": {"Student.name": {"name": "Student"}, "Class.name": {"name": "Class"}}},
             "phases": [{"name": "walk", "steps": [
               {"fetch": "Class", "sort": ["name"]\(prefetch ? ", \"prefetch\": [\"students\"]" : "")},
               {"read": ["students.name"]}]}],
             "sizes": [200], "repetitions": 1, "warmup": 0}
            """
        try scenario.write(to: folder.appendingPathComponent("screen.json"), atomically: true, encoding: .utf8)
        return folder.path
    }

    /// A run of the screen as `folder` defines it.
    static func run(_ scenarios: String) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-gate-run-\(UUID().uuidString)").path
        let result = try CommandLineTests.bench([
            "run", "screen", "--scenarios", scenarios, "--output", output, "--quiet", "--allow-debug", "--no-history", "--no-advice",
        ])
        #expect(result.status == 0, "\(result.error)")
        return output
    }

    /// The pull request that adds the advised prefetch (statements down, ObjectGraph's allocated bytes up) passes
    /// the gate as an improvement; the reverse fails it and names the statement it added.
    @Test func theGateFailsOnlyOnWhatTransfers() throws {
        let withoutFolder = try Self.folder(prefetch: false)
        let without = try Self.run(withoutFolder)
        let with = try Self.run(try Self.folder(prefetch: true))
        let fix = try CommandLineTests.bench(["compare", without, with, "--counters-only"])
        #expect(fix.status == 4, "\(fix.output)")
        #expect(!fix.output.contains("allocated_bytes"))
        let reverse = try CommandLineTests.bench(["compare", with, without, "--counters-only"])
        #expect(reverse.status == 2)
        #expect(
            reverse.output.contains("why object_faults, relationship_faults, rows_read, sql_statements changed in screen size 200 walk:"))
        #expect(reverse.output.contains("  +20 × SELECT ?, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.ZCLASS = ?"))
        // The scenario's file is not in the repository's folder: the command says where it is.
        #expect(
            reverse.output.contains(
                "see: bench explain screen --scenarios \(URL(fileURLWithPath: withoutFolder).standardizedFileURL.path) --size 200 --phase walk"
            ))
        // sql-replay's counts are ObjectGraph's: listed once.
        #expect(!reverse.output.split(separator: "\n").contains { $0.hasPrefix("regression") && $0.contains("sql-replay") })
        // Allocations gate only when asked, and their threshold then takes effect.
        let gated = try CommandLineTests.bench(["compare", with, without, "--counters-only", "--gate", "allocations"])
        #expect(gated.output.contains(" allocations "), "\(gated.output)")
        let loose = try CommandLineTests.bench([
            "compare", with, without, "--counters-only", "--gate", "allocations", "--threshold-for", "allocated_bytes=100000",
            "--threshold-for", "allocations=100000",
        ])
        #expect(!loose.output.contains(" allocations ") && !loose.output.contains("allocated_bytes"), "\(loose.output)")
    }

    /// Every option compare accepts takes effect; one it would ignore is refused with a line saying why.
    @Test func optionsThatWouldDoNothingAreRefused() throws {
        let run = try Self.run(try Self.folder(prefetch: false))
        for (arguments, message) in [
            (
                ["--counters-only", "--threshold", "1000"],
                "--threshold applies to timings and memory, which --counters-only does not compare"
            ),
            (["--counters-only", "--threshold-for", "allocated_bytes=1000"], "add --gate allocations to gate allocated_bytes"),
            (["--threshold-for", "allocated_bytes=1000"], "allocated_bytes is gated only with --gate allocations"),
            (["--threshold-for", "sql_statements=5"], "sql_statements is a count, compared exactly"),
            (["--threshold-for", "qurey/wall_ms=15"], "neither run measured a scenario 'qurey'"),
            (["--gate", "memory"], "--gate 'memory' is not a gate"),
        ] {
            let result = try CommandLineTests.bench(["compare", run, run] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
        }
    }

    @Test func budgetsFailWithALinePerBreach() throws {
        let run = try Self.run(try Self.folder(prefetch: false))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-budgets-\(UUID().uuidString).json").path
        try
            #"[{"scenario": "screen", "phase": "walk", "maximum": 2}, {"scenario": "screen", "phase": "walk", "metric": "rows_read", "maximum": 10000}]"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        let over = try CommandLineTests.bench(["budget", run, "--budgets", file])
        #expect(over.status == 6)
        #expect(over.output == "over budget: screen objectgraph size 200 walk: sql_statements 221 > 2 (budget 1 of \(file))\n")
        let compare = try CommandLineTests.bench(["compare", run, run, "--counters-only", "--budgets", file])
        #expect(compare.status == 6 && compare.output.contains("over budget: screen objectgraph size 200 walk"))
        try #"[{"scenario": "screen", "phase": "wakl", "maximum": 2}]"#.write(toFile: file, atomically: true, encoding: .utf8)
        let nothing = try CommandLineTests.bench(["budget", run, "--budgets", file])
        #expect(nothing.status == 6 && nothing.output.contains("matches no series of the run"))
        try #"[{"scenario": "screen", "phase": "walk", "maximun": 2}]"#.write(toFile: file, atomically: true, encoding: .utf8)
        let typo = try CommandLineTests.bench(["budget", run, "--budgets", file])
        #expect(typo.status == 64 && typo.error.contains("unknown key 'maximun' (did you mean 'maximum'?)"))
        // A budget on ObjectGraph's time would gate this machine, not the app.
        try #"[{"scenario": "screen", "phase": "walk", "metric": "wall_ms", "maximum": 2}]"#.write(
            toFile: file, atomically: true, encoding: .utf8)
        let time = try CommandLineTests.bench(["budget", run, "--budgets", file])
        #expect(time.status == 64 && time.error.contains("\"metric\": wall_ms is ObjectGraph's on this machine, not what a device does"))
    }

    /// Without --budgets, bench budget reads the budgets.json beside the scenario files the run read (its
    /// --scenarios folder), not the project's Scenarios/budgets.json.
    @Test func budgetsDefaultToTheFileBesideTheScenariosRead() throws {
        let scenarios = try Self.folder(prefetch: false)
        let run = try Self.run(scenarios)
        let missing = try CommandLineTests.bench(["budget", run])
        let expected = URL(fileURLWithPath: scenarios).standardizedFileURL.appendingPathComponent("budgets.json").path
        #expect(missing.status == 64 && missing.error.contains("no budget file \(expected);"), "\(missing.error)")
        try #"[{"scenario": "screen", "phase": "walk", "maximum": 2}]"#.write(toFile: expected, atomically: true, encoding: .utf8)
        let over = try CommandLineTests.bench(["budget", run])
        #expect(over.status == 6)
        #expect(over.output == "over budget: screen objectgraph size 200 walk: sql_statements 221 > 2 (budget 1 of \(expected))\n")
    }

    /// run.json keeps the content hashes of each scenario's file and model: compare says which changed.
    @Test func aChangedScenarioFileIsSaid() throws {
        let before = try Self.run(try Self.folder(prefetch: false))
        let after = try Self.run(try Self.folder(prefetch: false, description: "the same screen, described anew"))
        let result = try CommandLineTests.bench(["compare", before, after, "--counters-only"])
        #expect(result.status == 0)
        #expect(result.output.contains("screen's scenario file changed since the baseline"))
    }

    /// `bench run` prints a headline per scenario, not every series: the full table is in summary.txt.
    @Test func theFirstScreenIsAHeadlinePerScenario() throws {
        let folder = try Self.folder(prefetch: false)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-gate-run-\(UUID().uuidString)").path
        let result = try CommandLineTests.bench([
            "run", "screen", "--scenarios", folder, "--output", output, "--quiet", "--allow-debug", "--no-history", "--no-advice",
        ])
        #expect(result.output.hasPrefix("screen (1 variant, size 200)\n  walk: 221 statements, "))
        #expect(!result.output.contains("faults obj/rel"))
        let table = try String(contentsOfFile: output + "/summary.txt", encoding: .utf8)
        #expect(table.contains("faults obj/rel") && table.contains("peak MiB"))
        let verbose = try CommandLineTests.bench([
            "run", "screen", "--scenarios", folder, "--output", output + "-verbose", "--quiet", "--allow-debug", "--no-history",
            "--no-advice", "--verbose",
        ])
        #expect(verbose.output.contains("faults obj/rel"))
    }
}
