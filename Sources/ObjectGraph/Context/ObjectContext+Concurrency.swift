import Dispatch
import Foundation
import Synchronization

/// Where a context's work runs (Core Data's concurrency types).
public enum ConcurrencyType: Sendable {
    /// On the thread that made the context (the default here: a benchmark's single thread). Other threads reach
    /// the store through queue contexts.
    case confined
    /// On a private serial queue: every use goes through `perform` or `performAndWait`.
    case privateQueue
    /// On the main thread.
    case mainQueue
}

/// How a use of a context (or one of its objects) from the wrong thread is reported.
public enum ConcurrencyChecking: Sendable {
    /// A precondition failure naming Core Data's `__Multithreading_Violation_AllThatIsLeftToUsIsHonor__`.
    case trap
    /// An `ObjectGraphError.wrongThread` thrown by the call.
    case throwError

    /// Debug builds trap, as Core Data does under `-com.apple.CoreData.ConcurrencyDebug 1`; release builds throw.
    /// `OBJECTGRAPH_CONCURRENCY_DEBUG=1` makes release builds trap too.
    public static let `default`: ConcurrencyChecking = {
        if ProcessInfo.processInfo.environment["OBJECTGRAPH_CONCURRENCY_DEBUG"] == "1" { return .trap }
        #if DEBUG
        return .trap
        #else
        return .throwError
        #endif
    }()
}

/// The thread a context may run on right now, and the queue of a private-queue context.
///
/// A confined context runs on the thread that made it; a main-queue context on the main thread; a private-queue
/// context only inside `perform`/`performAndWait`, which record the running thread for the duration of the block.
final class ContextExecutor: @unchecked Sendable {
    let type: ConcurrencyType
    let queue: DispatchQueue?
    private let confinedThread: pthread_t?
    /// The thread running a private-queue context's block now (nil outside blocks).
    @exclusivity(unchecked) private var runningThread: pthread_t?
    @exclusivity(unchecked) private var depth = 0

    init(type: ConcurrencyType) {
        self.type = type
        switch type {
        case .confined:
            confinedThread = pthread_self()
            queue = nil
        case .privateQueue:
            confinedThread = nil
            queue = DispatchQueue(label: "ObjectGraph.ObjectContext")
        case .mainQueue:
            confinedThread = nil
            queue = DispatchQueue.main
        }
    }

    /// Whether the calling thread may use the context now.
    @inline(__always)
    var isCurrent: Bool {
        switch type {
        // `==` on pthread_t (an integer or a pointer): what pthread_equal does, without the call.
        case .confined: return confinedThread == pthread_self()
        case .mainQueue: return Thread.isMainThread
        case .privateQueue:
            guard let runningThread else { return false }
            return runningThread == pthread_self()
        }
    }

    /// Runs `body` as the context's current work on the calling thread (re-entrant).
    func run<T>(_ body: () throws -> T) rethrows -> T {
        let previous = runningThread
        runningThread = pthread_self()
        depth += 1
        defer {
            depth -= 1
            runningThread = previous
        }
        return try body()
    }

    var description: String {
        switch type {
        case .confined: return "confined to the thread that made it"
        case .privateQueue: return "on a private queue"
        case .mainQueue: return "on the main queue"
        }
    }
}

extension ObjectContext {
    /// Runs `block` on the context's queue, later (Core Data's `perform`); for a confined or main-queue context
    /// already on its thread, at once. The store is held by this block for its duration.
    public func perform(_ block: @escaping () -> Void) {
        nonisolated(unsafe) let context = self
        nonisolated(unsafe) let work = block
        switch concurrencyType {
        case .privateQueue:
            executor.queue?.async { context.runBlock(work) }
        case .mainQueue:
            if Thread.isMainThread { runBlock(block) } else { DispatchQueue.main.async { context.runBlock(work) } }
        case .confined:
            runBlock(block)
        }
    }

    /// Runs `block` on the context's queue and waits for it (Core Data's `performAndWait`); re-entrant: a call from
    /// inside the context's own block runs at once.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        if executor.isCurrent { return try block() }
        switch concurrencyType {
        case .privateQueue:
            return try withoutActuallyEscaping(block) { escapable in
                nonisolated(unsafe) let work = escapable
                nonisolated(unsafe) let context = self
                var result: Result<T, Error>!
                executor.queue?.sync {
                    result = Result { try context.runBlock(work) }
                }
                return try result.get()
            }
        case .mainQueue, .confined:
            return try runBlock(block)
        }
    }

    private func runBlock<T>(_ block: () throws -> T) rethrows -> T {
        store.serializer.lock()
        defer { store.serializer.unlock() }
        return try executor.run {
            if inbox.hasMail { processPendingMerges() }
            return try block()
        }
    }

    /// Checks the calling thread may use this context; merges saves of other contexts that arrived meanwhile.
    @inline(__always)
    func checkThread() throws {
        // A confined context on its own thread with nothing to merge: one comparison and one load (profiled: the
        // general check cost an attribute read 30 instructions).
        if isOnItsThreadWithNothingToMerge { return }
        try checkThreadSlowly()
    }

    /// Whether `checkThread()` has nothing to do: a confined context on its own thread, no merge waiting.
    var isOnItsThreadWithNothingToMerge: Bool {
        @inline(__always) get { confinedThread == pthread_self() && !inbox.hasMail }
    }

    @inline(never)
    private func checkThreadSlowly() throws {
        if executor.isCurrent {
            if inbox.hasMail { processPendingMerges() }
            return
        }
        try reportWrongThread()
    }

    private func reportWrongThread() throws {
        let label = name.map { " '\($0)'" } ?? ""
        let message =
            "context\(label) (\(executor.description)) was used from another thread: run the work in context.perform { } or performAndWait { }, and pass object IDs, not objects, between contexts (Core Data: +[NSManagedObjectContext __Multithreading_Violation_AllThatIsLeftToUsIsHonor__])"
        switch concurrencyChecking {
        case .trap: preconditionFailure(message)
        case .throwError: throw ObjectGraphError.wrongThread(message)
        }
    }
}
