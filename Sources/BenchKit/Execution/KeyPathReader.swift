import ObjectGraph

/// Reads one key path of a `read` step (`author.profile.bio`, `tags.name`, `likes.@count`, `subjects.@first.name`) as
/// an app's code would: each component's description is looked up once per entity met, not per object, so that the
/// declarative machinery adds little to the work ObjectGraph does. (callgrind, the query scenario at 1,000: looking
/// names up and formatting every value per object cost more instructions than the fetch.)
final class KeyPathReader {
    private enum Component {
        case toOne(RelationshipDescription)
        case toMany(RelationshipDescription)
        /// A relationship a variant keeps by hand: a fetch on the kept key, as an app without the relationship does.
        /// Boxed, so that a component is one reference: inline, its six names made every copy of a component (one
        /// per value read) a 130-byte copy with a retain and release of each (callgrind, query fetch-all at 10,000:
        /// 190 instructions a value read, more than ObjectGraph's whole read of the value, 116).
        indirect case manual(ManualRelationship)
        case attribute(AttributeDescription)
        case derived(DerivedAttributeDescription)
        /// What the model check let through but the entity met does not have (a sibling sub-entity): by name.
        case named
    }

    private let name: String
    private let next: KeyPathReader?
    /// `@count` after a to-many.
    private let counts: Bool
    /// `@first` after a to-many: only the first member the to-many returns is read on.
    private let firstOnly: Bool
    private let manual: ManualReads
    // Read for every object: unchecked, as ObjectGraph's per-row class properties are (one thread runs a reader;
    // callgrind showed the exclusivity checks costing a third of the reader's own instructions).
    @exclusivity(unchecked) private var entity: EntityDescription?
    @exclusivity(unchecked) private var component = Component.named
    /// The attribute of `component` when it is one, unretained (`component` holds it): reading it out of the enum
    /// retained and released it for every value read (callgrind, query fetch-all at 10,000: 40 instructions a row).
    @exclusivity(unchecked) private var attribute: Unmanaged<AttributeDescription>?

    /// The reader of `path`, already split at its dots; `manual` reads the keys a variant keeps by hand.
    init?(_ path: ArraySlice<String>, manual: ManualReads) {
        guard let first = path.first else { return nil }
        name = first
        self.manual = manual
        let rest = path.dropFirst()
        counts = rest.first == "@count"
        firstOnly = rest.first == "@first"
        next = counts ? nil : KeyPathReader(firstOnly ? rest.dropFirst() : rest, manual: manual)
    }

    /// `read(_:into:)` with an attribute read inlined into the caller's loop over objects, the rest of the path a
    /// call (callgrind, query fetch-all at 10,000: the call into `read`, with the frame its relationships need, was
    /// about 30 instructions a row).
    @inline(__always)
    func readInline(_ object: ManagedObject, into checksum: inout Checksum) throws {
        if try readValue(object, into: &checksum) { return }
        try read(object, into: &checksum)
    }

    /// Reads the path on `object` into `checksum`, firing the faults reading it fires.
    func read(_ object: ManagedObject, into checksum: inout Checksum) throws {
        if try readValue(object, into: &checksum) { return }
        switch component {
        case let .toMany(relationship):
            let members = try object.objects(relationship)
            try readMembers(members, lend: members.forEachUnretained, into: &checksum)
        case let .toOne(relationship):
            if let destination = try object.object(relationship), let next { try next.read(destination, into: &checksum) }
        case let .manual(relationship):
            let related = try manual.related(object, through: relationship)
            if relationship.toMany {
                try readMembers(related, lend: { try related.forEachUnretained($0) }, into: &checksum)
            } else if let destination = related.first, let next {
                try next.read(destination, into: &checksum)
            }
        default:
            break
        }
    }

    /// Reads the members of a to-many (`lend`: the set's or the array's `forEachUnretained`), each at +0, as an
    /// Objective-C loop over Core Data's set reads them and as `StepExecutor.read` reads a fetch's objects.
    private func readMembers<Members: Collection>(
        _ members: Members, lend: ((ManagedObject) throws -> Void) throws -> Void, into checksum: inout Checksum
    ) throws where Members.Element == ManagedObject {
        if counts {
            checksum.add(members.count)
        } else if let next {
            if firstOnly {
                if let member = members.first, try !next.readValue(member, into: &checksum) { try next.read(member, into: &checksum) }
                return
            }
            // The last component inline: a call per member cost a fifth of what reading its value does.
            try lend { member in
                if try !next.readValue(member, into: &checksum) { try next.read(member, into: &checksum) }
            }
        }
    }

    /// Walks the to-many of `object` reading each member's attribute until one equals `target`, as code looking for
    /// one member does; false when none does.
    func find(_ target: Value, in object: ManagedObject, into checksum: inout Checksum) throws -> Bool {
        if object.entity !== entity { resolve(object.entity) }
        guard let next else { return false }
        let members: [ManagedObject]
        switch component {
        case let .toMany(relationship):
            for member in try object.objects(relationship) where try next.matches(member, target, into: &checksum) { return true }
            return false
        case let .manual(relationship) where relationship.toMany:
            members = try manual.related(object, through: relationship)
        default:
            return false
        }
        for member in members where try next.matches(member, target, into: &checksum) { return true }
        return false
    }

    private func matches(_ member: ManagedObject, _ target: Value, into checksum: inout Checksum) throws -> Bool {
        if member.entity !== entity { resolve(member.entity) }
        guard case let .attribute(attribute) = component else { return false }
        let value = try member.value(attribute)
        checksum.add(value)
        return value == target
    }

    /// Reads an attribute (or derived attribute) of `object`; false when this component is a relationship.
    @inline(__always)
    private func readValue(_ object: ManagedObject, into checksum: inout Checksum) throws -> Bool {
        if object.entity !== entity { resolve(object.entity) }
        if let attribute {
            try attribute._withUnsafeGuaranteedRef { checksum.add(try object.value($0)) }
            return true
        }
        switch component {
        case let .attribute(attribute): checksum.add(try object.value(attribute))
        case let .derived(derived): checksum.add(try object.value(derived))
        case .named: checksum.add(try object.value(name))
        case .toOne, .toMany, .manual: return false
        }
        return true
    }

    private func resolve(_ objectEntity: EntityDescription) {
        entity = objectEntity
        defer {
            if case let .attribute(resolved) = component { attribute = Unmanaged.passUnretained(resolved) } else { attribute = nil }
        }
        if let relationship = objectEntity.relationship(name) {
            component = relationship.isToMany ? .toMany(relationship) : .toOne(relationship)
        } else if let attribute = objectEntity.attribute(name) {
            component = .attribute(attribute)
        } else if let derived = objectEntity.derivedAttribute(name) {
            component = .derived(derived)
        } else if let relationship = manual.relationship(name, on: objectEntity) {
            component = .manual(relationship)
        } else {
            component = .named
        }
    }
}

/// The reads of keys kept by hand for one step: each a fetch on the key, unless the fetch before prefetched them (one
/// fetch of every result's members, grouped by key, as seed 003's apps do instead of prefetching).
final class ManualReads {
    private let keys: [ManualKey]
    private let model: ObjectModel
    /// Members by owner key, per relationship ("Class.students"), from the last fetch's manual prefetch.
    private var prefetched: [String: [Value: [ManagedObject]]] = [:]

    init(keys: [ManualKey], model: ObjectModel) {
        self.keys = keys
        self.model = model
    }

    /// The relationship kept by hand that `name` stands for on `entity`, if any.
    func relationship(_ name: String, on entity: EntityDescription) -> ManualRelationship? {
        ManualRelationship.named(name, on: entity, keys: keys, model: model)
    }

    /// What `object` relates to through `relationship`: its members by a fetch on their key (or from the prefetch),
    /// or its owner by a fetch with a limit of 1.
    func related(_ object: ManagedObject, through relationship: ManualRelationship) throws -> [ManagedObject] {
        guard let context = object.context else { return [] }
        if relationship.toMany {
            let value = try object.value(relationship.ownerKey)
            if let group = prefetched["\(relationship.key.owner).\(relationship.key.relationship)"] { return group[value] ?? [] }
            var request = FetchRequest(relationship.member.name, predicate: Key(relationship.memberKey.name) == value)
            request.returnsObjectsAsFaults = false
            return try context.fetch(request).array
        }
        var request = FetchRequest(
            relationship.owner.name, predicate: Key(relationship.ownerKey.name) == (try object.value(relationship.memberKey)))
        request.returnsObjectsAsFaults = false
        request.fetchLimit = 1
        return try context.fetch(request).array
    }

    /// Fetches the members of every owner in `owners` at once and keeps them grouped for the reads that follow;
    /// returns them (kept alive by the caller).
    static func prefetch(
        _ relationship: ManualRelationship, of owners: [ManagedObject], in context: ObjectContext
    ) throws -> [Value: [ManagedObject]] {
        let values = try owners.map { try $0.value(relationship.ownerKey) }
        var request = FetchRequest(relationship.member.name, predicate: Key(relationship.memberKey.name).isIn(values))
        request.returnsObjectsAsFaults = false
        var groups: [Value: [ManagedObject]] = [:]
        for member in try context.fetch(request) { groups[try member.value(relationship.memberKey), default: []].append(member) }
        return groups
    }

    /// Makes the reads of this step use `groups` for `relationship`.
    func use(_ groups: [Value: [ManagedObject]], for relationship: ManualRelationship) {
        prefetched["\(relationship.key.owner).\(relationship.key.relationship)"] = groups
    }
}

extension Checksum {
    /// Adds a count read through `@count`.
    mutating func add(_ count: Int) {
        add(UInt64(truncatingIfNeeded: count))
    }

    /// Adds a value read by a declared step: text and numbers without formatting them. Inlined into the readers'
    /// loops with the text's hash (callgrind, query fetch-all at 10,000: a call for the value and one for its text
    /// were about 25 instructions a name); the other kinds of value are a call.
    @inline(__always)
    mutating func add(_ value: Value) {
        if case let .string(text) = value { return add(text) }
        addOther(value)
    }

    @inline(never)
    private mutating func addOther(_ value: Value) {
        switch value {
        case let .string(text): add(text)
        case let .int(number): add(UInt64(bitPattern: number))
        case let .double(number): add(number.bitPattern)
        case let .bool(flag): add(flag ? 1 : 0)
        case .null: add(0)
        default: add(value.description)
        }
    }
}
