import BenchKit
import Dispatch
import Foundation

/// Measuring a planned run into its folder, interruptible, and what is printed and written after it.
extension RunCommand {
    /// Runs every repetition of `plan`; Ctrl-C leaves the folder valid, holding the repetitions that finished.
    func measure(_ plan: RunPlan, request: RunRequest, into folder: RunFolder) throws {
        let interrupt = Self.onInterrupt {
            let outcome = folder.abandon(status: "interrupted")
            FileHandle.standardError.write(Data("\nbench: interrupted; \(outcome)\n".utf8))
            Foundation.exit(130)
        }
        defer { interrupt.cancel() }
        let runner = Runner(request: request, plan: plan, folder: folder, progress: quiet ? nil : Progress(plan: plan))
        do {
            try runner.run()
        } catch {
            folder.abandon(status: "failed")
            throw error
        }
        do {
            try folder.finish(status: "complete")
        } catch {
            folder.abandon(status: "failed")
            throw error
        }
    }

    /// The finished run's export, history entry, printed summary, verdicts and N+1 advice.
    func report(_ folder: RunFolder, scenarios: [Scenario], strategies: [StrategySelector]? = nil) throws {
        try publish(folder, export: exportOption, history: noHistory ? nil : history, skipAdvice: "pass --no-history to skip it")
        print(SummaryTable.render(folder.summary, scenarios: scenarios))
        let verdicts = VerdictReport.judge(folder.summary)
        try AtomicFile.write(String(decoding: try VerdictReport.json(verdicts), as: UTF8.self) + "\n", to: folder.file("verdicts.json"))
        try AtomicFile.write(VerdictReport.markdown(verdicts, figures: "plots") + "\n", to: folder.file("verdicts.md"))
        let decided = VerdictReport.lines(verdicts)
        if !decided.isEmpty { print("\n" + decided) }
        if !noAdvice && !scenarios.isEmpty {
            var pass = AdvicePass(scenarios: scenarios)
            pass.strategies = strategies
            pass.seed = seed
            let findings = AdvicePass.attachMeasurements(try pass.run(), summary: folder.summary)
            try AtomicFile.write(String(decoding: try AdviceReport.json(findings), as: UTF8.self) + "\n", to: folder.file("advice.json"))
            let phases = Set(findings.map { "\($0.scenario) \($0.strategy) \($0.variant) \($0.phase)" }).count
            print("\nN+1 advice: \(findings.isEmpty ? "no repeated statement" : "\(findings.count) finding(s) in \(phases) phase(s)") at size \(formatCount(pass.size)) (bench advise \(folder.path) prints them)")
        }
        print("reports: \(folder.path)")
    }

    /// Runs `handler` on Ctrl-C instead of dying mid-write.
    static func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }
}
