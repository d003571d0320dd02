import Foundation

/// One phase's callgrind dump (`callgrind.out.N`): its instructions, and how many of them the heap allocator ran.
///
/// The allocator's share is the self cost of the functions that allocate and free: glibc's malloc (its
/// `malloc/*.c` sources), the Swift runtime's allocation entry points and RelBench's counting interposer. Profiled
/// (query fetch-all at 10,000 students, glibc's allocator): about 490 of ObjectGraph's 2,520 instructions a row went
/// there, for the two allocations Core Data's structure makes a row (the object and its row snapshot), against none
/// in its floor, which allocates nothing a row. Read from the dump, as callgrind_annotate reads it: a function's self
/// cost is its cost lines, less the inclusive costs of the calls it makes (the line after each `calls=`).
struct CallgrindDump: Equatable {
    var instructions: Double
    var allocatorInstructions: Double

    /// The Swift runtime's functions that allocate or free an object's memory (libswiftCore has no line tables).
    static let runtimeAllocatorFunctions: Set<Substring> = [
        "swift_slowAlloc", "swift_slowDealloc", "swift_allocObject", "swift_deallocObject", "swift_deallocClassInstance",
        "swift_deallocUninitializedObject",
    ]

    /// Whether a function defined in `file` and named `function` belongs to the allocator.
    static func isAllocator(file: Substring, function: Substring) -> Bool {
        if runtimeAllocatorFunctions.contains(function) { return true }
        if file.hasSuffix("CAllocationCounter/allocation_counter.c") { return true }
        // glibc's allocator as its debug info names it: "./malloc/./malloc/malloc.c", ".../malloc/arena.c".
        guard let slash = file.lastIndex(of: "/") else { return false }
        return file[..<slash].hasSuffix("malloc") && file.hasSuffix(".c")
    }

    /// Reads the dump at `path`; nil when it has no totals (a dump valgrind was still writing when stopped).
    init?(contentsOf path: String) {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        self.init(text: text)
    }

    /// Parses a dump's text (callgrind's format, version 1: compressed names, `positions:` columns before the costs,
    /// `Ir` the first event).
    init?(text: String) {
        var positionColumns = 1
        var totals: Double?
        var files: [Substring: Substring] = [:]
        var functions: [Substring: Substring] = [:]
        var file: Substring = ""
        var inAllocator = false
        var nextIsCallCost = false
        var allocator = 0.0
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            guard let first = line.first else { continue }
            if first.isNumber || first == "+" || first == "-" || first == "*" {
                if nextIsCallCost {
                    nextIsCallCost = false
                    continue
                }
                guard inAllocator else { continue }
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                if fields.count > positionColumns, let cost = Double(fields[positionColumns]) { allocator += cost }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                if line.hasPrefix("positions:") {
                    positionColumns = max(1, line.dropFirst("positions:".count).split(separator: " ").count)
                } else if line.hasPrefix("totals:") {
                    totals = line.dropFirst("totals:".count).split(separator: " ").first.flatMap { Double($0) }
                }
                continue
            }
            let key = line[..<equals]
            let value = line[line.index(after: equals)...]
            switch key {
            case "fl": file = Self.name(value, in: &files)
            case "fi", "fe", "cfi", "cfl": _ = Self.name(value, in: &files)
            case "fn":
                inAllocator = Self.isAllocator(file: file, function: Self.name(value, in: &functions))
            case "cfn": _ = Self.name(value, in: &functions)
            case "calls": nextIsCallCost = true
            default: break
            }
        }
        guard let totals else { return nil }
        instructions = totals
        allocatorInstructions = allocator
    }

    init(instructions: Double, allocatorInstructions: Double) {
        self.instructions = instructions
        self.allocatorInstructions = allocatorInstructions
    }

    /// The name a compressed reference stands for: `(12) name` defines number 12, `(12)` refers to it again.
    private static func name(_ reference: Substring, in names: inout [Substring: Substring]) -> Substring {
        guard reference.first == "(", let close = reference.firstIndex(of: ")") else { return reference }
        let number = reference[reference.index(after: reference.startIndex)..<close]
        let rest = reference[reference.index(after: close)...].drop { $0 == " " }
        if !rest.isEmpty { names[number] = rest }
        return names[number] ?? ""
    }
}
