import Foundation

/// Scratch paths outside the run's temporary folders (a folder for `swift --version`) that a signal's exit must
/// not leave behind: made and registered under one lock, and removed by `removeAll`, which `Interruption` calls
/// before the process exits.
package enum StopCleanup {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var live: Set<String> = []
    nonisolated(unsafe) private static var closed = false

    /// Makes `path` with `make` (true when it made it) and registers it; false when it was not made or the process
    /// is stopping.
    package static func make(_ path: String, with make: () -> Bool) -> Bool {
        lock.withLock {
            guard !closed, make() else { return false }
            live.insert(path)
            return true
        }
    }

    /// Removes `path`, made by `make`.
    package static func remove(_ path: String) {
        lock.withLock { _ = live.remove(path) }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Stops looking after `path` (it is now whole, or someone else's to end) and runs `then` under the same lock, so
    /// that a stop sees the path either here or wherever `then` hands it over to.
    package static func forget(_ path: String, then: () -> Void) {
        lock.withLock {
            live.remove(path)
            then()
        }
    }

    /// Removes every path still registered and refuses new ones: the process is about to exit.
    package static func removeAll() {
        let paths = lock.withLock { () -> Set<String> in
            closed = true
            return live
        }
        // A child still running (swift --version) may add to a folder while it is removed: try again, briefly.
        for path in paths {
            for _ in 0..<10 where FileManager.default.fileExists(atPath: path) {
                try? FileManager.default.removeItem(atPath: path)
                if FileManager.default.fileExists(atPath: path) { usleep(20_000) }
            }
        }
    }
}
