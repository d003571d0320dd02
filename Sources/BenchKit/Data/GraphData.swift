import Foundation
import ObjectGraph

/// An object of generated data: its concrete entity and its index among that entity's objects.
struct ObjectRef: Hashable, Sendable {
    let entity: Int
    let index: Int
}

/// The objects a data section makes for one size, built outside every timed region: for each concrete entity its
/// count and attribute values, and for each filled relationship the destinations of every source.
final class GraphData: @unchecked Sendable {
    struct Objects {
        let entity: EntityDescription
        let count: Int
        /// Stored attributes to set, with one value per object.
        var columns: [(attribute: AttributeDescription, values: [Value])]
    }

    struct Edges {
        let source: EntityDescription
        let relationship: String
        /// Destinations of each source object (by ObjectRef of a source); a to-one has zero or one.
        var targets: [ObjectRef: [ObjectRef]]
        /// For a relationship a variant replaced by a key attribute: the attribute set instead, and the destination
        /// attribute it copies.
        var key: (attribute: String, destinationAttribute: String)?
        /// For those: the key kept by hand the edges stand for (sources are its members, destinations its owners).
        var manual: ManualKey?

        /// The same links seen from the destinations: each destination with the sources that chose it.
        func inverted(source: EntityDescription, relationship: String) -> Edges {
            var inverse: [ObjectRef: [ObjectRef]] = [:]
            for (owner, members) in ordered {
                for member in members { inverse[member, default: []].append(owner) }
            }
            return Edges(source: source, relationship: relationship, targets: inverse)
        }

        /// `targets` by source in object order: a dictionary's own order changes from process to process, and what
        /// is chosen from it must not.
        var ordered: [(source: ObjectRef, targets: [ObjectRef])] {
            targets.sorted { ($0.key.entity, $0.key.index) < ($1.key.entity, $1.key.index) }.map { ($0.key, $0.value) }
        }
    }

    /// By entity number (concrete entities with a count).
    var objects: [Int: Objects] = [:]
    var edges: [Edges] = [] {
        didSet { flattenedTargets = [:] }
    }
    /// Per edge list, every target in source order, made once: a hand-kept key picks a random one for each object
    /// a phase inserts, and sorting the edges for each pick made preparing hand-kept-key quadratic (perf: 56% of
    /// a 30,000-object run in the sort; 100,000 objects took minutes per repetition).
    private var flattenedTargets: [Int: [ObjectRef]] = [:]
    private let cacheLock = NSLock()
    let model: ObjectModel
    /// The run's size the data was made for.
    let size: Int

    /// The targets of `edges[index]`, sources in object order.
    func orderedTargets(ofEdges index: Int) -> [ObjectRef] {
        cacheLock.withLock {
            if let cached = flattenedTargets[index] { return cached }
            let targets = edges[index].ordered.flatMap(\.targets)
            flattenedTargets[index] = targets
            return targets
        }
    }

    init(model: ObjectModel, size: Int) {
        self.model = model
        self.size = size
    }

    /// Every object, entity by entity in model order.
    var allObjects: [ObjectRef] {
        model.entities.flatMap { entity in (0..<(objects[entity.number]?.count ?? 0)).map { ObjectRef(entity: entity.number, index: $0) } }
    }

    /// The objects of `entity` and its sub-entities.
    func objects(of entity: EntityDescription) -> [ObjectRef] {
        entity.subtree.flatMap { member in (0..<(objects[member.number]?.count ?? 0)).map { ObjectRef(entity: member.number, index: $0) } }
    }

    var objectCount: Int { objects.values.reduce(0) { $0 + $1.count } }

    /// The members `owner` got through `relationship` (a to-many of its entity, or one a variant keeps by hand), in
    /// the order of their keys (the order of the generated objects).
    func members(of owner: ObjectRef, through relationship: String) -> [ObjectRef] {
        for edges in self.edges {
            if let manual = edges.manual, manual.relationship == relationship,
                model.entity(manual.owner)?.number == owner.entity
                    || (model.entity(manual.owner).map { owner.entity == $0.number || $0.subtree.contains { $0.number == owner.entity } }
                        ?? false)
            {
                return edges.ordered.filter { $0.targets.contains(owner) }.map(\.source)
            }
            guard edges.manual == nil, edges.relationship == relationship,
                edges.source.subtree.contains(where: { $0.number == owner.entity })
            else { continue }
            return (edges.targets[owner] ?? []).sorted { ($0.entity, $0.index) < ($1.entity, $1.index) }
        }
        return []
    }
}
