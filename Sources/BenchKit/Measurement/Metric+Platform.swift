import Foundation

extension Metric {
    /// The platform-dependent metrics this process cannot measure: allocation counts without glibc's malloc,
    /// peak memory without /proc. Recorded in run.json, so that compare tells a platform's lack from a lost series.
    package static var unmeasurableHere: [Metric] {
        var metrics: [Metric] = []
        if !AllocationCounter.isAvailable { metrics += [.allocations, .allocatedBytes, .retainedBytes] }
        if !FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs") { metrics.append(.peakRSSBytes) }
        return metrics
    }

    package static func < (lhs: Metric, rhs: Metric) -> Bool { lhs.rawValue < rhs.rawValue }
}
