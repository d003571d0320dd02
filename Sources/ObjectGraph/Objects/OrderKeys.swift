/// The order keys (`Z_FOK_` values) of an ordered to-many relationship's members.
///
/// Real stores hold multiples of 1024, one step per position (osxphotos' library: 1024, 2048, 3072, ...). How Core
/// Data picks keys on an insert or a move is not documented (inferred here): members keep the keys they had
/// wherever those keys still increase (the longest increasing run of them is kept), the others get keys spaced
/// evenly in the gap between their kept neighbours, and when a gap is too narrow every key is written anew as
/// (position + 1) × 1024. So appending writes one key, and a move writes one key while room lasts.
enum OrderKeys {
    static let step: Int64 = 1024

    /// New keys for members whose old keys (nil for a new member) are `old`, in the members' new order.
    static func assign(_ old: [Int64?]) -> [Int64] {
        let kept = longestIncreasingRun(old)
        var keys = [Int64](repeating: 0, count: old.count)
        var index = 0
        var lower: Int64 = 0
        while index < old.count {
            if kept.contains(index) {
                keys[index] = old[index] ?? lower
                lower = keys[index]
                index += 1
                continue
            }
            var end = index
            while end < old.count && !kept.contains(end) { end += 1 }
            let count = Int64(end - index)
            if end == old.count {
                for offset in 0..<Int(count) { keys[index + offset] = lower + step * Int64(offset + 1) }
            } else {
                let upper = old[end] ?? lower
                guard upper - lower > count else { return (0..<old.count).map { Int64($0 + 1) * step } }
                let gap = (upper - lower) / (count + 1)
                for offset in 0..<Int(count) { keys[index + offset] = lower + gap * Int64(offset + 1) }
            }
            index = end
        }
        return keys
    }

    /// Positions of a longest strictly increasing run of the non-nil keys (patience sorting).
    private static func longestIncreasingRun(_ keys: [Int64?]) -> Set<Int> {
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: keys.count)
        for (index, key) in keys.enumerated() {
            guard let key, key > 0 else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if keys[tails[middle]] ?? 0 < key { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run = Set<Int>()
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            run.insert(cursor)
            cursor = previous[cursor]
        }
        return run
    }
}
