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

    /// The scenario for the model at `path`, built typed: its data section, phases and steps are made against the
    /// compiled model directly (no JSON written and parsed back), each key path and predicate resolved as a scenario
    /// file's are.
    package static func scenario(modelPath: String, options: Options = Options()) throws -> Scenario {
        let absolute = modelPath.hasPrefix("/") ? modelPath : FileManager.default.currentDirectoryPath + "/" + modelPath
        do {
            return try scenario(xcode: try ModelSource.load(path: absolute), path: modelPath, options: options)
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(error)")
        }
    }

    /// The scenario for `xcode`, read from `modelPath` (a version of it when the file has several).
    static func scenario(xcode: XcodeModel, path modelPath: String, options: Options) throws -> Scenario {
        let absolute = modelPath.hasPrefix("/") ? modelPath : FileManager.default.currentDirectoryPath + "/" + modelPath
        let file = absolute + " (generated suite)"
        do {
            let declared = DeclaredModel(entities: xcode.entities, notes: xcode.notes, source: absolute, path: absolute)
            let model = try xcode.makeModel()
            guard model.entities.contains(where: { !$0.isAbstract }) else {
                throw BenchError.invalidInput(
                    "\(modelPath) declares no entity that can have objects; there is nothing to measure (bench schema and bench lint read it)"
                )
            }
            let name = modelName(absolute)
            let counts = try entityCounts(model, options: options)
            var sizes: [Int] = [100]
            var perProfile: [Profile: [Int]] = [.smoke: [100], .default: [1000, 10000], .full: [1000, 10000, 100000]]
            // Counts given per entity are the data's size whatever the profile: the largest of them labels the run.
            if !options.counts.isEmpty {
                sizes = [counts.values.map { $0.value(size: 0) }.max() ?? 1]
                perProfile = Dictionary(uniqueKeysWithValues: Profile.allCases.map { ($0, sizes) })
            }
            var fills = relationshipFills(model, shape: options.shape)
            if options.shape == nil && !options.counts.isEmpty { fills = keepingGivenRatios(fills, model, given: options.counts) }
            let data = DataSpec(counts: counts, relationships: fills, attributes: [:])
            if let problem = data.problems(in: model, manualKeys: []).first {
                throw BenchError.invalidInput("\(file): the generated data section: \(problem)")
            }
            let builder = SuiteSteps(model: model, file: file)
            let plan = DeclaredScenario.Plan(
                entities: declared.entities, model: model, phases: try phases(model, counts: counts, steps: builder),
                generator: DataGenerator(spec: data, model: model, declared: declared.entities, manualKeys: []), manualKeys: [])
            let what =
                options.shape.map { "the shape of \(($0.path as NSString).lastPathComponent)" }
                ?? (options.counts.isEmpty ? "size objects of every entity" : "the counts given")
            return Scenario(
                name: ScenarioName("model-\(name)"),
                description:
                    "The standard suite generated for the model \(name), its data following \(what): insert, fetch every entity, lookups by an identifier and a first screen sorted by date, the first 100 sources' relationships walked with faults and with prefetching, a batch-size sweep, the same 100 owners' to-many counted three ways, deletes with the delete rules",
                declared: DeclaredScenario(model: declared, changes: [], plans: [Variant([]): plan], first: plan),
                strategies: [.objectGraph, .sqlReplay], axes: [], sizes: perProfile,
                repetitions: [.smoke: 1, .default: 3, .full: 3], warmup: [.smoke: 0, .default: 1, .full: 1], file: file,
                origin: .generated(model: absolute, options: options))
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

    /// The sections of a scenario file that make the data the suite makes for `model` with `options`: `data` (the
    /// counts of every entity and how every relationship is filled, the typed data section written as a file
    /// writes it), `sizes` (the profiles' sizes given, or the largest count given), `repetitions` and `warmup`.
    /// `bench scan` gives each fetch site's scenario the same.
    package static func dataSections(
        _ model: ObjectModel, options: Options, sizes smoke: [Int], _ standard: [Int], _ full: [Int]
    ) throws -> [String: Any] {
        let counts = try entityCounts(model, options: options)
        var sizes: Any = ["smoke": smoke, "default": standard, "full": full]
        // Counts given per entity are the data's size whatever the profile: the largest of them labels the run.
        if !options.counts.isEmpty { sizes = [counts.values.map { $0.value(size: 0) }.max() ?? 1] }
        var fills = relationshipFills(model, shape: options.shape)
        if options.shape == nil && !options.counts.isEmpty { fills = keepingGivenRatios(fills, model, given: options.counts) }
        let data = DataSpec(counts: counts, relationships: fills, attributes: [:])
        return [
            "data": data.jsonObject,
            "sizes": sizes,
            "repetitions": ["smoke": 1, "default": 3, "full": 3],
            "warmup": ["smoke": 0, "default": 1, "full": 1],
        ]
    }

    /// How the data section fills each relationship pair (one side each): the store's histograms (both sides' for a
    /// many-to-many) and fills with a shape, else a to-many's members drawn uniformly from 0 to 3 and an optional to-one
    /// set 9 times in 10, the to-one side of a one-to-many filled (each member picks its owner). In the order of
    /// their `Entity.relationship` names, as a data section's are read.
    static func relationshipFills(_ model: ObjectModel, shape: StoreShape?) -> [DataSpec.RelationshipFill] {
        var fills: [String: DataSpec.RelationshipFill] = [:]
        var filled = Set<ObjectIdentifier>()
        func histogram(_ found: Histogram) -> DataSpec.Fanout {
            .histogram(found.bins.map { DataSpec.Fanout.Bin(fanout: $0.fanout, owners: $0.owners) })
        }
        for entity in model.entities {
            for relationship in entity.relationships
            where relationship.entity === entity && !filled.contains(ObjectIdentifier(relationship)) {
                let inverse = relationship.inverse.flatMap { $0 === relationship ? nil : $0 }
                let oneToMany = inverse.map { relationship.isToMany != $0.isToMany } ?? false
                // The to-many side of a one-to-many carries the histogram; without a shape the to-one side is filled.
                let found: Histogram? = {
                    guard let shape else { return nil }
                    let side = relationship.isToMany ? relationship : inverse
                    guard let side, side.isToMany, let found = shape.fanouts[side.qualifiedName], found.ownerCount > 0 else { return nil }
                    return found
                }()
                if found == nil && oneToMany && relationship.isToMany { continue }
                filled.insert(ObjectIdentifier(relationship))
                if let inverse { filled.insert(ObjectIdentifier(inverse)) }
                let side = found != nil && !relationship.isToMany ? (inverse ?? relationship) : relationship
                guard side.destination.subtree.contains(where: { !$0.isAbstract }) else { continue }
                let name = side.qualifiedName
                func fill(_ fanout: DataSpec.Fanout = .uniform(0, 4), fill: Double = 1, reuse: Double? = nil) -> DataSpec.RelationshipFill {
                    DataSpec.RelationshipFill(entity: side.entity.name, relationship: side.name, fanout: fanout, fill: fill, reuse: reuse)
                }
                if let found {
                    // Without an inverse a member has one owner in the store: so it has in the data.
                    var made = fill(histogram(found), reuse: side.inverse == nil ? 0 : nil)
                    // A many-to-many's other side keeps its own histogram: its members' slots are dealt from it.
                    if let other = side.inverse, other !== side, other.isToMany, let theirs = shape?.fanouts[other.qualifiedName],
                        theirs.ownerCount > 0
                    {
                        made.perDestination = histogram(theirs)
                    }
                    fills[name] = made
                } else if side.isToMany {
                    fills[name] = fill(.uniform(0, 3))
                } else if side.isOptional {
                    fills[name] = fill(fill: shape?.filled[name] ?? 0.9)
                } else {
                    fills[name] = fill()
                }
            }
        }
        return fills.sorted { $0.key < $1.key }.map(\.value)
    }
}
