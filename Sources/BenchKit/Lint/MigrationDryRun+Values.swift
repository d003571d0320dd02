import Foundation
import ObjectGraph

/// The values the migrated rows keep that NEW's rules refuse: ranges, lengths, patterns, integer widths; and the
/// values rows share that a uniqueness constraint forbids.
extension MigrationDryRun.Context {
    /// One rule an attribute's value breaks, with the code Core Data's validation gives it.
    private struct Breach: Hashable {
        let text: String
        let code: String
    }

    /// The rows (Z_PK, value) whose value `attribute`'s validation refuses, one finding per rule broken (ObjectGraph's
    /// save validation, `ObjectContext.validateValue`, with Core Data's codes); a warning for the values the OLD
    /// attribute refused too.
    func outOfRange(_ attribute: AttributeDescription, _ values: [[StoredValue?]]) -> MigrationDryRun.Outcome {
        let was: AttributeDescription? =
            if case let .attribute(old)? = mapping.oldMember(.attribute(attribute), in: previous) { old } else { nil }
        var order: [Breach] = []
        var failing: [Breach: (keys: [Int], first: String)] = [:]
        var before: [Int] = []
        for row in values {
            guard let key = row[0]?.integer, let value = row[1], let breach = Self.breach(attribute, value) else { continue }
            if let was, Self.breach(was, value) != nil {
                before.append(key)
                continue
            }
            if failing[breach] == nil {
                order.append(breach)
                failing[breach] = ([], value.shown)
            }
            failing[breach]?.keys.append(key)
        }
        let (from, isNew) = origin(.attribute(attribute))
        let origin = (isNew ? "its default value" : "the older version's values") + (from.map { ", \($0)" } ?? "")
        var outcome = MigrationDryRun.Outcome()
        if !before.isEmpty {
            outcome.warnings.append(already(attribute.name, before, "\(was?.name ?? attribute.name)'s range, length or pattern"))
        }
        outcome.findings = order.compactMap { breach in
            guard let (keys, first) = failing[breach] else { return nil }
            return ModelLint.Finding(
                rule: .migrationDataValueRule, subject: "\(entity.name).\(attribute.name)",
                message:
                    "\(of(keys.count)) would have \(breach.text) (\(origin); e.g. \(first)): the migration copies the values as they are, and each row fails validation (\(breach.code)) at its next save, the first Z_PK \(keys.sorted().prefix(MigrationDryRun.examples).map(String.init).joined(separator: ", ")).",
                fix: "widen the rule, or correct those values in a staged migration's first stage.")
        }
        return outcome
    }

    /// The first rule of `attribute`'s validation `value` breaks, or nil.
    private static func breach(_ attribute: AttributeDescription, _ value: StoredValue) -> Breach? {
        let validation = attribute.validation
        let name = attribute.name
        let width: ClosedRange<Int>? =
            switch attribute.type {
            case .int16: Int(Int16.min)...Int(Int16.max)
            case .int32: Int(Int32.min)...Int(Int32.max)
            default: nil
            }
        if let width, let integer = value.integer, !width.contains(integer) {
            return Breach(
                text: "\(name) outside an \(attribute.type.xcodeName) (\(width.lowerBound)...\(width.upperBound))",
                code: integer > width.upperBound ? "NSValidationNumberTooLargeError, 1610" : "NSValidationNumberTooSmallError, 1620")
        }
        switch attribute.type {
        case .int16, .int32, .int64, .decimal, .double, .float, .date:
            guard let number = value.number else { return nil }
            let isDate = attribute.type == .date
            if let maximum = validation.maximum, number > maximum {
                return Breach(
                    text: isDate ? "\(name) after the latest date allowed" : "\(name) above the maximum \(shown(maximum))",
                    code: isDate ? "NSValidationDateTooLateError, 1630" : "NSValidationNumberTooLargeError, 1610")
            }
            if let minimum = validation.minimum, number < minimum {
                return Breach(
                    text: isDate ? "\(name) before the earliest date allowed" : "\(name) below the minimum \(shown(minimum))",
                    code: isDate ? "NSValidationDateTooSoonError, 1640" : "NSValidationNumberTooSmallError, 1620")
            }
        case .string, .binary, .transformable:
            let length: Int
            switch value {
            case let .text(text): length = text.utf16.count
            case let .blob(bytes): length = bytes
            default: return nil
            }
            if let maximum = validation.maximum, Double(length) > maximum {
                return Breach(text: "\(name) longer than \(shown(maximum))", code: "NSValidationStringTooLongError, 1660")
            }
            if let minimum = validation.minimum, Double(length) < minimum {
                return Breach(text: "\(name) shorter than \(shown(minimum))", code: "NSValidationStringTooShortError, 1670")
            }
            if let pattern = validation.pattern, case let .text(text) = value, !matches(text, pattern) {
                return Breach(text: "\(name) not matching /\(pattern)/", code: "NSValidationStringPatternMatchingError, 1680")
            }
        default:
            break
        }
        return nil
    }

    private static func shown(_ bound: Double) -> String { bound == bound.rounded() ? String(Int(bound)) : String(bound) }

    /// Whether `text` matches `pattern` whole, as Core Data's regular expression validation (ICU's) does; a pattern
    /// that does not compile here refuses nothing (the model reader notes it).
    private static func matches(_ text: String, _ pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: "^(?:" + pattern + ")$") else { return true }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

extension MigrationDryRun {
    /// The uniqueness constraints of every NEW entity over its own and its sub-entities' rows: the values more than
    /// one row shares (rows with a nil in the constraint are left out: SQLite's unique index lets NULLs repeat).
    static func duplicates(_ database: ScratchDatabase, model: ObjectModel) throws -> [ModelLint.Finding] {
        var findings: [ModelLint.Finding] = []
        for entity in model.entities {
            let numbers = entity.subtree.filter { !$0.isAbstract }.map { String($0.number) }
            guard !numbers.isEmpty else { continue }
            for constraint in entity.uniquenessConstraints {
                let columns = constraint.compactMap { entity.attribute($0)?.columnName ?? entity.relationship($0)?.columnName }
                guard columns.count == constraint.count else { continue }
                let filled = columns.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
                let groups = try database.rows(
                    "SELECT count(*), group_concat(Z_PK), \(columns.joined(separator: ", ")) FROM \(entity.tableName) WHERE Z_ENT IN (\(numbers.joined(separator: ", "))) AND \(filled) GROUP BY \(columns.joined(separator: ", ")) HAVING count(*) > 1 ORDER BY min(Z_PK)"
                )
                guard !groups.isEmpty else { continue }
                let rows = groups.reduce(0) { $0 + ($1[0]?.integer ?? 0) }
                var keys: [Int] = []
                for group in groups where keys.count < examples {
                    if case let .text(text)? = group[1] { keys += text.split(separator: ",").compactMap { Int($0) }.sorted() }
                }
                let first = groups[0]
                let value = zip(constraint, first.dropFirst(2)).map { "\($0.0) \($0.1?.shown ?? "nil")" }.joined(separator: ", ")
                let scope = entity.subtree.count > 1 ? " and its sub-entities" : ""
                findings.append(
                    ModelLint.Finding(
                        rule: .migrationDataDuplicates, subject: entity.name,
                        message:
                            "\(formatCount(rows)) \(entity.name)\(scope) rows share \(formatCount(groups.count)) value\(groups.count == 1 ? "" : "s") of the uniqueness constraint (\(constraint.joined(separator: ", "))), e.g. \(value) in Z_PK \(exampleKeys(first[1])): the migration fails on them (NSMigrationConstraintViolationError, 134111) and the store does not open\(groups.count == 1 ? "" : "; the first Z_PK \(keys.prefix(examples).map(String.init).joined(separator: ", "))").",
                        fix:
                            "remove or merge the duplicates before migrating (a staged migration's first stage), or keep the constraint out of this version."
                    ))
            }
        }
        return findings
    }
}
