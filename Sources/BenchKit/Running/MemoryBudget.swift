import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The memory a run may use, against what a scenario's data at a size is estimated to take: a size whose data cannot
/// fit is refused before anything is made, instead of ending in an allocation crash that leaves run.json "running".
///
/// The bound is the smaller of the memory the kernel says is available (MemAvailable in /proc/meminfo) and what the
/// process's address-space limit (`ulimit -v`) leaves; the estimate is 2 KiB an object of the data section (the
/// insert scenario's peak resident memory grows by 3.2 KB a student from 100 to 1,000 students, template and graph
/// included), so that it refuses only sizes that cannot run, not ones that might.
package struct MemoryBudget: Sendable {
    package let bytes: UInt64
    /// Where the bound comes from, as a message says it.
    package let source: String

    /// Bytes the estimate gives each object the data section makes.
    static let bytesPerObject: UInt64 = 2048

    /// This machine's bound now; nil where neither /proc/meminfo nor a limit says one.
    package static var machine: MemoryBudget? {
        var budgets: [MemoryBudget] = []
        if let available = procValue("/proc/meminfo", "MemAvailable:") {
            budgets.append(MemoryBudget(bytes: available, source: "MemAvailable in /proc/meminfo, the memory this machine has available"))
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            let used = procValue("/proc/self/status", "VmSize:") ?? 0
            let left = UInt64(limit.rlim_cur) > used ? UInt64(limit.rlim_cur) - used : 0
            budgets.append(MemoryBudget(bytes: left, source: "what the address-space limit, ulimit -v, leaves this process"))
        }
        return budgets.min { $0.bytes < $1.bytes }
    }

    /// The objects the data section of `scenario` makes at `size`: the most of any variant.
    static func objects(_ scenario: Scenario, size: Int) -> UInt64 {
        scenario.declared.plans.values.map { plan in
            plan.generator.spec.counts.values.reduce(UInt64(0)) { $0 + UInt64(max(0, $1.value(size: size))) }
        }.max() ?? 0
    }

    /// Refuses `size` of `scenario` when its estimate exceeds the machine's bound; `option` names where the size came from.
    package static func check(_ scenario: Scenario, size: Int, option: String) throws {
        guard let budget = machine else { return }
        let objects = objects(scenario, size: size)
        let (estimate, overflow) = objects.multipliedReportingOverflow(by: bytesPerObject)
        guard overflow || estimate > budget.bytes else { return }
        throw BenchError.invalidInput(
            "\(option) \(size): \(scenario.name)'s data is \(formatCount(Double(objects))) objects, about \(gibibytes(overflow ? .max : estimate)) of memory at 2 KiB an object, more than the \(gibibytes(budget.bytes)) of \(budget.source); give a smaller size"
        )
    }

    static func gibibytes(_ bytes: UInt64) -> String {
        String(format: "%.1f GiB", Double(bytes) / 1_073_741_824)
    }

    /// A "Name:   123 kB" line's value in bytes.
    private static func procValue(_ file: String, _ key: String) -> UInt64? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            let fields = line.dropFirst(key.count).split(separator: " ")
            guard let value = fields.first.flatMap({ UInt64($0) }) else { return nil }
            return fields.count > 1 && fields[1] == "kB" ? value * 1024 : value
        }
        return nil
    }
}
