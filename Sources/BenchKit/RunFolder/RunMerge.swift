import Foundation

/// Joining shards and saving baselines: whole run folders copied or combined, never half-written.
package enum RunMerge {
    /// Writes the union of the shards' samples to `output` and returns the merged run folder. Two shards that
    /// measured the same series are refused (they were not disjoint shards of one run) unless `asRepetitions`:
    /// then the runs are repetitions of one another (a base and a head run alternately in one CI job), and their
    /// repetitions are numbered on: a run's rounds of a scenario and size after the last round any series of it had in
    /// the runs before, so that the arms of one round keep one number (a sequential run's arms ran more rounds than
    /// its other series; numbering each series on by itself would pair rounds of different runs). A merge with a
    /// sequential run is judged sequentially: the looks fall at fixed round counts of the merged rounds.
    package static func merge(_ shards: [String], into output: String, asRepetitions: Bool = false) throws -> RunFolder {
        try refuseRepeatedFolders(shards)
        var runs: [MergedRun] = []
        var statements: [PhaseStatements] = []
        for shard in shards {
            statements += try StatementsFile.load(folder: shard)
            let contents = try SamplesFile.load((shard as NSString).appendingPathComponent("samples.csv"))
            if let unknown = contents.unknown.first {
                throw BenchError.invalidInput(
                    "\(shard) holds series this bench cannot read (\(unknown): \(unknown.reason)); merge runs of this build")
            }
            let info = try RunInfo.load((shard as NSString).appendingPathComponent("run.json"))
            runs.append(MergedRun(folder: shard, info: info, samples: contents.samples))
        }
        guard var info = runs.first?.info else { throw BenchError.invalidInput("name the shards' run folders to merge") }
        try refuseDifferentKinds(runs, asRepetitions: asRepetitions)
        let infos = runs.map(\.info)
        var samples: [SampleRecord] = []
        var seen: [SeriesKey: String] = [:]
        struct Block: Hashable {
            let scenario: ScenarioName
            let size: Int
        }
        var repetitionOffset: [Block: Int] = [:]
        for run in runs {
            var shardSamples = run.samples
            if asRepetitions {
                var highest: [Block: Int] = [:]
                for index in shardSamples.indices {
                    let key = Block(scenario: shardSamples[index].key.scenario, size: shardSamples[index].key.size)
                    shardSamples[index].repetition += repetitionOffset[key, default: 0]
                    highest[key] = max(highest[key, default: 0], shardSamples[index].repetition)
                }
                for (key, value) in highest { repetitionOffset[key] = value }
            } else {
                for key in Set(shardSamples.map(\.key)) {
                    if let other = seen[key] {
                        throw BenchError.invalidInput(
                            "\(run.folder) and \(other) both measured \(key); merge the shards of one run only (or pass --as-repetitions)")
                    }
                    seen[key] = run.folder
                }
            }
            samples += shardSamples
        }
        if let mismatch = infos.first(where: { $0.gitCommit != info.gitCommit || $0.seed != info.seed || $0.profile != info.profile }) {
            throw BenchError.invalidInput(
                "the shards differ in commit, seed or profile (\(mismatch.gitCommit) \(mismatch.seed) \(mismatch.profile.rawValue) vs \(info.gitCommit) \(info.seed) \(info.profile.rawValue)); merge shards of one run"
            )
        }
        try refuseMixedSettings(Array(zip(shards, infos)), asRepetitions: asRepetitions)
        info.scenarios = asRepetitions ? info.scenarios : infos.flatMap(\.scenarios)
        let origins = infos.compactMap(\.scenarioOrigins)
        info.scenarioOrigins = origins.isEmpty ? nil : origins.reduce(into: [:]) { $0.merge($1) { first, _ in first } }
        let hashes = infos.compactMap(\.definitionHashes)
        info.definitionHashes = hashes.isEmpty ? nil : hashes.reduce(into: [:]) { $0.merge($1) { first, _ in first } }
        let schedules = infos.compactMap(\.schedules)
        info.schedules =
            schedules.isEmpty
            ? nil
            : schedules.reduce(into: [:]) { merged, shard in
                merged.merge(shard) { first, other in
                    asRepetitions
                        ? RunInfo.Schedule(
                            sizes: first.sizes, repetitions: first.repetitions + other.repetitions, warmup: first.warmup,
                            sequential: first.sequential == true || other.sequential == true ? true : nil)
                        : first
                }
            }
        info.finishedRepetitions = infos.reduce(0) { $0 + $1.finishedRepetitions }
        info.plannedRepetitions = infos.reduce(0) { $0 + $1.plannedRepetitions }
        info.status = infos.allSatisfy { $0.status == .complete } ? .complete : .incomplete
        info.commandLine = ["bench", "merge", output] + shards
        let folder = try RunFolder(path: output, info: info, option: nil)
        folder.record(statements)
        do {
            try folder.append(samples, countsAsRepetition: false)
            // Closed by its conclusion (`RunPipeline.conclude`): run.json takes the status after the verdicts and advice.
            try folder.finishMeasuring(status: info.status)
        } catch {
            // The shards are still there: nothing is lost by removing a merge that could not be written whole.
            folder.discard()
            throw error
        }
        return folder
    }
}

extension RunMerge {
    /// Refuses a folder named twice (by two spellings or a link): its samples would count twice.
    static func refuseRepeatedFolders(_ shards: [String]) throws {
        var seen: [String: String] = [:]
        for shard in shards {
            let real = URL(fileURLWithPath: shard).resolvingSymlinksInPath().standardizedFileURL.path
            if let other = seen[real] {
                throw BenchError.invalidInput(
                    "\(other) and \(shard) are the same run folder; name each run once (its samples would count twice)")
            }
            seen[real] = shard
        }
    }

    /// Refuses runs that measured differently: other SQLite settings (page caches, storage), or, as repetitions of
    /// one another, other scenarios or other definitions of them.
    static func refuseMixedSettings(_ runs: [(folder: String, info: RunInfo)], asRepetitions: Bool) throws {
        guard let (firstFolder, first) = runs.first else { return }
        for (folder, info) in runs.dropFirst() {
            let keys = Set(first.sqliteSettings.keys).union(info.sqliteSettings.keys).sorted()
            if let key = keys.first(where: { first.sqliteSettings[$0] != info.sqliteSettings[$0] }) {
                throw BenchError.invalidInput(
                    "\(folder) ran with SQLite's \(key) \(info.sqliteSettings[key] ?? "unset"), \(firstFolder) with \(first.sqliteSettings[key] ?? "unset"); merge runs made with the same settings"
                )
            }
            guard asRepetitions else { continue }
            if Set(info.scenarios) != Set(first.scenarios) {
                throw BenchError.invalidInput(
                    "--as-repetitions: \(folder) measured \(names(info.scenarios)), \(firstFolder) \(names(first.scenarios)); repetitions of one run measure the same scenarios"
                )
            }
            if let hashes = info.definitionHashes, let firstHashes = first.definitionHashes,
                let name = info.scenarios.first(where: { hashes[$0.rawValue] != firstHashes[$0.rawValue] })
            {
                throw BenchError.invalidInput(
                    "--as-repetitions: \(folder) and \(firstFolder) ran different definitions of '\(name)' (its file or model changed between them); merge runs of one definition"
                )
            }
        }
    }

    private static func names(_ scenarios: [ScenarioName]) -> String {
        scenarios.map(\.rawValue).sorted().joined(separator: ", ")
    }
}

/// Results/baseline: a copy of a run's reports, committed for CI to compare against.
package enum Baseline {

    /// Replaces the baseline at `destination` with `run`'s reports: copied to a new folder, then swapped in.
    package static func save(from run: String, to path: String) throws {
        var destination = path
        while destination.count > 1 && destination.hasSuffix("/") { destination.removeLast() }
        guard !destination.isEmpty else { throw BenchError.invalidInput("--to is empty; give the baseline folder's path") }
        let manager = FileManager.default
        // A link is kept: the baseline it points to is the one replaced (beside it, so that the swap is two renames).
        if (try? manager.destinationOfSymbolicLink(atPath: destination)) != nil { destination = AtomicFile.finalTarget(destination) }
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: destination, isDirectory: &isDirectory) {
            // Only a baseline (or an empty folder) is replaced: never a file, a run's folder or a folder of something else.
            guard isDirectory.boolValue else {
                throw BenchError.invalidInput("\(destination) is a file; give --to a baseline folder or a new path")
            }
            let contents = (try? manager.contentsOfDirectory(atPath: destination)) ?? []
            let foreign = contents.filter { !RunFolder.reportFiles.contains($0) }.sorted()
            guard foreign.isEmpty, contents.isEmpty || contents.contains("run.json") else {
                let what = foreign.isEmpty ? "no run.json" : "files a baseline does not (\(foreign.prefix(3).joined(separator: ", ")))"
                throw BenchError.invalidInput("\(destination) holds \(what); give --to a baseline folder or a new path")
            }
        }
        // Beside the destination (one file system, so that the swap is two renames), under names no one else uses.
        let unique = "\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        let staging = destination + ".saving-" + unique
        if let reason = RunFolder.makeDirectories(staging) {
            throw BenchError.invalidInput("cannot create \(staging) (\(reason)); give --to a folder in a writable place")
        }
        do {
            for file in RunFolder.reportFiles {
                let source = (run as NSString).appendingPathComponent(file)
                guard manager.fileExists(atPath: source) else {
                    if RunFolder.optionalReportFiles.contains(file) { continue }
                    throw BenchError.invalidInput("\(run) has no \(file); is it a run folder?")
                }
                do {
                    try manager.copyItem(atPath: source, toPath: (staging as NSString).appendingPathComponent(file))
                } catch {
                    throw BenchError.io(
                        "cannot copy \(file) into \(staging) (\((error as NSError).localizedDescription)); the baseline at \(destination) is unchanged"
                    )
                }
            }
            // run.json lists the files of the run folder; the baseline holds only its reports, and says so.
            let record = (staging as NSString).appendingPathComponent("run.json")
            var info = try RunInfo.load(record)
            if let files = info.files {
                info.files = files.filter { manager.fileExists(atPath: (staging as NSString).appendingPathComponent($0)) }
                try Data(info.encoded().utf8).write(to: URL(fileURLWithPath: record))
            }
        } catch {
            try? manager.removeItem(atPath: staging)
            throw error
        }
        let old = destination + ".old-" + unique
        if manager.fileExists(atPath: destination) { try manager.moveItem(atPath: destination, toPath: old) }
        try manager.moveItem(atPath: staging, toPath: destination)
        try? manager.removeItem(atPath: old)
    }
}
