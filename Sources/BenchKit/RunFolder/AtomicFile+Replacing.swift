import Foundation

/// Replacing a regular file whole: the text goes to `.<name>.relbench-<pid>-<n>` beside it, which is then renamed
/// over it.
///
/// Written here rather than with `Data.write(options: .atomic)`: on Linux, Foundation makes an empty
/// `TemporaryDirectory.*` in /tmp for every such write and leaves it there, and falls back to a `.dat.nosync*` file
/// beside the target that a signal's exit left half-written in the run folder. Here each temporary file is
/// registered while it exists, so that `abandonAll` (called by `Interruption` before the process exits) removes
/// the ones under way, and no new one is begun after it.
extension AtomicFile {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var inFlight: Set<String> = []
    nonisolated(unsafe) private static var closed = false
    nonisolated(unsafe) private static var counter = 0

    /// Writes `data` to a new temporary file beside `target` and renames it over `target`, keeping the mode of the
    /// file it replaces.
    static func replace(_ target: String, with data: Data) throws {
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let mode = (try? FileManager.default.attributesOfItem(atPath: target))?[.posixPermissions] as? Int
        let (temporary, descriptor): (String, Int32) = try lock.withLock {
            if closed { throw BenchError.io("cannot write \(target): the process is stopping") }
            counter += 1
            let temporary = ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(
                ".\(name).relbench-\(getpid())-\(counter)")
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(mode ?? 0o666))
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            inFlight.insert(temporary)
            return (temporary, descriptor)
        }
        defer { lock.withLock { _ = inFlight.remove(temporary) } }
        do {
            if let mode { fchmod(descriptor, mode_t(mode)) }
            try writeAll(data, to: descriptor)
            guard close(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            guard rename(temporary, target) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Removes the temporary files of writes under way and refuses new ones: the process is about to exit.
    package static func abandonAll() {
        let paths = lock.withLock { () -> Set<String> in
            closed = true
            return inFlight
        }
        for path in paths { unlink(path) }
    }

    private static func writeAll(_ data: Data, to descriptor: Int32) throws {
        try data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var written = 0
            while written < buffer.count {
                let result = systemWrite(descriptor, base + written, buffer.count - written)
                if result < 0 && errno == EINTR { continue }
                guard result > 0 else {
                    let code = errno
                    close(descriptor)
                    throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ENOSPC)
                }
                written += result
            }
        }
    }
}

/// The system's `write`, which `AtomicFile.write` hides inside the type.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
