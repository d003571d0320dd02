/// Drops the copies of one message that consoles print more than once, so that each counts once.
///
/// Xcode 15 and later show an error or fault two or three times in different forms (`fault: X`,
/// `CoreData: fault: X`, `CoreData: X`), and a process logging to both os_log and stderr
/// (`-com.apple.CoreData.Logging.stderr 1`) can show every line twice. Rules:
/// - problems (error, fault, warning, untagged): a copy of one of the last few problems in another form is dropped;
///   a `fault: X` / `error: X` line with no `CoreData:` copy nearby is not Core Data's (apps print such lines too);
/// - other messages: a copy of the message just before it in another form is dropped. A same-form copy is dropped
///   when the message cannot repeat back to back (an annotation, a bind, a SELECT or BEGIN/COMMIT, which Core
///   Data always follows with something else); two such copies mark the stream as doubled, after which
///   same-form copies of any statement (INSERT...) are dropped too, every second one.
struct DuplicateFilter: Sendable {
    private var previousBody: [UInt8] = []
    private var previousTag: MessageTag?
    private var previousForm: MessageForm = .prefixed
    private var previousDropped = false
    private var doubledEvidence = 0
    private var recentProblems: [(body: [UInt8], forms: [MessageForm], age: Int)] = []
    /// A bare `fault: X` waiting for its `CoreData: fault: X` copy.
    private(set) var pendingBare: (body: [UInt8], tag: MessageTag, age: Int)?
    /// Whether the last message kept confirmed a held bare copy (which then counts as a duplicate).
    private(set) var confirmedBare = false

    /// After a message kept in a doubled stream, its copy must come next, or the stream is not doubled after all.
    private var expectingCopy = false

    var isDoubledStream: Bool { doubledEvidence >= 1 }

    enum Verdict {
        case keep
        case drop
        /// A bare problem line: held until its prefixed copy confirms it is Core Data's.
        case hold
    }

    mutating func judge(tag: MessageTag, form: MessageForm, body: ByteView) -> Verdict {
        confirmedBare = false
        ageProblems()
        if tag.isProblem { return judgeProblem(tag: tag, form: form, body: body) }
        var verdict = Verdict.keep
        let copy = previousTag == tag && !previousDropped && equal(previousBody, body) && !Self.isPlanLine(tag, body)
        if expectingCopy, !copy, !Self.isPlanLine(tag, body) { doubledEvidence = 0 } // a single stream after all
        if copy {
            if form != previousForm {
                verdict = .drop
            } else if tag == .annotation || tag == .details || (tag == .sql && Self.cannotRepeat(body)) {
                verdict = .drop
                doubledEvidence += 1
            } else if isDoubledStream {
                verdict = .drop
            }
        }
        expectingCopy = isDoubledStream && verdict == .keep && !Self.isPlanLine(tag, body)
        remember(tag: tag, form: form, body: body, dropped: verdict == .drop)
        return verdict
    }

    /// Query plan lines may repeat (two identical scans in one plan) and count nothing.
    private static func isPlanLine(_ tag: MessageTag, _ body: ByteView) -> Bool {
        tag == .details && !body.trimmingLeadingBlanks().matches("SQLite bind[", at: 0)
    }

    /// A fetch of an entity table (`SELECT ... FROM ZX t0`) is always followed by its connection time, and a
    /// transaction verb never repeats back to back. (Bookkeeping SELECTs such as `SELECT Z_MAX` have no annotation
    /// and may repeat.)
    private static func cannotRepeat(_ body: ByteView) -> Bool {
        let text = body.trimmingLeadingBlanks()
        if text.matchesIgnoringCase("SELECT", at: 0) { return text.find(" t0") != nil }
        for keyword in ["BEGIN", "COMMIT", "ROLLBACK"] as [StaticString] where text.matchesIgnoringCase(keyword, at: 0) {
            return true
        }
        return false
    }

    private mutating func judgeProblem(tag: MessageTag, form: MessageForm, body: ByteView) -> Verdict {
        let trimmed = body.trimmed()
        defer { remember(tag: tag, form: form, body: body, dropped: false) }
        if let index = recentProblems.firstIndex(where: { equal($0.body, trimmed) }) {
            if !recentProblems[index].forms.contains(form) {
                recentProblems[index].forms.append(form)
                return .drop
            }
        }
        if form == .bare {
            pendingBare = (Array(trimmed), tag, 0)
            return .hold
        }
        if let pending = pendingBare, equal(pending.body, trimmed) {
            pendingBare = nil
            confirmedBare = true
            recentProblems.append((Array(trimmed), [.bare, form], 0))
        } else {
            recentProblems.append((Array(trimmed), [form], 0))
        }
        if recentProblems.count > 4 { recentProblems.removeFirst() }
        return .keep
    }

    /// Called for every Core Data message: old problems leave the window; a bare line left alone is dropped.
    private mutating func ageProblems() {
        for index in recentProblems.indices { recentProblems[index].age += 1 }
        recentProblems.removeAll { $0.age > 6 }
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

    private mutating func remember(tag: MessageTag, form: MessageForm, body: ByteView, dropped: Bool) {
        previousTag = tag
        previousForm = form
        previousDropped = dropped
        previousBody.removeAll(keepingCapacity: true)
        previousBody.append(contentsOf: body)
    }

    private func equal(_ stored: [UInt8], _ body: ByteView) -> Bool {
        guard stored.count == body.count else { return false }
        return stored.withUnsafeBufferPointer { storedBytes in
            guard let a = storedBytes.baseAddress, let b = body.baseAddress else { return stored.isEmpty }
            return memcmp(a, b, stored.count) == 0
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
