extension DataSpec {
    /// An object count: fixed, or a multiple (or fraction) of the run's size, possibly capped.
    indirect enum Count: Sendable, Equatable, CustomStringConvertible {
        case fixed(Int)
        case perSize(Double)
        /// At most `maximum` of `count`: `{"count": "size", "max": 100}` (a screen's worth of owners at any size).
        case capped(Count, maximum: Int)

        func value(size: Int) -> Int {
            switch self {
            case let .fixed(count): return count
            case let .perSize(factor): return max(0, Int((Double(size) * factor).rounded()))
            case let .capped(count, maximum): return min(maximum, count.value(size: size))
            }
        }

        var description: String {
            switch self {
            case let .fixed(count): return String(count)
            case let .perSize(factor): return factor == 1 ? "size" : "\(VariantValue.number(factor))*size"
            case let .capped(count, maximum): return "\(count), at most \(maximum)"
            }
        }

        /// Whether the count is the same at every size.
        var isFixed: Bool {
            switch self {
            case .fixed: return true
            case .perSize: return false
            case let .capped(count, _): return count.isFixed
            }
        }

        /// `5`, `"size"`, `"3*size"`, `"size/10"`, `"0.5*size"`, `{"count": "size", "max": 100}`.
        static func parse(_ value: JSONValue) -> Count? {
            if let number = value.number, number >= 0, number.rounded() == number, number <= 100_000_000 { return .fixed(Int(number)) }
            if let object = value.object, Set(object.keys) == ["count", "max"], let inner = object["count"], inner.object == nil,
                let count = parse(inner), let maximum = object["max"]?.number, maximum >= 0, maximum.rounded() == maximum,
                maximum <= 100_000_000
            {
                return .capped(count, maximum: Int(maximum))
            }
            guard let text = value.string?.replacingOccurrences(of: " ", with: "") else { return nil }
            if text == "size" { return .perSize(1) }
            if text.hasSuffix("*size"), let factor = Double(text.dropLast(5)), factor >= 0, factor <= 10_000 { return .perSize(factor) }
            if text.hasPrefix("size/"), let divisor = Double(text.dropFirst(5)), divisor >= 1 { return .perSize(1 / divisor) }
            return nil
        }
    }
}
