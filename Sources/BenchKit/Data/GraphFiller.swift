import Foundation
import ObjectGraph

/// The primary keys the generated objects got in a filled store: `keys[entity number][index]`.
struct FilledKeys: Sendable {
    var keys: [Int: [Int64]] = [:]

    func key(_ object: ObjectRef) -> Int64? {
        guard let list = keys[object.entity], object.index < list.count else { return nil }
        return list[object.index]
    }
}

/// Inserts generated data through ObjectGraph's API (attributes set, relationships set from one side so that
/// inverses are maintained, hand-kept keys copied), as an app importing it would.
enum GraphFiller {
    /// Inserts every object of `data` into `context` and links them; returns them by ref (not saved).
    @discardableResult
    static func insert(_ data: GraphData, into context: ObjectContext) throws -> [ObjectRef: ManagedObject] {
        var objects: [ObjectRef: ManagedObject] = [:]
        objects.reserveCapacity(data.objectCount)
        for entity in data.model.entities {
            guard let generated = data.objects[entity.number] else { continue }
            for index in 0..<generated.count {
                let object = try context.insert(entity)
                for (attribute, values) in generated.columns { try object.setValue(values[index], for: attribute) }
                objects[ObjectRef(entity: entity.number, index: index)] = object
            }
        }
        for edges in data.edges {
            if let key = edges.key {
                for (source, targets) in edges.ordered {
                    guard let object = objects[source], let target = targets.first,
                        let value = data.objects[target.entity]?.columns.first(where: { $0.attribute.name == key.destinationAttribute })?
                            .values[target.index]
                    else { continue }
                    try object.setValue(value, for: key.attribute)
                }
                continue
            }
            guard let relationship = edges.source.relationship(edges.relationship) else { continue }
            for (source, targets) in edges.ordered {
                guard let object = objects[source] else { continue }
                if relationship.isToMany {
                    for target in targets { if let member = objects[target] { try object.add(member, to: relationship) } }
                } else if let target = targets.first, let destination = objects[target] {
                    try object.setObject(destination, for: relationship)
                }
            }
        }
        return objects
    }

    /// Fills a new store at `location` with `data` in one save; returns the keys the objects got.
    static func fill(_ data: GraphData, model: ObjectModel, location: StoreLocation, options: StoreOptions) throws -> FilledKeys {
        let store = try PersistentStore(model: model, location: location, options: options)
        let context = store.makeContext()
        let objects = try insert(data, into: context)
        try context.save()
        var keys = FilledKeys()
        for entity in data.model.entities {
            guard let generated = data.objects[entity.number] else { continue }
            keys.keys[entity.number] = (0..<generated.count).map {
                // Every generated object was inserted just above.
                // swift-format-ignore: NeverForceUnwrap
                objects[ObjectRef(entity: entity.number, index: $0)]!.objectID.primaryKey
            }
        }
        return keys
    }
}
