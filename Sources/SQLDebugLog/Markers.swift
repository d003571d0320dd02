/// Segment markers: `RelBench: begin NAME` / `RelBench: end NAME` printed by the app (any prefix before them),
/// and os_signpost intervals as `log show --signpost` / `log stream --signpost` print them:
///
///     2000-12-31 16:20:34.567898-0800 0x14d  Signpost  0x0  1036  0  [spid 0x1b0, process, begin] App: (App) [com.example:perf] Walk: detail
///     2024-05-01 10:00:00.000 Sp App[1036:14d] [com.example:perf] [spid 0x1b0, process, begin] Walk
///
/// Signposts of Apple's own subsystems (`com.apple.*`, Core Data's instruments among them) are not segments.
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
        return signpost(in: line, line: number)
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
