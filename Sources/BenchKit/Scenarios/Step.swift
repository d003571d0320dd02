import Foundation
import ObjectGraph

/// One step of a declared phase, as a screen or job of an app would do it through Core Data's API, with every name
/// resolved against its variant's model when the file is read: entities, attributes and relationships are the
/// model's descriptions, key paths and predicates are checked and parsed. Nothing is looked up by name again.
///
/// Each step is a JSON object with one kind key (`StepKind`) and its options:
/// `{"fetch": "Post", "predicate": "title CONTAINS[cd] $q", "variables": {"q": {"word": "Post.title"}},
///   "sort": ["-createdAt"], "limit": 20, "prefetch": ["author"], "faults": false}`, `{"read": ["author.name"]}`, ...
/// (Scenarios/README.md lists them all). Any option may depend on a variant,
/// `{"variant": "prefetch", "on": ["author"], "off": []}`, and a step may run only for some variant values,
/// `"when": {"count": "derived"}`.
indirect enum Step: Sendable {
    enum Result: String, Sendable { case objects, ids, count }

    struct Fetch: Sendable {
        let entity: EntityDescription
        let predicate: StepPredicate?
        let variables: [String: Variable]
        let sort: [(keyPath: StepKeyPath, ascending: Bool)]
        let limit: Int
        let offset: Int
        let batchSize: Int
        /// Relationship key paths to prefetch; a key kept by hand is prefetched alone.
        let prefetch: [StepKeyPath]
        let faults: Bool
        let propertyValues: Bool
        let result: Result
        let subentities: Bool
    }

    /// Which generated object a variable takes: seeded-random, by index, or by the round of a repeating phase.
    enum Pick: Sendable, Equatable {
        case random
        case index(Int)
        case round
    }

    /// The to-many a variable picks a member of (`memberOf`): the owner entity and the relationship, or the key a
    /// variant keeps by hand in its place (the data's edges name either).
    struct Membership: Sendable {
        let owner: EntityDescription
        let relationship: String
    }

    /// Where a predicate variable's value comes from, chosen before the phase is timed.
    enum Variable: Sendable {
        case value(Value)
        /// A word of the generated value of `attribute` of an object of `entity`.
        case word(entity: EntityDescription, attribute: AttributeDescription, pick: Pick)
        /// The generated value of `attribute` of an object of `entity`, so that with the same pick as an `object`
        /// variable it is that object's value; with `memberOf`, of a seeded-random member of the picked owner.
        case valueOf(entity: EntityDescription, attribute: AttributeDescription, pick: Pick, memberOf: Membership?)
        /// An object of `entity` (or, with `memberOf`, a seeded-random member of the picked owner).
        case object(entity: EntityDescription, pick: Pick, memberOf: Membership?)

        /// Whether the variable picks by the round of a repeating phase.
        var usesRound: Bool {
            switch self {
            case .value: return false
            case let .word(_, _, pick), let .valueOf(_, _, pick, _), let .object(_, pick, _): return pick == .round
            }
        }
    }

    /// A new object's to-many child objects: `count` members through `relationship`.
    struct Children: Sendable {
        let relationship: RelationshipDescription
        let count: Int
    }

    /// The to-many of an existing object each inserted object joins: from the owner's side
    /// (`owner.addToMembers(new)`), or with `fromMember` by setting the new object's to-one inverse.
    struct Into: Sendable {
        let owner: EntityDescription
        let relationship: RelationshipDescription
        let fromMember: Bool
    }

    case fetch(Fetch)
    case count(Fetch)
    /// `until`: the name of a variable; the members along the one key path are read until one has its value.
    case read(keyPaths: [StepKeyPath], first: Int?, until: String?)
    case insert(entity: EntityDescription, count: DataSpec.Count, children: [Children], into: Into?)
    /// Inserts the whole graph of the data section (every entity, every filled relationship), as an import does; or of
    /// a data section of the step's own.
    case insertData(DataSpec?)
    case update(entity: EntityDescription, attribute: AttributeDescription, share: Double)
    case delete(entity: EntityDescription, share: Double)
    case batchInsert(entity: EntityDescription, count: DataSpec.Count)
    /// `values`: each attribute's new value, read from the file when it was parsed.
    case batchUpdate(entity: EntityDescription, predicate: StepPredicate?, values: [(attribute: AttributeDescription, value: Value)])
    case batchDelete(entity: EntityDescription, predicate: StepPredicate?)
    /// Adds (or removes) `count` memberships of a relationship: random sources gain random destinations, or lose
    /// members the data gave them (seed 001's follow and unfollow).
    case link(entity: EntityDescription, relationship: RelationshipDescription, count: DataSpec.Count, unlink: Bool)
    /// Deletes the objects of the last fetch.
    case deleteFetched
    /// `mayFail`: a save a delete rule (deny) or a validation can refuse; the failure is counted and rolled back.
    case save(mayFail: Bool)
    case reset
    /// The steps' own references to what they made or fetched are dropped, as an app's loop iteration ends: what
    /// the context does not hold is freed now, in the timed phase.
    case letGo
    /// From here the context has an undo manager (a Mac context's default when Core Data began), which holds every
    /// object a step inserts, updates or deletes until the context is reset.
    case undoManager
    case newContext
    case merge([Step])
    /// Re-reads `relationship` for every source in a new context (prefetching it), and counts the links kept against
    /// the links the phase inserted: what a to-many without inverse loses on save.
    case countLinks(entity: EntityDescription, relationship: RelationshipDescription)

    /// Its kind, as the file names it.
    var kind: StepKind {
        switch self {
        case .fetch: return .fetch
        case .count: return .count
        case .read: return .read
        case .insert: return .insert
        case .insertData: return .insertData
        case .update: return .update
        case .delete: return .delete
        case .batchInsert: return .batchInsert
        case .batchUpdate: return .batchUpdate
        case .batchDelete: return .batchDelete
        case let .link(_, _, _, unlink): return unlink ? .unlink : .link
        case .deleteFetched: return .deleteFetched
        case .save: return .save
        case .reset: return .reset
        case .letGo: return .letGo
        case .undoManager: return .undoManager
        case .newContext: return .newContext
        case .merge: return .merge
        case .countLinks: return .countLinks
        }
    }
}

/// A key path of a step (`author.name`, `students.address.name`, `likes.@count`, `subjects.@first.name`), checked
/// against the model: each component the attribute, derived attribute, relationship or key kept by hand it names
/// on the entity reached so far.
struct StepKeyPath: Sendable, CustomStringConvertible {
    enum Component: Sendable {
        case attribute(AttributeDescription)
        case derived(DerivedAttributeDescription)
        case relationship(RelationshipDescription)
        /// A relationship a variant replaced by a key kept by hand: read through that key.
        case manual(ManualRelationship)
        /// `@count` after a to-many.
        case count
        /// `@first` after a to-many: its first member only.
        case first
    }

    /// The path as written.
    let text: String
    let components: [Component]

    var description: String { text }

    /// The path's names, split at its dots (what a reader meets on each object: a sub-entity may hold its own
    /// description of an inherited property).
    var names: ArraySlice<String> { text.split(separator: ".").map(String.init)[...] }

    /// The one relationship kept by hand this path is (a prefetch of it), if it is one.
    var manualRelationship: ManualRelationship? {
        guard components.count == 1, case let .manual(relationship) = components[0] else { return nil }
        return relationship
    }

    /// Whether the path is a to-many followed by one attribute of its members (`students.name`), what `until` walks.
    var isMemberAttribute: Bool {
        guard components.count == 2, case .attribute = components[1] else { return false }
        switch components[0] {
        case let .relationship(relationship): return relationship.isToMany
        case let .manual(relationship): return relationship.toMany
        default: return false
        }
    }
}

/// A predicate of a step, parsed and checked against the model when the file was read; its `$variables` are filled
/// when the phase is prepared.
struct StepPredicate: Sendable, CustomStringConvertible {
    let text: String
    let parsed: FetchPredicate

    var description: String { text }

    /// The predicate with its variables' values (every variable it uses was checked to have one).
    func filled(_ variables: [String: any PredicateArgument]) throws -> FetchPredicate {
        parsed.variableNames.isEmpty ? parsed : try parsed.substituting(variables)
    }
}
