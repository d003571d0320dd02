import Foundation

/// A monotonic clock in nanoseconds (CLOCK_MONOTONIC on Linux).
enum MonotonicClock {
    @inline(__always)
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func milliseconds(since start: UInt64) -> Double { Double(now() &- start) / 1_000_000 }
}
