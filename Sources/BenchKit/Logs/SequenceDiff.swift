/// The difference of two statement sequences (fingerprints): what one ran that the other did not, in order, with a
/// few statements of context around each place they part.
package struct SequenceDiff: Equatable {
    /// One step of the edit from `expected` to `actual`.
    package enum Step: Equatable {
        case same(String)
        /// Only in `expected` (ObjectGraph's trace).
        case removed(String)
        /// Only in `actual` (the device's log).
        case added(String)
        /// `expected` ran the first where `actual` ran the second.
        case changed(String, String)
    }

    package let steps: [Step]
    /// Whether the sequences were too long and too different to align: the steps then list each fingerprint's
    /// surplus on either side, not the order.
    package let approximate: Bool

    /// Aligns the sequences (their common start and end first, then a longest common subsequence of the middle).
    package init(expected: [String], actual: [String], maximumCells: Int = 4_000_000) {
        var prefix = 0
        while prefix < expected.count, prefix < actual.count, expected[prefix] == actual[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < expected.count - prefix, suffix < actual.count - prefix,
            expected[expected.count - 1 - suffix] == actual[actual.count - 1 - suffix]
        {
            suffix += 1
        }
        let left = Array(expected[prefix..<(expected.count - suffix)])
        let right = Array(actual[prefix..<(actual.count - suffix)])
        var steps = expected[..<prefix].map(Step.same)
        if left.count * right.count > maximumCells {
            steps += Self.surplus(left, right)
            approximate = true
        } else {
            steps += Self.pairChanges(Self.align(left, right))
            approximate = false
        }
        steps += expected[(expected.count - suffix)...].map(Step.same)
        self.steps = steps
    }

    package var isEqual: Bool { steps.allSatisfy(Self.isSame) }

    package var counts: (added: Int, removed: Int, changed: Int) {
        var counts = (added: 0, removed: 0, changed: 0)
        for step in steps {
            switch step {
            case .same: break
            case .added: counts.added += 1
            case .removed: counts.removed += 1
            case .changed: counts.changed += 1
            }
        }
        return counts
    }

    /// A longest common subsequence by dynamic programming, read back as same / removed / added steps.
    private static func align(_ left: [String], _ right: [String]) -> [Step] {
        let width = right.count + 1
        var lengths = [Int32](repeating: 0, count: (left.count + 1) * width)
        for i in stride(from: left.count - 1, through: 0, by: -1) {
            for j in stride(from: right.count - 1, through: 0, by: -1) {
                lengths[i * width + j] =
                    left[i] == right[j]
                    ? lengths[(i + 1) * width + j + 1] + 1 : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var steps: [Step] = []
        var i = 0
        var j = 0
        while i < left.count || j < right.count {
            if i < left.count, j < right.count, left[i] == right[j] {
                steps.append(.same(left[i]))
                i += 1
                j += 1
            } else if j == right.count || (i < left.count && lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
                steps.append(.removed(left[i]))
                i += 1
            } else {
                steps.append(.added(right[j]))
                j += 1
            }
        }
        return steps
    }

    /// Removals and additions that meet between two same steps pair up, in order, as changes.
    private static func pairChanges(_ steps: [Step]) -> [Step] {
        var result: [Step] = []
        var removed: [String] = []
        var added: [String] = []
        func flush() {
            let paired = min(removed.count, added.count)
            for index in 0..<paired { result.append(.changed(removed[index], added[index])) }
            result += removed.dropFirst(paired).map(Step.removed) + added.dropFirst(paired).map(Step.added)
            removed = []
            added = []
        }
        for step in steps {
            switch step {
            case let .removed(text): removed.append(text)
            case let .added(text): added.append(text)
            default:
                flush()
                result.append(step)
            }
        }
        flush()
        return result
    }

    /// Each fingerprint's surplus on either side, most frequent first (sequences too long to align).
    private static func surplus(_ left: [String], _ right: [String]) -> [Step] {
        var balance: [String: Int] = [:]
        for text in left { balance[text, default: 0] -= 1 }
        for text in right { balance[text, default: 0] += 1 }
        var steps: [Step] = []
        for (text, count) in balance.sorted(by: { (abs($0.value), $1.key) > (abs($1.value), $0.key) }) where count != 0 {
            steps += Array(repeating: count > 0 ? Step.added(text) : Step.removed(text), count: abs(count))
        }
        return steps
    }

    /// The differences as lines: each place the sequences part, with `context` same statements around it, numbered
    /// by position in each sequence; at most `places` places.
    package func lines(context: Int = 2, places: Int = 20) -> [String] {
        var lines: [String] = []
        var shownUntil = -1
        var shownPlaces = 0
        var hidden = 0
        var positions: [(expected: Int, actual: Int)] = []
        var expected = 0
        var actual = 0
        for step in steps {
            positions.append((expected, actual))
            switch step {
            case .same, .changed:
                expected += 1
                actual += 1
            case .removed: expected += 1
            case .added: actual += 1
            }
        }
        var index = 0
        while index < steps.count {
            guard !Self.isSame(steps[index]) else {
                index += 1
                continue
            }
            var end = index
            while end < steps.count, !Self.isSame(steps[end]) { end += 1 }
            guard shownPlaces < places else {
                hidden += 1
                index = end
                continue
            }
            shownPlaces += 1
            let start = max(index - context, shownUntil + 1)
            if start > shownUntil + 1 || lines.isEmpty {
                let at = positions[start]
                lines.append(
                    approximate
                        ? "@@ surplus by fingerprint (too long to align)"
                        : "@@ objectgraph statement \(at.expected + 1), device statement \(at.actual + 1)")
            }
            let stop = min(steps.count, end + context)
            for position in start..<stop { lines += Self.lines(steps[position]) }
            shownUntil = stop - 1
            index = end
        }
        if hidden > 0 { lines.append("... and \(hidden) more places that differ") }
        return lines
    }

    private static func isSame(_ step: Step) -> Bool {
        if case .same = step { return true }
        return false
    }

    private static func lines(_ step: Step) -> [String] {
        switch step {
        case let .same(text): return ["    " + text]
        case let .removed(text): return ["  - objectgraph only: " + text]
        case let .added(text): return ["  + device only:      " + text]
        case let .changed(old, new): return ["  ~ objectgraph:      " + old, "    device:           " + new]
        }
    }
}
