import Foundation
import ObjectGraph

/// `bench run --model MODEL`: a standard declared scenario made from a model, for a user's first numbers with no
/// scenario to write. It inserts a graph of every entity (`size` objects each, more where a required relationship
/// needs them; or the counts `--counts` gives; or a real store's shape, `--shape-from`) with every relationship
/// filled, fetches every entity, looks objects up by an identifier and lists the first screen sorted by a date,
/// walks every relationship from its first 100 sources with faults and with prefetching, sweeps fetchBatchSize on
/// the entity with most attributes, counts every to-many of the same 100 owners three ways (faulting it, a count
/// request per owner, a derived attribute where declared) and deletes a share of every entity with its delete rules.
/// Every phase says in its description which objects it covers.
package enum GeneratedSuite {
    /// Sources walked or counted per relationship phase (a screen's worth, so that large sizes stay quick).
    static let sourcesPerWalk = 100
    /// Lookups of a find phase, and the rows of a sorted first screen.
    static let lookups = 10
    static let screen = 20
    static let batchSizes = [0, 20, 100, 500]

    /// What the data follows besides the model: counts per entity (`--counts`), a store's shape (`--shape-from`).
    package struct Options: Sendable, Equatable, Codable {
        /// Objects of the entities named; the others follow them through the model's relationships.
        package var counts: [String: Int] = [:]
        /// Rows per entity, fan-out histograms and to-one fills read from a store.
        package var shape: StoreShape?

        package init(counts: [String: Int] = [:], shape: StoreShape? = nil) {
            self.counts = counts
            self.shape = shape
        }

        /// `--counts Customer=10000,Order=50000 --shape-from PATH`, as `bench explain` takes them.
        package var arguments: String {
            var text = ""
            if !counts.isEmpty {
                text += " --counts " + counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            }
            if let shape { text += " --shape-from \(shellWord(shape.path))" }
            return text
        }
    }

    /// The scenario for the model at `path`.
    package static func scenario(modelPath: String, options: Options = Options()) throws -> Scenario {
        let absolute = modelPath.hasPrefix("/") ? modelPath : FileManager.default.currentDirectoryPath + "/" + modelPath
        do {
            let xcode = try ModelSource.load(path: absolute)
            let model = try xcode.makeModel()
            guard model.entities.contains(where: { !$0.isAbstract }) else {
                throw BenchError.invalidInput(
                    "\(modelPath) declares no entity that can have objects; there is nothing to measure (bench schema and bench lint read it)"
                )
            }
            let text = try json(for: model, modelPath: absolute, name: modelName(absolute), options: options)
            var scenario = try ScenarioFile.parse(Data(text.utf8), file: absolute + " (generated suite)")
            scenario.origin = .generated(model: absolute, options: options)
            return scenario
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(error)")
        }
    }

    static func modelName(_ path: String) -> String {
        var name = (path as NSString).lastPathComponent
        for suffix in [".xcdatamodeld", ".xcdatamodel", ".swift"] where name.hasSuffix(suffix) {
            name = String(name.dropLast(suffix.count))
        }
        if name == "contents" { name = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent }
        return name.replacingOccurrences(of: ".xcdatamodel", with: "")
    }

    /// The suite as a scenario file's JSON.
    static func json(for model: ObjectModel, modelPath: String, name: String, options: Options) throws -> String {
        let counts = try entityCounts(model, options: options)
        let what =
            options.shape.map { "the shape of \(($0.path as NSString).lastPathComponent)" }
            ?? (options.counts.isEmpty ? "size objects of every entity" : "the counts given")
        var root: [String: Any] = [
            "name": "model-\(name)",
            "description":
                "The standard suite generated for the model \(name), its data following \(what): insert, fetch every entity, lookups by an identifier and a first screen sorted by date, the first 100 sources' relationships walked with faults and with prefetching, a batch-size sweep, the same 100 owners' to-many counted three ways, deletes with the delete rules",
            "model": modelPath,
            "strategies": ["objectgraph", "sql-replay"],
            "phases": phases(model, counts: counts),
        ]
        root.merge(try dataSections(model, options: options, sizes: [100], [1000, 10000], [1000, 10000, 100000])) { first, _ in first }
        let data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// The sections of a scenario file that make the data the suite makes for `model` with `options`: `data` (the
    /// counts of every entity and how every relationship is filled), `sizes` (the profiles' sizes given, or the
    /// largest count given), `repetitions` and `warmup`. `bench scan` gives each fetch site's scenario the same.
    package static func dataSections(
        _ model: ObjectModel, options: Options, sizes smoke: [Int], _ standard: [Int], _ full: [Int]
    ) throws -> [String: Any] {
        let counts = try entityCounts(model, options: options)
        var sizes: Any = ["smoke": smoke, "default": standard, "full": full]
        // Counts given per entity are the data's size whatever the profile: the largest of them labels the run.
        if !options.counts.isEmpty { sizes = [counts.values.map { $0.value(size: 0) }.max() ?? 1] }
        return [
            "data": ["entities": counts.mapValues(countJSON), "relationships": relationshipFills(model, shape: options.shape)],
            "sizes": sizes,
            "repetitions": ["smoke": 1, "default": 3, "full": 3],
            "warmup": ["smoke": 0, "default": 1, "full": 1],
        ]
    }

    /// A count as the scenario file writes it.
    static func countJSON(_ count: DataSpec.Count) -> Any {
        switch count {
        case let .fixed(value): return value
        case let .perSize(factor): return factor == 1 ? "size" : "\(factor)*size"
        case let .capped(inner, maximum): return ["count": countJSON(inner), "max": maximum]
        }
    }

    /// How the data section fills each relationship pair (one side each): the store's histograms (both sides' for a
    /// many-to-many) and fills with a shape, else a to-many's members drawn uniformly from 0 to 3 and an optional to-one set 9 times in 10, the
    /// to-one side of a one-to-many filled (each member picks its owner).
    static func relationshipFills(_ model: ObjectModel, shape: StoreShape?) -> [String: Any] {
        var fills: [String: Any] = [:]
        var filled = Set<ObjectIdentifier>()
        for entity in model.entities {
            for relationship in entity.relationships
            where relationship.entity === entity && !filled.contains(ObjectIdentifier(relationship)) {
                let inverse = relationship.inverse.flatMap { $0 === relationship ? nil : $0 }
                let oneToMany = inverse.map { relationship.isToMany != $0.isToMany } ?? false
                // The to-many side of a one-to-many carries the histogram; without a shape the to-one side is filled.
                let histogram: Histogram? = {
                    guard let shape else { return nil }
                    let side = relationship.isToMany ? relationship : inverse
                    guard let side, side.isToMany, let found = shape.fanouts[side.qualifiedName], found.ownerCount > 0 else { return nil }
                    return found
                }()
                if histogram == nil && oneToMany && relationship.isToMany { continue }
                filled.insert(ObjectIdentifier(relationship))
                if let inverse { filled.insert(ObjectIdentifier(inverse)) }
                let side = histogram != nil && !relationship.isToMany ? inverse! : relationship
                guard side.destination.subtree.contains(where: { !$0.isAbstract }) else { continue }
                if let histogram {
                    var fill: [String: Any] = [
                        "per": ["histogram": Dictionary(uniqueKeysWithValues: histogram.bins.map { (String($0.fanout), $0.owners) })]
                    ]
                    // Without an inverse a member has one owner in the store: so it has in the data.
                    if side.inverse == nil { fill["reuse"] = 0 }
                    // A many-to-many's other side keeps its own histogram: its members' slots are dealt from it.
                    if let other = side.inverse, other !== side, other.isToMany, let found = shape?.fanouts[other.qualifiedName],
                        found.ownerCount > 0
                    {
                        fill["perDestination"] = [
                            "histogram": Dictionary(uniqueKeysWithValues: found.bins.map { (String($0.fanout), $0.owners) })
                        ]
                    }
                    fills[side.qualifiedName] = fill
                } else if side.isToMany {
                    fills[side.qualifiedName] = ["per": ["uniform": [0, 3]]]
                } else if side.isOptional {
                    fills[side.qualifiedName] = ["fill": shape?.filled[side.qualifiedName] ?? 0.9]
                } else {
                    fills[side.qualifiedName] = [String: Any]()
                }
            }
        }
        return fills
    }
}
