import Dispatch
import Foundation

/// Stopping on Ctrl-C (SIGINT), `kill` or a CI cancellation (SIGTERM), or a closed terminal (SIGHUP) without
/// dying mid-write: the work that is under way says what to do first (`guarding`), then the registered temporary
/// folders and the temporary files of writes under way are removed and the process exits with 128 + the signal's
/// number, as a shell reports a killed command. The run's own thread, meanwhile, must not end the process with an
/// error of its own (its databases vanish under it): it parks (`parkIfStopping`) until the exit.
package enum Interruption {
    package static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private static let lock = NSLock()
    /// One queue for every signal, so that a second signal waits for the first one's handler, which exits.
    private static let queue = DispatchQueue(label: "RelBench.Interruption")
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    nonisolated(unsafe) private static var handlers: [@Sendable (Int32) -> Void] = []
    nonisolated(unsafe) private static var stopping = false

    /// Whether a signal is being handled: the process exits as soon as its handlers are done.
    package static var isStopping: Bool { lock.withLock { stopping } }

    /// Waits for the exit when a signal is being handled, so that the caller reports nothing of its own (an error
    /// the stop caused, or a success the handler's status would contradict); returns at once otherwise.
    package static func parkIfStopping() {
        guard isStopping else { return }
        while true { sleep(60) }
    }

    /// Takes over the signals for the rest of the process (once; later calls do nothing).
    package static func install() {
        lock.withLock {
            guard sources.isEmpty else { return }
            sources = signals.map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { stop(number) }
                source.resume()
                return source
            }
        }
    }

    /// Runs `body`; a signal during it runs `handler` (innermost first) before the process exits.
    package static func guarding<Result>(_ handler: @escaping @Sendable (Int32) -> Void, _ body: () throws -> Result) rethrows -> Result {
        install()
        lock.withLock { handlers.append(handler) }
        defer { lock.withLock { _ = handlers.popLast() } }
        return try body()
    }

    private static func stop(_ number: Int32) {
        let handlers = lock.withLock {
            stopping = true
            return self.handlers.reversed()
        }
        for handler in handlers { handler(number) }
        for outcome in RunFolder.abandonOpen(status: .interrupted) {
            FileHandle.standardError.write(Data("\nbench: \(describe(number)); \(outcome)\n".utf8))
        }
        TemporaryFolders.removeAll()
        StopCleanup.removeAll()
        AtomicFile.abandonAll()
        // Not exit(): the run's thread is still going, and atexit's teardown under it could crash the process.
        fflush(nil)
        _exit(128 + number)
    }

    /// The signal's effect in words, for messages: "interrupted" for Ctrl-C, else "stopped by SIGTERM" and the like.
    package static func describe(_ number: Int32) -> String {
        switch number {
        case SIGINT: return "interrupted"
        case SIGTERM: return "stopped by SIGTERM"
        case SIGHUP: return "stopped by SIGHUP"
        default: return "stopped by signal \(number)"
        }
    }
}
