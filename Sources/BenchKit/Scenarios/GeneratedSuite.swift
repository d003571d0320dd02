import Foundation
import ObjectGraph

/// `bench run --model MODEL`: a standard declared scenario made from a model, for a user's first numbers with no
/// scenario to write. It inserts a graph of `size` objects of every entity (more where a required relationship needs
/// them: `countFactors`) with every relationship filled, fetches every entity, walks every relationship from its
/// source with faults and with prefetching, sweeps fetchBatchSize on the entity with most attributes, counts every
/// to-many three ways (faulting it, `@count` in a fetch, a derived attribute where declared) and deletes a share of
/// every entity with its delete rules.
package enum GeneratedSuite {
    /// Sources walked or counted per relationship phase (a screen's worth, so that large sizes stay quick).
    static let sourcesPerWalk = 100
    static let batchSizes = [0, 20, 100, 500]

    /// The scenario for the model at `path`.
    package static func scenario(modelPath: String) throws -> Scenario {
        let absolute = modelPath.hasPrefix("/") ? modelPath : FileManager.default.currentDirectoryPath + "/" + modelPath
        do {
            let xcode = try XcodeModel.load(path: absolute)
            let model = try xcode.makeModel()
            guard model.entities.contains(where: { !$0.isAbstract }) else {
                throw BenchError.invalidInput(
                    "\(modelPath) declares no entity that can have objects; there is nothing to measure (bench schema and bench lint read it)"
                )
            }
            let text = try json(for: model, modelPath: absolute, name: modelName(absolute))
            var scenario = try ScenarioFile.parse(Data(text.utf8), file: absolute + " (generated suite)")
            scenario.origin = .generated(model: absolute)
            return scenario
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(error)")
        }
    }

    static func modelName(_ path: String) -> String {
        var name = (path as NSString).lastPathComponent
        for suffix in [".xcdatamodeld", ".xcdatamodel"] where name.hasSuffix(suffix) { name = String(name.dropLast(suffix.count)) }
        if name == "contents" { name = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent }
        return name.replacingOccurrences(of: ".xcdatamodel", with: "")
    }

    /// The suite as a scenario file's JSON.
    static func json(for model: ObjectModel, modelPath: String, name: String) throws -> String {
        let concrete = model.entities.filter { !$0.isAbstract }
        var relationships: [String: Any] = [:]
        var filled = Set<ObjectIdentifier>()
        for entity in model.entities {
            for relationship in entity.relationships
            where relationship.entity === entity && !filled.contains(ObjectIdentifier(relationship)) {
                // One side of each pair: the to-one side of a one-to-many, else the side met first.
                if let inverse = relationship.inverse, inverse !== relationship, relationship.isToMany, !inverse.isToMany { continue }
                filled.insert(ObjectIdentifier(relationship))
                if let inverse = relationship.inverse { filled.insert(ObjectIdentifier(inverse)) }
                guard relationship.destination.subtree.contains(where: { !$0.isAbstract }) else { continue }
                relationships[relationship.qualifiedName] =
                    relationship.isToMany
                    ? ["per": ["uniform": [0, 3]]] as [String: Any]
                    : (relationship.isOptional ? ["fill": 0.9] : [:])
            }
        }
        var phases: [[String: Any]] = [["name": "insert", "store": "fresh", "steps": [["insert-data": true], ["save": true]]]]
        func readable(_ entity: EntityDescription) -> String? {
            (entity.attributes + (entity.superentity?.attributes ?? [])).first {
                !$0.isTransient && $0.type != .undefined && $0.type != .binary && $0.type != .transformable
            }?.name
        }
        for entity in concrete {
            var steps: [[String: Any]] = [["fetch": entity.name, "faults": false]]
            if let attribute = readable(entity) { steps.append(["read": [attribute]]) }
            phases.append(["name": "fetch-\(entity.name)", "steps": steps])
        }
        for entity in concrete {
            for relationship in entity.relationships {
                let path: String
                if relationship.isToMany {
                    path = relationship.name + "." + (readable(relationship.destination) ?? "@count")
                } else {
                    path = relationship.name + (readable(relationship.destination).map { "." + $0 } ?? "")
                }
                for prefetch in [false, true] {
                    var fetch: [String: Any] = ["fetch": entity.name, "faults": false, "limit": sourcesPerWalk]
                    if prefetch { fetch["prefetch"] = [relationship.name] }
                    phases.append([
                        "name": "walk-\(entity.name).\(relationship.name)" + (prefetch ? "-prefetch" : ""),
                        "steps": [fetch, ["read": [path]]],
                    ])
                }
                guard relationship.isToMany else { continue }
                phases.append([
                    "name": "count-\(entity.name).\(relationship.name)-faults",
                    "steps": [
                        ["fetch": entity.name, "faults": false, "limit": sourcesPerWalk], ["read": ["\(relationship.name).@count"]],
                    ],
                ])
                phases.append([
                    "name": "count-\(entity.name).\(relationship.name)-fetch",
                    "steps": [["count": entity.name, "predicate": "\(relationship.name).@count > 0"]],
                ])
                if let derived = entity.derivedAttributes.first(where: {
                    if case let .count(reference) = $0.kind { return reference.name == relationship.name } else { return false }
                }) {
                    phases.append([
                        "name": "count-\(entity.name).\(relationship.name)-derived",
                        "steps": [["fetch": entity.name, "faults": false, "limit": sourcesPerWalk], ["read": [derived.name]]],
                    ])
                }
            }
        }
        if let largest = concrete.max(by: { ($0.attributes.count, $1.name) < ($1.attributes.count, $0.name) }) {
            for batch in batchSizes {
                var steps: [[String: Any]] = [["fetch": largest.name, "faults": false, "batchSize": batch]]
                if let attribute = readable(largest) { steps.append(["read": [attribute]]) }
                phases.append(["name": "batch-\(largest.name)-\(batch)", "steps": steps])
            }
        }
        for entity in concrete {
            phases.append([
                "name": "delete-\(entity.name)", "store": "prepared",
                "steps": [["delete": entity.name, "share": 0.1], ["save": "may-fail"]],
            ])
        }
        // The first read phase starts on the prepared store; later ones continue it (each with a new context).
        if phases.count > 1 { phases[1]["store"] = "prepared" }
        for index in phases.indices where phases[index]["store"] == nil { phases[index]["store"] = "continued" }
        let root: [String: Any] = [
            "name": "model-\(name)",
            "description":
                "The standard suite generated for the model \(name): insert, fetch every entity, walk every relationship with faults and with prefetching, a batch-size sweep, counts three ways, deletes with the delete rules",
            "model": modelPath,
            "strategies": ["objectgraph", "sql-replay"],
            "data": ["entities": countFactors(model).mapValues { $0 == 1 ? "size" : "\($0)*size" }, "relationships": relationships],
            "phases": phases,
            "sizes": ["smoke": [100], "default": [1000, 10000], "full": [1000, 10000, 100000]],
            "repetitions": ["smoke": 1, "default": 3, "full": 3],
            "warmup": ["smoke": 0, "default": 1, "full": 1],
        ]
        let data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
