import Foundation
import ObjectGraph

/// The rules the migrated rows are held to, as Core Data's migration and ObjectGraph's save validation hold them: one
/// finding per failing rule, with how many rows fail and the first primary keys.
extension MigrationDryRun {
    /// Every failing rule of NEW on the migrated rows in `database`, by entity and property, then the uniqueness
    /// constraints' duplicates.
    static func check(_ database: ScratchDatabase, model: ObjectModel, mapping: Mapping) throws -> [ModelLint.Finding] {
        var findings: [ModelLint.Finding] = []
        for entity in model.entities where !entity.isAbstract {
            guard let previous = mapping.oldEntity(for: entity) else { continue }
            let rows = "FROM \(entity.tableName) o WHERE o.Z_ENT = \(entity.number)"
            let total = try database.integer("SELECT count(*) \(rows)")
            guard total > 0 else { continue }
            let context = Context(entity: entity, previous: previous, total: total, mapping: mapping)
            for member in Member.all(of: entity) {
                switch member {
                case let .attribute(attribute):
                    if !attribute.isOptional {
                        let failing = try database.rows("SELECT count(*), group_concat(Z_PK) \(rows) AND o.\(attribute.columnName) IS NULL")
                        findings += context.missing(member, failing.first)
                    }
                    if !attribute.validation.isEmpty || attribute.type == .int16 || attribute.type == .int32 {
                        let values = try database.rows(
                            "SELECT Z_PK, \(attribute.columnName) \(rows) AND o.\(attribute.columnName) IS NOT NULL")
                        findings += context.outOfRange(attribute, values)
                    }
                case let .relationship(relationship) where !relationship.isToMany:
                    if !relationship.isOptional {
                        let failing = try database.rows(
                            "SELECT count(*), group_concat(Z_PK) \(rows) AND o.\(relationship.columnName) IS NULL")
                        findings += context.missing(member, failing.first)
                    }
                case let .relationship(relationship):
                    guard !relationship.isOptional || relationship.minCount > 0 || relationship.maxCount > 0 else { continue }
                    let members: String
                    if let join = relationship.joinTable {
                        members = "LEFT JOIN \(join.tableName) m ON m.\(join.sourceColumn) = o.Z_PK"
                    } else {
                        members = "LEFT JOIN \(relationship.destination.tableName) m ON m.\(relationship.columnName) = o.Z_PK"
                    }
                    let counts = try database.rows(
                        "SELECT o.Z_PK, count(m.\(relationship.joinTable?.destinationColumn ?? "Z_PK")) FROM \(entity.tableName) o \(members) WHERE o.Z_ENT = \(entity.number) GROUP BY o.Z_PK"
                    )
                    findings += context.memberCounts(relationship, counts)
                }
            }
        }
        findings += try duplicates(database, model: model)
        return findings
    }

    /// What one entity's failing rows are reported with.
    struct Context {
        let entity: EntityDescription
        let previous: EntityDescription
        let total: Int
        let mapping: Mapping

        /// `1,204 of 1,204 Customer rows`.
        func of(_ count: Int) -> String { "\(formatCount(count)) of \(formatCount(total)) \(entity.name) rows" }

        /// Where a property's values come from, for a finding about them: `added` (its default), or the older
        /// version's property (`renamed from nickname` when its name changed); with the parent it is inherited from.
        func origin(_ member: Member) -> (text: String?, isNew: Bool) {
            let declared = member.declaring === entity ? nil : "inherited from \(member.declaring.name)"
            guard let old = mapping.oldMember(member, in: previous) else {
                return ((["added"] + [declared].compactMap { $0 }).joined(separator: ", "), true)
            }
            let parts = [old.name == member.name ? nil : "renamed from \(old.name)", declared].compactMap { $0 }
            return (parts.isEmpty ? nil : parts.joined(separator: ", "), false)
        }

        /// The required attribute or to-one that `failing` (count, Z_PKs) rows have no value of.
        func missing(_ member: Member, _ failing: [StoredValue?]?) -> [ModelLint.Finding] {
            guard let failing, let count = failing[0]?.integer, count > 0 else { return [] }
            let keys = exampleKeys(failing[1])
            let (from, isNew) = self.origin(member)
            let origin = isNew ? from ?? "added" : "nil in the older version's rows" + (from.map { ", \($0)" } ?? "")
            let subject = "\(entity.name).\(member.name)"
            if case .attribute = member {
                return [
                    ModelLint.Finding(
                        kind: .migrationData, subject: subject,
                        message:
                            "\(of(count)) would have no \(member.name) (required, no default value; \(origin)): lightweight migration fails on the first (Z_PK \(keys)) with \"Validation error missing attribute values on mandatory destination attribute\" (NSMigrationError, 134110), and the store does not open.",
                        fix: isNew
                            ? "give \(member.name) a default value (the migration fills it in), or make it optional; or set it on every stored \(entity.name) in a staged migration."
                            : "fill \(member.name) in those rows before migrating (a staged migration's first stage), give it a default value, or keep it optional."
                    )
                ]
            }
            return [
                ModelLint.Finding(
                    kind: .migrationData, subject: subject,
                    message:
                        "\(of(count)) would have no \(member.name) (a required to-one; \(origin)): each fails validation (NSValidationMissingMandatoryPropertyError, 1570) at its next save, the first Z_PK \(keys).",
                    fix: "make \(member.name) optional, or set it on every stored \(entity.name) in a custom migration stage.")
            ]
        }

        /// The rows whose number of members breaks a required to-many or its minimum or maximum count.
        func memberCounts(_ relationship: RelationshipDescription, _ counts: [[StoredValue?]]) -> [ModelLint.Finding] {
            var empty: [Int] = []
            var few: [Int] = []
            var many: [Int] = []
            for row in counts {
                guard let key = row[0]?.integer, let count = row[1]?.integer else { continue }
                if !relationship.isOptional && count == 0 {
                    empty.append(key)
                } else if (count > 0 || !relationship.isOptional) && count < relationship.minCount {
                    few.append(key)
                } else if relationship.maxCount > 0 && count > relationship.maxCount {
                    many.append(key)
                }
            }
            let subject = "\(entity.name).\(relationship.name)"
            let fix = "relax the count, or move the members in a custom migration stage."
            var findings: [ModelLint.Finding] = []
            for (keys, what, code) in [
                (empty, "no member in \(relationship.name), a required to-many", "NSValidationMissingMandatoryPropertyError, 1570"),
                (
                    few, "fewer than \(relationship.minCount) members in \(relationship.name)",
                    "NSValidationRelationshipLacksMinimumCountError, 1580"
                ),
                (
                    many, "more than \(relationship.maxCount) members in \(relationship.name)",
                    "NSValidationRelationshipExceedsMaximumCountError, 1590"
                ),
            ] where !keys.isEmpty {
                findings.append(
                    ModelLint.Finding(
                        kind: .migrationData, subject: subject,
                        message:
                            "\(of(keys.count)) would have \(what): each fails validation (\(code)) at its next save, the first Z_PK \(keys.sorted().prefix(examples).map(String.init).joined(separator: ", ")).",
                        fix: relationship.isOptional ? fix : "make it optional, or " + fix))
            }
            return findings
        }
    }
}
