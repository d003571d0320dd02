import Foundation

extension HistoryStore {
    /// Refuses a history path that exists but is not a regular file (a device such as /dev/null, a pipe, a socket): SQLite
    /// would fail on it with "disk I/O error" after creating its journal beside it (`/dev/null-journal`). A link is
    /// judged by what it points to.
    static func refuseNonFile(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        let kind: String
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a folder"
        case S_IFCHR: kind = "a character device"
        case S_IFBLK: kind = "a block device"
        case S_IFIFO: kind = "a named pipe"
        case S_IFSOCK: kind = "a socket"
        default: kind = "not a regular file"
        }
        throw BenchError.invalidInput(
            "the history store \(path) is \(kind), not a file; give a file path with --history (or pass --no-history)")
    }
}
