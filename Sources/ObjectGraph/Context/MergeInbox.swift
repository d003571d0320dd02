import Synchronization

/// Saves of other contexts waiting for one context to merge them: filled by the store from the saving thread,
/// emptied by the context on its own thread the next time it is used.
///
/// The store keeps inboxes, not contexts. A weak reference to a context gave the context a side table, and every
/// retain and release of it then took the runtime's slow path (profiled under callgrind: `incrementSlow` and
/// `doDecrementSlow` were 3% of a fetch-all phase's instructions).
final class MergeInbox: Sendable {
    /// Mirrors the context's `automaticallyMergesChangesFromParent`, read by saving threads.
    let isOpen = Atomic<Bool>(false)
    private let waiting = Atomic<Int>(0)
    private let notifications = Mutex<[SaveNotification]>([])

    /// Whether saves are waiting; one atomic load, made on every checked use of the context.
    @inline(__always)
    var hasMail: Bool { waiting.load(ordering: .acquiring) > 0 }

    /// Leaves `notification` for the context, if it merges automatically.
    func post(_ notification: SaveNotification) {
        guard isOpen.load(ordering: .relaxed) else { return }
        notifications.withLock { $0.append(notification) }
        waiting.add(1, ordering: .releasing)
    }

    /// Every waiting save, oldest first, leaving the inbox empty.
    func takeAll() -> [SaveNotification] {
        notifications.withLock { waiting in
            let all = waiting
            waiting = []
            self.waiting.store(0, ordering: .releasing)
            return all
        }
    }
}
