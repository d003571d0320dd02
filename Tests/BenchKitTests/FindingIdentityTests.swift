import Foundation
import SQLDebugLog
import Testing

@testable import BenchKit

/// Findings with identity (issue 36 item 2): lint's rule ids, severities and fingerprints, exactly; baselines written
/// and read by the real binary for lint, advise and log; --fail-on; and the one-line refusals of a bad baseline.
@Suite(.serialized) struct FindingIdentityTests {
    static let shop = CommandLineTests.root.appendingPathComponent("Tests/BenchKitTests/Fixtures/Shop.xcdatamodeld").path
    static let log = CommandLineTests.root.appendingPathComponent("Tests/SQLDebugLogTests/Fixtures/bench/query.many-to-many.L4.txt").path

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-identity-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func write(_ name: String, _ text: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// The ids are what baselines and the corpus name: a rename breaks every baseline, so they are pinned here.
    @Test func ruleIdsAreStableKebabCaseAndUnique() {
        #expect(
            LintRule.allCases.map(\.rawValue) == [
                "xcode-to-one-without-inverse", "xcode-to-many-without-inverse", "model-empty", "model-unnamed-property",
                "model-unknown-attribute-type", "model-undefined-not-transient", "model-unsupported-derivation",
                "model-missing-destination", "model-index-on-missing-property", "many-to-nil-loss", "deny-reached-by-cascade",
                "unindexed-hand-kept-key", "unindexed-filter", "unindexed-lookup-guess", "count-through-faults-guess", "deep-cascade",
                "ordered-relationship", "cloudkit-required-attribute", "cloudkit-unique-constraint", "cloudkit-ordered-relationship",
                "cloudkit-missing-inverse", "cloudkit-required-relationship", "cloudkit-deny-rule", "migration-unrelated-models",
                "migration-entity-removed", "migration-property-removed", "migration-broken-rename", "migration-type-change",
                "migration-attribute-now-required", "migration-required-attribute-added", "migration-to-many-becomes-to-one",
                "migration-destination-change", "migration-relationship-now-required", "migration-required-relationship-added",
                "migration-kind-change", "migration-constraint-dropped", "migration-constraint-added", "migration-hierarchies-merged",
                "migration-data-required-value-missing", "migration-data-required-relationship-missing",
                "migration-data-relationship-count", "migration-data-value-rule", "migration-data-duplicates",
                "migration-data-unknown-entity-rows",
            ])
        #expect(Set(LintRule.allCases.map(\.rawValue)).count == LintRule.allCases.count)
        #expect(LintRule.allCases.allSatisfy { $0.rawValue.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } })
        // Severities on the issue's scale: guesses are suggestions; a save, a migration or a store that fails is a problem.
        #expect(LintRule.allCases.filter { $0.severity == .suggestion } == [.unindexedLookupGuess, .countThroughFaults])
        #expect(
            LintRule.allCases.filter { $0.severity == .risk } == [
                .xcodeToOneWithoutInverse, .xcodeToManyWithoutInverse, .manyToNilLoss, .unindexedHandKeptKey, .unindexedFilter,
                .deepCascade, .orderedRelationship, .migrationConstraintDropped,
            ])
        #expect(LintRule.denyReachedByCascade.severity == .problem && LintRule.cloudKitDenyRule.severity == .problem)
        #expect(LintRule.allCases.filter(\.isMigration).count == 21)
        #expect(LintRule.allCases.filter(\.isMigrationData).count == 6)
    }

    /// FNV-1a (64 bits) of "lint", the rule id and the subject, each closed by 0x1F: the values a Python reference
    /// implementation gives, independent of the message, the fix and the order findings come in.
    @Test func fingerprintsAreRuleAndSubjectOnly() {
        let finding = ModelLint.Finding(rule: .manyToNilLoss, subject: "Tag.notes", message: "one wording", fix: "one fix")
        #expect(finding.fingerprint == "f270b1699d1fd29f")
        #expect(
            ModelLint.Finding(rule: .manyToNilLoss, subject: "Tag.notes", message: "reworded: other", fix: "").fingerprint
                == "f270b1699d1fd29f")
        #expect(
            ModelLint.Finding(rule: .denyReachedByCascade, subject: "OrderLine.product", message: "", fix: "").fingerprint
                == "66647903e2809a5e")
        #expect(
            ModelLint.Finding(rule: .orderedRelationship, subject: "Tag.notes", message: "one wording", fix: "").fingerprint
                != finding.fingerprint)
        #expect(
            ModelLint.Finding(rule: .manyToNilLoss, subject: "Tag.note", message: "one wording", fix: "").fingerprint != finding.fingerprint
        )
        #expect(FindingID.hash([]) == "cbf29ce484222325")
        #expect(finding.description == "risk [many-to-nil-loss] Tag.notes: one wording Fix: one fix")
    }

    /// The Shop model's findings, their fingerprints exact, and the same in the baseline the binary writes.
    @Test func lintWritesABaselineAndReadsItBack() throws {
        let file = path("lint.json")
        let written = try CommandLineTests.bench(["lint", Self.shop, "--write-baseline", file])
        #expect(written.status == 0, "\(written.error)")
        #expect(written.output.hasSuffix("\nbaseline: wrote 7 findings to \(file)\n"), "\(written.output)")
        let baseline = try FindingBaseline.load(file, command: "lint")
        #expect(baseline.format == "relbench-findings-baseline" && baseline.version == 1 && baseline.command == "lint")
        #expect(
            baseline.findings.map { "\($0.fingerprint) \($0.rule) \($0.subject) \($0.severity.rawValue)" } == [
                "cd71b7af47152002 count-through-faults-guess Order suggestion",
                "ac537a19730a6c5b count-through-faults-guess Product suggestion",
                "66647903e2809a5e deny-reached-by-cascade OrderLine.product problem",
                "b991b25cb3597916 ordered-relationship Order.lines risk",
                "e9f7860057ea4cd8 unindexed-filter Order.total risk",
                "cac83722b33b3a58 unindexed-filter Product.sku risk",
                "28dab8b5541370f7 unindexed-lookup-guess model suggestion",
            ])
        #expect(baseline.findings.first?.text.hasPrefix("Order: a list showing how many lines each Order has") == true)
        let checked = try CommandLineTests.bench(["lint", Self.shop, "--baseline", file])
        #expect(checked.status == 0, "\(checked.output)")
        let lines = checked.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("known ") }.count == 4)
        #expect(lines.last == "0 new findings, 7 known (in \(file)); exit 0 (--fail-on problem,risk)")
        // A baseline missing one finding: that one is new, and fails.
        var partial = baseline
        partial.findings.removeAll { $0.rule == "deny-reached-by-cascade" }
        try partial.write(to: path("partial.json"))
        let newOne = try CommandLineTests.bench(["lint", Self.shop, "--baseline", path("partial.json")])
        #expect(newOne.status == 1)
        #expect(
            newOne.output.hasSuffix("\n1 new finding (1 problem), 6 known (in \(path("partial.json"))); exit 1 (--fail-on problem,risk)\n"),
            "\(newOne.output)")
        #expect(newOne.output.contains("\nproblem [deny-reached-by-cascade] OrderLine.product: "))
        // A new finding of a severity --fail-on leaves out does not fail.
        #expect(try CommandLineTests.bench(["lint", Self.shop, "--baseline", path("partial.json"), "--fail-on", "risk"]).status == 0)
    }

    /// --fail-on chooses the severities that fail; suggestions alone never fail by default.
    @Test func failOnChoosesTheSeverities() throws {
        let shop: [(String?, Int32)] = [
            (nil, 1), ("problem", 1), ("risk", 1), ("suggestion", 1), ("problem,risk", 1), ("none", 0), ("all", 1),
        ]
        for (failOn, status) in shop {
            let result = try CommandLineTests.bench(["lint", Self.shop] + (failOn.map { ["--fail-on", $0] } ?? []))
            #expect(result.status == status, "--fail-on \(failOn ?? "default"): \(result.output)")
        }
        // A model with one risk (many-to-nil) and guesses: --fail-on problem passes it, suggestion fails it.
        let model = try write(
            "contents",
            """
            <model><entity name="Tag"><relationship name="notes" optional="YES" toMany="YES" destinationEntity="Note"/></entity>
            <entity name="Note"/><entity name="Box"><relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="box" inverseEntity="Item"/></entity>
            <entity name="Item"><relationship name="box" optional="YES" maxCount="1" destinationEntity="Box" inverseName="items" inverseEntity="Box"/></entity></model>
            """)
        let cases: [(String?, Int32)] = [(nil, 1), ("problem", 0), ("risk", 1), ("suggestion", 1), ("none", 0)]
        for (failOn, status) in cases {
            let result = try CommandLineTests.bench(["lint", model] + (failOn.map { ["--fail-on", $0] } ?? []))
            #expect(result.status == status, "--fail-on \(failOn ?? "default"): \(result.output)")
        }
        let result = try CommandLineTests.bench(["lint", model])
        #expect(
            result.output.split(separator: "\n").dropFirst().map(String.init) == [
                "risk [many-to-nil-loss] Tag.notes: a to-many without inverse (many-to-nil) keeps each Note's owner in one hidden column on its row, so a Note added to two Tags' notes keeps only the last membership after save: the others are lost without an error (seed 000 II.B; measured by RelBench's data-loss scenario). Xcode warns about it too (no inverse). Fix: add an inverse: a to-many Note.tags makes it a many-to-many (a join table) if members are shared, a to-one if each has one owner.",
                "suggestion: 1 guess about how the app uses the model (1 count-through-faults-guess), not shown: --suggestions prints them",
                "2 findings (1 risk, 1 suggestion); exit 1 (--fail-on problem,risk)",
            ], "\(result.output)")
    }

    /// One cause, one finding: Xcode's no-inverse warning is said inside the CloudKit refusal of the same relationship,
    /// and a synced to-many without inverse is one CloudKit finding that also says the many-to-nil loss.
    @Test func aMissingInverseIsOneFinding() throws {
        let model = try write(
            "synced",
            """
            <model usedWithCloudKit="YES"><entity name="Trip"><relationship name="stops" optional="YES" toMany="YES" destinationEntity="Stop"/>
            <relationship name="owner" optional="YES" maxCount="1" destinationEntity="Stop"/></entity><entity name="Stop"/></model>
            """)
        let result = try CommandLineTests.bench(["lint", model])
        #expect(result.status == 1)
        #expect(
            result.output.split(separator: "\n").dropFirst().map(String.init) == [
                "problem [cloudkit-missing-inverse] Trip.owner: used with CloudKit, which requires every relationship to have an inverse: NSPersistentCloudKitContainer refuses to load the store. Xcode warns about it too (no inverse). Fix: add an inverse relationship on Stop.",
                "problem [cloudkit-missing-inverse] Trip.stops: used with CloudKit, which requires every relationship to have an inverse: NSPersistentCloudKitContainer refuses to load the store. Without CloudKit too, a to-many without inverse keeps one owner per member, so a member added to two owners' sets loses one membership on save (many-to-nil). Xcode warns about it too (no inverse). Fix: add an inverse relationship on Stop.",
                "2 findings (2 problem); exit 1 (--fail-on problem,risk)",
            ], "\(result.output)")
        // Not synced: Xcode's to-one warning stays (nothing else says it), with a fix; the to-many is many-to-nil's.
        let local = try write(
            "local", try String(contentsOfFile: model, encoding: .utf8).replacingOccurrences(of: " usedWithCloudKit=\"YES\"", with: ""))
        let text = try CommandLineTests.bench(["lint", local]).output
        #expect(
            text.contains(
                "\nrisk [xcode-to-one-without-inverse] Trip.owner: Xcode warns \"Trip.owner should have an inverse\". Fix: add an inverse relationship on Stop (Core Data keeps both ends consistent only through one).\n"
            ), "\(text)")
        #expect(text.contains("\nrisk [many-to-nil-loss] Trip.stops: ") && !text.contains("does not have an inverse"), "\(text)")
    }

    @Test func adviseWritesABaselineAndReadsItBack() throws {
        let file = path("advise.json")
        let written = try CommandLineTests.bench(["advise", "--scenario", "query", "--write-baseline", file])
        #expect(written.status == 0, "\(written.error)")
        #expect(written.output.hasSuffix("\nbaseline: wrote 5 findings to \(file)\n"), "\(written.output)")
        let baseline = try FindingBaseline.load(file, command: "advise")
        #expect(
            baseline.findings.map(\.rule).sorted() == [
                "fetch-per-object", "large-unbatched-fetch", "to-many-fault-per-owner", "to-many-fault-per-owner",
                "to-many-fault-per-owner",
            ])
        #expect(baseline.findings.allSatisfy { $0.subject.hasPrefix("query objectgraph modelling=") })
        let checked = try CommandLineTests.bench(["advise", "--scenario", "query", "--baseline", file])
        #expect(checked.status == 0, "\(checked.output)")
        #expect(checked.output.hasSuffix("\n0 new findings, 5 known (in \(file)); exit 0 (--fail-on problem,risk)\n"), "\(checked.output)")
        #expect(checked.output.split(separator: "\n").filter { $0.hasPrefix("  known ") }.count == 5)
        var partial = baseline
        partial.findings.removeAll { $0.rule == "fetch-per-object" }
        try partial.write(to: path("partial.json"))
        let newOne = try CommandLineTests.bench(["advise", "--scenario", "query", "--baseline", path("partial.json")])
        #expect(newOne.status == 1)
        #expect(
            newOne.output.hasSuffix("\n1 new finding (1 risk), 4 known (in \(path("partial.json"))); exit 1 (--fail-on problem,risk)\n"))
        // Without a gate advise reports and exits 0; --fail-on-findings is still --fail-on problem,risk.
        #expect(try CommandLineTests.bench(["advise", "--scenario", "query"]).status == 0)
        let old = try CommandLineTests.bench(["advise", "--scenario", "query", "--fail-on-findings"])
        #expect(
            old.status == 1 && old.output.hasSuffix("\n5 findings (4 risk, 1 suggestion); exit 1 (--fail-on problem,risk)\n"),
            "\(old.output)")
        #expect(try CommandLineTests.bench(["advise", "--scenario", "query", "--fail-on", "suggestion"]).status == 1)
        #expect(try CommandLineTests.bench(["advise", "--scenario", "query", "--fail-on", "problem"]).status == 0)
    }

    @Test func logWritesABaselineAndReadsItBack() throws {
        let file = path("log.json")
        let written = try CommandLineTests.bench(["log", Self.log, "--write-baseline", file])
        #expect(written.status == 0, "\(written.error)")
        #expect(written.output.hasSuffix("\nbaseline: wrote 1 finding to \(file)\n"), "\(written.output)")
        let baseline = try FindingBaseline.load(file, command: "log")
        #expect(
            baseline.findings.map { "\($0.fingerprint) \($0.rule) \($0.severity.rawValue)" } == ["dc1913bbcc7566ce unindexed-sort risk"])
        let checked = try CommandLineTests.bench(["log", Self.log, "--baseline", file])
        #expect(checked.status == 0)
        #expect(checked.output.contains("\n  known risk unindexed-sort [dc1913bbcc7566ce]: "), "\(checked.output)")
        #expect(checked.output.hasSuffix("\n0 new findings, 1 known (in \(file)); exit 0 (--fail-on problem,risk)\n"))
        let empty = FindingBaseline(command: "log", findings: [])
        try empty.write(to: path("empty.json"))
        let newOne = try CommandLineTests.bench(["log", Self.log, "--baseline", path("empty.json")])
        #expect(newOne.status == 1)
        #expect(newOne.output.hasSuffix("\n1 new finding (1 risk), 0 known (in \(path("empty.json"))); exit 1 (--fail-on problem,risk)\n"))
        // Under --json standard output stays one JSON document: the gate's line is on standard error.
        let json = try CommandLineTests.bench(["log", Self.log, "--json", "--fail-on", "risk"])
        #expect(
            json.status == 1 && json.output.hasPrefix("{") && json.error == "bench: 1 finding (1 risk); exit 1 (--fail-on risk)\n",
            "\(json.error)")
        #expect(try CommandLineTests.bench(["log", Self.log]).status == 0)
        #expect(try CommandLineTests.bench(["log", Self.log, "--fail-on", "problem"]).status == 0)
    }

    /// A baseline that is missing, not JSON, another tool's, another layout's or another command's is one line, exit 64.
    @Test func aBadBaselineIsOneLine() throws {
        let lintFile = path("lint.json")
        #expect(try CommandLineTests.bench(["lint", Self.shop, "--write-baseline", lintFile]).status == 0)
        let cases: [([String], String)] = [
            (
                ["lint", Self.shop, "--baseline", path("nope.json")],
                "bench: error: --baseline \(path("nope.json")) does not exist; write one with 'bench lint ... --write-baseline \(path("nope.json"))'\n"
            ),
            (
                ["lint", Self.shop, "--baseline", try write("garbage.json", "not json")],
                "bench: error: --baseline \(path("garbage.json")) is not a RelBench findings baseline (no \"format\": \"relbench-findings-baseline\"); write one with 'bench lint ... --write-baseline \(path("garbage.json"))'\n"
            ),
            (
                ["lint", Self.shop, "--baseline", try write("eslint.json", #"{"version": 1, "findings": []}"#)],
                "bench: error: --baseline \(path("eslint.json")) is not a RelBench findings baseline (no \"format\": \"relbench-findings-baseline\"); write one with 'bench lint ... --write-baseline \(path("eslint.json"))'\n"
            ),
            (
                [
                    "lint", Self.shop, "--baseline",
                    try write("v9.json", #"{"format": "relbench-findings-baseline", "version": 9, "command": "lint", "findings": []}"#),
                ],
                "bench: error: --baseline \(path("v9.json")) has layout version 9, this bench reads 1; write one with 'bench lint ... --write-baseline \(path("v9.json"))'\n"
            ),
            (
                ["log", Self.log, "--baseline", lintFile],
                "bench: error: --baseline \(lintFile) was written by 'bench lint', not 'bench log': findings of one command are no baseline of another; write one with 'bench log ... --write-baseline \(lintFile)'\n"
            ),
            (
                [
                    "lint", Self.shop, "--baseline",
                    try write(
                        "broken.json",
                        #"{"format": "relbench-findings-baseline", "version": 1, "command": "lint", "findings": [{"rule": "x"}]}"#),
                ],
                "bench: error: --baseline \(path("broken.json")): field 'findings[0].fingerprint' is missing; write one with 'bench lint ... --write-baseline \(path("broken.json"))'\n"
            ),
            (
                ["lint", Self.shop, "--baseline", folder.path],
                "bench: error: --baseline \(folder.path) is a folder; give a baseline file\n"
            ),
            (
                ["lint", Self.shop, "--fail-on", "problme"],
                "bench: error: --fail-on: unknown severity 'problme' (did you mean 'problem'?); give them comma-separated, e.g. --fail-on problem,risk\n"
            ),
            (
                ["lint", Self.shop, "--baseline", lintFile, "--write-baseline", path("other.json")],
                "bench: error: give --baseline (check against one) or --write-baseline (accept every finding as it is now), not both\n"
            ),
            (
                ["lint", Self.shop, "--write-baseline", path("nope/b.json")],
                "bench: error: --write-baseline \(path("nope/b.json")): the folder \(path("nope")) does not exist; create it or give another path\n"
            ),
            (
                ["advise", "--scenario", "query", "--fail-on-findings", "--fail-on", "risk"],
                "bench: error: --fail-on-findings is the old name of --fail-on problem,risk; give one of them\n"
            ),
        ]
        for (arguments, error) in cases {
            let result = try CommandLineTests.bench(arguments)
            #expect(result.status == 64 && result.output.isEmpty, "\(arguments): \(result.status) \(result.output)")
            #expect(result.error == error, "\(arguments)")
        }
    }
}
