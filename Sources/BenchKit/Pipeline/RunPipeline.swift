import Foundation

/// A run from its request to its published reports: plan, measure (interruptible), finish, then conclude with the
/// verdicts, the advice, the export and the history. `bench run` and `bench merge` both end in `conclude`, so that a
/// merged run has its verdicts and advice like any other; the command line only parses options and prints.
package enum RunPipeline {
    /// What a finished run folder concluded, for the first screen.
    package struct Conclusion {
        package let folder: RunFolder
        package let scenarios: [Scenario]
        package let verdicts: [Verdict]
        /// Phases whose numbers measure something else than meant (an empty fetch, a refused save).
        package let notes: [String]
        /// The N+1 findings of the advice pass, nil when it did not run, and the sizes it ran at.
        package let advice: [AdviceFinding]?
        package let adviceSizes: [Int]
        /// One line each: the history or export could not take the run, or took nothing.
        package let warnings: [String]
        /// The lint of the model a `--model` run generated its suite from.
        package var lint: [RunLint] = []

        /// What the run prints when it is over: the model's lint by severity (a `--model` run), a headline per
        /// scenario (the full tables with `verbose`), the notes, the advice with the variant each finding belongs to,
        /// the verdicts it decides and where the reports are.
        package func text(verbose: Bool = false) -> String {
            var lines: [String] = lint.flatMap(\.lines)
            if verbose {
                lines.append(SummaryTable.render(folder.summary, scenarios: scenarios, deviceCosts: folder.info.deviceCosts))
            } else {
                lines += FirstScreen.render(folder.samples, scenarios: scenarios, statements: folder.statements, advice: advice ?? [])
                lines.append(SummaryTable.fidelity)
            }
            lines += notes.map { "note: \($0)" }
            if let advice {
                lines += AdviceLines.screenLines(
                    advice, sizes: adviceSizes, summary: folder.summary, folder: folder.path,
                    listed: Set(scenarios.filter { !RunReport.isBuiltIn($0) }.map(\.name)))
            }
            let decided = VerdictReport.lines(verdicts)
            if !decided.isEmpty { lines.append(decided) }
            lines.append("reports: \(folder.path) (summary.txt: every series; report.html: the page)")
            return lines.joined(separator: "\n")
        }

        package var text: String { text() }
    }

    /// Measures `plan` into `folder`. Ctrl-C, SIGTERM or SIGHUP leave the folder valid, holding the repetitions that
    /// finished, marked interrupted (the process then exits with 128 + the signal); an error marks it failed. With
    /// `deviceCosts` (recorded in run.json), each ObjectGraph phase also gets its `predicted_device_ms`.
    package static func measure(
        _ plan: RunPlan, request: RunRequest, into folder: RunFolder, progress: Progress?, deviceCosts: DeviceCosts? = nil
    ) throws {
        let runner = Runner(request: request, plan: plan, folder: folder, progress: progress)
        if request.sequential {
            runner.nextRound = { samples, scenario, size in
                SequentialRounds.arms(samples: samples, statements: folder.statements, info: folder.info, scenario: scenario, size: size)
            }
            runner.roundCap = SequentialRounds.roundCap()
        }
        try Interruption.guarding({ signal in
            let outcome = folder.abandon(status: .interrupted)
            FileHandle.standardError.write(Data("\nbench: \(Interruption.describe(signal)); \(outcome)\n".utf8))
        }) {
            do {
                try runner.run()
                if let deviceCosts {
                    try folder.append(deviceCosts.predictions(folder.samples, statements: folder.statements), countsAsRepetition: false)
                }
                // Complete once its conclusions are written too (`conclude` writes its final status).
                try folder.finishMeasuring(status: .complete)
            } catch {
                // An error the signal's handler caused (its temporary folders gone) is not a failure.
                Interruption.parkIfStopping()
                folder.abandon(status: .failed)
                throw error
            }
        }
    }

    /// Concludes a measured run folder: its verdicts (verdicts.json, verdicts.md), the advice pass over `scenarios`
    /// (advice.json), its page; then run.json takes the run's status, the last byte written, and only then the export
    /// and the history entry. A signal or a failure (a full disk) on the way marks the run interrupted or failed, its
    /// measurements whole and listed in run.json's `files`, never complete without its conclusions.
    package static func conclude(_ folder: RunFolder, scenarios: [Scenario], publishing: Publishing, seed: UInt64) throws -> Conclusion {
        try Interruption.guarding({ signal in
            let outcome = folder.abandon(status: .interrupted)
            FileHandle.standardError.write(Data("\nbench: \(Interruption.describe(signal)); \(outcome)\n".utf8))
        }) {
            let summary = folder.summary
            let lint = RunLint.of(scenarios)
            let verdicts: [Verdict]
            var advice: [AdviceFinding]?
            var pass = AdvicePass(scenarios: scenarios)
            do {
                try folder.writeFile(
                    SummaryTable.render(summary, scenarios: scenarios, deviceCosts: folder.info.deviceCosts) + "\n", named: "summary.txt")
                let evidence = RunEvidence(samples: folder.samples, statements: folder.statements, info: folder.info)
                verdicts = VerdictReport.judge(evidence, scenarios: catalogScenarios(besides: scenarios))
                let verdictsJSON = try VerdictReport.json(verdicts, run: folder.info)
                try folder.writeFile(String(decoding: verdictsJSON, as: UTF8.self) + "\n", named: "verdicts.json")
                try folder.writeFile(VerdictReport.markdown(verdicts, figures: "plots") + "\n", named: "verdicts.md")
                if publishing.advice && !scenarios.isEmpty {
                    pass.strategies = publishing.strategies
                    pass.variants = publishing.variants
                    pass.seed = seed
                    pass.sizes = largestSizes(summary)
                    let findings = AdvicePass.attachMeasurements(try pass.run(), summary: summary, scenarios: scenarios)
                    try folder.writeFile(String(decoding: try AdviceReport.json(findings), as: UTF8.self) + "\n", named: "advice.json")
                    advice = findings
                }
                let report = RunReport(
                    folder: folder.path, info: folder.closingInfo, summary: summary, samples: folder.samples, statements: folder.statements,
                    scenarios: scenarios, verdicts: verdicts,
                    advice: advice ?? [], lint: lint)
                try folder.writeFile(report.markdown, named: "report.md")
                try folder.writeFile(report.html, named: "report.html")
                try folder.writeFinalStatus()
            } catch {
                Interruption.parkIfStopping()
                let outcome = folder.abandon(status: .failed)
                throw BenchError.io("\(error); \(outcome)")
            }
            return Conclusion(
                folder: folder, scenarios: scenarios, verdicts: verdicts, notes: PhaseNotes.notes(summary, scenarios: scenarios),
                advice: advice, adviceSizes: Array(Set(scenarios.map(pass.size(of:)))).sorted(), warnings: publish(folder, publishing),
                lint: lint)
        }
    }

    /// The largest size each scenario of a summary ran at: where the advice pass runs it.
    package static func largestSizes(_ summary: [SummaryRow]) -> [ScenarioName: Int] {
        var sizes: [ScenarioName: Int] = [:]
        for row in summary { sizes[row.key.scenario] = max(sizes[row.key.scenario] ?? 0, row.key.size) }
        return sizes
    }

    /// The export and the history entry of a finished run; a failure to add to the history only warns, since the run
    /// itself is safe on disk.
    private static func publish(_ run: RunFolder, _ publishing: Publishing) -> [String] {
        var warnings: [String] = []
        let summary = run.summary
        let info = run.info
        if let export = publishing.export {
            do {
                if let warning = try export.write(summary) { warnings.append(warning) }
            } catch {
                warnings.append("the export was not written (\(error))")
            }
        }
        guard let history = publishing.history else { return warnings }
        guard info.status == .complete else {
            return warnings + [
                "not added to the history: the run is \(info.status.rawValue); finish it (or rerun the shard that did not) first"
            ]
        }
        if let reason = info.unrepresentativeReason { return warnings + ["not added to the history: \(reason)"] }
        do {
            try HistoryStore(path: history).append(info: info, folder: run.path, summary: summary)
        } catch {
            warnings.append("the run was not added to the history (\(error)); its folder \(run.path) is complete")
        }
        return warnings
    }

    /// The scenarios a run measured: the file or model its run.json records for each (so that a run of
    /// `--scenarios DIR` or `--model MODEL` is read with its own definitions), else the catalog's; `catalogFolder`
    /// (`--scenarios DIR`) overrides the record. Warnings say where a recorded file was not found.
    /// With `lenient`, a scenario that cannot be found is left out with a warning instead of failing (a merged run's
    /// advice pass).
    package static func scenarios(
        measuredBy info: RunInfo?, names: [ScenarioName], catalogFolder: String?, lenient: Bool = false
    ) throws
        -> (scenarios: [Scenario], warnings: [String])
    {
        var warnings: [String] = []
        var catalog: ScenarioCatalog?
        func fromCatalog(_ name: ScenarioName) throws -> Scenario {
            let loaded = try catalog ?? ScenarioCatalog(folder: catalogFolder ?? ScenarioCatalog.defaultFolder())
            catalog = loaded
            return try loaded.scenario(named: name.rawValue)
        }
        let scenarios = try names.compactMap { name -> Scenario? in
            if lenient {
                do {
                    return try scenario(name)
                } catch {
                    warnings.append("no advice for '\(name)': \(error)")
                    return nil
                }
            }
            return try scenario(name)
        }
        return (scenarios, warnings)

        func scenario(_ name: ScenarioName) throws -> Scenario {
            guard catalogFolder == nil, let origin = info?.scenarioOrigins?[name.rawValue] else { return try fromCatalog(name) }
            switch origin {
            case let .file(path):
                // A run made elsewhere (a CI artifact) names a file of that machine: the catalog's definition, said so.
                guard FileManager.default.fileExists(atPath: path) else {
                    warnings.append(
                        "the run's scenario '\(name)' came from \(path), which is not here; using the catalog's '\(name)' (pass --scenarios DIR to choose)"
                    )
                    return try fromCatalog(name)
                }
                let scenario = try ScenarioFile.load(path)
                guard scenario.name == name else {
                    throw BenchError.invalidInput(
                        "\(path) now defines '\(scenario.name)', not the run's '\(name)'; pass --scenarios DIR with a file that defines it")
                }
                return scenario
            case let .generated(model, options):
                guard FileManager.default.fileExists(atPath: model) else {
                    throw BenchError.invalidInput(
                        "the run's suite '\(name)' was generated from \(model), which is gone; use a run of a model that exists")
                }
                return try GeneratedSuite.scenario(modelPath: model, options: options)
            }
        }
    }

    /// The built-in scenarios (the default folder's) with `scenarios`, for the commands that decide undecided claims;
    /// just `scenarios` where the folder cannot be read.
    package static func catalogScenarios(besides scenarios: [Scenario]) -> [Scenario] {
        let catalog = (try? ScenarioCatalog(folder: ScenarioCatalog.defaultFolder()))?.scenarios ?? []
        return scenarios + catalog.filter { builtIn in !scenarios.contains { $0.name == builtIn.name } }
    }

    /// Writes a finished run folder's report.md and report.html again (after `scripts/plot.py` drew its plots): the
    /// verdicts judged anew from its files, the advice its advice.json holds.
    package static func report(folder: String, catalogFolder: String?) throws -> (markdown: String, warnings: [String]) {
        // A live run (or merge) holds its folder and writes its own report last: one written now would be replaced, or
        // be of half the samples.
        if FolderClaim.isHeld(folder) {
            throw BenchError.invalidInput(
                "\(folder) is still being written by a bench process; wait for it to finish (it writes its report itself), then run 'bench report' if you need it again"
            )
        }
        let info = try RunInfo.load((folder as NSString).appendingPathComponent("run.json"))
        let evidence = try RunEvidence.load(folder: folder)
        let samples = try SamplesFile.load((folder as NSString).appendingPathComponent("samples.csv")).samples
        let (scenarios, warnings) = try Self.scenarios(measuredBy: info, names: info.scenarios, catalogFolder: catalogFolder, lenient: true)
        let verdicts = VerdictReport.judge(evidence, scenarios: catalogScenarios(besides: scenarios))
        let advicePath = (folder as NSString).appendingPathComponent("advice.json")
        let advice = try FileManager.default.contents(atPath: advicePath).map { try AdviceReport.decode($0, file: advicePath) } ?? []
        let report = RunReport(
            folder: folder, info: info, summary: SummaryFile.summarize(samples), samples: samples,
            statements: try StatementsFile.load(folder: folder), scenarios: scenarios,
            verdicts: verdicts, advice: advice, lint: RunLint.of(scenarios))
        try report.write()
        return (report.markdown, warnings)
    }
}
