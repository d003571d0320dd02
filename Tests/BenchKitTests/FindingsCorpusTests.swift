import Foundation
import SQLDebugLog
import Testing

@testable import BenchKit

/// The known-answer corpus (Fixtures/findings, one folder per case): `bench lint`, `lint --against`, `log` and
/// `advise` (and the advice of `bench run`) run in-process through the library calls the commands make, over every
/// case; each case names the findings that must appear and those that must not. Precision and recall per rule are
/// printed, and must be 100% on every case not marked `knownDefect` (those are reported apart).
@Suite(.serialized) struct FindingsCorpusTests {
    static let folder = CommandLineTests.root.appendingPathComponent("Tests/BenchKitTests/Fixtures/findings")

    /// A case's `case.json`.
    struct Case: Decodable {
        /// What the case pins, and why.
        let about: String
        /// The command as a user types it after `bench`, paths relative to the case's folder.
        let command: [String]
        var expect: [Expectation]?
        var forbid: [Expectation]?
        /// No finding of severity problem or risk (what CI fails on) beyond those expected; suggestions are judged only
        /// where a case names them.
        var silent: Bool?
        /// A defect known and not fixed yet: the case runs and is reported apart, outside the 100%.
        var knownDefect: String?
    }

    /// A finding a case expects or forbids: every field given must match (`rule` alone: any subject).
    struct Expectation: Decodable, CustomStringConvertible {
        var rule: String?
        var subject: String?
        var segment: String?
        var segmentPrefix: String?
        var variant: String?
        var fixContains: String?
        var fixLacks: String?
        /// The variant the evidence (`measured ...`) must be quoted from.
        var measuredFrom: String?

        func matches(_ found: Found) -> Bool {
            (rule == nil || rule == found.rule) && (subject == nil || subject == found.subject)
                && (segment == nil || segment == found.segment) && (segmentPrefix.map { found.segment.hasPrefix($0) } ?? true)
                && (variant == nil || variant == found.variant)
        }

        /// What a found finding must also say: its fix's words, its evidence's variant.
        func problems(with found: Found) -> [String] {
            var problems: [String] = []
            if let fixContains, !found.fix.contains(fixContains) { problems.append("its fix lacks '\(fixContains)': \(found.fix)") }
            if let fixLacks, found.fix.contains(fixLacks) { problems.append("its fix says '\(fixLacks)': \(found.fix)") }
            if let measuredFrom, !(found.measured ?? "").contains(": \(measuredFrom) ran ") {
                problems.append("its evidence is not from \(measuredFrom): \(found.measured ?? "not measured")")
            }
            return problems
        }

        var description: String {
            [rule ?? "any rule", subject, segment.map { "in \($0)" }, segmentPrefix.map { "in \($0)*" }, variant.map { "[\($0)]" }]
                .compactMap { $0 }.joined(separator: " ")
        }
    }

    /// A finding as the corpus judges it, whichever tool made it.
    struct Found: CustomStringConvertible {
        let rule: String
        let subject: String
        let gates: Bool
        var segment = ""
        var variant = ""
        var fix = ""
        var measured: String?
        let line: String

        var description: String {
            "\(rule) \(subject)" + (segment.isEmpty ? "" : " in \(segment)") + (variant.isEmpty ? "" : " [\(variant)]")
        }
    }

    /// Counts of one rule.
    struct Tally {
        var truePositives = 0
        var falsePositives = 0
        var falseNegatives = 0
    }

    /// The judgement of one case: per rule, and what went wrong.
    struct Outcome {
        var tallies: [String: Tally] = [:]
        var failures: [String] = []
    }

    @Test func everyCaseGivesItsKnownAnswer() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent($0).appendingPathComponent("case.json").path)
        }.sorted()
        #expect(names.count >= 60)
        var tallies: [String: Tally] = [:]
        var known: [(name: String, defect: String, failures: [String])] = []
        var failures: [String] = []
        var negatives = 0
        for name in names {
            let folder = Self.folder.appendingPathComponent(name)
            let file = folder.appendingPathComponent("case.json")
            let item = try JSONDecoder().decode(Case.self, from: Data(contentsOf: file))
            if (item.expect ?? []).isEmpty { negatives += 1 }
            let found: [Found]
            do {
                found = try Self.run(item.command, in: folder)
            } catch {
                failures.append("\(name): \(error)")
                continue
            }
            let outcome = Self.judge(item, found)
            if let defect = item.knownDefect {
                known.append((name, defect, outcome.failures))
                continue
            }
            failures += outcome.failures.map { "\(name): \($0)" }
            for (rule, tally) in outcome.tallies {
                tallies[rule, default: Tally()].truePositives += tally.truePositives
                tallies[rule, default: Tally()].falsePositives += tally.falsePositives
                tallies[rule, default: Tally()].falseNegatives += tally.falseNegatives
            }
        }
        print(Self.table(tallies, cases: names.count - known.count, negatives: negatives))
        for entry in known {
            print(
                "known defect \(entry.name): \(entry.defect): "
                    + (entry.failures.isEmpty ? "now passes (remove the mark)" : entry.failures.joined(separator: "; ")))
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(negatives * 2 >= names.count, "at least half the cases must stay silent on what they exercise")
    }

    /// Expected findings found (true positives), missed or wrong (false negatives), forbidden ones found, or in a
    /// silent case any other finding CI would fail on (false positives).
    static func judge(_ item: Case, _ found: [Found]) -> Outcome {
        var outcome = Outcome()
        var accounted = Set<Int>()
        for expectation in item.expect ?? [] {
            let rule = expectation.rule ?? "?"
            let matching = found.indices.filter { expectation.matches(found[$0]) }
            accounted.formUnion(matching)
            let problems = matching.map { expectation.problems(with: found[$0]) }
            if problems.contains(where: \.isEmpty) {
                outcome.tallies[rule, default: Tally()].truePositives += 1
            } else {
                outcome.tallies[rule, default: Tally()].falseNegatives += 1
                outcome.failures.append(
                    matching.isEmpty
                        ? "missing \(expectation) (found: \(found.map(\.description).joined(separator: ", ")))"
                        : "wrong \(expectation): \(problems.flatMap { $0 }.joined(separator: "; "))")
            }
        }
        for expectation in item.forbid ?? [] {
            for index in found.indices where expectation.matches(found[index]) && !accounted.contains(index) {
                accounted.insert(index)
                outcome.tallies[found[index].rule, default: Tally()].falsePositives += 1
                outcome.failures.append("forbidden \(expectation): \(found[index].line)")
            }
        }
        if item.silent == true {
            for index in found.indices where found[index].gates && !accounted.contains(index) {
                outcome.tallies[found[index].rule, default: Tally()].falsePositives += 1
                outcome.failures.append("not silent: \(found[index].line)")
            }
        }
        return outcome
    }

    /// The table the test prints: per rule, true and false positives, false negatives, precision and recall.
    static func table(_ tallies: [String: Tally], cases: Int, negatives: Int) -> String {
        func percent(_ part: Int, _ whole: Int) -> String {
            whole == 0 ? "-" : String(format: "%.0f%%", 100 * Double(part) / Double(whole))
        }
        var lines = ["findings corpus: \(cases) cases judged, \(negatives) of all cases negatives (correct inputs that must stay silent)"]
        lines.append("rule".padding(toLength: 40, withPad: " ", startingAt: 0) + "  TP  FP  FN  precision  recall")
        var total = Tally()
        for (rule, tally) in tallies.sorted(by: { $0.key < $1.key }) {
            total.truePositives += tally.truePositives
            total.falsePositives += tally.falsePositives
            total.falseNegatives += tally.falseNegatives
            lines.append(row(rule, tally))
        }
        lines.append(row("all rules", total))
        return lines.joined(separator: "\n")

        func row(_ rule: String, _ tally: Tally) -> String {
            rule.padding(toLength: 40, withPad: " ", startingAt: 0)
                + String(format: " %3d %3d %3d", tally.truePositives, tally.falsePositives, tally.falseNegatives)
                + "  "
                + percent(tally.truePositives, tally.truePositives + tally.falsePositives).padding(toLength: 9, withPad: " ", startingAt: 0)
                + "  " + percent(tally.truePositives, tally.truePositives + tally.falseNegatives)
        }
    }
}

extension FindingsCorpusTests {
    /// Runs a case's command in-process, as the command line does.
    static func run(_ command: [String], in folder: URL) throws -> [Found] {
        func path(_ relative: String) -> String { folder.appendingPathComponent(relative).path }
        func option(_ name: String) -> String? {
            command.firstIndex(of: name).flatMap { command.indices.contains($0 + 1) ? command[$0 + 1] : nil }
        }
        switch command.first {
        case "lint":
            // LintCommand: the model's findings, or with --against what migration from the older version cannot infer.
            let file = try ModelFile(path: path(command[1]))
            let findings = try option("--against").map { try file.migration(from: $0).findings } ?? file.findings
            return findings.map(Self.found)
        case "log":
            // LogCommand.Read: the log read with the model's names when --model is given.
            var options = DeviceLog.Options()
            options.mapping = try option("--model").map { try ModelNameMapping.load(path: path($0)) }
            if let threshold = option("--threshold").flatMap(Int.init) { options.analysis.repeatThreshold = threshold }
            let log = try DeviceLog(path: path(command[1]), options: options)
            return log.analysis.findings.map { found($0, variant: "", measured: nil) }
        case "advise":
            // AdviseCommand with --scenario: the advice pass over the catalog's scenario, at --size.
            let catalog = try ScenarioCatalog(folder: path(option("--scenarios") ?? "."))
            var pass = AdvicePass(scenarios: [try catalog.scenario(named: option("--scenario") ?? "")])
            pass.size = option("--size").flatMap(Int.init) ?? 1000
            return try pass.run().map(Self.found)
        case "run":
            // RunPipeline.conclude: the advice of a run at its largest size, with the savings its summary measured.
            let size = option("--sizes").flatMap(Int.init) ?? 20
            let scenario: Scenario
            if let model = option("--model") {
                scenario = try GeneratedSuite.scenario(modelPath: path(model))
            } else {
                let catalog = try ScenarioCatalog(folder: path(option("--scenarios") ?? "."))
                // The scenario named among the arguments: the one word that is neither an option nor an option's value.
                let named = command.indices.dropFirst().first { !command[$0].hasPrefix("--") && !command[$0 - 1].hasPrefix("--") }
                scenario = try catalog.scenario(named: named.map { command[$0] } ?? "")
            }
            var pass = AdvicePass(scenarios: [scenario])
            pass.strategies = [.objectGraph]
            pass.sizes = [scenario.name: size]
            var findings = try pass.run()
            if option("--model") == nil {
                var request = RunRequest(scenarios: [scenario])
                request.sizes = [size]
                request.repetitions = 1
                request.warmup = 0
                request.strategies = [.objectGraph]
                let samples = try Runner(request: request, plan: try RunPlan(request), folder: nil, progress: nil).run()
                findings = AdvicePass.attachMeasurements(findings, summary: SummaryFile.summarize(samples), scenarios: [scenario])
            }
            return findings.map(Self.found)
        default:
            throw BenchError.invalidInput("case command '\(command.joined(separator: " "))': give lint, log, advise or run")
        }
    }

    static func found(_ finding: AdviceFinding) -> Found {
        found(finding.finding, variant: finding.variant.description, measured: finding.measured, line: finding.line)
    }

    /// An SQL finding: its rule id, and its subject by the names a case writes (an entity without the sub-entities seen).
    static func found(_ finding: Finding, variant: String, measured: String?, line: String? = nil) -> Found {
        let subject: String
        if case let .entity(name, _) = finding.subject { subject = name } else { subject = finding.subject.description }
        return Found(
            rule: finding.rule.rawValue, subject: subject, gates: finding.severity != .suggestion, segment: finding.segment,
            variant: variant, fix: finding.fix, measured: measured, line: line ?? finding.line)
    }

    /// A lint finding: its rule's id, and whether CI fails on its severity (a suggestion is a guess).
    static func found(_ finding: ModelLint.Finding) -> Found {
        Found(
            rule: finding.rule.rawValue, subject: finding.subject, gates: finding.severity != .suggestion, fix: finding.fix,
            line: finding.description)
    }
}
