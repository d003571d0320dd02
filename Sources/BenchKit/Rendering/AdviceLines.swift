import Foundation

/// The advice of a run said with where each finding belongs (its scenario, variant, strategy and size) and, where a
/// variant one axis apart runs the same phase with no finding, that variant's statements: an advised prefetch on the
/// variant prefetch=off reads as the variant it is, not as the screen being broken.
package enum AdviceLines {
    /// `screen walk, variant prefetch=off (objectgraph, size 200)`, or `model-Shop walk-Order.lines (objectgraph, size
    /// 100)` without variants: the scenario and phase, then the variant, strategy and size.
    static func place(_ finding: AdviceFinding) -> String {
        let variant = finding.variant.isEmpty ? "" : ", variant \(finding.variant)"
        return "\(finding.scenario) \(finding.phase)\(variant) (\(finding.strategy.rawValue), size \(formatCount(finding.size)))"
    }

    /// The finding's line without its segment's name, which `place` says.
    static func body(_ finding: AdviceFinding) -> String {
        let line = finding.finding.line
        let prefix = finding.finding.segment + ": "
        return line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : line
    }

    /// `the variant prefetch=on runs this phase in 2 statements, with no finding`: the variant one axis apart (same
    /// scenario, strategy, size and phase) with the fewest statements below the finding's own, among those the advice
    /// found nothing in; nil when there is none.
    static func cleanSibling(_ finding: AdviceFinding, among all: [AdviceFinding], summary: [SummaryRow]) -> String? {
        guard !finding.variant.isEmpty else { return referencePhase(finding, among: all, summary: summary) }
        let flagged = Set(
            all.filter {
                $0.scenario == finding.scenario && $0.strategy == finding.strategy && $0.size == finding.size && $0.phase == finding.phase
            }.map(\.variant))
        let rows = summary.filter {
            $0.key.metric == .sqlStatements && $0.key.scenario == finding.scenario && $0.key.strategy == finding.strategy
                && $0.key.size == finding.size && $0.key.phase == finding.phase
        }
        let own = rows.first { $0.key.variant == finding.variant }?.summary?.median ?? Double(finding.finding.statements)
        func oneAxisApart(_ variant: Variant) -> Bool {
            let names = finding.variant.values.map(\.name)
            return Set(variant.values.map(\.name)) == Set(names)
                && names.filter { finding.variant[$0]?.description != variant[$0]?.description }.count == 1
        }
        guard
            let clean = rows.filter({ !flagged.contains($0.key.variant) && oneAxisApart($0.key.variant) })
                .compactMap({ row in row.summary.map { (variant: row.key.variant, statements: $0.median) } })
                .filter({ $0.statements < own })
                .min(by: { ($0.statements, $0.variant.description) < ($1.statements, $1.variant.description) })
        else { return nil }
        return "the variant \(clean.variant) runs this phase in \(counted(Int(clean.statements), "statement")), with no finding"
    }

    /// A generated suite has no variants: it measures the fix as a phase of its own beside the one with the pattern
    /// (`walk-Order.lines-prefetch` beside `walk-Order.lines`, `count-Customer.orders-derived` beside its `-faults`
    /// and `-fetch`). `the suite's phase walk-Order.lines-prefetch runs it in 2 statements, with no finding`.
    static func referencePhase(_ finding: AdviceFinding, among all: [AdviceFinding], summary: [SummaryRow]) -> String? {
        let phase = finding.phase.rawValue
        var names = [phase + "-prefetch"]
        for suffix in ["-faults", "-fetch"] where phase.hasSuffix(suffix) { names.append(phase.dropLast(suffix.count) + "-derived") }
        let flagged = Set(
            all.filter { $0.scenario == finding.scenario && $0.strategy == finding.strategy && $0.size == finding.size }.map(\.phase))
        let rows = summary.filter {
            $0.key.metric == .sqlStatements && $0.key.scenario == finding.scenario && $0.key.strategy == finding.strategy
                && $0.key.size == finding.size && $0.key.variant == finding.variant
        }
        guard let reference = rows.first(where: { names.contains($0.key.phase.rawValue) && !flagged.contains($0.key.phase) }),
            let statements = reference.summary?.median, statements < Double(finding.finding.statements)
        else { return nil }
        return "the suite's phase \(reference.key.phase) runs it in \(counted(Int(statements), "statement")), with no finding"
    }

    /// The page's item: where it belongs, the finding with its statement, and the clean variant (else what the run
    /// measured without the pattern).
    package static func pageItem(
        _ finding: AdviceFinding, among all: [AdviceFinding], summary: [SummaryRow]
    ) -> (lead: String, text: String) {
        let tail = cleanSibling(finding, among: all, summary: summary) ?? finding.measured
        return (place(finding), body(finding) + (tail.map { "; \($0)" } ?? ""))
    }

    /// The first screen's advice: a count line, then the `limit` findings on the user's own scenarios (`listed`) that
    /// save the most statements, each with where it belongs and without the statement's text (`bench advise RUN`
    /// prints it); the built-in scenarios' findings are their deliberate comparisons, counted only.
    package static func screenLines(
        _ advice: [AdviceFinding], sizes: [Int], summary: [SummaryRow], folder: String, listed: Set<ScenarioName>, limit: Int = 5
    ) -> [String] {
        let phases = Set(advice.map { "\($0.scenario) \($0.strategy) \($0.variant) \($0.phase)" }).count
        var lines = [
            "N+1 advice: \(advice.isEmpty ? "no repeated statement" : "\(counted(advice.count, "finding")) in \(counted(phases, "phase"))") at the size\(sizes.count == 1 ? "" : "s") run, \(sizes.map(formatCount).joined(separator: ", ")) (bench advise \(folder) prints them)"
        ]
        let own = advice.filter { listed.contains($0.scenario) }
        let ranked = own.enumerated().sorted {
            ($0.element.finding.statementsSaved ?? 0, -$0.offset) > ($1.element.finding.statementsSaved ?? 0, -$1.offset)
        }
        for (_, finding) in ranked.prefix(limit) {
            let found = finding.finding
            let saving =
                found.statementsAfter.map {
                    $0 == found.statements ? "" : " (\(formatCount(found.statements)) → \(formatCount($0)) statements)"
                } ?? ""
            let tail = cleanSibling(finding, among: advice, summary: summary).map { "; \($0)" } ?? ""
            lines.append("  \(place(finding)): \(found.summary): \(found.fix)\(saving)\(tail)")
        }
        if own.count > limit { lines.append("  and \(own.count - limit) more") }
        return lines
    }
}
