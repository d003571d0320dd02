import Foundation
import ObjectGraph

/// A step with every input built before the phase is timed: generated values, the keys of the objects it touches,
/// predicates with their variables filled. Deterministic from the run's seed, the phase and the step's position, so
/// that the recording pass of the SQL replay and the measured run do the same work.
indirect enum PreparedStep {
    /// `manualPrefetch`: a key kept by hand to prefetch after the fetch (one fetch of every result's members).
    case fetch(FetchRequest, result: Step.Result, manualPrefetch: ManualRelationship?)
    /// `until`: read the members along the one key path until one has this value; `manual` reads keys kept by hand.
    case read(readers: [KeyPathReader], first: Int?, until: Value?, manual: ManualReads)
    case insert(entity: EntityDescription, roots: [NewObject])
    case insertData(GraphData)
    case update(attribute: AttributeDescription, targets: [(entity: EntityDescription, key: Int64, value: Value)])
    case delete(targets: [(entity: EntityDescription, key: Int64)])
    case batchInsert(BatchInsertRequest)
    case batchUpdate(BatchUpdateRequest)
    case batchDelete(BatchDeleteRequest)
    case link(
        RelationshipDescription,
        pairs: [(source: (entity: EntityDescription, key: Int64), destination: (entity: EntityDescription, key: Int64))], unlink: Bool)
    case deleteFetched
    case save(mayFail: Bool)
    case reset
    case letGo
    case undoManager
    case newContext
    case merge([PreparedStep])
    /// Re-read `relationship` of every `entity` in a new context; `intended`: the links the phase inserted.
    case countLinks(entity: EntityDescription, relationship: RelationshipDescription, intended: Int)

    /// An object an insert step makes: its values, the existing objects it links to, and new children.
    struct NewObject {
        var values: [(AttributeDescription, Value)]
        var links: [(RelationshipDescription, [(entity: EntityDescription, key: Int64)])]
        var children: [(RelationshipDescription, [NewObject])]
        /// The existing object whose to-many the new one joins: from that side, or (`fromMember`) by setting the new
        /// object's to-one inverse.
        var into: (relationship: RelationshipDescription, owner: (entity: EntityDescription, key: Int64), fromMember: Bool)?
    }
}

/// Builds prepared steps for one phase of one repetition's store.
struct StepPreparer {
    let plan: DeclaredScenario.Plan
    let data: GraphData
    let keys: FilledKeys
    /// The store object variables name objects of; nil when only values are chosen (a peer's targets).
    let store: PersistentStore?
    let seed: UInt64
    let size: Int

    /// Values of the phase's variables, chosen once for all its steps.
    private var phaseValues: [String: any PredicateArgument] = [:]

    init(plan: DeclaredScenario.Plan, data: GraphData, keys: FilledKeys, store: PersistentStore?, seed: UInt64, size: Int) {
        self.plan = plan
        self.data = data
        self.keys = keys
        self.store = store
        self.seed = seed
        self.size = size
    }

    /// The round of a repeating phase being prepared.
    private var round = 0
    /// Links the phase's inserts made, by "Entity.relationship", for `count-links`.
    private var insertedLinks: [String: Int]?

    /// The prepared steps of a phase, `rounds` times over, its `variables` chosen anew for each round.
    mutating func prepare(
        _ steps: [Step], phase: String, variables: [String: Step.Variable] = [:], rounds: Int = 1
    ) throws -> [PreparedStep] {
        var random = SplitMix64(seed: seed ^ DataGenerator.hash("\(phase) variables"))
        var prepared: [PreparedStep] = []
        insertedLinks = nil
        for round in 0..<rounds {
            self.round = round
            phaseValues = [:]
            for (name, variable) in variables.sorted(by: { $0.key < $1.key }) { phaseValues[name] = try resolve(variable, random: &random) }
            prepared += try prepareSteps(steps, phase: round == 0 ? phase : "\(phase) round \(round)")
        }
        return prepared
    }

    /// The values the phase's variables take in each round, chosen exactly as `prepare` chooses them (objects are
    /// `null` without a store).
    mutating func values(of variables: [String: Step.Variable], phase: String, rounds: Int) throws -> [[String: Value]] {
        var random = SplitMix64(seed: seed ^ DataGenerator.hash("\(phase) variables"))
        var result: [[String: Value]] = []
        for round in 0..<rounds {
            self.round = round
            var values: [String: Value] = [:]
            for (name, variable) in variables.sorted(by: { $0.key < $1.key }) {
                values[name] = try resolve(variable, random: &random) as? Value ?? .null
            }
            result.append(values)
        }
        return result
    }

    private mutating func prepareSteps(_ steps: [Step], phase: String) throws -> [PreparedStep] {
        var prepared: [PreparedStep] = []
        for (index, step) in steps.enumerated() {
            var random = SplitMix64(seed: seed ^ DataGenerator.hash("\(phase) step \(index)"))
            prepared.append(try prepare(step, random: &random, phase: "\(phase).\(index)"))
        }
        return prepared
    }

    private var model: ObjectModel { plan.model }

    private mutating func prepare(_ step: Step, random: inout SplitMix64, phase: String) throws -> PreparedStep {
        switch step {
        case let .fetch(fetch):
            let (request, manual) = try self.request(fetch, random: &random)
            return .fetch(request, result: fetch.result, manualPrefetch: manual)
        case let .count(fetch): return .fetch(try request(fetch, random: &random).request, result: .count, manualPrefetch: nil)
        case let .read(paths, first, until):
            let manual = ManualReads(keys: plan.manualKeys, model: model)
            var value: Value?
            if let until {
                guard let found = phaseValues[until] as? Value else {
                    throw BenchError.invalidInput("\(phase): 'until' compares with $\(until), which is an object, not a value")
                }
                value = found
            }
            return .read(
                readers: paths.compactMap { KeyPathReader($0.names, manual: manual) }, first: first, until: value, manual: manual)
        case let .countLinks(entity, relationship):
            let intended =
                insertedLinks?["\(entity.name).\(relationship.name)"]
                ?? Self.links(in: data, entity: entity, relationship: relationship.name)
            return .countLinks(entity: entity, relationship: relationship, intended: intended)
        case let .insert(entity, count, children, into):
            let total = count.value(size: size)
            let offset = data.objects[entity.number]?.count ?? 0
            var roots: [PreparedStep.NewObject] = []
            for index in 0..<total {
                var object = newObject(entity, index: offset + index, random: &random)
                object.links = links(from: entity, random: &random)
                object.values += keyValues(for: entity, random: &random)
                for child in children {
                    let childEntity = child.relationship.destination
                    let childOffset = (data.objects[childEntity.number]?.count ?? 0) + index * child.count
                    object.children.append(
                        (child.relationship, (0..<child.count).map { newObject(childEntity, index: childOffset + $0, random: &random) }))
                }
                if let into {
                    let owners = data.objects(of: into.owner)
                    if !owners.isEmpty, let owner = keyed(owners[Int(random.next() % UInt64(owners.count))]) {
                        object.into = (into.relationship, owner, into.fromMember)
                    }
                }
                roots.append(object)
            }
            return .insert(entity: entity, roots: roots)
        case let .update(entity, attribute, share):
            let generator =
                plan.generator.spec.attributes["\(attribute.entity.name).\(attribute.name)"]
                ?? DataGenerator.defaultGenerator(attribute, unique: false)
            return .update(
                attribute: attribute,
                targets: chosen(entity, share: share, random: &random).map { target in
                    let value = DataGenerator.value(
                        generator, attribute, entity: target.entity.name, index: Int(target.key) + 1_000_000, random: &random)
                    return (target.entity, target.key, DataGenerator.fit(value, to: attribute, random: &random))
                })
        case let .delete(entity, share):
            return .delete(targets: chosen(entity, share: share, random: &random))
        case let .batchInsert(entity, count):
            let offset = data.objects[entity.number]?.count ?? 0
            let objects = (0..<count.value(size: size)).map { index in
                Dictionary(uniqueKeysWithValues: newObject(entity, index: offset + index, random: &random).values.map { ($0.0.name, $0.1) })
            }
            return .batchInsert(BatchInsertRequest(entityName: entity.name, objects: objects))
        case let .batchUpdate(entity, predicate, values):
            return .batchUpdate(
                BatchUpdateRequest(
                    entityName: entity.name, predicate: try predicate?.filled([:]),
                    propertiesToUpdate: Dictionary(values.map { ($0.attribute.name, $0.value) }, uniquingKeysWith: { $1 })))
        case let .batchDelete(entity, predicate):
            return .batchDelete(BatchDeleteRequest(entityName: entity.name, predicate: try predicate?.filled([:])))
        case let .save(mayFail): return .save(mayFail: mayFail)
        case .reset: return .reset
        case .letGo: return .letGo
        case .undoManager: return .undoManager
        case .newContext: return .newContext
        case let .merge(inner): return .merge(try prepareSteps(inner, phase: "\(phase).merge"))
        case let .insertData(inline):
            var inserted = data
            if let inline {
                let generator = DataGenerator(spec: inline, model: model, declared: plan.generator.declared, manualKeys: plan.manualKeys)
                inserted = generator.make(size: size, seed: seed ^ DataGenerator.hash(phase))
            }
            var links = insertedLinks ?? [:]
            for edges in inserted.edges where edges.key == nil {
                links["\(edges.source.name).\(edges.relationship)", default: 0] += edges.targets.values.reduce(0) { $0 + $1.count }
            }
            insertedLinks = links
            return .insertData(inserted)
        case .deleteFetched: return .deleteFetched
        case let .link(entity, relationship, count, unlink):
            let sources = data.objects(of: entity)
            let destinations = data.objects(of: relationship.destination)
            var pairs: [(source: (entity: EntityDescription, key: Int64), destination: (entity: EntityDescription, key: Int64))] = []
            guard !sources.isEmpty, !destinations.isEmpty else { return .link(relationship, pairs: [], unlink: unlink) }
            if unlink {
                // Memberships the data made, chosen at random.
                var existing: [(ObjectRef, ObjectRef)] = []
                for edges in data.edges
                where edges.key == nil && edges.relationship == relationship.name && entity.isKind(of: edges.source) {
                    for (source, targets) in edges.ordered {
                        for target in targets { existing.append((source, target)) }
                    }
                }
                existing.shuffle(using: &random)
                for (source, target) in existing.prefix(count.value(size: size)) {
                    if let pair = keyed(source, target) { pairs.append(pair) }
                }
            } else {
                for _ in 0..<count.value(size: size) {
                    let source = sources[Int(random.next() % UInt64(sources.count))]
                    let target = destinations[Int(random.next() % UInt64(destinations.count))]
                    if let pair = keyed(source, target) { pairs.append(pair) }
                }
            }
            return .link(relationship, pairs: pairs, unlink: unlink)
        }
    }

    private func keyed(
        _ source: ObjectRef, _ target: ObjectRef
    ) -> (source: (entity: EntityDescription, key: Int64), destination: (entity: EntityDescription, key: Int64))? {
        guard let source = keyed(source), let target = keyed(target) else { return nil }
        return (source, target)
    }

    /// The concrete entity and primary key a generated object got in the store.
    private func keyed(_ object: ObjectRef) -> (entity: EntityDescription, key: Int64)? {
        guard let key = keys.key(object), let entity = model.entity(number: object.entity) else { return nil }
        return (entity, key)
    }

    /// The fetch request of a step, and a key kept by hand to prefetch after it (ObjectGraph's request does not know it).
    private func request(_ fetch: Step.Fetch, random: inout SplitMix64) throws -> (request: FetchRequest, manual: ManualRelationship?) {
        var variables: [String: any PredicateArgument] = phaseValues
        for (name, variable) in fetch.variables.sorted(by: { $0.key < $1.key }) {
            variables[name] = try resolve(variable, random: &random)
        }
        var request = FetchRequest(
            fetch.entity.name, predicate: try fetch.predicate?.filled(variables),
            sortDescriptors: fetch.sort.map { FetchSort($0.keyPath.text, ascending: $0.ascending) })
        request.fetchLimit = fetch.limit
        request.fetchOffset = fetch.offset
        request.fetchBatchSize = fetch.batchSize
        let manual = fetch.prefetch.count == 1 ? fetch.prefetch[0].manualRelationship : nil
        request.relationshipKeyPathsForPrefetching = manual == nil ? fetch.prefetch.map(\.text) : []
        request.returnsObjectsAsFaults = fetch.faults
        request.includesPropertyValues = fetch.propertyValues
        request.includesSubentities = fetch.subentities
        switch fetch.result {
        case .objects: request.resultType = .objects
        case .ids: request.resultType = .objectIDs
        case .count: request.resultType = .count
        }
        return (request, manual)
    }

    private func resolve(_ variable: Step.Variable, random: inout SplitMix64) throws -> any PredicateArgument {
        switch variable {
        case let .value(value): return value
        case let .word(entity, attribute, pick), let .valueOf(entity, attribute, pick, _):
            var memberOf: Step.Membership?
            if case let .valueOf(_, _, _, owner) = variable { memberOf = owner }
            guard let chosen = choose(entity, pick, memberOf: memberOf, random: &random),
                let column = data.objects[chosen.entity]?.columns.first(where: { $0.attribute.name == attribute.name })
            else { return Value.null }
            let value = column.values[chosen.index]
            guard case .word = variable, case let .string(text) = value else { return value }
            let words = text.split(separator: " ")
            return Value.string(words.isEmpty ? text : String(words[Int(random.next() % UInt64(words.count))]))
        case let .object(entity, pick, memberOf):
            guard let chosen = choose(entity, pick, memberOf: memberOf, random: &random), let key = keys.key(chosen), let store,
                let concrete = model.entity(number: chosen.entity)
            else { return Value.null }
            return ObjectID(entity: concrete, key: key, in: store)
        }
    }

    /// The generated object a variable picks: one of `entity`'s, or with `memberOf` a seeded-random member of the
    /// owner picked (members in key order).
    private func choose(
        _ entity: EntityDescription, _ pick: Step.Pick, memberOf: Step.Membership?,
        random: inout SplitMix64
    ) -> ObjectRef? {
        let pool = data.objects(of: memberOf?.owner ?? entity)
        guard !pool.isEmpty else { return nil }
        let picked: ObjectRef
        switch pick {
        case .random: picked = pool[Int(random.next() % UInt64(pool.count))]
        case let .index(index): picked = pool[min(index, pool.count - 1)]
        case .round: picked = pool[round % pool.count]
        }
        guard let memberOf else { return picked }
        let members = data.members(of: picked, through: memberOf.relationship)
        guard !members.isEmpty else { return nil }
        return members[Int(random.next() % UInt64(members.count))]
    }

    /// Links of `entity.relationship` in `data`, for a `count-links` with no insert before it in its phase.
    private static func links(in data: GraphData, entity: EntityDescription, relationship: String) -> Int {
        data.edges.filter { $0.key == nil && $0.relationship == relationship && entity.isKind(of: $0.source) }
            .reduce(0) { $0 + $1.targets.values.reduce(0) { $0 + $1.count } }
    }

    /// A new object of `entity` with generated values (index `index` among the entity's objects, so that unique
    /// values stay unique).
    private func newObject(_ entity: EntityDescription, index: Int, random: inout SplitMix64) -> PreparedStep.NewObject {
        let values = plan.generator.storedAttributes(entity).map { attribute -> (AttributeDescription, Value) in
            let generator =
                plan.generator.spec.attributes["\(attribute.entity.name).\(attribute.name)"]
                ?? plan.generator.spec.attributes["\(entity.name).\(attribute.name)"]
                ?? DataGenerator.defaultGenerator(attribute, unique: true)
            let value = DataGenerator.value(generator, attribute, entity: entity.name, index: index, random: &random)
            return (attribute, DataGenerator.fit(value, to: attribute, random: &random))
        }
        return PreparedStep.NewObject(values: values, links: [], children: [], into: nil)
    }

    /// For relationships a variant replaced by a hand-kept key: the key of a random existing destination.
    private func keyValues(for entity: EntityDescription, random: inout SplitMix64) -> [(AttributeDescription, Value)] {
        var values: [(AttributeDescription, Value)] = []
        for (index, edges) in data.edges.enumerated() where entity.isKind(of: edges.source) {
            guard let key = edges.key, let attribute = entity.attribute(key.attribute) else { continue }
            let destinations = data.orderedTargets(ofEdges: index)
            guard !destinations.isEmpty else { continue }
            let pick = destinations[Int(random.next() % UInt64(destinations.count))]
            if let value = data.objects[pick.entity]?.columns.first(where: { $0.attribute.name == key.destinationAttribute })?.values[
                pick.index]
            {
                values.append((attribute, value))
            }
        }
        return values
    }

    /// Existing destinations for the relationships of `entity` the data section fills (and required to-ones).
    private func links(
        from entity: EntityDescription, random: inout SplitMix64
    ) -> [(RelationshipDescription, [(entity: EntityDescription, key: Int64)])] {
        var result: [(RelationshipDescription, [(entity: EntityDescription, key: Int64)])] = []
        for edges in data.edges where edges.key == nil && entity.isKind(of: edges.source) {
            guard let relationship = edges.source.relationship(edges.relationship) else { continue }
            let pool = data.objects(of: relationship.destination)
            guard !pool.isEmpty else { continue }
            let count =
                relationship.isToMany
                ? min(
                    pool.count,
                    max(1, edges.targets.isEmpty ? 1 : edges.targets.values.reduce(0) { $0 + $1.count } / max(1, edges.targets.count))) : 1
            var chosen: [(entity: EntityDescription, key: Int64)] = []
            for _ in 0..<count {
                let pick = pool[Int(random.next() % UInt64(pool.count))]
                if let key = keys.key(pick), let concrete = model.entity(number: pick.entity),
                    !chosen.contains(where: { $0.key == key && $0.entity === concrete })
                {
                    chosen.append((concrete, key))
                }
            }
            result.append((relationship, chosen))
        }
        return result
    }

    /// A seeded share of the generated objects of `entity` (and its sub-entities), by key.
    private func chosen(_ entity: EntityDescription, share: Double, random: inout SplitMix64) -> [(entity: EntityDescription, key: Int64)] {
        var pool = data.objects(of: entity)
        pool.shuffle(using: &random)
        let count = Int((Double(pool.count) * share).rounded(.up))
        return pool.prefix(count).compactMap { pick in
            guard let key = keys.key(pick), let concrete = model.entity(number: pick.entity) else { return nil }
            return (concrete, key)
        }
    }
}
