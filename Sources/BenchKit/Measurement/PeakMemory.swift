import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The peak resident memory of a phase: the kernel's high-water mark (VmHWM), reset before the phase by
/// writing 5 to /proc/self/clear_refs, after returning freed heap to the system (malloc_trim).
enum PeakMemory {
    /// Resets the high-water mark to the current resident size; false where the system cannot.
    @discardableResult
    static func reset() -> Bool {
        _ = releaseFreedHeap?(0)
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// The high-water mark in bytes, or nil where /proc is not available.
    static func highWaterMark() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let digits = line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first
            return digits.flatMap { Double($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// glibc's `malloc_trim`, looked up at run time (its header is not part of Swift's Glibc module).
    private static let releaseFreedHeap: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
