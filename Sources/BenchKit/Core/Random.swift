import Foundation

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same data on every machine.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A value in 0..<1.
    package mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

extension UUID {
    init<R: RandomNumberGenerator>(randomUsing random: inout R) {
        var bytes = (random.next(), random.next())
        self = withUnsafeBytes(of: &bytes) { raw in
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[0..<16])) }
            return UUID(uuid: uuid)
        }
    }
}
