/// Segment markers: `RelBench: begin NAME` / `RelBench: end NAME` printed by the app (any prefix before them),
/// and os_signpost intervals as `log show --signpost` / `log stream --signpost` print them:
///
///     2000-12-31 16:20:34.567898-0800 0x14d  Signpost  0x0  1036  0  [spid 0x1b0, process, begin] App: (App) [com.example:perf] Walk: detail
///     2024-05-01 10:00:00.000 Sp App[1036:14d] [com.example:perf] [spid 0x1b0, process, begin] Walk
///
/// Signposts of Apple's own subsystems (`com.apple.*`, Core Data's instruments among them) are not segments.
///
/// Test cases are segments too, as `xcodebuild test` and `swift test` print them, so that a test suite's SQLDebug
/// output is per test with no instrumentation:
///
///     Test Case '-[AppTests.FeedTests testFeed]' started.          (XCTest on macOS: segment AppTests.FeedTests.testFeed)
///     Test Case '-[AppTests.FeedTests testFeed]' passed (0.012 seconds).
///     Test Case 'FeedTests.testFeed' started at 2024-05-01 10:00:00.000   (XCTest elsewhere)
///     ◇ Test feed() started.                                       (Swift Testing: segment feed())
///     ✔ Test feed() passed after 0.004 seconds.                    (or ✘ ... failed after, ➜ ... skipped)
enum Markers {
    static func marker(in line: ByteView, line number: Int) -> SegmentMarker? {
        if let hit = line.find("RelBench: ") {
            var index = hit + 10
            let kind: SegmentMarker.Kind
            if line.matches("begin", at: index) {
                kind = .begin
                index += 5
            } else if line.matches("end", at: index) {
                kind = .end
                index += 3
            } else {
                return nil
            }
            guard index == line.count || line[index].isBlank else { return nil }
            let name = line.slice(index).trimmed()
            return SegmentMarker(kind: kind, name: name.count > 0 ? name.string : "unnamed", line: number)
        }
        return xcTestCase(in: line, line: number) ?? swiftTestingTest(in: line, line: number) ?? signpost(in: line, line: number)
    }

    /// `Test Case '-[Module.Class testName]' started.` / `... passed (0.1 seconds).` / `failed` / `skipped`.
    private static func xcTestCase(in line: ByteView, line number: Int) -> SegmentMarker? {
        guard let at = line.find("Test Case '"), let close = line.find(byte: UInt8(ascii: "'"), from: at + 11) else { return nil }
        let after = line.slice(close + 1).trimmingLeadingBlanks()
        let kind: SegmentMarker.Kind
        if after.matches("started", at: 0) {
            kind = .begin
        } else if after.matches("passed", at: 0) || after.matches("failed", at: 0) || after.matches("skipped", at: 0) {
            kind = .end
        } else {
            return nil
        }
        var name = line.slice(at + 11, close).trimmed()
        // -[AppTests.FeedTests testFeed] → AppTests.FeedTests.testFeed
        if name.count > 3, name[0] == UInt8(ascii: "-"), name[1] == UInt8(ascii: "["), name[name.count - 1] == UInt8(ascii: "]") {
            name = name.slice(2, name.count - 1)
            let text = name.string.replacingFirstSpace(with: ".")
            return text.isEmpty ? nil : SegmentMarker(kind: kind, name: text, line: number)
        }
        return name.count > 0 ? SegmentMarker(kind: kind, name: name.string, line: number) : nil
    }

    /// `◇ Test feed() started.` / `✔ Test feed() passed after 0.004 seconds.` / `✘ ... failed after ...` /
    /// `➜ ... skipped`: Swift Testing's console lines (a symbol, then `Test`). Suites and issues are not segments.
    private static func swiftTestingTest(in line: ByteView, line number: Int) -> SegmentMarker? {
        let text = line.trimmingLeadingBlanks()
        guard text.count > 8, text[0] >= 0x80, let at = text.find(" Test "), at <= 8 else { return nil }
        let rest = text.slice(at + 6)
        let kind: SegmentMarker.Kind
        let end: Int
        if rest.count > 9, rest.matches(" started.", at: rest.count - 9) {
            kind = .begin
            end = rest.count - 9
        } else if let passed = rest.find(" passed after ") ?? rest.find(" failed after ") ?? rest.find(" skipped") {
            kind = .end
            end = passed
        } else {
            return nil
        }
        var name = rest.slice(0, end).trimmed()
        if name.count >= 2, name[0] == UInt8(ascii: "\""), name[name.count - 1] == UInt8(ascii: "\"") {
            name = name.slice(1, name.count - 1)
        }
        guard name.count > 0 else { return nil }
        return SegmentMarker(kind: kind, name: name.string, line: number)
    }

    private static func signpost(in line: ByteView, line number: Int) -> SegmentMarker? {
        guard let open = line.find("[spid "), let close = line.find(byte: UInt8(ascii: "]"), from: open) else { return nil }
        let inside = line.slice(open + 6, close)
        // "0x1b0, process, begin" / "excl, process,   end" / "0xa79c4bf0, process, event"
        let parts = inside.string.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
        guard parts.count == 3 else { return nil }
        let kind: SegmentMarker.Kind
        switch parts[2] {
        case "begin": kind = .begin
        case "end": kind = .end
        default: return nil
        }
        let before = line.slice(0, open)
        let after = line.slice(close + 1)
        // The subsystem bracket is before the spid (compact style) or after it (default style).
        var nameText = after
        if let subsystem = subsystemBracket(in: after) {
            if subsystem.name.hasPrefix("com.apple.") { return nil }
            nameText = after.slice(subsystem.end)
        } else if let subsystem = subsystemBracket(in: before), subsystem.name.hasPrefix("com.apple.") {
            return nil
        }
        let trimmed = nameText.trimmed()
        var end = 0
        while end < trimmed.count, !(trimmed[end] == UInt8(ascii: ":") && (end + 1 == trimmed.count || trimmed[end + 1] == 32)) {
            end += 1
        }
        let name = trimmed.slice(0, end).trimmed()
        guard name.count > 0 else { return nil }
        return SegmentMarker(kind: kind, name: name.string, signpostID: parts[0], line: number)
    }

    /// The first `[subsystem:category]` in `text`: its subsystem and the offset after it.
    private static func subsystemBracket(in text: ByteView) -> (name: String, end: Int)? {
        var search = 0
        while let open = text.find(byte: UInt8(ascii: "["), from: search) {
            guard let close = text.find(byte: UInt8(ascii: "]"), from: open) else { return nil }
            let inside = text.slice(open + 1, close)
            if let colon = inside.find(byte: UInt8(ascii: ":")), inside.find(byte: 32) == nil, colon > 0 {
                return (inside.slice(0, colon).string, close + 1)
            }
            search = close + 1
        }
        return nil
    }
}

extension String {
    /// The text with its first space replaced (`AppTests.FeedTests testFeed` → `AppTests.FeedTests.testFeed`).
    func replacingFirstSpace(with replacement: String) -> String {
        guard let space = firstIndex(of: " ") else { return self }
        return String(self[..<space]) + replacement + String(self[index(after: space)...]).trimmingCharacters(in: " ")
    }

    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text.removeFirst() }
        while text.last == set { text.removeLast() }
        return String(text)
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String { String(self).trimmingCharacters(in: set) }
}
