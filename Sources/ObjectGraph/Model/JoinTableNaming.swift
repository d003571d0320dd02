/// Names the join table of every many-to-many relationship pair, and its columns.
///
/// A table is `Z_<n><REL>`, named after one side's relationship (`<n>` is the number of the entity declaring it),
/// with the columns `Z_<n><INVERSE>` (that side's key) and `Z_<m><REL>` (the destination's key), as Bear's
/// `Z_5TAGS (Z_5NOTES, Z_13TAGS)`. Which side names the table is inferred, since no alphabetical rule fits every
/// real store:
/// - entities of different names: the side whose entity name sorts first (Bear, Photos' `Z_26ASSETS`);
/// - both sides on one entity: the relationship whose name sorts last (EasyLife's TodoItem `blockedBy` ↔
///   `blocking`: `Z_2BLOCKING (Z_2BLOCKEDBY, Z_2BLOCKING)`; a Kik dump has two tables this way, one the other);
/// - a relationship that is its own inverse: itself, its second column named `REFLEXIVE`.
/// Join-table column names are unique across the model, a later clash getting `1` (`Z_19PARENTGROUPS1` in
/// Contacts, `Z_4PARENTS1` in Shortcuts). An ordered side adds `Z_FOK_<its destination column without Z_>`
/// (Photos' `Z_27ASSETS (Z_27ALBUMS, Z_3ASSETS, Z_FOK_3ASSETS)`).
struct JoinTableNaming {
    let entities: [EntityDescription]

    init(_ entities: [EntityDescription]) { self.entities = entities }

    func nameJoinTables() -> [JoinTable] {
        var namer = UniqueNamer()
        var tables: [JoinTable] = []
        for entity in entities {
            let own = entity.ownRelationships.filter { $0.kind == .manyToMany }
            for relationship in own.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) where Self.namesTable(relationship)
            {
                let inverse = relationship.requiredInverse
                let table = "Z_\(entity.number)\(relationship.name.uppercased())"
                let source = namer.unique("Z_\(entity.number)\(inverse.name.uppercased())")
                let destination =
                    relationship.isReflexive
                    ? namer.unique("REFLEXIVE")
                    : namer.unique("Z_\(relationship.destination.number)\(relationship.name.uppercased())")
                let order = relationship.isOrdered ? namer.unique(Self.orderColumn(of: destination)) : nil
                let inverseOrder = !relationship.isReflexive && inverse.isOrdered ? namer.unique(Self.orderColumn(of: source)) : nil
                let reverseIndex = relationship.joinReverseIndex && inverse.joinReverseIndex
                var primary = JoinTable(
                    tableName: table, sourceColumn: source, destinationColumn: destination,
                    orderColumn: order, inverseOrderColumn: inverseOrder, isPrimarySide: true)
                primary.hasReverseIndex = reverseIndex
                relationship.joinTable = primary
                if !relationship.isReflexive {
                    var other = JoinTable(
                        tableName: table, sourceColumn: destination, destinationColumn: source,
                        orderColumn: inverseOrder, inverseOrderColumn: order, isPrimarySide: false)
                    other.hasReverseIndex = reverseIndex
                    inverse.joinTable = other
                }
                tables.append(primary)
            }
        }
        return tables
    }

    /// The order column of an ordered side whose destination key is `column`: `Z_FOK_3ASSETS` for `Z_3ASSETS`;
    /// `Z_FOK_REFLEXIVE` for a reflexive table's `REFLEXIVE` (inferred: no real store with one was at hand).
    static func orderColumn(of column: String) -> String {
        "Z_FOK_" + (column.hasPrefix("Z_") ? column.dropFirst(2) : Substring(column))
    }

    /// Whether `relationship`'s side of its pair names the join table.
    static func namesTable(_ relationship: RelationshipDescription) -> Bool {
        let inverse = relationship.requiredInverse
        if inverse === relationship { return true }
        let source = relationship.entity
        let other = inverse.entity
        if source === other {
            return inverse.name.utf8.lexicographicallyPrecedes(relationship.name.utf8)
        }
        if source.name != other.name {
            return source.name.utf8.lexicographicallyPrecedes(other.name.utf8)
        }
        return relationship.name.utf8.lexicographicallyPrecedes(inverse.name.utf8)
    }
}
