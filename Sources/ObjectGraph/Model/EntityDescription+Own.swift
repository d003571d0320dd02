extension EntityDescription {
    /// The attributes the entity declares itself: its attributes past those it inherits (which come first, as its
    /// parent's), in O(1). Looping over every attribute for those whose `entity` is this one was O(d²) over an
    /// inheritance chain of depth d.
    public var ownAttributes: ArraySlice<AttributeDescription> { attributes[(parent?.attributes.count ?? 0)...] }

    /// The relationships the entity declares itself (after the inherited ones).
    public var ownRelationships: ArraySlice<RelationshipDescription> { relationships[(parent?.relationships.count ?? 0)...] }

    /// The derived attributes the entity declares itself (after the inherited ones).
    public var ownDerivedAttributes: ArraySlice<DerivedAttributeDescription> {
        derivedAttributes[(parent?.derivedAttributes.count ?? 0)...]
    }

    /// The stored (not transient) attributes the entity declares itself.
    var ownStoredAttributes: ArraySlice<AttributeDescription> { storedAttributes[(parent?.storedAttributes.count ?? 0)...] }

    /// The to-one relationships the entity declares itself.
    var ownToOneRelationships: ArraySlice<RelationshipDescription> {
        toOneRelationships[(parent?.toOneRelationships.count ?? 0)...]
    }
}

extension EntityDescription {
    /// The root of the entity's hierarchy (itself for a root): the entity whose table it is stored in.
    public var rootEntity: EntityDescription { root }
}
