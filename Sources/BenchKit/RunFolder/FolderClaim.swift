import Foundation

/// A writer's exclusive hold on a run folder: an advisory lock (`flock`) on the folder itself, held for as long as
/// the run folder is open and released by the system when the process ends, however it ends.
///
/// Two runs or merges into one `--output` therefore cannot both write it: the second is refused before it writes
/// anything. A reader finds a folder whose run.json says "running" but that no live process holds: its writer was
/// killed (SIGKILL, a power cut), so the run is reported interrupted.
final class FolderClaim: @unchecked Sendable {
    private let descriptor: Int32

    /// Claims the existing folder `path`; nil when another process holds it.
    init?(folder path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BenchError.invalidInput(
                "cannot open the output folder \(path) (\(String(cString: strerror(errno)))); choose another --output folder")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Whether a live process holds the claim of the folder `path` (false when it cannot be opened).
    static func isHeld(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }
}
