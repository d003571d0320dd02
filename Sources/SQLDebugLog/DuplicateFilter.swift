#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Drops the copies of one message that consoles print more than once, so that each counts once.
///
/// One rule for every kind of message (statement, annotation, detail, error, fault, warning), by content and
/// position: a message equal to one of the last few kept, in a form none of its copies had yet (Xcode 15 and later
/// print a message as `annotation: X`, `CoreData: annotation: X` and `CoreData: X`; `[error] warning: X` and
/// `CoreData: warning: X`), is a copy. A copy in the same form, right after its original, is dropped when the message
/// cannot repeat back to back (an annotation, a bind, a fetch's SELECT, BEGIN or COMMIT: Core Data always prints
/// something else between two of them), which also marks the stream as doubled (os_log and standard error both
/// captured); in a doubled stream every message's same-form copy is dropped, until a message comes without its copy.
/// A doubled stream is also recognised from its first messages (`SQLDebugLogParser`'s prologue), before a message
/// that cannot repeat has shown it. Problems have their own rule too: a bare `fault: X` or `error: X` line counts only
/// when a `CoreData:` copy follows it (apps print such lines too).
struct DuplicateFilter: Sendable {
    /// The last few kept messages, in a ring of `window` slots (profiled: shifting an array of them on every message
    /// cost 15% of reading a log): what a copy is compared with.
    private var recent: [Kept] = []
    /// The slot the next kept message goes to, and how many slots hold one.
    private var next = 0
    private var filled = 0
    /// Core Data messages judged so far: a kept message's age is `judged - seen`.
    private var judged = 0
    /// The forms messages came in so far: while there is one, a copy can only be the same form's, right after it.
    private var formsSeen: UInt16 = 0
    private struct Kept: Sendable {
        var tag: MessageTag
        /// The forms its copies came in, as bits of `MessageForm.bit`.
        var forms: UInt16
        var seen: Int
    }
    /// The kept messages' bytes, slot by slot, in storage each slot reuses (profiled: emptying and refilling an array
    /// per message cost 5% of reading a log; a storage object per slot, retained and released at every message, 4%).
    private let bodies = ByteRing(slots: DuplicateFilter.window)
    private var doubledEvidence = 0
    /// Whether this log follows its fetches with annotations (a connection or total time): until it does, two equal
    /// SELECTs in a row are two statements (SQLDebug 1 without annotations prints faults so).
    private var annotatesFetches = false
    /// A bare `fault: X` waiting for its `CoreData: fault: X` copy.
    private(set) var pendingBare: (body: [UInt8], tag: MessageTag, age: Int)?
    /// Whether the last message kept confirmed a held bare copy (which then counts as a duplicate).
    private(set) var confirmedBare = false
    /// After a message kept in a doubled stream, its copy must come next, or the stream is not doubled after all.
    private var expectingCopy = false

    /// How many kept messages a copy in another form is looked for among.
    static let window = 4

    var isDoubledStream: Bool { doubledEvidence >= 1 }

    enum Verdict {
        case keep
        case drop
        /// A bare problem line: held until its prefixed copy confirms it is Core Data's.
        case hold
    }

    /// Starts as a doubled stream (its first messages came in pairs).
    mutating func assumeDoubled() { doubledEvidence = max(doubledEvidence, 1) }

    mutating func judge(tag: MessageTag, form: MessageForm, body: ByteView) -> Verdict {
        confirmedBare = false
        judged += 1
        formsSeen |= form.bit
        agePendingBare()
        let content = tag.isProblem ? body.trimmed() : body
        let plan = Self.isPlanLine(tag, body)
        if tag.isProblem, form == .bare {
            if let slot = match(tag: tag, content), recent[slot].forms & form.bit == 0 {
                recent[slot].forms |= form.bit
                return .drop
            }
            pendingBare = (Array(content), tag, 0)
            return .hold
        }
        if !plan, let slot = match(tag: tag, content) {
            if recent[slot].forms & form.bit == 0 {
                // A copy in another form.
                recent[slot].forms |= form.bit
                recent[slot].seen = judged
                expectingCopy = false
                return .drop
            }
            if slot == newest && judged - recent[slot].seen <= 1 {
                // The same form right after its original.
                if tag == .annotation || tag == .details || (tag == .sql && Self.cannotRepeat(body, annotatesFetches: annotatesFetches)) {
                    doubledEvidence += 1
                    expectingCopy = false
                    recent[slot].seen = judged
                    return .drop
                }
                if isDoubledStream && expectingCopy {
                    expectingCopy = false
                    recent[slot].seen = judged
                    return .drop
                }
            }
        }
        if expectingCopy, !plan { doubledEvidence = 0 } // a single stream after all
        if tag == .annotation, !annotatesFetches,
            body.matches("sql connection fetch time", at: 0) || body.matches("total fetch execution time", at: 0)
        {
            annotatesFetches = true
        }
        expectingCopy = isDoubledStream && !plan
        if !plan { remember(tag: tag, form: form, content) }
        if tag.isProblem, let pending = pendingBare, equal(pending.body, content) {
            // The bare copy held before this one is confirmed: this message counts, for both.
            pendingBare = nil
            confirmedBare = true
            recent[newest].forms |= MessageForm.bare.bit
        }
        return .keep
    }

    /// The slot of the last kept message.
    private var newest: Int { (next + Self.window - 1) % Self.window }

    /// Query plan lines may repeat (two identical scans in one plan) and count nothing.
    private static func isPlanLine(_ tag: MessageTag, _ body: ByteView) -> Bool {
        tag == .details && !body.trimmingLeadingBlanks().matches("SQLite bind[", at: 0)
    }

    /// A fetch of an entity table (`SELECT ... FROM ZX t0`) is followed by its connection time in a log that annotates
    /// fetches, and a transaction verb never repeats back to back. (Bookkeeping SELECTs such as `SELECT Z_MAX` have no
    /// annotation and may repeat.)
    static func cannotRepeat(_ body: ByteView, annotatesFetches: Bool) -> Bool {
        let text = body.trimmingLeadingBlanks()
        if text.matchesIgnoringCase("SELECT", at: 0) { return annotatesFetches && text.find(" t0") != nil }
        for keyword in ["BEGIN", "COMMIT", "ROLLBACK"] as [StaticString] where text.matchesIgnoringCase(keyword, at: 0) {
            return true
        }
        return false
    }

    /// The slot of the most recent kept message equal to this one (problems by their trimmed text, whatever the
    /// tag).
    private func match(tag: MessageTag, _ body: ByteView) -> Int? {
        var back = 0
        // One form so far: only the message right before can be a copy (the common case, looked at alone).
        let reach = formsSeen & (formsSeen - 1) == 0 ? min(filled, 1) : filled
        while back < reach {
            let slot = (next + Self.window - 1 - back) % Self.window
            let kept = recent[slot]
            if (kept.tag == tag || (tag.isProblem && kept.tag.isProblem)) && bodies.holds(slot, body) { return slot }
            back += 1
        }
        return nil
    }

    /// Called for every Core Data message: a bare line left alone is dropped after a few.
    private mutating func agePendingBare() {
        if var pending = pendingBare {
            pending.age += 1
            pendingBare = pending.age > 3 ? nil : pending
        }
    }

    /// A line that is not Core Data's also ends a bare problem's wait after a few lines.
    mutating func noteOtherLine() {
        if var pending = pendingBare {
            pending.age += 1
            pendingBare = pending.age > 6 ? nil : pending
        }
    }

    private mutating func remember(tag: MessageTag, form: MessageForm, _ body: ByteView) {
        bodies.set(next, body)
        if recent.count < Self.window {
            recent.append(Kept(tag: tag, forms: form.bit, seen: judged))
        } else {
            recent[next] = Kept(tag: tag, forms: form.bit, seen: judged)
        }
        next = (next + 1) % Self.window
        filled = min(filled + 1, Self.window)
    }

    private func equal(_ stored: [UInt8], _ body: ByteView) -> Bool {
        guard stored.count == body.count else { return false }
        return stored.withUnsafeBufferPointer { storedBytes in
            guard let a = storedBytes.baseAddress, let b = body.baseAddress else { return stored.isEmpty }
            return memcmp(a, b, stored.count) == 0
        }
    }
}

/// A few slots of bytes, each in storage that is reused as long as it is big enough (one object for all of them: no
/// reference is counted per message).
final class ByteRing: @unchecked Sendable {
    private struct Slot {
        var storage: UnsafeMutablePointer<UInt8>
        var capacity: Int
        var count: Int
    }

    private let slots: UnsafeMutablePointer<Slot>
    private let slotCount: Int

    init(slots count: Int) {
        slotCount = count
        slots = .allocate(capacity: count)
        for index in 0..<count { (slots + index).initialize(to: Slot(storage: .allocate(capacity: 256), capacity: 256, count: 0)) }
    }

    deinit {
        for index in 0..<slotCount { slots[index].storage.deallocate() }
        slots.deallocate()
    }

    /// Slot `slot` holds a copy of `bytes` from now on.
    func set(_ slot: Int, _ bytes: ByteView) {
        precondition(slot >= 0 && slot < slotCount)
        if bytes.count > slots[slot].capacity {
            slots[slot].storage.deallocate()
            slots[slot].capacity = max(bytes.count, slots[slot].capacity * 2)
            slots[slot].storage = .allocate(capacity: slots[slot].capacity)
        }
        if let base = bytes.baseAddress { slots[slot].storage.update(from: base, count: bytes.count) }
        slots[slot].count = bytes.count
    }

    /// Whether slot `slot` holds exactly `bytes`.
    func holds(_ slot: Int, _ bytes: ByteView) -> Bool {
        precondition(slot >= 0 && slot < slotCount)
        guard bytes.count == slots[slot].count else { return false }
        guard let base = bytes.baseAddress else { return slots[slot].count == 0 }
        return memcmp(slots[slot].storage, base, bytes.count) == 0
    }
}
