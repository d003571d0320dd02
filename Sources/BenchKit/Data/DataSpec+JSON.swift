import Foundation

/// A data section written back as a scenario file writes it (what `DataSpec.parse` reads): for the scenario files
/// `bench scan` writes. A value that is the default (a fan-out of 0 to 4, a fill of 1) is left out.
extension DataSpec {
    var jsonObject: [String: Any] {
        var relationships: [String: Any] = [:]
        for fill in self.relationships {
            var object: [String: Any] = [:]
            if let links = fill.links {
                object["links"] = links
            } else {
                if fill.fanout != .uniform(0, 4) { object["per"] = fill.fanout.jsonValue }
                if fill.fill != 1 { object["fill"] = fill.fill }
                if let reuse = fill.reuse { object["reuse"] = reuse }
                if let perDestination = fill.perDestination { object["perDestination"] = perDestination.jsonValue }
            }
            relationships["\(fill.entity).\(fill.relationship)"] = object
        }
        var section: [String: Any] = ["entities": counts.mapValues(\.jsonValue), "relationships": relationships]
        if !attributes.isEmpty { section["attributes"] = attributes.mapValues(\.jsonValue) }
        return section
    }
}

extension DataSpec.Count {
    /// `5`, `"size"`, `"0.5*size"`, `{"count": ..., "max": 100}`.
    var jsonValue: Any {
        switch self {
        case let .fixed(value): return value
        case let .perSize(factor): return factor == 1 ? "size" : "\(factor)*size"
        case let .capped(inner, maximum): return ["count": inner.jsonValue, "max": maximum]
        }
    }
}

extension DataSpec.Fanout {
    /// `3`, `{"uniform": [0, 4]}`, `{"zipf": 1.2, "max": 200}`, `{"histogram": {"0": 7, "1": 7}}`.
    var jsonValue: Any {
        switch self {
        case let .fixed(count): return count.jsonValue
        case let .uniform(low, high): return ["uniform": [low, high]]
        case let .zipf(exponent, maximum): return ["zipf": exponent, "max": maximum]
        case let .histogram(bins): return ["histogram": Dictionary(uniqueKeysWithValues: bins.map { (String($0.fanout), $0.owners) })]
        }
    }
}

extension DataSpec.Generator {
    /// `{"words": [2, 4]}` and the like, as `DataSpec.parse` reads them (dates as days).
    var jsonValue: Any {
        func day(_ seconds: Double) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            return formatter.string(from: Date(timeIntervalSinceReferenceDate: seconds))
        }
        switch self {
        case let .name(prefix): return ["name": prefix.map { $0 as Any } ?? true]
        case let .words(low, high): return ["words": [low, high]]
        case let .text(low, high): return ["text": [low, high]]
        case let .integer(low, high): return ["integer": [low, high]]
        case let .number(low, high): return ["number": [low, high]]
        case let .date(from, to): return ["date": [day(from), day(to)]]
        case let .bool(chance): return ["bool": chance]
        case let .bytes(low, high): return ["bytes": [low, high]]
        case .uuid: return ["uuid": true]
        case .uri: return ["uri": true]
        case .sequence: return ["sequence": true]
        case let .constant(text): return ["constant": text]
        }
    }
}
