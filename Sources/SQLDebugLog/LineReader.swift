#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error reading a log: the file could not be opened or read, or what it holds is not text.
public struct LogReadError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The system refused (`code` is errno).
        case system(code: Int32)
        /// Binary data: `controlBytes` of the first `probed` bytes are control bytes no text log holds (NUL...).
        case binary(controlBytes: Int, probed: Int)
        /// No line break in the first `bytes`: not a log of lines (an endless stream of one byte, say).
        case noLines(bytes: Int)
    }

    public let path: String
    public let kind: Kind

    public init(path: String, code: Int32) {
        self.path = path
        kind = .system(code: code)
    }

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// Whether the log could not be read at all (rather than read and found not to be text).
    public var isSystemError: Bool { if case .system = kind { return true } else { return false } }

    public var description: String {
        let name = path.isEmpty ? "the log" : path
        switch kind {
        case let .system(code):
            return "cannot read \(name): \(String(cString: strerror(code)))"
        case let .binary(controlBytes, probed):
            return "\(name) holds binary data, not a text log (\(controlBytes) of its first \(probed) bytes are control bytes such as NUL)"
        case let .noLines(bytes):
            return "\(name) has no line break in its first \(bytes / (1 << 20)) MiB: it is not a log of lines"
        }
    }
}

/// Splits what a file descriptor yields into lines, reading 1 MiB at a time: memory stays bounded by the chunk
/// size plus the longest line kept (`maxLineLength`); a longer line is cut there and reported as cut.
///
/// Lines end at `\n`; a `\r` before it is dropped. The last line need not end with a newline. A UTF-8 byte-order
/// mark is skipped; UTF-16 (little or big endian, with or without a byte-order mark, as some tools save a console)
/// is transcoded to UTF-8 as it is read. What is not text is refused before it is read to its end: more than 1%
/// control bytes in the first MiB (`/dev/zero`, a binary file), or no line break in the first 16 MiB.
struct LineReader {
    let descriptor: Int32
    let chunkSize: Int
    let maxLineLength: Int
    let path: String
    /// The size from which a regular file is mapped.
    let mapsFrom: Int

    /// Bytes the binary check looks at, and the share of control bytes above which the input is refused.
    static let binaryProbe = 1 << 20
    static let noLineLimit = 16 << 20
    /// Files smaller than this are read, not mapped (unless told otherwise).
    static let mapThreshold = 16 << 20

    init(
        descriptor: Int32, path: String = "", chunkSize: Int = 1 << 20, maxLineLength: Int = 4 << 20,
        mapThreshold: Int = LineReader.mapThreshold
    ) {
        self.descriptor = descriptor
        self.path = path
        self.chunkSize = max(chunkSize, 64)
        self.maxLineLength = max(maxLineLength, 64)
        self.mapsFrom = max(mapThreshold, 1)
    }

    /// Calls `body` with each line and whether it was cut at `maxLineLength`; returns the bytes read and how they
    /// were encoded.
    func forEachLine(_ body: (ByteView, _ cut: Bool) -> Void) throws -> (bytes: Int, encoding: TextEncoding) {
        if let mapped = try mappedLines(body) { return mapped }
        return try readLines(body)
    }

    /// A regular file in UTF-8 of at least `mapThreshold` bytes is mapped and its lines handed out where they lie
    /// (profiled: copying 300 MB out of the page cache with read(2) and moving partial lines cost a fifth of reading a
    /// log). Nil for anything else (a pipe, standard input, UTF-16, a small, empty or unmappable file), which
    /// `readLines` reads: a small log is read, not mapped, so that one cut short while it is read (a capture still
    /// being written, rotated) cannot fault with SIGBUS; a big one still can, where mapping is what pays.
    private func mappedLines(_ body: (ByteView, Bool) -> Void) throws -> (bytes: Int, encoding: TextEncoding)? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) >= mapsFrom else {
            return nil
        }
        let size = Int(status.st_size)
        guard let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapping != MAP_FAILED else { return nil }
        defer { munmap(mapping, size) }
        _ = madvise(mapping, size, MADV_SEQUENTIAL)
        let base = mapping.assumingMemoryBound(to: UInt8.self)
        let detected = Self.detectEncoding(ByteView(start: base, count: min(size, 4096)))
        guard detected.encoding == .utf8 else { return nil }
        var probe = TextProbe()
        probe.add(ByteView(start: base + detected.skip, count: min(size - detected.skip, Self.binaryProbe)))
        if let refusal = probe.refusal(complete: size - detected.skip <= Self.binaryProbe) { throw LogReadError(path: path, kind: refusal) }
        var lineStart = detected.skip
        var sawNewline = false
        // Pages already read are given back as the reading moves on, so that the resident memory stays bounded (a
        // mapped file's pages count as the process's until then).
        let release = 4 << 20
        var released = 0
        // Pages are mapped a stretch ahead in one call (profiled: a page fault every few pages cost 5% of reading a log).
        let ahead = 2 << 20
        var populated = 0
        while lineStart < size {
            if lineStart - released >= 2 * release {
                _ = madvise(mapping + released, release, MADV_DONTNEED)
                released += release
            }
            if lineStart + ahead > populated, populated < size {
                let length = min(ahead, size - populated)
                Self.populate(mapping + populated, length)
                populated += length
            }
            let remaining = size - lineStart
            let end: Int
            if let hit = memchr(base + lineStart, 0x0A, remaining) {
                end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                sawNewline = true
            } else {
                end = size
                if !sawNewline, size >= Self.noLineLimit { throw LogReadError(path: path, kind: .noLines(bytes: size)) }
            }
            if end - lineStart > maxLineLength {
                body(ByteView(start: base + lineStart, count: maxLineLength), true)
            } else {
                var upper = end
                if upper > lineStart, base[upper - 1] == 0x0D { upper -= 1 }
                body(ByteView(start: base + lineStart, count: upper - lineStart), false)
            }
            lineStart = end + 1
        }
        return (size, .utf8)
    }

    /// Maps `length` bytes of a mapped file at `start` now, where the system can (Linux 5.14's MADV_POPULATE_READ);
    /// elsewhere, or when it refuses, they are mapped as they are read.
    private static func populate(_ start: UnsafeMutableRawPointer, _ length: Int) {
        #if os(Linux)
        _ = madvise(start, length, 22) // MADV_POPULATE_READ
        #endif
    }

    /// Reads what the descriptor yields, chunk by chunk.
    private func readLines(_ body: (ByteView, _ cut: Bool) -> Void) throws -> (bytes: Int, encoding: TextEncoding) {
        // Room for a chunk transcoded from UTF-16 (3 bytes of UTF-8 per 2 bytes at most) after a partial line.
        let capacity = chunkSize * 3 / 2 + maxLineLength + 8
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var raw: [UInt8] = []
        var filled = 0 // bytes held in buffer[0..<filled]
        var total = 0
        var discarding = false // inside the rest of a line already cut
        var encoding: TextEncoding?
        var transcoder = UTF16Transcoder(bigEndian: false)
        var probe = TextProbe()
        var sawNewline = false
        while true {
            let got: Int
            if encoding == nil || encoding == .utf8 {
                got = readSome(into: buffer + filled, count: min(capacity - filled, chunkSize))
            } else {
                if raw.count < chunkSize { raw = [UInt8](repeating: 0, count: chunkSize) }
                got = raw.withUnsafeMutableBufferPointer { bytes in
                    guard let base = bytes.baseAddress else { return 0 }
                    return readSome(into: base, count: min(chunkSize, (capacity - filled) * 2 / 3))
                }
            }
            if got < 0 { throw LogReadError(path: path, code: errno) }
            if got == 0 { break }
            total += got
            var start = filled
            if encoding == nil {
                let detected = Self.detectEncoding(UnsafeBufferPointer(start: buffer, count: got))
                encoding = detected.encoding
                if detected.encoding != .utf8 {
                    // Move what was read aside and transcode it.
                    raw = Array(UnsafeBufferPointer(start: buffer + detected.skip, count: got - detected.skip))
                    transcoder = UTF16Transcoder(bigEndian: detected.encoding == .utf16BigEndian)
                    filled += transcoder.transcode(raw[...], into: buffer + filled)
                } else if detected.skip > 0 {
                    memmove(buffer, buffer + detected.skip, got - detected.skip)
                    filled += got - detected.skip
                } else {
                    filled += got
                }
            } else if encoding == .utf8 {
                filled += got
            } else {
                filled += transcoder.transcode(raw[..<got], into: buffer + filled)
            }
            if probe.probed < Self.binaryProbe {
                probe.add(UnsafeBufferPointer(start: buffer + start, count: filled - start))
                if let refusal = probe.refusal(complete: false) { throw LogReadError(path: path, kind: refusal) }
            }
            var lineStart = 0
            var scan = start
            while scan < filled {
                guard let hit = memchr(buffer + scan, 0x0A, filled - scan) else { break }
                sawNewline = true
                let newline = buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if discarding {
                    discarding = false
                } else {
                    emit(buffer, from: lineStart, to: newline, cut: false, body)
                }
                lineStart = newline + 1
                scan = lineStart
            }
            start = 0
            if !sawNewline, total >= Self.noLineLimit { throw LogReadError(path: path, kind: .noLines(bytes: total)) }
            // Keep the partial line; cut it when it outgrows maxLineLength.
            let partial = filled - lineStart
            if discarding {
                filled = 0
            } else if partial >= maxLineLength {
                emit(buffer, from: lineStart, to: lineStart + maxLineLength, cut: true, body)
                discarding = true
                filled = 0
            } else {
                if lineStart > 0, partial > 0 { memmove(buffer, buffer + lineStart, partial) }
                filled = partial
            }
        }
        if let refusal = probe.refusal(complete: true) { throw LogReadError(path: path, kind: refusal) }
        if filled > 0, !discarding { emit(buffer, from: 0, to: filled, cut: false, body) }
        return (total, encoding ?? .utf8)
    }

    /// UTF-8 (a byte-order mark skipped), or UTF-16 by its byte-order mark or, without one, by its zero bytes: ASCII
    /// text in UTF-16 has a zero in every other byte.
    static func detectEncoding(_ bytes: ByteView) -> (encoding: TextEncoding, skip: Int) {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LittleEndian, 2) }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BigEndian, 2) }
        let sample = min(bytes.count, 4096) & ~1
        guard sample >= 8 else { return (.utf8, 0) }
        var zeroEven = 0
        var zeroOdd = 0
        for index in stride(from: 0, to: sample, by: 2) {
            if bytes[index] == 0 { zeroEven += 1 }
            if bytes[index + 1] == 0 { zeroOdd += 1 }
        }
        let pairs = sample / 2
        if zeroOdd * 10 >= pairs * 6, zeroEven * 10 <= pairs { return (.utf16LittleEndian, 0) }
        if zeroEven * 10 >= pairs * 6, zeroOdd * 10 <= pairs { return (.utf16BigEndian, 0) }
        return (.utf8, 0)
    }

    private func emit(
        _ buffer: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int, cut: Bool,
        _ body: (ByteView, Bool) -> Void
    ) {
        var upper = end
        if upper > start, buffer[upper - 1] == 0x0D { upper -= 1 }
        body(ByteView(start: buffer + start, count: upper - start), cut)
    }

    private func readSome(into pointer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        while true {
            let result = read(descriptor, pointer, count)
            if result < 0, errno == EINTR { continue }
            return result
        }
    }
}

/// Counts control bytes no text log holds (below 0x20 other than tab, line feed, carriage return, form feed and
/// escape) in the first bytes of the input.
struct TextProbe {
    private(set) var probed = 0
    private(set) var controlBytes = 0

    mutating func add(_ bytes: ByteView) {
        let count = min(bytes.count, LineReader.binaryProbe - probed)
        for index in 0..<count {
            let byte = bytes[index]
            if byte < 0x20, byte != 9, byte != 10, byte != 13, byte != 12, byte != 0x1B { controlBytes += 1 }
        }
        probed += count
    }

    /// The refusal, once enough was seen (or the input ended): more than 1% control bytes, at least 64 of them (a
    /// text log with a few stray bytes is read, its lines counted as garbled).
    func refusal(complete: Bool) -> LogReadError.Kind? {
        guard complete || probed >= 65_536 else { return nil }
        guard controlBytes >= 64, controlBytes * 100 > probed else { return nil }
        return .binary(controlBytes: controlBytes, probed: probed)
    }
}

/// Transcodes UTF-16 to UTF-8 chunk by chunk: a code unit or a surrogate pair cut between two reads is carried over.
/// Unpaired surrogates become U+FFFD.
struct UTF16Transcoder {
    let bigEndian: Bool
    private var carry: UInt8?
    private var highSurrogate: UInt16?

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    /// Writes the UTF-8 of `bytes` at `out` (room for 3 bytes per 2 bytes in, plus 4); returns how many it wrote.
    mutating func transcode(_ bytes: ArraySlice<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        var index = bytes.startIndex
        func unit(_ first: UInt8, _ second: UInt8) -> UInt16 {
            bigEndian ? UInt16(first) << 8 | UInt16(second) : UInt16(second) << 8 | UInt16(first)
        }
        func put(_ scalar: UInt32) {
            switch scalar {
            case 0..<0x80:
                out[written] = UInt8(scalar)
                written += 1
            case 0x80..<0x800:
                out[written] = UInt8(0xC0 | scalar >> 6)
                out[written + 1] = UInt8(0x80 | scalar & 0x3F)
                written += 2
            case 0x800..<0x10000:
                out[written] = UInt8(0xE0 | scalar >> 12)
                out[written + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
                out[written + 2] = UInt8(0x80 | scalar & 0x3F)
                written += 3
            default:
                out[written] = UInt8(0xF0 | scalar >> 18)
                out[written + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
                out[written + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
                out[written + 3] = UInt8(0x80 | scalar & 0x3F)
                written += 4
            }
        }
        func take(_ value: UInt16) {
            if let high = highSurrogate {
                highSurrogate = nil
                if value >= 0xDC00 && value < 0xE000 {
                    put(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(value - 0xDC00))
                    return
                }
                put(0xFFFD)
            }
            if value >= 0xD800 && value < 0xDC00 {
                highSurrogate = value
            } else if value >= 0xDC00 && value < 0xE000 {
                put(0xFFFD)
            } else {
                put(UInt32(value))
            }
        }
        if let first = carry, index < bytes.endIndex {
            carry = nil
            take(unit(first, bytes[index]))
            index += 1
        }
        while index + 1 < bytes.endIndex {
            take(unit(bytes[index], bytes[index + 1]))
            index += 2
        }
        if index < bytes.endIndex { carry = bytes[index] }
        return written
    }
}
