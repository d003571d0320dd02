/// The metrics a run reports, with fixed names and units.
public enum Metric: String, CaseIterable, Codable, Sendable {
    case wallMs = "wall_ms"
    case sqlStatements = "sql_statements"
    case fetchRequests = "fetch_requests"
    case objectFaults = "object_faults"
    case relationshipFaults = "relationship_faults"
    case rowsRead = "rows_read"
    case cacheHits = "cache_hits"
    case cacheMisses = "cache_misses"
    case objectsRegistered = "objects_registered"
    case peakRSSBytes = "peak_rss_bytes"
    case linksIntended = "links_intended"
    case linksPersisted = "links_persisted"
    case linksLost = "links_lost"
    case lossRate = "loss_rate"
    /// Instructions executed in the phase, counted by valgrind (callgrind); only in `--instructions` runs.
    case instructions = "instructions"

    public var unit: String {
        switch self {
        case .wallMs: return "ms"
        case .peakRSSBytes: return "bytes"
        case .lossRate: return "ratio"
        case .instructions: return "instructions"
        default: return "count"
        }
    }

    /// Deterministic for a given build, data and seed: compared exactly, never statistically.
    public var isExact: Bool {
        switch self {
        case .wallMs, .peakRSSBytes, .instructions: return false
        default: return true
        }
    }
}
