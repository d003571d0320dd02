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
    /// The last few kept messages: what a copy is compared with.
    private var recent: [Kept] = []
    private struct Kept: Sendable {
        var tag: MessageTag
        var body: [UInt8]
        var forms: [MessageForm]
        var age: Int
    }
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
        ageMessages()
        let content = tag.isProblem ? body.trimmed() : body
        let plan = Self.isPlanLine(tag, body)
        if tag.isProblem, form == .bare {
            if let index = match(tag: tag, content), !recent[index].forms.contains(form) {
                recent[index].forms.append(form)
                return .drop
            }
            pendingBare = (Array(content), tag, 0)
            return .hold
        }
        if !plan, let index = match(tag: tag, content) {
            if !recent[index].forms.contains(form) {
                // A copy in another form.
                recent[index].forms.append(form)
                recent[index].age = 0
                expectingCopy = false
                return .drop
            }
            if index == recent.count - 1 && recent[index].age <= 1 {
                // The same form right after its original.
                if tag == .annotation || tag == .details || (tag == .sql && Self.cannotRepeat(body, annotatesFetches: annotatesFetches)) {
                    doubledEvidence += 1
                    expectingCopy = false
                    recent[index].age = 0
                    return .drop
                }
                if isDoubledStream && expectingCopy {
                    expectingCopy = false
                    recent[index].age = 0
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
            recent[recent.count - 1].forms.append(.bare)
        }
        return .keep
    }

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

    /// The most recent kept message equal to this one (problems by their trimmed text, whatever the tag).
    private func match(tag: MessageTag, _ body: ByteView) -> Int? {
        var index = recent.count - 1
        while index >= 0 {
            let kept = recent[index]
            if (kept.tag == tag || (tag.isProblem && kept.tag.isProblem)) && equal(kept.body, body) { return index }
            index -= 1
        }
        return nil
    }

    /// Called for every Core Data message: the kept messages grow older; a bare line left alone is dropped.
    private mutating func ageMessages() {
        for index in recent.indices { recent[index].age += 1 }
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
        if recent.count == Self.window {
            // Reuse the oldest entry's storage.
            var oldest = recent.removeFirst()
            oldest.tag = tag
            oldest.body.removeAll(keepingCapacity: true)
            oldest.body.append(contentsOf: body)
            oldest.forms.removeAll(keepingCapacity: true)
            oldest.forms.append(form)
            oldest.age = 0
            recent.append(oldest)
        } else {
            recent.append(Kept(tag: tag, body: Array(body), forms: [form], age: 0))
        }
    }

    private func equal(_ stored: [UInt8], _ body: ByteView) -> Bool {
        guard stored.count == body.count else { return false }
        return stored.withUnsafeBufferPointer { storedBytes in
            guard let a = storedBytes.baseAddress, let b = body.baseAddress else { return stored.isEmpty }
            return memcmp(a, b, stored.count) == 0
        }
    }
}
