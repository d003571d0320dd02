import Foundation
import ObjectGraph

/// The rules the migrated rows are held to, as Core Data's migration and ObjectGraph's save validation hold them: one
/// finding per failing rule, with how many rows fail and the first primary keys.
extension MigrationDryRun {
    /// What the rows break: a finding per rule of NEW the migrated rows fail, and a warning per rule they broke
    /// already under OLD (the same rule on the same values: the data breaks its own model, the migration is not why).
    struct Outcome {
        var findings: [ModelLint.Finding] = []
        var warnings: [String] = []

        static func += (lhs: inout Outcome, rhs: Outcome) {
            lhs.findings += rhs.findings
            lhs.warnings += rhs.warnings
        }
    }

    /// Every failing rule of NEW on the migrated rows in `database`, by entity and property, then the uniqueness
    /// constraints' duplicates.
    static func check(_ database: ScratchDatabase, model: ObjectModel, mapping: Mapping) throws -> Outcome {
        var findings = Outcome()
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
        findings.findings += try duplicates(database, model: model)
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

        /// The warning for rows that break a rule OLD had too on the same values.
        func already(_ name: String, _ keys: [Int], _ rule: String) -> String {
            "\(entity.name).\(name): \(of(keys.count)) already break the older version's same rule (\(rule)): the data breaks its own model, not because of the migration (the first Z_PK \(keys.sorted().prefix(examples).map(String.init).joined(separator: ", ")))"
        }

        /// The required attribute or to-one that `failing` (count, Z_PKs) rows have no value of; a warning when OLD
        /// required it too.
        func missing(_ member: Member, _ failing: [StoredValue?]?) -> Outcome {
            guard let failing, let count = failing[0]?.integer, count > 0 else { return Outcome() }
            let keys = exampleKeys(failing[1])
            switch mapping.oldMember(member, in: previous) {
            case let .attribute(was)? where !was.isOptional:
                return Outcome(warnings: [already(member.name, allKeys(failing[1]), "\(was.name) is required")])
            case let .relationship(was)? where !was.isOptional && !was.isToMany:
                return Outcome(warnings: [already(member.name, allKeys(failing[1]), "\(was.name) is required")])
            default:
                break
            }
            let (from, isNew) = self.origin(member)
            let origin = isNew ? from ?? "added" : "nil in the older version's rows" + (from.map { ", \($0)" } ?? "")
            let subject = "\(entity.name).\(member.name)"
            if case .attribute = member {
                return Outcome(findings: [
                    ModelLint.Finding(
                        rule: .migrationDataRequiredValueMissing, subject: subject,
                        message:
                            "\(of(count)) would have no \(member.name) (required, no default value; \(origin)): lightweight migration fails on the first (Z_PK \(keys)) with \"Validation error missing attribute values on mandatory destination attribute\" (NSMigrationError, 134110), and the store does not open.",
                        fix: isNew
                            ? "give \(member.name) a default value (the migration fills it in), or make it optional; or set it on every stored \(entity.name) in a staged migration."
                            : "fill \(member.name) in those rows before migrating (a staged migration's first stage), give it a default value, or keep it optional."
                    )
                ])
            }
            return Outcome(findings: [
                ModelLint.Finding(
                    rule: .migrationDataRequiredRelationshipMissing, subject: subject,
                    message:
                        "\(of(count)) would have no \(member.name) (a required to-one; \(origin)): each fails validation (NSValidationMissingMandatoryPropertyError, 1570) at its next save, the first Z_PK \(keys).",
                    fix: "make \(member.name) optional, or set it on every stored \(entity.name) in a custom migration stage.")
            ])
        }

        /// The first rule of a to-many that `count` members break: required with none, fewer than its minimum, more
        /// than its maximum (0: no limit).
        static func broken(_ relationship: RelationshipDescription, _ count: Int) -> Int? {
            if !relationship.isOptional && count == 0 { return 0 }
            if (count > 0 || !relationship.isOptional) && count < relationship.minCount { return 1 }
            if relationship.maxCount > 0 && count > relationship.maxCount { return 2 }
            return nil
        }

        /// The rows whose number of members breaks a required to-many or its minimum or maximum count; a warning for
        /// those that broke OLD's rules on the same members.
        func memberCounts(_ relationship: RelationshipDescription, _ counts: [[StoredValue?]]) -> Outcome {
            var keysByRule: [[Int]] = [[], [], []]
            var before: [Int] = []
            let was: RelationshipDescription? =
                if case let .relationship(old)? = mapping.oldMember(.relationship(relationship), in: previous), old.isToMany { old } else {
                    nil
                }
            for row in counts {
                guard let key = row[0]?.integer, let count = row[1]?.integer, let rule = Self.broken(relationship, count) else { continue }
                if let was, Self.broken(was, count) != nil { before.append(key) } else { keysByRule[rule].append(key) }
            }
            let (empty, few, many) = (keysByRule[0], keysByRule[1], keysByRule[2])
            var outcome = Outcome()
            if !before.isEmpty {
                outcome.warnings.append(
                    already(relationship.name, before, "a count of members \(was?.name ?? relationship.name) must have"))
            }
            let subject = "\(entity.name).\(relationship.name)"
            let fix = "relax the count, or move the members in a custom migration stage."
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
                outcome.findings.append(
                    ModelLint.Finding(
                        rule: .migrationDataRelationshipCount, subject: subject,
                        message:
                            "\(of(keys.count)) would have \(what): each fails validation (\(code)) at its next save, the first Z_PK \(keys.sorted().prefix(examples).map(String.init).joined(separator: ", ")).",
                        fix: relationship.isOptional ? fix : "make it optional, or " + fix))
            }
            return outcome
        }
    }
}
