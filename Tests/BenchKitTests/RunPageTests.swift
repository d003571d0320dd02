import Foundation
import Testing

@testable import BenchKit

/// The page and first screen of a run of the user's own model or scenario, through the real binary: the model's lint
/// by severity first, then the user's phases (their setup apart), then the advice with the variant it belongs to;
/// the claims the run did not measure collapse at the end (issue 36 item 5).
@Suite(.serialized) struct RunPageTests {
    private static func output() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("relbench-page-\(UUID().uuidString)").path
    }

    /// The headings (h1 to h3) and collapsed summaries of a report.html, in the page's order.
    private static func outline(_ folder: String) throws -> [String] {
        let html = try String(contentsOfFile: folder + "/report.html", encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "<(h[1-3])>(.*?)</h[1-3]>|<summary>(.*?)</summary>")
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { match in
            func group(_ index: Int) -> String? { Range(match.range(at: index), in: html).map { String(html[$0]) } }
            if let level = group(1), let text = group(2) { return "\(level) \(text)" }
            return "details \(group(3) ?? "")"
        }
    }

    /// Each expected prefix matched, in order, by a line of `lines` (lines between them are allowed only where the
    /// prefix list says `...`).
    private static func expectLines(_ lines: [String], _ prefixes: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        var index = 0
        var skipping = false
        for prefix in prefixes {
            if prefix == "..." {
                skipping = true
                continue
            }
            while skipping, index < lines.count, !lines[index].hasPrefix(prefix) { index += 1 }
            skipping = false
            guard index < lines.count else {
                Issue.record("missing '\(prefix)' in:\n\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
                return
            }
            #expect(
                lines[index].hasPrefix(prefix), "line \(index): '\(lines[index])', expected '\(prefix)'", sourceLocation: sourceLocation)
            index += 1
        }
    }

    @Test func aModelRunOpensWithItsLintThenItsPhasesThenTheAdvice() throws {
        let folder = Self.output()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CommandLineTests.bench([
            "run", "--model", LintTests.shop, "--sizes", "30", "--repetitions", "1", "--warmup", "0", "--output", folder,
            "--allow-debug", "--no-history", "--quiet",
        ])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        // Problems, then risks, each with its subject and fix; the suggestions in one line; then the phases, the notes
        // of the refused saves, the advice (the suite's own fixed phase named), and where the reports are.
        Self.expectLines(
            lines,
            [
                "lint of model \(LintTests.shop), version Shop 2 (current): 1 problem, 3 risks, 3 suggestions",
                "  problem [deny-reached-by-cascade] OrderLine.product: Cascade rules reach this Deny rule",
                "  risk [ordered-relationship] Order.lines: ordered:",
                "  risk [unindexed-filter] Order.total: ",
                "  risk [unindexed-filter] Product.sku: ",
                "  3 suggestions (Order, Product, model): lint.txt in the run folder has them, with their fixes",
                "model-Shop (1 variant, size 30)",
                "  52 phases besides the setup (insert); the most statements per row read among the ",
                "Core Data does not run on Linux",
                "note: model-Shop delete-",
                "...",
                "N+1 advice: ",
                "...",
                "reports: \(folder) ",
            ])
        #expect(lines.filter { $0.hasPrefix("  problem [") || $0.hasPrefix("  risk [") }.allSatisfy { $0.contains(" Fix: ") })
        #expect(!lines.contains { $0.contains("the most statements: insert") })
        let outline = try Self.outline(folder)
        // The suite's reference phases are comparisons, not advice: whether any advice is left depends on the advice pass.
        #expect(
            Array(outline.dropLast()).filter { $0 != "h2 N+1 advice" }
                == [
                    "h1 RelBench run \((folder as NSString).lastPathComponent)", "h2 Lint of the model: 1 problem, 3 risks, 3 suggestions",
                    "h3 Problems (1)", "h3 Risks (3)", "details 3 suggestions: guesses about how the app uses the model",
                    "h2 What this run measured", "h3 model-Shop", "details the setup (insert): it fills the store the phases above read",
                    "details every series of model-Shop (106 rows)", "details What each phase covers",
                ], "\(outline)")
        #expect(outline.last?.hasPrefix("details ") == true && outline.last?.hasSuffix(" claims not measured by this run") == true)
        let page = try String(contentsOfFile: folder + "/report.md", encoding: .utf8)
        #expect(page.contains("| OrderLine.product | deny-reached-by-cascade | Cascade rules reach this Deny rule"))
        #expect(page.contains("At a glance: 52 phases besides the setup (insert); the most statements per row read among the "))
        #expect(!page.contains("Verdicts this run decided"))
    }

    /// A user's screen with a setup phase and a prefetch axis: its phase first, the setup collapsed, the advice on
    /// prefetch=off saying that prefetch=on runs the phase cleanly, and no claim before it.
    @Test func aUsersScenarioPutsItsPhaseAndAdviceBeforeTheClaims() throws {
        let scenarios = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-page-screen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scenarios) }
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        let model = CommandLineTests.root.appendingPathComponent("Scenarios/models/School.xcdatamodeld").path
        try """
        {"name": "class-list", "description": "my class list", "model": "\(model)", "strategies": ["objectgraph"],
         "data": {"entities": {"Class": "size/10", "Student": "size"}, "relationships": {"Class.students": {"per": 10}}},
         "variants": [{"name": "prefetch", "values": ["off", "on"]}],
         "phases": [
           {"name": "fill", "store": "fresh", "steps": [{"insert-data": true}, {"save": true}]},
           {"name": "class-list", "steps": [
             {"fetch": "Class", "sort": ["name"], "faults": false, "prefetch": {"variant": "prefetch", "off": [], "on": ["students"]}},
             {"read": ["students.name"]}]}],
         "sizes": [200], "repetitions": 1, "warmup": 0}
        """.write(to: scenarios.appendingPathComponent("class-list.json"), atomically: true, encoding: .utf8)
        let folder = Self.output()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try CommandLineTests.bench([
            "run", "class-list", "--scenarios", scenarios.path, "--output", folder, "--allow-debug", "--no-history", "--quiet",
        ])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        Self.expectLines(
            lines,
            [
                "class-list (2 variants, size 200)",
                "  class-list: prefetch=on ran 2 statements against 221 for prefetch=off, n = 1: no comparison (3 repetitions needed) at 200",
                "Core Data does not run on Linux",
                "N+1 advice: 1 finding in 1 phase at the size run, 200 (bench advise \(folder) prints them)",
                "  class-list class-list, variant prefetch=off (objectgraph, size 200): to-many fault Class.students per owner: ",
                "reports: \(folder) ",
            ])
        #expect(lines.count == 6, "\(result.output)")
        #expect(lines[4].hasSuffix("(221 → 2 statements); the variant prefetch=on runs this phase in 2 statements, with no finding"))
        let outline = try Self.outline(folder)
        #expect(
            Array(outline.dropLast())
                == [
                    "h1 RelBench run \((folder as NSString).lastPathComponent)", "h2 What this run measured", "h3 class-list",
                    "details the setup (fill): it fills the store the phases above read", "details every series of class-list (4 rows)",
                    "h2 N+1 advice",
                ], "\(outline)")
        #expect(outline.last?.hasSuffix(" claims not measured by this run") == true)
        let page = try String(contentsOfFile: folder + "/report.md", encoding: .utf8)
        #expect(page.contains("| variant | phase | time (ms) |") && !page.contains("| prefetch=off | fill |\n| prefetch=on | class-list"))
        #expect(page.contains("- **class-list class-list, variant prefetch=off (objectgraph, size 200)**: 20 × "))
    }

    /// README's Results numbers: × floor, × raw and GRDB's factor need three repetitions a side, else `n < 3`.
    @Test func theResultsNumbersNeedThreeRepetitionsForARatio() {
        func samples(_ repetitions: Int) -> [SampleRecord] {
            var samples: [SampleRecord] = []
            for (strategy, time) in [(Strategy.objectGraph, 2.0), (.sqlReplay, 1.0), (.rawSQLite, 0.5), (.grdb, 4.0)] {
                let key = SeriesKey.of("query", strategy, "modelling=many-to-one;prefetch=off", size: 100, phase: "walk", metric: .wallMs)
                for repetition in 1...repetitions { samples.append(SampleRecord(key: key, repetition: repetition, value: time)) }
            }
            return samples
        }
        let one = ResultsSection.keyNumbers(SummaryFile.summarize(samples(1)))
        #expect(
            one.contains("| walk every class's students, faults | 2 ms: n < 3 for × floor, n < 3 for × raw; grdb: n < 3, no comparison |"),
            "\(one)")
        let three = ResultsSection.keyNumbers(SummaryFile.summarize(samples(3)))
        #expect(three.contains("| walk every class's students, faults | 2 ms: 2.00× floor, 4.00× raw; grdb 2.0× slower |"), "\(three)")
    }
}
