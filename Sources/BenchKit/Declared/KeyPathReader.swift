import ObjectGraph

/// Reads one key path of a `read` step (`author.profile.bio`, `tags.name`, `likes.@count`) as an app's code would:
/// each component's description is looked up once per entity met, not per object, so that the declarative
/// machinery adds little to the work ObjectGraph does. (callgrind, school-walk at 1,000: looking names up and
/// formatting every value per object cost more instructions than the fetch; see school-walk in Scenarios.)
final class KeyPathReader {
    private enum Component {
        case toOne(RelationshipDescription)
        case toMany(RelationshipDescription)
        case attribute(AttributeDescription)
        case derived(DerivedAttributeDescription)
        /// What the model check let through but the entity met does not have (a sibling sub-entity): by name.
        case named
    }

    private let name: String
    private let next: KeyPathReader?
    /// `@count` after a to-many.
    private let counts: Bool
    // Read for every object: unchecked, as ObjectGraph's per-row class properties are (one thread runs a reader;
    // callgrind showed the exclusivity checks costing a third of the reader's own instructions).
    @exclusivity(unchecked) private var entity: EntityDescription?
    @exclusivity(unchecked) private var component = Component.named

    /// The reader of `path`, already split at its dots.
    init?(_ path: ArraySlice<String>) {
        guard let first = path.first else { return nil }
        name = first
        counts = path.dropFirst().first == "@count"
        next = counts ? nil : KeyPathReader(path.dropFirst())
    }

    /// Reads the path on `object` into `checksum`, firing the faults reading it fires.
    func read(_ object: ManagedObject, into checksum: inout Checksum) throws {
        if try readValue(object, into: &checksum) { return }
        switch component {
        case let .toMany(relationship):
            let members = try object.objects(relationship)
            if counts {
                checksum.add(members.count)
            } else if let next {
                // The last component inline: a call per member cost a fifth of what reading its value does.
                for member in members where try !next.readValue(member, into: &checksum) { try next.read(member, into: &checksum) }
            }
        case let .toOne(relationship):
            if let destination = try object.object(relationship), let next { try next.read(destination, into: &checksum) }
        default:
            break
        }
    }

    /// Reads an attribute (or derived attribute) of `object`; false when this component is a relationship.
    @inline(__always)
    private func readValue(_ object: ManagedObject, into checksum: inout Checksum) throws -> Bool {
        if object.entity !== entity { resolve(object.entity) }
        switch component {
        case let .attribute(attribute): checksum.add(try object.value(attribute))
        case let .derived(derived): checksum.add(try object.value(derived))
        case .named: checksum.add(try object.value(name))
        case .toOne, .toMany: return false
        }
        return true
    }

    private func resolve(_ objectEntity: EntityDescription) {
        entity = objectEntity
        if let relationship = objectEntity.relationship(name) {
            component = relationship.isToMany ? .toMany(relationship) : .toOne(relationship)
        } else if let attribute = objectEntity.attribute(name) {
            component = .attribute(attribute)
        } else if let derived = objectEntity.derivedAttribute(name) {
            component = .derived(derived)
        } else {
            component = .named
        }
    }
}

extension Checksum {
    /// Adds a count read through `@count`.
    mutating func add(_ count: Int) {
        add(UInt64(truncatingIfNeeded: count))
    }

    /// Adds a value read by a declared step: text and numbers without formatting them.
    mutating func add(_ value: Value) {
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
