/// One measured value of one phase of one repetition; nil where the strategy cannot measure it.
package struct Measurement: Sendable, Equatable {
    package let phase: PhaseName
    package let metric: Metric
    package let value: Double?
}

/// Measures the phases of one repetition: wall time on a monotonic clock, counter differences, the level of
/// registered objects at the end, and the phase's peak resident memory.
package final class PhaseRecorder {
    package private(set) var measurements: [Measurement] = []

    /// Told when each phase starts and ends (with its measurements), for `bench explain`.
    package struct Observer {
        package var phaseStarted: (PhaseName) -> Void
        package var phaseEnded: (PhaseName, [Measurement]) -> Void
        package init(phaseStarted: @escaping (PhaseName) -> Void, phaseEnded: @escaping (PhaseName, [Measurement]) -> Void) {
            self.phaseStarted = phaseStarted
            self.phaseEnded = phaseEnded
        }
    }
    package var observer: Observer?
    /// The scenario being measured, for injected slowdowns.
    package var scenario: ScenarioName?
    /// Whether phases measure memory (peak resident, retained heap). `bench explain` prints counters only: without it,
    /// a phase skips malloc_trim and mallinfo2, which walk every free chunk of the heap (profiled, perf: mallinfo2 was
    /// 25% of `explain --model` at 1,500 entities, twice a phase on a heap growing with the model).
    package var measuresMemory = true
    /// Whether phases measure their peak resident memory (with `measuresMemory`): only the first round of a series
    /// does (`PlannedRepetition.measuresPeak`). The peak needs `PeakMemory.reset`, whose malloc_trim hands the freed
    /// heap back to the system, so that the phase then faults its memory in again: timed, that first touch was up to
    /// a third of ObjectGraph's fetch of every row (0.05 page faults an object from 10,000 rows up, none at 1,000,
    /// where the trim keeps what the phase needs) and none of its floor's, which allocates nothing a row. A measured
    /// repetition runs on the heap as the rounds before it left it, as a process that does not trim does.
    package var measuresPeak = true

    package init() {}

    /// Runs `body` as the timed phase `phase`; nothing outside `body` is timed.
    @discardableResult
    package func measure<T>(_ phase: PhaseName, _ school: any CounterSource, _ body: () throws -> T) throws -> T {
        let before = school.readings()
        let firstIndex = measurements.count
        observer?.phaseStarted(phase)
        let slowdown = Injection.current.slowdownFraction(scenario: scenario, phase: phase)
        let measuresPeak = measuresMemory && measuresPeak
        let memoryReset = measuresPeak && PeakMemory.reset()
        let allocationsBefore = AllocationCounter.read(heap: measuresMemory)
        let usageBefore = ProcessUsage.read()
        let start = MonotonicClock.now()
        let result = try callgrindMeasuredPhase { () throws -> T in
            let value = try body()
            // Inside the counted region, so that an --instructions run sees the injected work too.
            if let slowdown { Injection.spin(milliseconds: MonotonicClock.milliseconds(since: start) * slowdown) }
            return value
        }
        let elapsed = MonotonicClock.milliseconds(since: start)
        let usageAfter = ProcessUsage.read()
        let allocationsAfter = AllocationCounter.read(heap: measuresMemory)
        let peak = memoryReset ? PeakMemory.highWaterMark() : nil
        let after = school.readings()
        record(phase, .wallMs, elapsed)
        record(phase, .sqlStatements, difference(before.statements, after.statements))
        record(phase, .fetchRequests, difference(before.fetchRequests, after.fetchRequests))
        record(phase, .objectFaults, difference(before.objectFaults, after.objectFaults))
        record(phase, .relationshipFaults, difference(before.relationshipFaults, after.relationshipFaults))
        record(phase, .rowsRead, difference(before.rowsRead, after.rowsRead))
        record(phase, .cacheHits, difference(before.cacheHits, after.cacheHits))
        record(phase, .cacheMisses, difference(before.cacheMisses, after.cacheMisses))
        record(phase, .objectsRegistered, after.objectsRegistered.map(Double.init))
        if measuresPeak || !measuresMemory { record(phase, .peakRSSBytes, peak) }
        if let before = allocationsBefore, let after = allocationsAfter {
            record(phase, .allocations, Double(after.allocations - before.allocations))
            record(phase, .allocatedBytes, Double(after.bytes - before.bytes))
            record(phase, .retainedBytes, measuresMemory ? Double(after.heapInUse) - Double(before.heapInUse) : nil)
        } else {
            record(phase, .allocations, nil)
            record(phase, .allocatedBytes, nil)
            record(phase, .retainedBytes, nil)
        }
        if let before = usageBefore, let after = usageAfter {
            record(phase, .cpuUserMs, after.userMilliseconds - before.userMilliseconds)
            record(phase, .cpuSystemMs, after.systemMilliseconds - before.systemMilliseconds)
            record(phase, .pageFaults, Double(after.pageFaults - before.pageFaults))
        } else {
            record(phase, .cpuUserMs, nil)
            record(phase, .cpuSystemMs, nil)
            record(phase, .pageFaults, nil)
        }
        observer?.phaseEnded(phase, Array(measurements[firstIndex...]))
        return result
    }

    /// Records a value a workload computed itself (links lost, loss rate).
    package func record(_ phase: PhaseName, _ metric: Metric, _ value: Double?) {
        measurements.append(Measurement(phase: phase, metric: metric, value: value))
    }

    private func difference(_ before: Int?, _ after: Int?) -> Double? {
        guard let before, let after else { return nil }
        return Double(after - before)
    }
}

/// The timed body of a phase. Its name is what `bench run --instructions` tells callgrind to collect in (and
/// to dump after), so that each phase's instructions are counted alone: keep it a function of its own.
@inline(never)
func callgrindMeasuredPhase<T>(_ body: () throws -> T) rethrows -> T {
    try body()
}
