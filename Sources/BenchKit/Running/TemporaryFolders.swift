import Foundation

/// The temporary folders a run works in (databases, templates, callgrind's output), registered so that an
/// interrupted run removes them before it exits instead of leaving them in the system's temporary folder.
package enum TemporaryFolders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var live: Set<String> = []
    /// Set by `removeAll`: the process is exiting, and a folder made now would outlive it.
    nonisolated(unsafe) private static var closed = false

    /// Makes a new folder `relbench-<kind>-<pid>-<unique>` in the system's temporary folder and registers it; the
    /// first one a process makes first removes those of processes that are gone (killed before they could).
    static func make(_ kind: String) throws -> String {
        _ = staleRemoved
        let name = "relbench-\(kind)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        // Under the lock, so that `removeAll` never misses a folder made while it runs.
        let failure: String? = lock.withLock {
            if closed { return "the run is stopping" }
            if let reason = RunFolder.makeDirectories(path) { return reason }
            live.insert(path)
            return nil
        }
        if let failure {
            throw BenchError.io("cannot create the temporary folder \(path) (\(failure)); check that TMPDIR is writable")
        }
        return path
    }

    /// The folders of `make` that processes no longer running left in the system's temporary folder, removed once.
    private static let staleRemoved: Int = {
        let temporary = FileManager.default.temporaryDirectory.path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        let stale = names.filter { name in owner(name).map { $0 != getpid() && kill($0, 0) != 0 && errno == ESRCH } ?? false }
        for name in stale { try? FileManager.default.removeItem(atPath: (temporary as NSString).appendingPathComponent(name)) }
        return stale.count
    }()

    /// The process id in a name `make` gives (`relbench-<kind>-<pid>-<8 characters>`, or it with `-removing`).
    static func owner(_ name: String) -> pid_t? {
        var parts = name.split(separator: "-", omittingEmptySubsequences: false)
        if parts.last == "removing" { parts.removeLast() }
        guard parts.count >= 4, parts[0] == "relbench", parts.last?.count == 8, let pid = pid_t(parts[parts.count - 2]), pid > 0 else {
            return nil
        }
        return pid
    }

    /// Removes a folder `make` made. It stays registered until it is gone: a signal's exit in the middle of the
    /// removal would leave it half removed; `removeAll` finishes it instead.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        lock.withLock { _ = live.remove(path) }
    }

    /// Removes every folder still registered (on interruption, from the signal handler's queue).
    package static func removeAll() {
        let paths = lock.withLock { () -> Set<String> in
            defer {
                live = []
                closed = true
            }
            return live
        }
        for path in paths {
            // Renamed first: the run's thread goes on until the process exits, and SQLite creating a -wal or
            // -journal file in the folder while it is being emptied left it behind (seen once in a full test run).
            // Under its new name nothing opens a path inside it.
            let doomed = path + "-removing"
            try? FileManager.default.removeItem(atPath: rename(path, doomed) == 0 ? doomed : path)
        }
    }
}
