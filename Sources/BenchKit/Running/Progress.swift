import Foundation

/// Progress on standard error, with an estimate of the time left (repetitions weighted by their size).
package final class Progress {
    private let plan: RunPlan
    private let interactive: Bool
    private let totalWeight: Double
    private var doneWeight = 0.0
    private let start = MonotonicClock.now()
    private var lastBlock = ""
    /// Repetitions of sequential rounds run beyond the plan.
    private var extra = 0

    package init(plan: RunPlan) {
        self.plan = plan
        interactive = isatty(2) != 0
        totalWeight = plan.repetitions.reduce(0) { $0 + Self.weight($1) }
    }

    private static func weight(_ repetition: PlannedRepetition) -> Double { Double(repetition.size) + 1_000 }

    func starting(index: Int, _ repetition: PlannedRepetition) {
        guard interactive else { return }
        let label =
            "\(repetition.scenario.name) \(repetition.strategy) \(repetition.variant.description) n=\(repetition.size)"
            + (repetition.isWarmup ? " warmup" : " rep \(repetition.repetition)")
        write("\r\u{1B}[K[\(index + 1)/\(plan.repetitions.count)] \(label)\(eta)")
    }

    func finished(index: Int, _ repetition: PlannedRepetition) {
        doneWeight += Self.weight(repetition)
        let block = "\(repetition.scenario.name) n=\(repetition.size)"
        let next = index + 1 < plan.repetitions.count ? plan.repetitions[index + 1] : nil
        if !interactive, next.map({ "\($0.scenario.name) n=\($0.size)" }) != block, block != lastBlock {
            lastBlock = block
            write("[\(index + 1)/\(plan.repetitions.count)] \(block) done\(eta)\n")
        }
    }

    /// A sequential round's repetition (beyond the plan: no count or estimate of it).
    func sequential(_ repetition: PlannedRepetition) {
        extra += 1
        guard interactive else { return }
        write(
            "\r\u{1B}[K[sequential round \(repetition.repetition)] \(repetition.scenario.name) \(repetition.strategy) \(repetition.variant.description) n=\(repetition.size)"
        )
    }

    func done() {
        let elapsed = Double(MonotonicClock.now() - start) / 1e9
        write(
            (interactive ? "\r\u{1B}[K" : "")
                + "finished \(plan.repetitions.count + extra) repetitions\(extra == 0 ? "" : " (\(extra) in sequential rounds)") in \(Self.duration(elapsed))\n"
        )
    }

    private var eta: String {
        guard doneWeight > 0 else { return "" }
        let elapsed = Double(MonotonicClock.now() - start) / 1e9
        return ", about \(Self.duration(elapsed / doneWeight * (totalWeight - doneWeight))) left"
    }

    static func duration(_ seconds: Double) -> String {
        if seconds < 60 { return String(format: "%.0fs", seconds) }
        if seconds < 3600 { return String(format: "%dm%02ds", Int(seconds) / 60, Int(seconds) % 60) }
        return String(format: "%dh%02dm", Int(seconds) / 3600, Int(seconds) % 3600 / 60)
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
