#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's CPU time and page faults so far (getrusage, every thread of the process).
///
/// A phase's CPU time leaves out the time the process waited for a core, which wall time on a shared machine
/// includes; its system time and page faults show what first touching new memory costs (the kernel zeroes each
/// page), which differs between strategies that hold different amounts of memory.
struct ProcessUsage {
    var userMilliseconds: Double
    var systemMilliseconds: Double
    /// Minor and major page faults.
    var pageFaults: Int

    /// The usage now, or nil where getrusage fails.
    static func read() -> ProcessUsage? {
        var usage = rusage()
        guard getrusage(Self.everyThread, &usage) == 0 else { return nil }
        return ProcessUsage(
            userMilliseconds: milliseconds(usage.ru_utime), systemMilliseconds: milliseconds(usage.ru_stime),
            pageFaults: Int(usage.ru_minflt) + Int(usage.ru_majflt))
    }

    #if canImport(Glibc)
    private static var everyThread: __rusage_who_t { __rusage_who_t(RUSAGE_SELF.rawValue) }
    #else
    private static var everyThread: Int32 { RUSAGE_SELF }
    #endif

    private static func milliseconds(_ time: timeval) -> Double {
        Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000
    }
}
