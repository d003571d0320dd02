#if SwiftSources
import ArgumentParser
import BenchKit
import Foundation
import ObjectGraph
import SwiftSources

/// `bench scan`: the sites, their scenarios, the advice on each (BenchKit's, run on the site's scenario) and the edit
/// in the site's own API, measured.
struct ScanRun {
    let command: ScanCommand

    /// A model the sites resolve against: where it was read and what it compiled to.
    struct LoadedModel {
        let path: String
        let model: ObjectModel
        let options: GeneratedSuite.Options
    }

    /// What one site came to.
    struct Outcome {
        var site: FetchSite
        var findings: [AdviceFinding] = []
        var edit = SiteEdit()
        var statements: Int?
        var statementsAfter: Int?
        /// What the suggested variant still leaves (the edit did not remove it all).
        var remaining: [AdviceFinding] = []
        var scenario: [String: Any] = [:]
        /// Why the site's scenario could not run.
        var failure: String?

        /// The findings that cost statements as the code is written (risks); the others are suggestions, which rest
        /// on a guess about the screen (a batch size where a list draws the first rows) and fail no gate.
        var nPlusOnes: [AdviceFinding] { findings.filter { $0.finding.severity <= .risk } }
    }

    func run() throws {
        let root = command.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw BenchError.invalidInput("\(root): no such file or folder; give the app's Swift sources (a folder or a .swift file)")
        }
        guard ModelSource.isSwiftSources(root) else {
            throw BenchError.invalidInput("\(root): no .swift file in it; give the folder of the app's Swift sources (or a .swift file)")
        }
        if let output = command.output { try Self.checkOutput(output) }
        let (swiftData, coreData, modelNotes) = try models(root: root)
        guard swiftData != nil || coreData != nil else {
            throw BenchError.invalidInput(
                "\(root): no SwiftData @Model class and no Xcode model found; give the model with --model (a .xcdatamodeld, or the folder of the @Model sources)"
            )
        }
        let models = [swiftData, coreData].compactMap { $0 }
        if let unknown = (command.counts ?? [:]).keys.sorted().first(where: { name in !models.contains { $0.model.entity(name) != nil } }) {
            let names = models.flatMap { $0.model.entities.map(\.name) }.sorted()
            throw BenchError.invalidInput(
                "--counts: no entity '\(unknown)' in the models read; their entities are \(names.joined(separator: ", "))")
        }
        let result: ScanResult
        do {
            result = try FetchScanner.scan(path: root, models: ScanModels(swiftData: swiftData?.model, coreData: coreData?.model))
        } catch let error as SwiftSourceError {
            throw BenchError.invalidInput(error.description)
        }
        let size = command.size ?? 1000
        var outcomes: [Outcome] = []
        for site in result.sites {
            guard let loaded = site.isSwiftData ? swiftData : coreData else { continue }
            do {
                outcomes.append(try advise(site, model: loaded, size: size))
            } catch let error as BenchError {
                // One site the scenario machinery refuses (a key path the reader got wrong) does not stop the others.
                var outcome = Outcome(site: site)
                outcome.failure = error.description
                outcomes.append(outcome)
            }
        }
        print(header(root: root, result: result, swiftData: swiftData, coreData: coreData, size: size))
        for note in modelNotes + result.notes { print("note: \(note)") }
        print("")
        for (number, outcome) in outcomes.enumerated() { print(Self.text(outcome, number: number + 1)) }
        let flagged = outcomes.filter { !$0.nPlusOnes.isEmpty }
        let suggested = outcomes.filter { $0.nPlusOnes.isEmpty && !$0.findings.isEmpty }
        let suggestions =
            suggested.isEmpty
            ? ""
            : "; \(counted(suggested.count, "other site")) with a suggestion: \(suggested.map(\.site.location).joined(separator: ", "))"
        print(
            (flagged.isEmpty
                ? "no N+1 in \(counted(outcomes.count, "fetch site"))"
                : "\(counted(flagged.count, "fetch site")) with an N+1 of \(outcomes.count): \(flagged.map(\.site.location).joined(separator: ", "))")
                + suggestions
        )
        if let output = command.output {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            for outcome in outcomes where outcome.failure == nil {
                let data = try JSONSerialization.data(withJSONObject: outcome.scenario, options: [.sortedKeys, .prettyPrinted])
                try AtomicFile.write(
                    String(decoding: data, as: UTF8.self) + "\n",
                    to: (output as NSString).appendingPathComponent(outcome.site.scenarioName + ".json"))
            }
            print(
                "\(counted(outcomes.filter { $0.failure == nil }.count, "scenario")) in \(output): bench run --scenarios \(shellWord(output)) --all (a release build)"
            )
        }
        if command.failOnFindings && !flagged.isEmpty {
            FileHandle.standardError.write(
                Data("bench: \(counted(flagged.count, "fetch site")) with an N+1 (above); exit 1 as --fail-on-findings asks\n".utf8))
            throw ExitCode(1)
        }
    }

    // MARK: Models

    /// SwiftData's model from the @Model classes (of PATH, or of a --model folder), Core Data's from an Xcode model
    /// (--model, or the first .xcdatamodeld under PATH).
    private func models(root: String) throws -> (swiftData: LoadedModel?, coreData: LoadedModel?, notes: [String]) {
        var notes: [String] = []
        var swiftPath: String?
        var xcodePath: String?
        for given in command.model {
            guard FileManager.default.fileExists(atPath: given) else {
                throw BenchError.invalidInput(
                    "--model \(given): no such file or folder; give a .xcdatamodeld or a folder of @Model sources")
            }
            if ModelSource.isSwiftSources(given) { swiftPath = given } else { xcodePath = given }
        }
        if xcodePath == nil {
            let found = Self.xcodeModels(under: root)
            xcodePath = found.first
            if found.count > 1 {
                notes.append(
                    "several Xcode models under \(root): \(found.joined(separator: ", ")); Core Data sites are read against the first (give --model)"
                )
            }
        }
        var swiftData: LoadedModel?
        do {
            let xcode = try ModelSource.load(path: swiftPath ?? root)
            swiftData = try loaded(swiftPath ?? root, xcode)
        } catch let error as BenchError
            where error.kind == .invalidInput && error.description.contains("no @Model class") && swiftPath == nil
        {
            swiftData = nil
        }
        var coreData: LoadedModel?
        if let xcodePath {
            do {
                coreData = try loaded(xcodePath, try XcodeModel.load(path: xcodePath))
            } catch let error as ObjectGraphError {
                throw BenchError.invalidInput("\(error)")
            }
        }
        return (swiftData, coreData, notes)
    }

    private func loaded(_ path: String, _ xcode: XcodeModel) throws -> LoadedModel {
        let model: ObjectModel
        do {
            model = try xcode.makeModel()
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(path): \(error)")
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        // Counts name entities of either model (an app with both): each model takes its own.
        let counts = (command.counts ?? [:]).filter { model.entity($0.key) != nil }
        let (options, warnings) = try GeneratedSuite.options(modelPath: absolute, counts: counts, shapeFrom: command.shapeFrom)
        for warning in warnings { warn(warning) }
        return LoadedModel(path: absolute, model: model, options: options)
    }

    static func xcodeModels(under root: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let item = enumerator.nextObject() as? String {
            let name = (item as NSString).lastPathComponent
            if name.hasPrefix(".") || name == "DerivedData" || name == "Pods" || name.hasSuffix("Tests") {
                enumerator.skipDescendants()
                continue
            }
            if name.hasSuffix(".xcdatamodeld") {
                found.append((root as NSString).appendingPathComponent(item))
                enumerator.skipDescendants()
            }
        }
        return found.sorted()
    }

    // MARK: Advice

    /// The site's scenario run through BenchKit's advice; for a finding, the edit in the site's API, run as a second
    /// variant and measured against the code as written.
    private func advise(_ site: FetchSite, model: LoadedModel, size: Int) throws -> Outcome {
        var outcome = Outcome(site: site)
        outcome.scenario = try scenario(site, model: model, edit: nil)
        let asWritten = try parse(outcome.scenario, site: site)
        var pass = AdvicePass(scenarios: [asWritten])
        pass.size = size
        pass.strategies = [.objectGraph]
        pass.threshold = command.threshold
        outcome.findings = try Self.backed(pass.run(), site: site)
        guard !outcome.findings.isEmpty else {
            outcome.statements = try SiteStatements.measure(asWritten, size: size)[""]
            return outcome
        }
        outcome.edit = ScanAdvice.edit(for: outcome.findings, site: site, model: model.model)
        guard !outcome.edit.isEmpty else {
            outcome.statements = outcome.findings.first?.finding.statements
            return outcome
        }
        outcome.scenario = try scenario(site, model: model, edit: outcome.edit)
        let both = try parse(outcome.scenario, site: site)
        let measured = try SiteStatements.measure(both, size: size)
        outcome.statements = measured["edit=as-written"]
        outcome.statementsAfter = measured["edit=suggested"]
        var check = AdvicePass(scenarios: [both])
        check.size = size
        check.strategies = [.objectGraph]
        check.variants = [try VariantFilter("edit=suggested")]
        check.threshold = command.threshold
        outcome.remaining = try Self.backed(check.run(), site: site)
        return outcome
    }

    /// The findings the site's scenario backs: run without the code's predicate (one built elsewhere), the fetch
    /// reads every row of the entity, so the rows it matches are unknown and a suggestion resting on their number
    /// (a large fetch to batch) is not made.
    static func backed(_ findings: [AdviceFinding], site: FetchSite) -> [AdviceFinding] {
        guard site.predicateSkipped != nil else { return findings }
        return findings.filter { $0.finding.rule != .largeUnbatchedFetch }
    }

    private func parse(_ json: [String: Any], site: FetchSite) throws -> Scenario {
        let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        return try ScenarioFile.parse(data, file: "\(site.location) (bench scan)")
    }

    /// The site's scenario file: the model, the data the suite would make (counts, store shape), one phase with the
    /// site's fetch and reads; with an edit, a variant `edit` (as-written, suggested) that runs it both ways.
    private func scenario(_ site: FetchSite, model: LoadedModel, edit: SiteEdit?) throws -> [String: Any] {
        let reads = site.reads.isEmpty ? "nothing read from the results" : "reading " + site.reads.map(\.keyPath).joined(separator: ", ")
        var phase: [String: Any] = [
            "name": "site",
            "store": "prepared",
            "description": "\(site.location) \(site.api.rawValue) of \(site.entity), \(reads)"
                + Self.rowsText(site, open: " (", close: ")"),
        ]
        if !site.variables.isEmpty { phase["variables"] = site.phaseVariables }
        var root: [String: Any] = [
            "name": site.scenarioName,
            "description": "bench scan: \(site.location), \(site.context): \(site.api.rawValue) of \(site.entity) as the code writes it"
                + (edit == nil ? "" : ", and with the suggested edit"),
            "model": model.path,
            "strategies": ["objectgraph", "sql-replay"],
        ]
        if let edit {
            root["variants"] = [["name": "edit", "values": ["as-written", "suggested"]]]
            // Each way's steps run for its value of the axis only.
            phase["steps"] =
                site.steps.map { $0.merging(["when": ["edit": ["as-written"]]]) { first, _ in first } }
                + site.applying(edit).steps.map { $0.merging(["when": ["edit": ["suggested"]]]) { first, _ in first } }
        } else {
            phase["steps"] = site.steps
        }
        root["phases"] = [phase]
        root.merge(try GeneratedSuite.dataSections(model.model, options: model.options, sizes: [100], [1000], [1000, 10000])) { first, _ in
            first
        }
        return root
    }

    // MARK: Output

    private func header(root: String, result: ScanResult, swiftData: LoadedModel?, coreData: LoadedModel?, size: Int) -> String {
        var models: [String] = []
        if let swiftData { models.append("SwiftData, \(swiftData.model.entities.count) @Model classes") }
        if let coreData { models.append("Core Data \((coreData.path as NSString).lastPathComponent)") }
        let data =
            command.counts.map {
                "the counts given (" + $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
            }
            ?? command.shapeFrom.map { "the shape of \(($0 as NSString).lastPathComponent)" }
            ?? "\(formatCount(size)) objects of every entity"
        return
            "scan of \(root): \(counted(result.sites.count, "fetch site")) in \(counted(result.fileCount, "Swift file")) (models: \(models.joined(separator: ", ")))\n"
            + "advice from each site's scenario run once by ObjectGraph with \(data), a statement repeated more than \(command.threshold) times flagged; statement counts transfer to a device where ObjectGraph is faithful, times do not"
    }

    static func text(_ outcome: Outcome, number: Int) -> String {
        let site = outcome.site
        var head = "\(number). \(site.location)  \(site.api.rawValue) \(site.entity)  in \(site.context)"
        var details: [String] = []
        if let predicate = site.predicate { details.append("predicate \(predicate)") }
        if let skipped = site.predicateSkipped { details.append("predicate not run (\(skipped))") }
        if !site.sort.isEmpty { details.append("sort \(site.sort.joined(separator: ", "))") }
        if let limit = site.limit { details.append("limit \(limit)") }
        if let batch = site.batchSize { details.append("batch \(batch)") }
        if !site.prefetch.isEmpty { details.append("prefetch \(site.prefetch.joined(separator: ", "))") }
        if !site.propertiesToFetch.isEmpty { details.append("properties \(site.propertiesToFetch.joined(separator: ", "))") }
        if site.result != "objects" { details.append("result \(site.result)") }
        if !details.isEmpty { head += "\n   " + details.joined(separator: "; ") }
        var lines = [head]
        if site.reads.isEmpty {
            if site.result == "objects" { lines.append("   reads: none found") }
        } else {
            let reads = site.reads.map { read in read.rowView.map { "\(read.keyPath) (in \($0))" } ?? read.keyPath }
            lines.append("   reads: \(reads.joined(separator: ", "))" + Self.rowsText(site, open: "; ", close: ""))
        }
        for note in site.notes { lines.append("   note: \(note)") }
        if let failure = outcome.failure {
            lines.append("   not run: \(failure)")
            return lines.joined(separator: "\n") + "\n"
        }
        if outcome.nPlusOnes.isEmpty {
            lines.append("   ok: no N+1" + (outcome.statements.map { " (\(counted($0, "statement")))" } ?? ""))
            if outcome.findings.isEmpty { return lines.joined(separator: "\n") + "\n" }
        }
        for finding in outcome.findings {
            lines.append(
                "   \(finding.finding.severity <= .risk ? "N+1" : "suggestion"): \(finding.finding.summary): "
                    + "\(formatCount(finding.finding.repeats)) × \"\(finding.finding.statement.prefix(110))\"")
        }
        if let before = outcome.statements, let after = outcome.statementsAfter {
            lines.append(
                "   saves \(formatCount(before - after)) statements: \(formatCount(before)) as written, \(formatCount(after)) with the edit (both measured)"
            )
        }
        let edit = site.editText(outcome.edit)
        if !edit.isEmpty { lines.append("   edit: " + edit.replacingOccurrences(of: "\n", with: "\n         ")) }
        if outcome.edit.isEmpty {
            for finding in outcome.findings {
                lines.append("   change (no edit RelBench can write in this API): \(fix(finding, site: site))")
            }
        }
        for finding in outcome.remaining {
            lines.append("   still after the edit: \(finding.finding.summary): \(fix(finding, site: site))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Which rows the reads happen on: the first a list draws, and those a filter, map or loop reads on every row.
    static func rowsText(_ site: FetchSite, open: String, close: String) -> String {
        guard let rows = site.rowsRead else { return "" }
        let everyRow = site.reads.filter(\.everyRow).map(\.keyPath)
        guard !everyRow.isEmpty else { return "\(open)the first \(rows) rows (a list draws the rows on screen)\(close)" }
        let drawn = site.reads.filter { !$0.everyRow }.map(\.keyPath)
        guard !drawn.isEmpty else { return "\(open)every row (a filter, map or loop over the results)\(close)" }
        return open + "\(drawn.joined(separator: ", ")) on the first \(rows) rows (a list draws the rows on screen), "
            + "\(everyRow.joined(separator: ", ")) on every row (a filter, map or loop over the results)" + close
    }

    /// A finding's fix in the site's API: a @Query has no batch size, so a batch suggestion names what it can do.
    static func fix(_ finding: AdviceFinding, site: FetchSite) -> String {
        guard site.api == .query, finding.finding.rule == .largeUnbatchedFetch else { return finding.finding.fix }
        return "a @Query reads every row it matches in one fetch and has no batch size: if the list grows this long and "
            + "shows only the first rows, fetch it with a FetchDescriptor and context.fetch(descriptor, batchSize: 20), or "
            + "page it with the descriptor's fetchLimit and fetchOffset"
    }

    /// An output folder must be new or empty, as a run folder must.
    static func checkOutput(_ output: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw BenchError.invalidInput("--output \(output) is a file; give a new or empty folder") }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        guard contents.isEmpty else {
            throw BenchError.invalidInput("--output \(output) already holds \(counted(contents.count, "file")); give a new or empty folder")
        }
    }
}
#endif
