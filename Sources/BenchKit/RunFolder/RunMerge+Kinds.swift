import Foundation

/// One run folder as a merge reads it: its record and its samples.
struct MergedRun {
    let folder: String
    let info: RunInfo
    let samples: [SampleRecord]

    /// What measured the run: its record's word, else what its samples hold (instruction counts, or wall-clock times).
    var measurement: MeasurementKind {
        if let measurement = info.measurement { return measurement }
        return samples.contains { $0.key.metric == .instructions } ? .instructions : .wallClock
    }

    /// The sizes each scenario was measured at: as its schedule planned them, else as its samples hold them.
    var sizes: [ScenarioName: [Int]] {
        var found: [ScenarioName: Set<Int>] = [:]
        for sample in samples { found[sample.key.scenario, default: []].insert(sample.key.size) }
        var sizes = found.mapValues { $0.sorted() }
        for (name, schedule) in info.schedules ?? [:] { sizes[ScenarioName(rawValue: name)] = schedule.sizes.sorted() }
        return sizes
    }
}

extension RunMerge {
    /// Refuses runs that are not of one kind, judged by what their files hold rather than by their paths or commits:
    /// another measurement (a timed run and an `--instructions` run), the same run twice (a `cp -r` copy keeps its
    /// identifier and its samples), and as repetitions of one another other sizes, warmups or generated data.
    static func refuseDifferentKinds(_ runs: [MergedRun], asRepetitions: Bool) throws {
        guard let first = runs.first else { return }
        for run in runs.dropFirst() where run.measurement != first.measurement {
            throw BenchError.invalidInput(
                "\(run.folder) measured \(run.measurement.rawValue), \(first.folder) \(first.measurement.rawValue): different measurements, whose numbers do not mix; merge runs of one kind"
            )
        }
        try refuseCopies(runs)
        guard asRepetitions else { return }
        let firstSizes = first.sizes
        for run in runs.dropFirst() {
            let sizes = run.sizes
            for name in Set(firstSizes.keys).intersection(sizes.keys).sorted() where firstSizes[name] != sizes[name] {
                throw BenchError.invalidInput(
                    "--as-repetitions: \(run.folder) measured '\(name)' at sizes \(list(sizes[name] ?? [])), \(first.folder) at \(list(firstSizes[name] ?? [])); repetitions of one run measure the same sizes (merge runs of one --sizes)"
                )
            }
            for (name, schedule) in run.info.schedules ?? [:] {
                guard let other = first.info.schedules?[name], other.warmup != schedule.warmup else { continue }
                throw BenchError.invalidInput(
                    "--as-repetitions: \(run.folder) warmed '\(name)' up \(schedule.warmup) times, \(first.folder) \(other.warmup) times; repetitions of one run are measured alike (merge runs of one --warmup)"
                )
            }
            for (name, origin) in run.info.scenarioOrigins ?? [:] {
                guard let other = first.info.scenarioOrigins?[name], case .generated = origin, other != origin else { continue }
                throw BenchError.invalidInput(
                    "--as-repetitions: \(run.folder) and \(first.folder) generated '\(name)' with other options (--counts or --shape-from): other data; merge runs of one data set"
                )
            }
        }
    }

    /// Refuses a run named twice under other paths: a copy of its folder keeps run.json's identifier and holds the same
    /// samples, which would count twice (n doubled with no new measurement).
    private static func refuseCopies(_ runs: [MergedRun]) throws {
        var byIdentifier: [String: String] = [:]
        var byHash: [Int: [MergedRun]] = [:]
        for run in runs {
            if let identifier = run.info.identifier {
                if let other = byIdentifier.updateValue(run.folder, forKey: identifier) {
                    throw BenchError.invalidInput(
                        "\(other) and \(run.folder) are copies of one run (run.json's identifier \(identifier)); merge each run once, its samples would count twice"
                    )
                }
            }
            guard !run.samples.isEmpty else { continue }
            // An order-free hash of every sample first; the samples themselves compared only when two hashes agree.
            var hash = run.samples.count
            for sample in run.samples { hash = hash &+ SampleIdentity(sample).hashValue }
            if let other = byHash[hash]?.first(where: { identities($0) == identities(run) }) {
                throw BenchError.invalidInput(
                    "\(other.folder) and \(run.folder) hold the same \(run.samples.count) samples, value for value (a copy of one run); merge each run once, its samples would count twice"
                )
            }
            byHash[hash, default: []].append(run)
        }
    }

    private static func identities(_ run: MergedRun) -> [SampleIdentity: Int] {
        Dictionary(run.samples.map { (SampleIdentity($0), 1) }, uniquingKeysWith: +)
    }

    private static func list(_ sizes: [Int]) -> String { "[" + sizes.map(String.init).joined(separator: ", ") + "]" }
}

/// A sample as a merge compares it: series, repetition and the value's exact bits.
private struct SampleIdentity: Hashable {
    let key: SeriesKey
    let repetition: Int
    let value: UInt64?

    init(_ sample: SampleRecord) {
        key = sample.key
        repetition = sample.repetition
        value = sample.value?.bitPattern
    }
}
