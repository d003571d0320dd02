import Foundation

/// The metrics a run reports, with fixed names and units, each declaring once which way is better and how two
/// runs' values of it are compared.
package enum Metric: String, CaseIterable, Codable, Sendable, Comparable {
    case wallMs = "wall_ms"
    /// CPU time the process spent in the phase in user space and in the kernel (every thread): unlike wall time,
    /// without the time the process waited for a core.
    case cpuUserMs = "cpu_user_ms"
    case cpuSystemMs = "cpu_system_ms"
    /// Minor and major page faults the process took in the phase (mostly first touches of new heap pages).
    case pageFaults = "page_faults"
    case sqlStatements = "sql_statements"
    case fetchRequests = "fetch_requests"
    case objectFaults = "object_faults"
    case relationshipFaults = "relationship_faults"
    case rowsRead = "rows_read"
    case cacheHits = "cache_hits"
    case cacheMisses = "cache_misses"
    case objectsRegistered = "objects_registered"
    case peakRSSBytes = "peak_rss_bytes"
    /// Heap allocations made in the phase (malloc, calloc, realloc, aligned allocators).
    case allocations = "allocations"
    /// Bytes those allocations asked for.
    case allocatedBytes = "allocated_bytes"
    /// How much more heap the program held at the end of the phase than at its start (negative: it freed more).
    case retainedBytes = "retained_bytes"
    /// What a declared phase's last `count` step counted (rows a delete rule left, say).
    case countResult = "count_result"
    /// Saves a delete rule or a validation refused in a declared phase (`"save": "may-fail"`).
    case failedSaves = "failed_saves"
    case linksIntended = "links_intended"
    case linksPersisted = "links_persisted"
    case linksLost = "links_lost"
    case lossRate = "loss_rate"
    /// Instructions executed in the phase, counted by valgrind (callgrind); only in `--instructions` runs.
    case instructions = "instructions"
    /// Those of the phase's instructions the heap allocator ran (`CallgrindDump`): ObjectGraph's own work is the rest.
    case allocatorInstructions = "allocator_instructions"
    /// A device's time for the phase predicted from the exact counters and the costs fitted to that device's log
    /// (`bench run --device-costs FILE`): a prediction, reported beside the measured times and never judged.
    case predictedDeviceMs = "predicted_device_ms"

    /// The metric a report names, or an error naming the metrics there are.
    package static func named(_ name: String) throws -> Metric {
        if let metric = Metric(rawValue: name) { return metric }
        throw BenchError.unknown("metric", name, among: allCases.map(\.rawValue))
    }

    /// The unit its values are in (samples.csv's unit column), which decides how a value is written.
    package var unit: MetricUnit {
        switch self {
        case .wallMs, .cpuUserMs, .cpuSystemMs, .predictedDeviceMs: return .milliseconds
        case .peakRSSBytes, .allocatedBytes, .retainedBytes: return .bytes
        case .lossRate: return .ratio
        case .instructions, .allocatorInstructions: return .instructions
        case .pageFaults, .sqlStatements, .fetchRequests, .objectFaults, .relationshipFaults, .rowsRead, .cacheHits, .cacheMisses,
            .objectsRegistered, .allocations, .countResult, .failedSaves, .linksIntended, .linksPersisted, .linksLost:
            return .count
        }
    }

    /// Which phases report the metric.
    package enum Origin: Sendable, Equatable {
        /// Every measured phase (the platform permitting: `dependsOnPlatform`).
        case everyPhase
        /// A phase with a `count` step: what the last one counted.
        case countStep
        /// A phase with a save that may fail (`"save": "may-fail"`).
        case mayFailSave
        /// A phase with a `count-links` step.
        case countLinksStep
        /// Only a run under callgrind (`--instructions`).
        case instructionRuns
        /// Only a run given a device's costs (`--device-costs`).
        case deviceCosts
    }

    package var origin: Origin {
        switch self {
        case .wallMs, .cpuUserMs, .cpuSystemMs, .pageFaults, .sqlStatements, .fetchRequests, .objectFaults, .relationshipFaults, .rowsRead,
            .cacheHits, .cacheMisses, .objectsRegistered, .peakRSSBytes, .allocations, .allocatedBytes, .retainedBytes:
            return .everyPhase
        case .countResult: return .countStep
        case .failedSaves: return .mayFailSave
        case .linksIntended, .linksPersisted, .linksLost, .lossRate: return .countLinksStep
        case .instructions, .allocatorInstructions: return .instructionRuns
        case .predictedDeviceMs: return .deviceCosts
        }
    }

    /// Whether the platform decides if the metric is measured at all: allocation counts need glibc's malloc,
    /// peak memory and CPU times /proc and getrusage. A run that has none of it lacks the means, not the series.
    package var dependsOnPlatform: Bool {
        switch self {
        case .allocations, .allocatedBytes, .retainedBytes, .peakRSSBytes, .cpuUserMs, .cpuSystemMs, .pageFaults: return true
        case .wallMs, .sqlStatements, .fetchRequests, .objectFaults, .relationshipFaults, .rowsRead, .cacheHits, .cacheMisses,
            .objectsRegistered, .countResult, .failedSaves, .linksIntended, .linksPersisted, .linksLost, .lossRate, .instructions,
            .allocatorInstructions, .predictedDeviceMs:
            return false
        }
    }

    /// Which way is better.
    package enum Polarity: Sendable {
        case lowerIsBetter
        case higherIsBetter
        /// A change is reported, never judged (what a workload intended, how often the row cache answered).
        case neutral
    }

    package var polarity: Polarity {
        switch self {
        case .linksPersisted: return .higherIsBetter
        // More cache hits can mean fewer statements or more faults: the statements and faults judge.
        // A prediction follows the counters, which judge; a new costs file changes it without a change in the code.
        case .linksIntended, .cacheHits, .cacheMisses, .countResult, .failedSaves, .predictedDeviceMs: return .neutral
        case .wallMs, .cpuUserMs, .cpuSystemMs, .pageFaults, .sqlStatements, .fetchRequests, .objectFaults, .relationshipFaults,
            .rowsRead, .objectsRegistered, .peakRSSBytes, .allocations, .allocatedBytes, .retainedBytes, .linksLost, .lossRate,
            .instructions, .allocatorInstructions:
            return .lowerIsBetter
        }
    }

    /// How two runs' values are compared.
    package enum Comparison: Sendable, Equatable {
        /// Deterministic for a given build, data and seed: any change counts.
        case exact
        /// Nearly deterministic: a change counts beyond `relative` of the baseline and `absolute` units. Allocation
        /// counts move by a handful between processes (lazily built runtime metadata, a hash table growing a step
        /// earlier, a thread of the process allocating during the phase: 4,647 against 4,699 in two smoke runs), and
        /// bytes by one buffer sized at run time (24,528 bytes between repetitions of one process with the same
        /// count, insert at 1,000), never by a per-row amount.
        case tolerance(relative: Double, absolute: Double)
        /// callgrind's counts: a change counts beyond the instruction thresholds (a few thousand is heap layout).
        case instructionCount
        /// Timings and memory: a significant and large change counts (Mann-Whitney U, Benjamini-Hochberg).
        case statistical
    }

    package var comparison: Comparison {
        switch self {
        // Page faults follow the heap's state, which the repetitions before leave behind: measured, not exact.
        case .wallMs, .cpuUserMs, .cpuSystemMs, .pageFaults, .peakRSSBytes, .retainedBytes: return .statistical
        case .instructions, .allocatorInstructions: return .instructionCount
        case .allocations: return .tolerance(relative: 0.02, absolute: 100)
        case .allocatedBytes: return .tolerance(relative: 0.02, absolute: 65_536)
        case .sqlStatements, .fetchRequests, .objectFaults, .relationshipFaults, .rowsRead, .cacheHits, .cacheMisses,
            .objectsRegistered, .countResult, .failedSaves, .linksIntended, .linksPersisted, .linksLost, .lossRate,
            .predictedDeviceMs:
            return .exact
        }
    }

    /// Whether the metric is a count that transfers to an app where ObjectGraph is faithful to Core Data: the
    /// statements, fetches, faults and rows Core Data runs, the links a save loses, the saves it refuses, what a count
    /// request returns. The CI gate (`--counters-only`) compares these; ObjectGraph's own figures (times, memory,
    /// allocations, its row cache's hits) say nothing about a device.
    package var transfers: Bool {
        switch self {
        case .sqlStatements, .fetchRequests, .objectFaults, .relationshipFaults, .rowsRead, .linksIntended, .linksPersisted, .linksLost,
            .lossRate, .failedSaves, .countResult:
            return true
        case .wallMs, .cpuUserMs, .cpuSystemMs, .pageFaults, .cacheHits, .cacheMisses, .objectsRegistered, .peakRSSBytes,
            .allocations, .allocatedBytes, .retainedBytes, .instructions, .allocatorInstructions, .predictedDeviceMs:
            return false
        }
    }

    /// ObjectGraph's allocation figures: near-exact, but its own, so gated only when asked (`--gate allocations`).
    package var isAllocationCount: Bool { self == .allocations || self == .allocatedBytes }

    /// Whether the metric is compared without statistics (exact counters and near-exact allocation counts).
    package var isCounter: Bool {
        switch comparison {
        case .exact, .tolerance: return true
        case .instructionCount, .statistical: return false
        }
    }

    /// Deterministic for a given build, data and seed: compared exactly, never statistically.
    package var isExact: Bool { comparison == .exact }

    /// A number of things (statements, faults, rows, objects, links, saves): a whole number, never negative.
    package var isCount: Bool { unit == .count }
}
