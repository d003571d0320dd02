import Foundation
import ObjectGraph

/// Makes `GraphData` from a data section, deterministically from the seed.
struct DataGenerator {
    let spec: DataSpec
    let model: ObjectModel
    /// The model as declared, before a variant changed it: every variant gets the data of the declared
    /// relationships (one source per destination where the declared inverse is a to-one, even once a variant removed
    /// the inverse or replaced the relationship by a key kept by hand), so that variants compare like with like.
    let declared: [Entity]
    let manualKeys: [ManualKey]

    func make(size: Int, seed: UInt64) -> GraphData {
        let data = GraphData(model: model, size: size)
        for entity in model.entities where !entity.isAbstract {
            guard let count = spec.counts[entity.name]?.value(size: size), count > 0 else { continue }
            var columns: [(AttributeDescription, [Value])] = []
            let unique = Set(uniqueAttributes(entity))
            let (first, total) = hierarchyOrdinals(of: entity, size: size)
            let uniqueIndexes = unique.isEmpty ? [] : (0..<count).map { Self.uniqueIndexes(entity, ordinal: first + $0, total: total) }
            for attribute in storedAttributes(entity) {
                let given =
                    spec.attributes["\(attribute.entity.name).\(attribute.name)"] ?? spec.attributes["\(entity.name).\(attribute.name)"]
                let generator = given ?? Self.defaultGenerator(attribute, unique: unique.contains(attribute.name))
                var random = SplitMix64(seed: seed ^ Self.hash("\(entity.name).\(attribute.name)"))
                let distinct = given == nil && unique.contains(attribute.name)
                columns.append(
                    (
                        attribute,
                        (0..<count).map { position in
                            var index = position
                            switch distinct ? uniqueIndexes[position][attribute.name] : nil {
                            case let .value(value)?: return value
                            case let .index(ordinal)?: index = ordinal
                            case nil: break
                            }
                            return Self.fit(
                                Self.value(generator, attribute, entity: entity.name, index: index, random: &random), to: attribute,
                                random: &random)
                        }
                    ))
            }
            data.objects[entity.number] = GraphData.Objects(entity: entity, count: count, columns: columns)
        }
        var named = Set<String>()
        for fill in spec.relationships {
            named.insert("\(fill.entity).\(fill.relationship)")
            guard let entity = model.entity(fill.entity) else { continue }
            if let relationship = entity.relationship(fill.relationship) {
                if let inverse = relationship.inverse { named.insert("\(inverse.entity.name).\(inverse.name)") }
                data.edges.append(
                    edges(fill, from: entity, destination: relationship.destination, relationship: relationship, data, seed: seed))
            } else if let (key, toMany) = ManualKey.named(fill.relationship, from: entity, in: manualKeys),
                let owner = model.entity(key.owner), let member = model.entity(key.member)
            {
                // The variant keeps a key by hand instead: the same choice of destinations, each member holding its
                // owner's key (members are the sources of the edges whichever side the data section fills).
                var keyed = edges(fill, from: entity, destination: toMany ? member : owner, relationship: nil, data, seed: seed)
                if toMany { keyed = keyed.inverted(source: member, relationship: key.inverse ?? key.relationship) }
                keyed.key = (key.memberKey, key.ownerKey)
                keyed.manual = key
                data.edges.append(keyed)
            }
        }
        // Required to-one relationships nobody named still need a destination, or every save would fail.
        for entity in model.entities {
            for relationship in entity.relationships
            where relationship.entity === entity && !relationship.isOptional && !relationship.isToMany {
                let target = "\(entity.name).\(relationship.name)"
                guard !named.contains(target) else { continue }
                named.insert(target)
                let fill = DataSpec.RelationshipFill(
                    entity: entity.name, relationship: relationship.name, fanout: .fixed(.fixed(1)), fill: 1, reuse: 0)
                data.edges.append(
                    edges(fill, from: entity, destination: relationship.destination, relationship: relationship, data, seed: seed))
            }
        }
        meetMinimums(data, seed: seed)
        return data
    }

    /// Stored attributes the generator sets (inherited ones included; derived and transient ones are not set).
    func storedAttributes(_ entity: EntityDescription) -> [AttributeDescription] {
        var chain: [EntityDescription] = []
        var current: EntityDescription? = entity
        while let next = current {
            chain.insert(next, at: 0)
            current = next.superentity
        }
        return chain.flatMap { $0.attributes.filter { !$0.isTransient && $0.entity === $0.entity } }.filter { $0.type != .undefined }
    }

    /// The ordinal of `entity`'s first object among the objects of its hierarchy (one table), counted in model
    /// order, and how many objects the hierarchy has.
    private func hierarchyOrdinals(of entity: EntityDescription, size: Int) -> (first: Int, total: Int) {
        func root(_ entity: EntityDescription) -> EntityDescription { entity.superentity.map(root) ?? entity }
        let table = root(entity)
        var first = 0
        var total = 0
        for other in model.entities where !other.isAbstract && root(other) === table {
            let count = spec.counts[other.name]?.value(size: size) ?? 0
            if other.number < entity.number { first += count }
            total += count
        }
        return (first, total)
    }

    private func uniqueAttributes(_ entity: EntityDescription) -> [String] {
        var current: EntityDescription? = entity
        var names: [String] = []
        while let next = current {
            names += next.uniquenessConstraints.flatMap { $0 }
            current = next.superentity
        }
        return names
    }

    /// The declared shape of `entity.relationship` (found on the entity or a parent): whether it is a to-many and
    /// whether its inverse is a to-one (nil: no inverse).
    func declaredShape(_ entity: String, _ relationship: String) -> (isToMany: Bool, inverseToOne: Bool?)? {
        var current = declared.first { $0.name == entity }
        while let here = current {
            if case let .relationship(destination, isToMany, inverse, _, _, _)? = here.properties.first(where: { $0.name == relationship })?
                .summary
            {
                guard let inverse else { return (isToMany, nil) }
                var owner = declared.first { $0.name == destination }
                while let candidate = owner {
                    if case let .relationship(_, inverseIsToMany, _, _, _, _)? = candidate.properties.first(where: { $0.name == inverse })?
                        .summary
                    {
                        return (isToMany, !inverseIsToMany)
                    }
                    owner = candidate.parent.flatMap { name in declared.first { $0.name == name } }
                }
                return (isToMany, nil)
            }
            current = here.parent.flatMap { name in declared.first { $0.name == name } }
        }
        return nil
    }

    /// `source`: the entity `fill.entity` names.
    private func edges(
        _ fill: DataSpec.RelationshipFill, from source: EntityDescription, destination destinationEntity: EntityDescription,
        relationship: RelationshipDescription?, _ data: GraphData, seed: UInt64
    ) -> GraphData.Edges {
        let shape = declaredShape(fill.entity, fill.relationship)
        let isToMany = shape?.isToMany ?? relationship?.isToMany ?? false
        let inverseToOne = shape?.inverseToOne ?? relationship?.inverse.map { !$0.isToMany } ?? false
        var random = SplitMix64(seed: seed ^ Self.hash("\(fill.entity).\(fill.relationship) edges"))
        let sources = data.objects(of: source)
        let destinations = data.objects(of: destinationEntity)
        var targets: [ObjectRef: [ObjectRef]] = [:]
        guard !destinations.isEmpty else { return GraphData.Edges(source: source, relationship: fill.relationship, targets: [:]) }
        if let links = fill.links {
            for (object, list) in zip(sources, links) {
                let chosen = list.filter { $0 < destinations.count }.map { destinations[$0] }
                if !chosen.isEmpty { targets[object] = chosen }
            }
            return GraphData.Edges(source: source, relationship: fill.relationship, targets: targets)
        }
        var unused = destinations
        unused.shuffle(using: &random)
        var used: [ObjectRef] = []
        let reuse = fill.reuse ?? 0
        let controlled = fill.reuse != nil || inverseToOne
        var deck: [Int] = []
        if isToMany, case let .histogram(bins) = fill.fanout { deck = DataSpec.Fanout.deal(bins, sources: sources.count, random: &random) }
        // A many-to-many's other side: each destination's sources as slots, taken in a shuffled order.
        var slots: [ObjectRef] = []
        if isToMany, let perDestination = fill.perDestination {
            let counts = Self.fanouts(perDestination, count: destinations.count, size: data.size, random: &random)
            slots = zip(destinations, counts).flatMap { destination, count in Array(repeating: destination, count: count) }
            slots.shuffle(using: &random)
        }
        for (position, object) in sources.enumerated() {
            guard fill.fill >= 1 || random.nextUnit() < fill.fill else { continue }
            let wanted: Int
            if isToMany {
                switch fill.fanout {
                case let .fixed(count): wanted = count.value(size: data.size)
                case let .uniform(low, high): wanted = low + Int(random.next() % UInt64(high - low + 1))
                case let .zipf(exponent, maximum): wanted = Self.zipf(exponent, maximum, &random)
                case .histogram: wanted = deck[position]
                }
            } else {
                wanted = 1
            }
            let cap = relationship.map { $0.maxCount > 0 ? $0.maxCount : Int.max } ?? Int.max
            var chosen: [ObjectRef] = []
            var seen = Set<ObjectRef>()
            var attempts = 0
            while chosen.count < min(wanted, destinations.count, cap) && attempts < wanted * 4 + 8 {
                attempts += 1
                let pick: ObjectRef
                if fill.perDestination != nil {
                    // A slot of a destination this source already has waits for the next source.
                    guard let index = slots.lastIndex(where: { !seen.contains($0) }) else { break }
                    pick = slots.remove(at: index)
                } else if controlled {
                    if !used.isEmpty && random.nextUnit() < reuse {
                        pick = used[Int(random.next() % UInt64(used.count))]
                    } else if let fresh = unused.popLast() {
                        pick = fresh
                        used.append(fresh)
                    } else if !inverseToOne && !used.isEmpty {
                        pick = used[Int(random.next() % UInt64(used.count))]
                    } else {
                        break
                    }
                } else {
                    pick = destinations[Int(random.next() % UInt64(destinations.count))]
                }
                if seen.insert(pick).inserted { chosen.append(pick) }
            }
            if !chosen.isEmpty { targets[object] = chosen }
        }
        return GraphData.Edges(source: source, relationship: fill.relationship, targets: targets)
    }

    /// The fan-out of each of `count` owners: a histogram dealt, otherwise each drawn.
    static func fanouts(_ fanout: DataSpec.Fanout, count: Int, size: Int, random: inout SplitMix64) -> [Int] {
        switch fanout {
        case let .histogram(bins): return DataSpec.Fanout.deal(bins, sources: count, random: &random)
        case let .fixed(value): return Array(repeating: value.value(size: size), count: count)
        case let .uniform(low, high): return (0..<count).map { _ in low + Int(random.next() % UInt64(high - low + 1)) }
        case let .zipf(exponent, maximum): return (0..<count).map { _ in zipf(exponent, maximum, &random) }
        }
    }

    /// A Zipf-distributed count in 1...maximum (inverse-transform over the normalized weights).
    static func zipf(_ exponent: Double, _ maximum: Int, _ random: inout SplitMix64) -> Int {
        var total = 0.0
        for rank in 1...maximum { total += 1 / pow(Double(rank), exponent) }
        var target = random.nextUnit() * total
        for rank in 1...maximum {
            target -= 1 / pow(Double(rank), exponent)
            if target <= 0 { return rank }
        }
        return maximum
    }

    /// The dates a date attribute gets by default: 2020-01-01 to 2025-12-31, in seconds since 2001-01-01
    /// (`DataSpec.date`; a test holds the two to it).
    static let defaultDates = (from: 599_529_600.0, to: 788_832_000.0)

    static func defaultGenerator(_ type: AttributeType, unique: Bool) -> DataSpec.Generator {
        switch type {
        case .string: return .name(prefix: nil)
        case .int16: return unique ? .sequence : .integer(0, 1000)
        case .int32, .int64: return unique ? .sequence : .integer(0, 100_000)
        case .double, .float, .decimal: return unique ? .sequence : .number(0, 1000)
        case .bool: return .bool(0.5)
        case .date: return .date(defaultDates.from, defaultDates.to)
        case .uuid: return .uuid
        case .uri: return .uri
        case .binary, .transformable: return .bytes(16, 64)
        case .undefined: return .constant("")
        }
    }

    private static let vocabulary = [
        "core", "data", "chat", "swift", "graph", "store", "fetch", "fault", "batch", "member",
        "message", "post", "tag", "feed", "photo", "record", "report", "user", "like", "comment",
        "alpha", "beta", "gamma", "delta", "river", "stone", "cloud", "ember", "harbor", "meadow",
    ]

    static func value(
        _ generator: DataSpec.Generator, _ attribute: AttributeDescription, entity: String, index: Int,
        random: inout SplitMix64
    ) -> Value {
        func words(_ low: Int, _ high: Int) -> String {
            let count = low + Int(random.next() % UInt64(high - low + 1))
            return (0..<count).map { _ in vocabulary[Int(random.next() % UInt64(vocabulary.count))] }.joined(separator: " ")
        }
        switch generator {
        case let .name(prefix):
            guard let prefix else { return .string("\(entity) \(attribute.name) \(index + 1)") }
            let digits = String(index + 1)
            return .string(prefix + " " + String(repeating: "0", count: max(0, 7 - digits.count)) + digits)
        case let .words(low, high): return .string(words(low, high))
        case let .text(low, high):
            var text = words(max(1, low / 6), max(1, high / 5))
            let length = low + Int(random.next() % UInt64(high - low + 1))
            while text.utf8.count < length { text += " " + words(1, 3) }
            return .string(String(text.prefix(length)))
        case let .integer(low, high):
            let span = UInt64(bitPattern: high &- low) &+ 1
            let value = low &+ Int64(bitPattern: span == 0 ? random.next() : random.next() % span)
            return typed(.int(value), attribute.type)
        case let .number(low, high): return typed(.double(low + random.nextUnit() * (high - low)), attribute.type)
        case let .date(from, to): return .date(Date(timeIntervalSinceReferenceDate: from + random.nextUnit() * (to - from)))
        case let .bool(chance): return .bool(random.nextUnit() < chance)
        case let .bytes(low, high):
            let count = low + Int(random.next() % UInt64(high - low + 1))
            return .binary(Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
        case .uuid: return .uuid(UUID(randomUsing: &random))
        case .uri:
            let text = "https://example.com/\(entity.lowercased())/\(index + 1)"
            return URL(string: text).map { .url($0) } ?? .string(text)
        case .sequence: return typed(.int(Int64(index + 1)), attribute.type)
        case let .constant(text):
            switch attribute.type {
            case .string: return .string(text)
            case .int16, .int32, .int64: return Int64(text).map { .int($0) } ?? .null
            case .double, .float, .decimal: return Double(text).map { typed(.double($0), attribute.type) } ?? .null
            case .bool:
                switch text.lowercased() {
                case "1", "true", "yes": return .bool(true)
                case "0", "false", "no": return .bool(false)
                default: return .null
                }
            default: return .null
            }
        }
    }

    /// `value` in the case the attribute's type stores.
    private static func typed(_ value: Value, _ type: AttributeType) -> Value {
        switch (value, type) {
        case let (.int(v), .int16): return .int(max(Int64(Int16.min), min(Int64(Int16.max), v)))
        case let (.int(v), .int32): return .int(max(Int64(Int32.min), min(Int64(Int32.max), v)))
        case let (.int(v), .double), let (.int(v), .float): return .double(Double(v))
        case let (.int(v), .decimal): return .decimal(Decimal(v))
        case let (.double(v), .decimal): return .decimal(Decimal(string: String(format: "%.2f", v)) ?? Decimal(v))
        case let (.double(v), .int16), let (.double(v), .int32), let (.double(v), .int64): return typed(.int(Int64(v)), type)
        case (.int, .string), (.double, .string): return .string(value.description)
        default: return value
        }
    }

    /// FNV-1a of `text`, to seed one generator per attribute.
    static func hash(_ text: String) -> UInt64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return value
    }
}
