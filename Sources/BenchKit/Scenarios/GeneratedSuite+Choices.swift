import ObjectGraph

extension GeneratedSuite {
    /// The attributes the suite reads, looks objects up by and sorts by, for every entity of a model, found in one pass
    /// over the entities, parents first: an entity's attributes are its parent's followed by its own, so the first
    /// inherited attribute that fits is the parent's choice, and only the entity's own attributes (and those its own
    /// indexes name) are looked at. (Asking each entity anew scanned every inherited attribute: O(d²) over an
    /// inheritance chain of depth d, a fifth of `bench lint` at depth 2,000.)
    struct AttributeChoices {
        /// By entity number - 1: `readable`, `sortAttribute`, the first candidate an index covers, the first named as an
        /// identifier.
        private var readable: [AttributeDescription?]
        private var sorted: [AttributeDescription?]
        private var indexed: [AttributeDescription?]
        private var named: [AttributeDescription?]

        init(_ model: ObjectModel) {
            let count = model.entities.count
            readable = Array(repeating: nil, count: count)
            sorted = Array(repeating: nil, count: count)
            indexed = Array(repeating: nil, count: count)
            named = Array(repeating: nil, count: count)
            for entity in model.entities {
                let index = entity.number - 1
                let parent = entity.superentity.map { $0.number - 1 }
                let own = entity.ownAttributes.filter(GeneratedSuite.isStored)
                readable[index] = parent.flatMap { readable[$0] } ?? own.first(where: GeneratedSuite.isReadable)
                sorted[index] = parent.flatMap { sorted[$0] } ?? own.first(where: GeneratedSuite.isSortDate)
                named[index] =
                    parent.flatMap { named[$0] }
                    ?? own.first { GeneratedSuite.isLookupCandidate($0) && GeneratedSuite.isIdentifierNamed($0) }
                // The first candidate, in attribute order, that is indexed or leads an index of the entity or an
                // ancestor: the parent's, unless an index of this entity leads with an inherited candidate before it.
                let leads = Set(
                    entity.fetchIndexes.compactMap(\.elements.first?.property) + entity.uniquenessConstraints.compactMap(\.first))
                var found = parent.flatMap { indexed[$0] }
                if !leads.isEmpty {
                    for attribute in entity.attributes[..<(entity.attributes.count - entity.ownAttributes.count)] {
                        if attribute === found { break }
                        if leads.contains(attribute.name) && GeneratedSuite.isStored(attribute)
                            && GeneratedSuite.isLookupCandidate(attribute)
                        {
                            found = attribute
                            break
                        }
                    }
                }
                indexed[index] = found ?? own.first { GeneratedSuite.isLookupCandidate($0) && ($0.isIndexed || leads.contains($0.name)) }
            }
        }

        /// What a screen reads to show an object of `entity`: its first stored attribute that is not data.
        func readable(_ entity: EntityDescription) -> String? { readable[entity.number - 1]?.name }

        /// The date a list of `entity` sorts by.
        func sortAttribute(_ entity: EntityDescription) -> AttributeDescription? { sorted[entity.number - 1] }

        /// The attribute objects of `entity` are looked up by.
        func lookupAttribute(_ entity: EntityDescription) -> AttributeDescription? {
            indexed[entity.number - 1] ?? named[entity.number - 1]
        }
    }

    static func isStored(_ attribute: AttributeDescription) -> Bool { !attribute.isTransient && attribute.type != .undefined }

    static func isReadable(_ attribute: AttributeDescription) -> Bool { attribute.type != .binary && attribute.type != .transformable }

    static func isLookupCandidate(_ attribute: AttributeDescription) -> Bool {
        [.string, .uuid, .int16, .int32, .int64].contains(attribute.type)
    }

    /// Named as an identifier: `id`, `uuid`, `identifier`, `email`, `slug`, `code`, or ending in `ID`, `Id`, `UUID`, ...
    static func isIdentifierNamed(_ attribute: AttributeDescription) -> Bool {
        let name = attribute.name
        return ["id", "uuid", "identifier", "email", "slug", "code"].contains(name.lowercased())
            || ["ID", "Id", "UUID", "Uuid", "Identifier"].contains { name.hasSuffix($0) && name.count > $0.count }
    }

    /// A date named as one (`createdAt`, `date`, `timestamp`, `updatedOn`).
    static func isSortDate(_ attribute: AttributeDescription) -> Bool {
        let name = attribute.name.lowercased()
        return attribute.type == .date
            && (["date", "time", "created", "updated", "modified"].contains { name.contains($0) } || attribute.name.hasSuffix("At")
                || attribute.name.hasSuffix("On"))
    }
}
