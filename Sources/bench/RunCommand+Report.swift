import BenchKit
import Dispatch
import Foundation

/// Measuring a planned run into its folder, interruptible, and what is printed and written after it.
extension RunCommand {
    /// Runs every repetition of `plan`; Ctrl-C (or SIGTERM, SIGHUP) leaves the folder valid, holding the
    /// repetitions that finished, and no temporary folder behind.
    func measure(_ plan: RunPlan, request: RunRequest, into folder: RunFolder) throws {
        let runner = Runner(request: request, plan: plan, folder: folder, progress: quiet ? nil : Progress(plan: plan))
        try Interruption.guarding({ signal in
            let outcome = folder.abandon(status: .interrupted)
            FileHandle.standardError.write(Data("\nbench: \(Interruption.describe(signal)); \(outcome)\n".utf8))
        }) {
            do {
                try runner.run()
                try folder.finish(status: .complete)
            } catch {
                folder.abandon(status: .failed)
                throw error
            }
        }
    }

    /// The finished run's export, history entry, printed summary, verdicts and N+1 advice.
    func report(_ folder: RunFolder, scenarios: [Scenario], strategies: [Strategy]? = nil, variants: [VariantFilter]? = nil) throws {
        try Interruption.guarding({ signal in
            FileHandle.standardError.write(Data("\nbench: \(Interruption.describe(signal)); the run in \(folder.path) is complete, its verdicts and advice may be missing\n".utf8))
        }) {
            try writeReports(folder, scenarios: scenarios, strategies: strategies, variants: variants)
        }
    }

    private func writeReports(_ folder: RunFolder, scenarios: [Scenario], strategies: [Strategy]?, variants: [VariantFilter]?) throws {
        try publish(folder, export: exportOption, history: noHistory ? nil : history, skipAdvice: "pass --no-history to skip it")
        print(SummaryTable.render(folder.summary, scenarios: scenarios))
        for note in PhaseNotes.notes(folder.summary, scenarios: scenarios) { print("note: \(note)") }
        let verdicts = VerdictReport.judge(folder.summary)
        try AtomicFile.write(String(decoding: try VerdictReport.json(verdicts), as: UTF8.self) + "\n", to: folder.file("verdicts.json"))
        try AtomicFile.write(VerdictReport.markdown(verdicts, figures: "plots") + "\n", to: folder.file("verdicts.md"))
        let decided = VerdictReport.lines(verdicts)
        if !decided.isEmpty { print("\n" + decided) }
        if !noAdvice && !scenarios.isEmpty {
            var pass = AdvicePass(scenarios: scenarios)
            pass.strategies = strategies
            pass.variants = variants
            pass.seed = seed
            let findings = AdvicePass.attachMeasurements(try pass.run(), summary: folder.summary)
            try AtomicFile.write(String(decoding: try AdviceReport.json(findings), as: UTF8.self) + "\n", to: folder.file("advice.json"))
            let phases = Set(findings.map { "\($0.scenario) \($0.strategy) \($0.variant) \($0.phase)" }).count
            print("\nN+1 advice: \(findings.isEmpty ? "no repeated statement" : "\(findings.count) finding(s) in \(phases) phase(s)") at size \(formatCount(pass.size)) (bench advise \(folder.path) prints them)")
        }
        print("reports: \(folder.path)")
    }
}
