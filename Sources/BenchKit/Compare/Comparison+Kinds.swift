import Foundation

extension RunData {
    /// What measured the run: its run.json's word, else what its series hold (instruction counts, or wall-clock times);
    /// nil when neither says (a summary.csv of counters alone).
    package var measurement: MeasurementKind? {
        if let measurement = info?.measurement { return measurement }
        if series.keys.contains(where: { $0.metric == .instructions }) { return .instructions }
        if series.keys.contains(where: { $0.metric == .wallMs }) { return .wallClock }
        return nil
    }

    /// A line saying that the run did not finish or is still being written (`RunInfo.unfinishedNote`); nil for a
    /// complete run or one without run.json.
    package var statusNote: String? { info?.unfinishedNote(source) }
}

extension Comparison {
    /// Refuses to compare runs measured differently: a timed run against an `--instructions` run (valgrind's overhead
    /// would read as a regression of every timing), or either against a device's log. Counters are counted alike
    /// whatever measured the phases, so `--counters-only` compares them across kinds.
    package static func refuseDifferentKinds(baseline: RunData, current: RunData, options: Options) throws {
        guard !options.countersOnly, let before = baseline.measurement, let after = current.measurement, before != after else { return }
        throw BenchError.invalidInput(
            "\(baseline.source) measured \(before.rawValue), \(current.source) \(after.rawValue): different measurements, whose numbers do not compare; compare runs of one kind (or only their counts, with --counters-only)"
        )
    }

    /// Why the comparison compared nothing (the runs have no series in common), or nil: an empty comparison never passes
    /// a gate, with --allow-missing or without.
    package var emptyReason: String? {
        guard inCommon == 0 else { return nil }
        return
            "the baseline and the run have no series in common (\(onlyInBaseline.count) only in the baseline, \(onlyInCurrent.count) only in the run): nothing was compared; compare runs of the same scenarios, strategies, variants and sizes"
    }
}
