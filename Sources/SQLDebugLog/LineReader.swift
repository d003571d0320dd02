#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error reading a log: the file could not be opened or read.
public struct LogReadError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let code: Int32
    public var description: String {
        let reason = String(cString: strerror(code))
        return path.isEmpty ? "cannot read the log: \(reason)" : "cannot read \(path): \(reason)"
    }
}

/// Splits what a file descriptor yields into lines, reading 1 MiB at a time: memory stays bounded by the chunk
/// size plus the longest line kept (`maxLineLength`); a longer line is cut there and reported as cut.
///
/// Lines end at `\n`; a `\r` before it is dropped. The last line need not end with a newline.
struct LineReader {
    let descriptor: Int32
    let chunkSize: Int
    let maxLineLength: Int
    let path: String

    init(descriptor: Int32, path: String = "", chunkSize: Int = 1 << 20, maxLineLength: Int = 4 << 20) {
        self.descriptor = descriptor
        self.path = path
        self.chunkSize = max(chunkSize, 64)
        self.maxLineLength = max(maxLineLength, 64)
    }

    /// Calls `body` with each line and whether it was cut at `maxLineLength`; returns the bytes read.
    func forEachLine(_ body: (ByteView, _ cut: Bool) -> Void) throws -> Int {
        let capacity = chunkSize + maxLineLength
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var filled = 0 // bytes held in buffer[0..<filled]
        var total = 0
        var discarding = false // inside the rest of a line already cut
        while true {
            let space = capacity - filled
            let got = readSome(into: buffer + filled, count: min(space, chunkSize))
            if got < 0 { throw LogReadError(path: path, code: errno) }
            if got == 0 { break }
            total += got
            var lineStart = 0
            var scan = filled
            filled += got
            while scan < filled {
                guard let hit = memchr(buffer + scan, 0x0A, filled - scan) else { break }
                let newline = buffer.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if discarding {
                    discarding = false
                } else {
                    emit(buffer, from: lineStart, to: newline, cut: false, body)
                }
                lineStart = newline + 1
                scan = lineStart
            }
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
        if filled > 0, !discarding { emit(buffer, from: 0, to: filled, cut: false, body) }
        return total
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
