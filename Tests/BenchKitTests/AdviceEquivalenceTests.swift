import Foundation
import SQLDebugLog
import Testing

@testable import BenchKit

/// One analysis of SQL: every shipped scenario's `bench explain --exact` output, read back by `bench log` (named by
/// the scenario's model and checked against its declared steps, `--model-of`), has exactly the findings `bench
/// advise` gives on the same run: the same identities, rules, subjects, statements, counts and fixes. Only the
/// milliseconds differ (each run's own times) and the saving advise measures between variants, which a log cannot.
@Suite(.serialized) struct AdviceEquivalenceTests {
    /// A threshold low enough for small sizes to show every pattern the scenarios hold.
    static let threshold = 3

    /// Every variant of every shipped scenario ObjectGraph runs: all values of its modelling axis, and every value of
    /// each other axis at least once (the others at their first value).
    static func variants(of scenario: Scenario) -> [Variant] {
        let axes = scenario.axes
        let modelling = axes.firstIndex { $0.name == "modelling" }
        return scenario.variants.filter { variant in
            var differing = 0
            for (index, axis) in axes.enumerated() where index != modelling {
                if variant[axis.name] != axis.values.first { differing += 1 }
            }
            return differing <= 1
        }
    }

    /// The size each scenario is explained and advised at: its second smoke size, where a per-row pattern repeats.
    static func size(of scenario: Scenario) -> Int {
        let sizes = scenario.sizes[.smoke] ?? [100]
        return sizes.count > 1 ? sizes[1] : sizes[0]
    }

    /// A finding as both sides must agree on it (times and occurrences aside).
    struct Key: Hashable, CustomStringConvertible {
        let segment, id, rule, severity, subject, statement, summary, fix: String
        let repeats, statements: Int
        let statementsAfter: Int?
        let namesInferred: Bool

        init(_ finding: Finding) {
            segment = finding.segment
            id = finding.id
            rule = finding.rule.rawValue
            severity = finding.severity.rawValue
            subject = "\(finding.subject)"
            statement = finding.statement
            summary = finding.summary
            fix = finding.fix
            repeats = finding.repeats
            statements = finding.statements
            statementsAfter = finding.statementsAfter
            namesInferred = finding.namesInferred
        }

        var description: String {
            "\(segment) \(rule) \(subject) [\(id)] \(repeats)× \(statements)→\(statementsAfter.map(String.init) ?? "-"): \(summary): \(fix)"
        }
    }

    @Test func logFindingsOfEveryScenarioTraceEqualAdvise() throws {
        let catalog = try ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-equivalence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenarios = catalog.scenarios.filter { $0.strategies.contains(.objectGraph) }
        #expect(scenarios.count >= 14)
        var compared = 0
        var variantsChecked = 0
        var rulesSeen = Set<String>()
        for scenario in scenarios {
            let size = Self.size(of: scenario)
            let adviceFile = folder.appendingPathComponent("\(scenario.name).advice.json")
            let advise = try CommandLineTests.bench([
                "advise", "--scenario", scenario.name.rawValue, "--size", String(size), "--threshold", String(Self.threshold),
                "--json", adviceFile.path, "--scenarios", ScenarioCountersTests.scenariosFolder,
            ])
            #expect(advise.status == 0, "\(scenario.name): \(advise.error)")
            let advice = try AdviceReport.decode(Data(contentsOf: adviceFile), file: adviceFile.path)
            for variant in Self.variants(of: scenario) {
                let trace = folder.appendingPathComponent("\(scenario.name).\(variantsChecked).log")
                var arguments = [
                    "explain", scenario.name.rawValue, "--exact", "--size", String(size), "--max-lines", "100000000", "--strategy",
                    "objectgraph", "--threshold", String(Self.threshold), "--scenarios", ScenarioCountersTests.scenariosFolder,
                ]
                if !variant.isEmpty { arguments += ["--variant", variant.description] }
                let explained = try CommandLineTests.bench(arguments)
                #expect(explained.status == 0, "\(scenario.name) \(variant): \(explained.error)")
                try explained.output.write(to: trace, atomically: true, encoding: .utf8)
                var logArguments = [
                    "log", trace.path, "--json", "--model-of", scenario.name.rawValue, "--threshold", String(Self.threshold),
                    "--scenarios", ScenarioCountersTests.scenariosFolder,
                ]
                if !variant.isEmpty { logArguments += ["--variant", variant.description] }
                let read = try CommandLineTests.bench(logArguments)
                #expect(read.status == 0, "\(scenario.name) \(variant): \(read.error)")
                let document = try JSONDecoder().decode(LogDocument.self, from: Data(read.output.utf8))
                let fromLog = document.segments.flatMap(\.findings).map(Key.init)
                let fromAdvice = advice.filter { $0.variant == variant }.map { Key($0.finding) }
                // explain prints the findings it read from the trace it printed, as advise's lines.
                let printed = explained.output.split(separator: "\n").filter { $0.hasPrefix("finding: ") }.count
                #expect(
                    printed == fromAdvice.count, "\(scenario.name) \(variant): explain printed \(printed), advise has \(fromAdvice.count)")
                let onlyLog = Set(fromLog).subtracting(fromAdvice).map(\.description).sorted()
                let onlyAdvice = Set(fromAdvice).subtracting(fromLog).map(\.description).sorted()
                #expect(
                    onlyLog.isEmpty && onlyAdvice.isEmpty && fromLog.count == fromAdvice.count,
                    "\(scenario.name) \(variant):\n  only bench log: \(onlyLog.joined(separator: "\n    "))\n  only bench advise: \(onlyAdvice.joined(separator: "\n    "))"
                )
                compared += fromLog.count
                variantsChecked += 1
                rulesSeen.formUnion(fromLog.map(\.rule))
            }
        }
        print(
            "AdviceEquivalenceTests: \(scenarios.count) scenarios, \(variantsChecked) variants, \(compared) findings equal in bench log and bench advise; rules: \(rulesSeen.sorted().joined(separator: ", "))"
        )
        #expect(variantsChecked >= 40)
        #expect(compared >= 40)
        #expect(
            rulesSeen.isSuperset(of: ["to-many-fault-per-owner", "to-one-fault-per-object", "count-through-faults", "unused-prefetch"]))
    }
}
