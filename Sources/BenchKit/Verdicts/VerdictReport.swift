import Foundation

/// Judges the claims against a run and writes the verdicts: a block per claim (`bench verdicts`), a few lines for
/// the end of `bench run` (what the run decides, and one line for the rest), a Markdown table and JSON. Every output
/// says what a verdict rests on (profile, sizes, repetitions, warmups) and where it comes from.
package enum VerdictReport {
    /// Said once wherever verdicts are shown.
    package static let fidelity =
        "Statement, fault and row counts are what Core Data runs where ObjectGraph is faithful to it; every time and memory figure is ObjectGraph's on this machine (Core Data does not run on Linux), and where two arms run the same SQL their difference is ObjectGraph's own and is not judged."

    /// Every claim judged from `run`; `scenarios` (the catalog's) give the command that would decide what is not.
    package static func judge(_ run: RunEvidence, claims: [Claim] = ClaimCatalog.all, scenarios: [Scenario] = []) -> [Verdict] {
        claims.map { claim in
            let judgement = claim.rule.evaluate(run, for: claim)
            guard claim.scenarios.contains(where: run.measured) else {
                let names = claim.scenarios.map(\.rawValue).joined(separator: ", ")
                return Verdict(
                    claim: claim, outcome: .notMeasured("this run did not measure \(names)"), evidence: [], rule: judgement.rule,
                    basis: "nothing of this run", decider: command(claim, scenarios: scenarios))
            }
            var verdict = Verdict(
                claim: claim, outcome: judgement.outcome, evidence: judgement.evidence, rule: judgement.rule,
                basis: basis(judgement, claim: claim, run: run),
                decider: judgement.outcome.needsMoreData
                    ? command(claim, scenarios: scenarios, ran: run.info?.profile, repetitions: judgement.repetitions.max()) : nil)
            verdict.stops = judgement.stops
            return verdict
        }
    }

    /// `profile default; sizes 10,000 and 100,000; 7 repetitions a series, 1 warmup`.
    static func basis(_ judgement: Judgement, claim: Claim, run: RunEvidence) -> String {
        guard !judgement.sizes.isEmpty else { return "nothing of this run" }
        var parts: [String] = []
        if let profile = run.info?.profile { parts.append("profile \(profile.rawValue)") }
        let sizes = judgement.sizes.sorted().map(formatCount)
        parts.append((sizes.count == 1 ? "size " : "sizes ") + listed(sizes, "and"))
        if let low = judgement.repetitions.min(), let high = judgement.repetitions.max() {
            parts.append(low == high ? "\(low) repetition\(low == 1 ? "" : "s") a series" : "\(low) to \(high) repetitions a series")
        }
        let warmups = Set(claim.scenarios.compactMap { run.schedule($0)?.warmup })
        if let warmup = warmups.min() {
            parts[parts.count - 1] += warmups.count == 1 ? ", \(warmup) warmup\(warmup == 1 ? "" : "s")" : ", \(warmup)+ warmups"
        }
        return parts.joined(separator: "; ")
    }

    /// The `bench run` that gives the claim the sizes it is about and, for times and memory, the repetitions an
    /// interval needs: the smallest profile whose schedule in every scenario file has both; else the smallest with
    /// the sizes, the repetitions given on the command line; else the full profile with the sizes given too.
    /// When the run already had that profile (an interval across the edge of the margin's band), the command
    /// asks for twice its repetitions.
    static func command(_ claim: Claim, scenarios: [Scenario], ran profile: Profile? = nil, repetitions: Int? = nil) -> DecidingRun {
        var command = baseCommand(claim, scenarios: scenarios)
        if let profile, let repetitions, command.profile == profile, command.sizes == nil, command.repetitions == nil {
            command.repetitions = 2 * repetitions + 1
        }
        return command
    }

    static func baseCommand(_ claim: Claim, scenarios: [Scenario]) -> DecidingRun {
        let needed = claim.rule.isStatistical ? claim.repetitions : 1
        var command = DecidingRun(scenarios: claim.scenarios, profile: .default)
        let files = claim.scenarios.compactMap { name in scenarios.first { $0.name == name } }
        guard files.count == claim.scenarios.count else { return command }
        func hasSizes(_ profile: Profile) -> Bool {
            files.allSatisfy { ($0.sizes[profile] ?? []).contains(where: claim.sizes.contains) }
        }
        // A sequential profile (all but smoke) runs a claim's arms on until its design decides.
        func hasRepetitions(_ profile: Profile) -> Bool {
            profile != .smoke || files.allSatisfy { ($0.repetitions[profile] ?? 0) >= needed }
        }
        if let profile = Profile.allCases.first(where: { hasSizes($0) && hasRepetitions($0) }) {
            command.profile = profile
            return command
        }
        if let profile = Profile.allCases.first(where: hasSizes) {
            command.profile = profile
            command.repetitions = needed + 1
            return command
        }
        command.profile = .full
        switch claim.sizes {
        case .any: break
        case let .atLeast(low), let .within(low, _): command.sizes = low
        }
        if !hasRepetitions(.full) { command.repetitions = needed + 1 }
        return command
    }

    // MARK: Text

    /// A block per claim: the verdict, the claim and its source, the evidence, what it rests on, the rule, and what
    /// would decide it.
    package static func text(_ verdicts: [Verdict]) -> String {
        var lines: [String] = []
        for verdict in verdicts {
            let claim = verdict.claim
            lines.append("\(verdict.outcome.headline.uppercased())\(verdict.inferenceNote): \(claim.statement)")
            if verdict.headline != verdict.label { lines.append("  outcome:  \(verdict.label)") }
            lines.append("  source:   \(claim.source.citation)" + (claim.source.url.map { " <\($0)>" } ?? ""))
            if let measured = claim.source.measured { lines.append("  measured: \(measured)") }
            if let test = claim.test { lines.append("  test:     \(test)") }
            lines.append("  asserts:  \(claim.asserts.text)")
            for item in verdict.evidence { lines.append("  evidence: \(item)") }
            lines.append("  rests on: \(verdict.basis)")
            if let reason = verdict.outcome.reason { lines.append("  why:      \(reason)") }
            if let command = verdict.command { lines.append("  decide:   \(command)") }
            for note in claim.inferred { lines.append("  inferred: \(note)") }
            lines.append("  rule:     \(verdict.rule)")
            lines.append("")
        }
        lines.append(tally(verdicts))
        lines.append(fidelity)
        return lines.joined(separator: "\n")
    }

    /// For the end of `bench run`: one line per claim the run decides (or finds an emulation cannot judge), then one
    /// line for the claims whose scenarios it ran that need a larger run, and the command that runs it. Claims about
    /// scenarios the run did not measure are left out.
    package static func lines(_ verdicts: [Verdict]) -> String {
        let decided = verdicts.filter { !$0.outcome.needsMoreData }
        var lines: [String] = []
        if !decided.isEmpty {
            let width = decided.map { $0.headline.count }.max() ?? 0
            lines.append("verdicts this run decides (bench verdicts RUN for the evidence, the parts, the sources and the rules):")
            for verdict in decided {
                let label = verdict.headline
                lines.append(
                    "  " + label + String(repeating: " ", count: max(1, width - label.count + 2))
                        + "\(verdict.claim.statement) (\(verdict.claim.source.short))")
            }
        }
        let rest = verdicts.filter { verdict in
            if case .notMeasured = verdict.outcome { return false }
            return verdict.outcome.needsMoreData
        }
        if !rest.isEmpty {
            let runs = DecidingRun.merged(rest.compactMap(\.decider))
            let need = "\(rest.count) claim\(rest.count == 1 ? " needs" : "s need") a larger run to be decided"
            if runs.count == 1 {
                lines.append("\(need): \(runs[0])")
            } else {
                lines.append("\(need):")
                lines += runs.map { "  \($0)" }
            }
        }
        return lines.joined(separator: "\n")
    }

    // MARK: Markdown and JSON

    /// A Markdown table; `figures` links each verdict to its plot under `figures` (a folder of PNGs), if given.
    package static func markdown(_ verdicts: [Verdict], figures: String? = nil) -> String {
        var lines = ["| verdict | claim | source | evidence | rests on | rule |", "|---|---|---|---|---|---|"]
        for verdict in verdicts {
            let claim = verdict.claim
            var statement = claim.statement
            if let figures, let figure = claim.figure { statement += " ([figure](\(figures)/\(figure).png))" }
            if let test = claim.test { statement += "<br>*tested as:* \(test)" }
            var source = claim.source.url.map { "[\(claim.source.citation)](\($0))" } ?? claim.source.citation
            if let measured = claim.source.measured { source += "<br>\(measured)" }
            var evidence = verdict.evidence
            if let reason = verdict.outcome.reason { evidence.append("*why:* \(reason)") }
            if let command = verdict.command { evidence.append("*decide:* `\(command)`") }
            evidence += claim.inferred.map { "*inferred:* \($0)" }
            lines.append(
                "| **\(cell(verdict.label))** | \(cell(statement)) | \(cell(source)) | \(cell(evidence.joined(separator: "<br>"))) | \(cell(verdict.basis)) | \(cell(verdict.rule)) |"
            )
        }
        lines.append("")
        lines.append(tally(verdicts) + " " + fidelity)
        return lines.joined(separator: "\n")
    }

    /// The verdicts as JSON: `run`, the command that made the run judged (with its profile, commit and status; absent
    /// where the folder has no run.json), apart from `verdicts`, one entry a claim: the claim and its source, what it
    /// asserts, the outcome (kind, label, reason, and each size's or part's), evidence, basis, rule, `decide` (the
    /// `bench run` that would decide what this run did not; absent when it decided), figure and what is inferred.
    package static func json(_ verdicts: [Verdict], run: RunInfo?) throws -> Data {
        struct Run: Encodable {
            let command, profile, commit, status: String
        }
        struct Document: Encodable {
            let run: Run?
            let verdicts: [Entry]
        }
        struct Detail: Encodable {
            let label: String
            let verdict: String
            let reason: String?
        }
        struct Entry: Encodable {
            let id, claim, verdict, label, rule, basis, asserts: String
            let test: String?
            let source: ClaimSource
            let evidence: [String]
            let reason: String?
            let sizes: [String: Detail]?
            let parts: [String: Detail]?
            let decide: String?
            let figure: String?
            let inferred: [String]
            let decidingInference: String?
            let decidingReading: String?
            /// Where each comparison of time or memory stopped (rounds, looks, why).
            let rounds: [ComparisonStop]?
        }
        let entries = verdicts.map { verdict -> Entry in
            var sizes: [String: Detail]?
            var parts: [String: Detail]?
            switch verdict.outcome {
            case let .bySize(list):
                sizes = Dictionary(
                    uniqueKeysWithValues: list.map {
                        (String($0.size), Detail(label: $0.outcome.label, verdict: $0.outcome.kind, reason: $0.outcome.reason))
                    })
            case let .parts(list):
                parts = Dictionary(
                    list.map { ($0.label, Detail(label: $0.outcome.label, verdict: $0.outcome.kind, reason: $0.outcome.reason)) },
                    uniquingKeysWith: { first, _ in first })
            default: break
            }
            return Entry(
                id: verdict.claim.id, claim: verdict.claim.statement, verdict: verdict.outcome.kind, label: verdict.label,
                rule: verdict.rule, basis: verdict.basis, asserts: verdict.claim.asserts.rawValue, test: verdict.claim.test,
                source: verdict.claim.source, evidence: verdict.evidence, reason: verdict.outcome.reason, sizes: sizes, parts: parts,
                decide: verdict.command, figure: verdict.claim.figure, inferred: verdict.claim.inferred,
                decidingInference: verdict.claim.decidingInference, decidingReading: verdict.claim.decidingReading,
                rounds: verdict.stops.isEmpty ? nil : verdict.stops)
        }
        let document = Document(
            run: run.map { Run(command: $0.command, profile: $0.profile.rawValue, commit: $0.gitCommit, status: $0.status.rawValue) },
            verdicts: entries)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document)
    }

    /// `22 claims: 9 holds, 2 the opposite holds, ...; 5 need a larger run.`
    static func tally(_ verdicts: [Verdict]) -> String {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for verdict in verdicts {
            let kind =
                verdict.outcome.kind == "by-size" ? "differ by size" : verdict.outcome.kind == "parts" ? "partly" : verdict.outcome.label
            if counts[kind] == nil { order.append(kind) }
            counts[kind, default: 0] += 1
        }
        let needing = verdicts.filter(\.outcome.needsMoreData).count
        let sameSQL = verdicts.filter(\.outcome.isEmulationLimited).count
        return "\(verdicts.count) claims: " + order.map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
            + "; \(needing) need\(needing == 1 ? "s" : "") more data, \(sameSQL) cannot be judged on an emulation in whole or part."
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
