import Foundation
import Testing

@testable import BenchKit

/// Reading a phase's callgrind dump: its total, and the allocator's self cost, as callgrind_annotate would count it.
@Suite struct CallgrindDumpTests {
    /// Lines as callgrind 3.19 writes them (names compressed on first use, `+n` and `*` positions, inlined files, calls
    /// whose next line is the callee's inclusive cost), for a phase that fetches through glibc's allocator.
    static let dump = """
        # callgrind format
        version: 1
        creator: callgrind-3.19.0
        part: 1

        positions: line
        events: Ir
        summary: 1000

        ob=(1) /usr/lib/x86_64-linux-gnu/libc.so.6
        fl=(1) ./malloc/./malloc/malloc.c
        fn=(1) _int_malloc
        3869 120
        +2 14
        fn=(2) malloc
        3288 40
        cfn=(1)
        calls=1 3869
        * 134
        ob=(2) /opt/swift/usr/lib/swift/linux/libswiftCore.so
        fl=(2) ???
        fn=(3) swift_slowAlloc
        0 20
        cob=(1)
        cfi=(1)
        cfn=(2)
        calls=1 0
        0 174
        fn=(4) swift_retain
        0 11
        ob=(3) /work/main/.build/release/bench
        fl=(3) /work/main/Sources/CAllocationCounter/allocation_counter.c
        fn=(5) malloc
        90 11
        fl=(4) /work/main/Sources/ObjectGraph/Fetching/ObjectContext+Fetch.swift
        fn=(6) $s11ObjectGraph0A7ContextC12fetchObjects
        100 300
        fi=(1)
        3288 7
        fe=(4)
        cfl=(2)
        cfn=(3)
        calls=2 0
        101 388
        cfn=(4)
        calls=1 0
        102 11
        fl=(1)
        fn=(1)
        3869 80

        totals: 1000
        """

    @Test func theAllocatorIsItsFunctionsSelfCost() throws {
        let read = try #require(CallgrindDump(text: Self.dump))
        #expect(read.instructions == 1000)
        // _int_malloc 120 + 14 + 80 (its second block), malloc 40, swift_slowAlloc 20, the interposer 11; not the
        // calls' inclusive lines, nor swift_retain, nor the fetch's own line inlined from malloc.c (its function is
        // the fetch's).
        #expect(read.allocatorInstructions == 285)
    }

    @Test func instructionPositionsAreSkipped() throws {
        let withAddresses = Self.dump.replacingOccurrences(of: "positions: line", with: "positions: instr line")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { line -> String in
                guard let first = line.first, first.isNumber || first == "+" || first == "*" else { return String(line) }
                return "0x4000 " + line
            }
            .joined(separator: "\n")
        let read = try #require(CallgrindDump(text: withAddresses))
        #expect(read.instructions == 1000)
        #expect(read.allocatorInstructions == 285)
    }

    @Test func aDumpWithoutTotalsIsUnread() {
        #expect(CallgrindDump(text: "version: 1\npositions: line\nevents: Ir\nfn=(1) malloc\n0 5\n") == nil)
        #expect(CallgrindDump(contentsOf: "/nonexistent/callgrind.out.1") == nil)
    }

    @Test func allocatorFunctionsAreNamedByFileOrRuntimeEntryPoint() {
        #expect(CallgrindDump.isAllocator(file: "./malloc/./malloc/malloc.c", function: "_int_free"))
        #expect(CallgrindDump.isAllocator(file: "./malloc/./malloc/arena.c", function: "malloc"))
        #expect(CallgrindDump.isAllocator(file: "???", function: "swift_allocObject"))
        #expect(!CallgrindDump.isAllocator(file: "???", function: "swift_retain"))
        #expect(!CallgrindDump.isAllocator(file: "./string/../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S", function: "memcpy"))
        #expect(!CallgrindDump.isAllocator(file: "???", function: "sqlite3Malloc"))
    }
}
