import Foundation
import ObjectGraph

/// What `--counts` keeps of the ratios it is given along relationships, and the members per owner the data makes.
extension GeneratedSuite {
    /// The fills of to-one relationships whose both ends were given counts keep the ratio given: `Order.account`
    /// with Customer=2000 and Order=8000 draws its accounts from the Customers only (4 each), not from every
    /// Account (Staff included), which would spread the orders thinner than asked.
    static func keepingGivenRatios(
        _ fills: [DataSpec.RelationshipFill], _ model: ObjectModel, given: [String: Int]
    ) -> [DataSpec.RelationshipFill] {
        fills.map { fill in
            guard fill.links == nil, fill.destinations == nil,
                let relationship = model.entity(fill.entity)?.relationship(fill.relationship),
                !relationship.isToMany, relationship.entity.subtree.contains(where: { given[$0.name] != nil })
            else { return fill }
            let concrete = relationship.destination.subtree.filter { !$0.isAbstract }
            let named = concrete.filter { given[$0.name] != nil }
            guard !named.isEmpty, named.count < concrete.count else { return fill }
            var kept = fill
            kept.destinations = named.map(\.name)
            return kept
        }
    }

    /// A warning for each to-one `keepingGivenRatios` drew from some kinds of its destination only: the kinds left
    /// get no member, and what to give for them to get some.
    static func ratioWarnings(_ model: ObjectModel, fills: [DataSpec.RelationshipFill], given: [String: Int]) -> [String] {
        fills.compactMap { fill in
            guard let names = fill.destinations, let relationship = model.entity(fill.entity)?.relationship(fill.relationship),
                let sources = given[fill.entity]
            else { return nil }
            let left = relationship.destination.subtree.filter { !$0.isAbstract && !names.contains($0.name) }.map(\.name)
            let owners = names.reduce(0) { $0 + (given[$1] ?? 0) }
            guard !left.isEmpty, owners > 0 else { return nil }
            let ratio = Double(sources) / Double(owners)
            return
                "\(relationship.qualifiedName) draws from \(ModelLint.series(names, "and")) only, so that \(formatCount(sources)) \(ModelLint.plural(fill.entity)) over \(formatCount(owners)) \(ModelLint.series(names.map(ModelLint.plural), "and")) stay \(String(format: "%.1f", ratio)) each: \(ModelLint.series(left, "and")) get\(left.count == 1 ? "s" : "") no \(fill.entity); give \(left.map { "\($0)=N" }.joined(separator: ",")) and more \(ModelLint.plural(fill.entity)) in --counts for them to have some"
        }
    }

    /// `members per owner (the data's mean): Account.orders 4.0 per Customer, none per Staff; Order.lines 1.5`: what
    /// each to-many gets from the counts and fills, every to-many of the model in name order.
    static func membersPerOwner(_ model: ObjectModel, counts: [String: DataSpec.Count], fills: [DataSpec.RelationshipFill]) -> String? {
        func amount(_ entity: EntityDescription) -> Double {
            entity.subtree.reduce(0) { $0 + Double(counts[$1.name]?.value(size: 1_000_000) ?? 0) }
        }
        func fill(of relationship: RelationshipDescription) -> DataSpec.RelationshipFill? {
            fills.first { $0.entity == relationship.entity.name && $0.relationship == relationship.name }
        }
        func number(_ value: Double) -> String { value == 0 ? "none" : String(format: value < 10 ? "%.1f" : "%.0f", value) }
        var parts: [String] = []
        for entity in model.entities {
            for relationship in entity.relationships where relationship.entity === entity && relationship.isToMany {
                let owners = amount(entity)
                guard owners > 0 else { continue }
                let name = relationship.qualifiedName
                if let own = fill(of: relationship) {
                    guard let mean = own.fanout.mean else {
                        parts.append("\(name) Zipf-distributed")
                        continue
                    }
                    parts.append("\(name) \(number(min(mean, amount(relationship.destination)) * own.fill))")
                } else if let inverse = relationship.inverse, inverse !== relationship, let theirs = fill(of: inverse) {
                    let per = inverse.isToMany ? (theirs.fanout.mean ?? 0) : 1
                    let members = amount(inverse.entity) * theirs.fill * per
                    if let names = theirs.destinations {
                        let drawn = names.compactMap(model.entity).reduce(0) { $0 + amount($1) }
                        let kinds = entity.subtree.filter { !$0.isAbstract }.map { kind in
                            "\(number(names.contains(kind.name) && drawn > 0 ? members / drawn : 0)) per \(kind.name)"
                        }
                        parts.append("\(name) " + kinds.joined(separator: ", "))
                    } else {
                        parts.append("\(name) \(number(members / owners))")
                    }
                } else {
                    parts.append("\(name) none (not filled)")
                }
            }
        }
        return parts.isEmpty ? nil : "members per owner (the data's mean): " + parts.joined(separator: "; ")
    }
}

extension DataSpec.Fanout {
    /// The mean destinations per source; nil for Zipf (it depends on the maximum in a way no one reads at a glance).
    var mean: Double? {
        switch self {
        case let .fixed(count): return Double(count.value(size: 1_000_000))
        case let .uniform(low, high): return Double(low + high) / 2
        case .zipf: return nil
        case let .histogram(bins):
            let owners = bins.reduce(0) { $0 + $1.owners }
            return owners == 0 ? 0 : Double(bins.reduce(0) { $0 + $1.fanout * $1.owners }) / Double(owners)
        }
    }
}
