import Foundation

#if _endian(big)
#error("RowSlots counts a tag word's extra slot words as little-endian bytes")
#endif

/// A slot's tag: what its payload holds, and in its top two bits how many words past the first the slot takes
/// (`widthBits`: none for eight bytes, one for sixteen, both for twenty-four).
enum SlotTag: UInt8 {
    case null, int, double, bool, string, date, uuid, binary, url, decimal
    /// A `ValueBox` holding a value whose payload does not fit the slot.
    case boxed

    static let widthBits: UInt8 = 0xC0

    /// The width bits of a slot of `words` words (1 to 3).
    static func widthBits(words: Int) -> UInt8 {
        switch words {
        case 1: return 0
        case 2: return 0x80
        default: return 0xC0
        }
    }

    /// Whether the payload holds a reference to release.
    var holdsReference: Bool {
        switch self {
        case .string, .binary, .url, .boxed: return true
        case .null, .int, .double, .bool, .date, .uuid, .decimal: return false
        }
    }
}

/// A value kept out of line: one too wide for its slot.
final class ValueBox {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The tags and payloads of a row's words, read and written in place; it does not own them.
struct RowSlots {
    let words: UnsafeMutablePointer<UInt64>
    let count: Int

    @inline(__always)
    init(_ words: UnsafeMutablePointer<UInt64>, count: Int) {
        self.words = words
        self.count = count
    }

    /// Whether String, Data, URL and UUID fit two words and Decimal three, so that they can be kept in slots.
    static let payloadsFit =
        fits(String.self, words: 2) && fits(Data.self, words: 2) && fits(URL.self, words: 2)
        && fits(UUID.self, words: 2) && fits(Decimal.self, words: 3)

    private static func fits<T>(_: T.Type, words: Int) -> Bool {
        MemoryLayout<T>.size <= 8 * words && MemoryLayout<T>.alignment <= 8
    }

    /// Tag bytes are read and written as bytes of the words (raw), which are read whole to sum extra words.
    @inline(__always)
    private func tagByte(_ slot: Int) -> UInt8 { UnsafeRawPointer(words).load(fromByteOffset: slot, as: UInt8.self) }

    @inline(__always)
    private func setTagByte(_ slot: Int, _ byte: UInt8) {
        UnsafeMutableRawPointer(words).storeBytes(of: byte, toByteOffset: slot, as: UInt8.self)
    }

    @inline(__always)
    func tag(_ slot: Int) -> SlotTag {
        // Every tag byte was written from a `SlotTag` (profiled: `init(rawValue:)` was a call, not inlined).
        unsafeBitCast(tagByte(slot) & ~SlotTag.widthBits, to: SlotTag.self)
    }

    /// The words `slot`'s payload takes: 1, 2 or 3.
    @inline(__always)
    func slotWords(_ slot: Int) -> Int { 1 + Int(tagByte(slot) &>> 7) + Int(tagByte(slot) &>> 6 & 1) }

    /// The words of the row: tag words, then each slot's.
    var wordCount: Int {
        let tagWords = RowShape.tagWords(count: count)
        return (0..<tagWords).reduce(tagWords + count) { $0 + RowSlots.extraWords(in: words[$1], before: 8) }
    }

    /// The payload of `slot`: after the tag words, a word for each slot before it and its extra words.
    @inline(__always)
    func payload(_ slot: Int) -> UnsafeMutableRawPointer {
        let word = slot >> 3
        var extra = RowSlots.extraWords(in: words[word], before: slot & 7)
        var index = 0
        while index < word {
            extra += RowSlots.extraWords(in: words[index], before: 8)
            index += 1
        }
        return UnsafeMutableRawPointer(words + RowShape.tagWords(count: count) + slot + extra)
    }

    /// The extra words (the width bits' count) of the first `slots` (0...8) tags of a tag word. Without a popcount
    /// instruction (Swift's x86-64 baseline has none; profiled: `nonzeroBitCount` made reading an attribute 40
    /// instructions dearer): each tag's count (0 to 2) goes into its byte, shifted up a byte, and a multiplication
    /// by 0x0101... sums every byte into the bytes above it, so that byte `slots` holds the sum of the bytes below.
    @inline(__always)
    static func extraWords(in tags: UInt64, before slots: Int) -> Int {
        let counts = (tags &>> 7 & 0x0101_0101_0101_0101) &+ (tags &>> 6 & 0x0101_0101_0101_0101)
        let sums = (counts &<< 8) &* 0x0101_0101_0101_0101
        return slots == 8
            ? Int(truncatingIfNeeded: (counts &* 0x0101_0101_0101_0101) &>> 56)
            : Int(truncatingIfNeeded: (sums &>> UInt64(slots << 3)) & 0xff)
    }

    /// The value in `slot`.
    @inline(__always)
    func value(_ slot: Int) -> Value {
        value(slot, at: payload(slot))
    }

    /// The value in `slot`, whose payload starts at `word` (`RowShape.Column.word` of the row's shape): no sum of
    /// the tag words before it.
    @inline(__always)
    func value(_ slot: Int, atWord word: Int) -> Value {
        value(slot, at: payload(atWord: word))
    }

    @inline(__always)
    private func value(_ slot: Int, at payload: UnsafeMutableRawPointer) -> Value {
        switch tag(slot) {
        case .null: return .null
        case .int: return .int(payload.load(as: Int64.self))
        case .double: return .double(payload.load(as: Double.self))
        case .bool: return .bool(payload.load(as: Bool.self))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: payload.load(as: Double.self)))
        case .uuid: return .uuid(payload.load(as: UUID.self))
        case .decimal: return .decimal(payload.load(as: Decimal.self))
        case .string: return .string(payload.assumingMemoryBound(to: String.self).pointee)
        case .binary: return .binary(payload.assumingMemoryBound(to: Data.self).pointee)
        case .url: return .url(payload.assumingMemoryBound(to: URL.self).pointee)
        case .boxed: return payload.assumingMemoryBound(to: ValueBox.self).pointee.value
        }
    }

    /// Puts `value` into `slot`, whose payload holds nothing to release.
    @inline(__always)
    func initialize(_ slot: Int, _ value: Value) {
        initialize(slot, value, at: payload(slot))
    }

    @inline(__always)
    private func initialize(_ slot: Int, _ value: Value, at payload: UnsafeMutableRawPointer) {
        let words = slotWords(slot)
        let tag: SlotTag
        switch value {
        case .null: tag = .null
        case let .int(v):
            payload.storeBytes(of: v, as: Int64.self)
            tag = .int
        case let .double(v):
            payload.storeBytes(of: v, as: Double.self)
            tag = .double
        case let .bool(v):
            payload.storeBytes(of: v, as: Bool.self)
            tag = .bool
        case let .date(v):
            payload.storeBytes(of: v.timeIntervalSinceReferenceDate, as: Double.self)
            tag = .date
        case let .uuid(v) where words >= 2:
            payload.storeBytes(of: v, as: UUID.self)
            tag = .uuid
        case let .string(v) where words >= 2:
            payload.initializeMemory(as: String.self, repeating: v, count: 1)
            tag = .string
        case let .binary(v) where words >= 2:
            payload.initializeMemory(as: Data.self, repeating: v, count: 1)
            tag = .binary
        case let .url(v) where words >= 2:
            payload.initializeMemory(as: URL.self, repeating: v, count: 1)
            tag = .url
        case let .decimal(v) where words >= 3:
            payload.storeBytes(of: v, as: Decimal.self)
            tag = .decimal
        case .uuid, .string, .binary, .url, .decimal:
            payload.initializeMemory(as: ValueBox.self, repeating: ValueBox(value), count: 1)
            tag = .boxed
        }
        setTagByte(slot, SlotTag.widthBits(words: words) | tag.rawValue)
    }

    /// Puts the bytes of a value that holds no reference into `slot` (whose payload, at `payload`, holds nothing to
    /// release); they must fit the slot.
    @inline(__always)
    func initialize<Payload: BitwiseCopyable>(_ slot: Int, _ bits: Payload, as tag: SlotTag, at payload: UnsafeMutableRawPointer) {
        assert(MemoryLayout<Payload>.size <= 8 * slotWords(slot))
        payload.storeBytes(of: bits, as: Payload.self)
        setTagByte(slot, tagByte(slot) & SlotTag.widthBits | tag.rawValue)
    }

    /// Puts a string into `slot` (whose payload, at `payload`, holds nothing to release); a string column's slot is
    /// two words, and a one-word slot gets the string boxed.
    @inline(__always)
    func initialize(_ slot: Int, string: consuming String, at payload: UnsafeMutableRawPointer) {
        guard slotWords(slot) >= 2 else { return initialize(slot, .string(string)) }
        payload.initializeMemory(as: String.self, repeating: string, count: 1)
        setTagByte(slot, tagByte(slot) & SlotTag.widthBits | SlotTag.string.rawValue)
    }

    /// The payload of a slot that starts at `word` (`RowShape.Column.word`).
    @inline(__always)
    func payload(atWord word: Int) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(words + word) }

    /// Makes `slot`, whose payload holds nothing to release, null.
    @inline(__always)
    func initializeNull(_ slot: Int) {
        setTagByte(slot, tagByte(slot) & SlotTag.widthBits)
    }

    /// Releases what `slot`'s payload holds, leaving it null.
    @inline(__always)
    func deinitialize(_ slot: Int) {
        guard tag(slot).holdsReference else { return }
        release(slot, at: payload(slot))
    }

    @inline(__always)
    private func release(_ slot: Int, at payload: UnsafeMutableRawPointer) {
        switch tag(slot) {
        case .string: payload.assumingMemoryBound(to: String.self).deinitialize(count: 1)
        case .binary: payload.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
        case .url: payload.assumingMemoryBound(to: URL.self).deinitialize(count: 1)
        case .boxed: payload.assumingMemoryBound(to: ValueBox.self).deinitialize(count: 1)
        case .null, .int, .double, .bool, .date, .uuid, .decimal: break
        }
        initializeNull(slot)
    }

    /// Initializes the reference in `slot`'s payload as a copy of `source`'s, slot for slot: for a row whose tags
    /// and bytes were copied from `source`, so that each reference gets its own count.
    func initializeReference(_ slot: Int, from source: RowSlots) {
        let target = payload(slot)
        let payload = source.payload(slot)
        switch source.tag(slot) {
        case .string: target.initializeMemory(as: String.self, repeating: payload.assumingMemoryBound(to: String.self).pointee, count: 1)
        case .binary: target.initializeMemory(as: Data.self, repeating: payload.assumingMemoryBound(to: Data.self).pointee, count: 1)
        case .url: target.initializeMemory(as: URL.self, repeating: payload.assumingMemoryBound(to: URL.self).pointee, count: 1)
        case .boxed:
            target.initializeMemory(as: ValueBox.self, repeating: payload.assumingMemoryBound(to: ValueBox.self).pointee, count: 1)
        case .null, .int, .double, .bool, .date, .uuid, .decimal: break
        }
    }

    /// Replaces the value in `slot`.
    @inline(__always)
    func set(_ slot: Int, _ value: Value) {
        let payload = payload(slot)
        if tag(slot).holdsReference { release(slot, at: payload) }
        initialize(slot, value, at: payload)
    }

    @inline(__always)
    func isNull(_ slot: Int) -> Bool { tag(slot) == .null }

    /// Whether some slot holds a reference to release.
    var holdsReferences: Bool {
        (0..<count).contains { tag($0).holdsReference }
    }
}
