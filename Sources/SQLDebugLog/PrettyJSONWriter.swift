import Foundation

/// JSON written byte for byte as `JSONEncoder` writes it with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`
/// (two spaces a level, `"key" : value`, an empty container as `{`, a blank line, `}`), but a piece at a time into a
/// sink, so that a document of tens of MB is never held whole.
///
/// The caller gives each object's keys in sorted order (UTF-8 byte order, as the encoder sorts them on Linux; checked
/// in debug builds). Small parts with their own `Codable` form are written through `JSONEncoder` by `embed`.
struct PrettyJSONWriter {
    /// Bytes gathered before they are handed to the sink.
    static let chunkSize = 1 << 16

    private var buffer: [UInt8] = []
    private var depth = 0
    /// Whether the innermost open container has no element yet.
    private var isFirst = true
    private let sink: ([UInt8]) throws -> Void
    private let encoder: JSONEncoder
    #if DEBUG
    /// The last key of each open object, to check that keys come sorted.
    private var lastKeys: [[UInt8]] = []
    #endif

    init(sink: @escaping ([UInt8]) throws -> Void) {
        self.sink = sink
        encoder = JSONEncoder()
        encoder.outputFormatting = Self.formatting
        buffer.reserveCapacity(Self.chunkSize + 4096)
    }

    /// The encoder options whose output this writer reproduces.
    static let formatting: JSONEncoder.OutputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]

    // MARK: Containers

    mutating func beginObject() throws {
        buffer.append(UInt8(ascii: "{"))
        open()
        #if DEBUG
        lastKeys.append([])
        #endif
    }

    mutating func endObject() throws {
        close(UInt8(ascii: "}"))
        #if DEBUG
        lastKeys.removeLast()
        #endif
        try flushIfFull()
    }

    mutating func beginArray() throws {
        buffer.append(UInt8(ascii: "["))
        open()
        #if DEBUG
        lastKeys.append([])
        #endif
    }

    mutating func endArray() throws {
        close(UInt8(ascii: "]"))
        #if DEBUG
        lastKeys.removeLast()
        #endif
        try flushIfFull()
    }

    /// Starts the next element of an array.
    mutating func element() {
        separate()
    }

    /// Starts the member `name` of an object (a fixed name: no escapes needed).
    mutating func key(_ name: StaticString) {
        separate()
        buffer.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { buffer.append(contentsOf: $0) }
        #if DEBUG
        name.withUTF8Buffer { checkOrder(Array($0)) }
        #endif
        buffer.append(contentsOf: [UInt8(ascii: "\""), 32, UInt8(ascii: ":"), 32])
    }

    /// Starts the member `name` of an object (a name from data: escaped as strings are).
    mutating func key(_ name: String) {
        separate()
        string(name)
        #if DEBUG
        checkOrder(Array(name.utf8))
        #endif
        buffer.append(contentsOf: [32, UInt8(ascii: ":"), 32])
    }

    // MARK: Values

    mutating func int(_ value: Int) {
        if value < 0 {
            buffer.append(UInt8(ascii: "-"))
            if value == .min {
                buffer.append(contentsOf: "9223372036854775808".utf8)
                return
            }
        }
        var magnitude = value.magnitude
        guard magnitude > 0 else {
            buffer.append(UInt8(ascii: "0"))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // up to 20 digits, written backwards
        var count = 0
        withUnsafeMutableBytes(of: &digits) { raw in
            while magnitude > 0 {
                raw[23 - count] = UInt8(truncatingIfNeeded: magnitude % 10) + 48
                magnitude /= 10
                count += 1
            }
            buffer.append(contentsOf: raw[(24 - count)...])
        }
    }

    /// A finite number as the encoder writes it: Swift's shortest round-trip form, `.0` dropped.
    mutating func double(_ value: Double) {
        let text = value.description
        var utf8 = text.utf8[...]
        if text.hasSuffix(".0") { utf8 = utf8.dropLast(2) }
        buffer.append(contentsOf: utf8)
    }

    mutating func bool(_ value: Bool) {
        buffer.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    mutating func null() {
        buffer.append(contentsOf: "null".utf8)
    }

    /// A string, escaped as the encoder escapes it: `"` and `\`, `\b \f \n \r \t`, other control bytes as `\u00XX`
    /// (lower-case hex); slashes and everything else as they are.
    mutating func string(_ value: String) {
        buffer.append(UInt8(ascii: "\""))
        var copy = value
        copy.withUTF8 { bytes in
            var mark = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[mark..<index]))
                mark = index + 1
                buffer.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
                case 0x08: buffer.append(UInt8(ascii: "b"))
                case 0x0C: buffer.append(UInt8(ascii: "f"))
                case 0x0A: buffer.append(UInt8(ascii: "n"))
                case 0x0D: buffer.append(UInt8(ascii: "r"))
                case 0x09: buffer.append(UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    buffer.append(contentsOf: [UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[mark...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// A value with a `Codable` form, as the encoder writes it, indented to this place.
    mutating func embed(_ value: some Encodable) throws {
        let data = try encoder.encode(value)
        let indent = 2 * depth
        data.withUnsafeBytes { raw in
            var mark = 0
            for index in 0..<raw.count where raw[index] == 10 {
                buffer.append(contentsOf: raw[mark...index])
                // The blank line inside an empty container has no indent.
                if index + 1 < raw.count, raw[index + 1] != 10 { buffer.append(contentsOf: repeatElement(32, count: indent)) }
                mark = index + 1
            }
            buffer.append(contentsOf: raw[mark...])
        }
        try flushIfFull()
    }

    /// Hands what is left to the sink.
    mutating func finish() throws {
        precondition(depth == 0, "PrettyJSONWriter.finish with a container open")
        if !buffer.isEmpty { try sink(buffer) }
        buffer.removeAll(keepingCapacity: true)
    }

    // MARK: Layout

    private mutating func open() {
        buffer.append(10)
        depth += 1
        isFirst = true
    }

    private mutating func close(_ bracket: UInt8) {
        buffer.append(10)
        depth -= 1
        indent()
        buffer.append(bracket)
        isFirst = false
    }

    private mutating func separate() {
        if !isFirst { buffer.append(contentsOf: [UInt8(ascii: ","), 10]) }
        isFirst = false
        indent()
    }

    private mutating func indent() {
        buffer.append(contentsOf: repeatElement(32, count: 2 * depth))
    }

    private mutating func flushIfFull() throws {
        guard buffer.count >= Self.chunkSize else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    #if DEBUG
    private mutating func checkOrder(_ key: [UInt8]) {
        let last = lastKeys[lastKeys.count - 1]
        assert(last.isEmpty || last.lexicographicallyPrecedes(key), "PrettyJSONWriter: key \(key) after \(last), not sorted")
        lastKeys[lastKeys.count - 1] = key
    }
    #endif
}
