import ObjectGraph
import SQLDebugLog

/// Advice on a model's relationships, each finding with what it costs and what to change: Xcode's warnings in its
/// own words, then RelBench's (many-to-nil data loss, Cascade rules that reach a Deny rule, unindexed hand-kept keys
/// and filters, counts read through faults, deep cascades, ordered relationships, CloudKit's rules for the entities
/// synced with it); and, against an older version, what lightweight migration cannot infer or will lose.
package enum ModelLint {
    /// One finding: its rule (which gives its severity), its subject, what it costs and what to change.
    package struct Finding: Sendable, Equatable, CustomStringConvertible {
        package let rule: LintRule
        /// `Entity.property`, `Entity`, or `model`.
        package let subject: String
        package let message: String
        /// What to change; empty for Xcode's warnings.
        package let fix: String

        package init(rule: LintRule, subject: String, message: String, fix: String) {
            self.rule = rule
            self.subject = subject
            self.message = message
            self.fix = fix
        }

        package var severity: FindingSeverity { rule.severity }

        /// The stable identity a baseline lists: FNV-1a of the rule id and the subject, never of the wording.
        package var fingerprint: String { FindingID.hash(["lint", rule.rawValue, subject]) }

        /// `risk [many-to-nil-loss] Tag.notes: ... Fix: ...`.
        package var description: String {
            "\(severity.rawValue) [\(rule.rawValue)] \(subject): \(message)" + (fix.isEmpty ? "" : " Fix: \(fix)")
        }
    }

    /// Every finding for `model`, Xcode's first, then by subject; `cloudKitEntities` are held to CloudKit's rules;
    /// `fetchRequests` (the model's templates and fetched properties) are checked for indexes with the generated suite's.
    package static func findings(
        _ model: ObjectModel, cloudKitEntities: [String] = [], fetchRequests: [FetchRequestTemplate] = [],
        configurations: [String: [String]] = [:]
    ) -> [Finding] {
        var findings = model.warnings.map { warning -> Finding in
            let subject = String(warning.prefix { $0 != " " })
            let rule: LintRule = warning.contains("does not have an inverse") ? .xcodeToManyWithoutInverse : .xcodeToOneWithoutInverse
            let names = subject.split(separator: ".", maxSplits: 1).map(String.init)
            let destination = names.count == 2 ? model.entity(names[0])?.relationship(names[1])?.destination.name : nil
            return Finding(
                rule: rule, subject: subject, message: "Xcode warns \"\(warning)\".",
                fix: destination.map { "add an inverse relationship on \($0) (Core Data keeps both ends consistent only through one)." }
                    ?? "")
        }
        if model.entities.isEmpty {
            findings.insert(
                Finding(
                    rule: .modelEmpty, subject: "model",
                    message: "the model declares no entity: a store of it holds Core Data's system tables and nothing else.",
                    fix:
                        "check that this is the model version you meant (an .xcdatamodeld's current version is named in its .xccurrentversion)."
                ), at: 0)
        }
        var advice = cloudKitFindings(model, synced: cloudKitEntities)
        // Who keeps a derived @count of a to-many of that name, and the entity names a hand-kept key may point at, each
        // found once for the model rather than once per entity (both were O(entities²) or O(depth²) of a chain).
        var counters: [String: [EntityDescription]] = [:]
        for entity in model.entities {
            for derived in entity.ownDerivedAttributes {
                if case let .count(reference) = derived.kind { counters[reference.name, default: []].append(entity) }
            }
        }
        let keyTargets = KeyTargets(model)
        var cascades = CascadeChains()
        for entity in model.entities {
            for relationship in entity.ownRelationships {
                let name = relationship.qualifiedName
                if relationship.isToMany && relationship.inverse == nil {
                    advice.append(
                        Finding(
                            rule: .manyToNilLoss, subject: name,
                            message:
                                "a to-many without inverse (many-to-nil) keeps each \(relationship.destination.name)'s owner in one hidden column on its row, so \(withArticle(relationship.destination.name)) added to two \(plural(entity.name))' \(relationship.name) keeps only the last membership after save: the others are lost without an error (seed 000 II.B; measured by RelBench's data-loss scenario).",
                            fix:
                                "add an inverse: a to-many \(relationship.destination.name).\(pluralName(of: entity.name)) makes it a many-to-many (a join table) if members are shared, a to-one if each has one owner."
                        ))
                }
                if relationship.isOrdered {
                    advice.append(
                        Finding(
                            rule: .orderedRelationship, subject: name,
                            message:
                                "ordered: Core Data keeps an order column (\(relationship.joinTable?.orderColumn ?? relationship.orderColumnName)) that every insert, move and removal rewrites for the members after it, and that each fault reads.",
                            fix: "unless users choose the order, drop Ordered and sort by an attribute (a date, a position you set)."))
                }
            }
            // A count kept on the entity, a parent or a sub-entity (Customer.orderCount for Account.orders) is there,
            // derived or kept by hand (amperfy's Album.songCount, iNaturalist's Observation.commentsCount).
            let uncounted = entity.ownRelationships.filter { relationship in
                relationship.isToMany && relationship.inverse != nil
                    && !(counters[relationship.name] ?? []).contains { entity.isKind(of: $0) || $0.isKind(of: entity) }
                    && !keepsCount(of: relationship, on: entity)
            }.map(\.name)
            if !uncounted.isEmpty {
                advice.append(
                    Finding(
                        rule: .countThroughFaults, subject: entity.name,
                        message:
                            "a list showing how many \(uncounted.joined(separator: ", ")) each \(entity.name) has, through .count, faults that set for every row (one statement each, then the members' rows).",
                        fix:
                            "for each count a list shows, add a derived attribute (\(uncounted.prefix(2).map { "\($0)Count = \($0).@count" }.joined(separator: ", "))\(uncounted.count > 2 ? ", ..." : "")), Integer 64: it is read with the \(entity.name) row (seed 000 III.B; RelBench's chat-list scenario measures both)."
                    ))
            }
            for attribute in entity.ownAttributes where !attribute.isTransient {
                guard attribute.type == .uuid || attribute.type == .string, !attribute.isIndexed,
                    !entity.fetchIndexes.contains(where: { $0.elements.first?.property == attribute.name }),
                    !entity.uniquenessConstraints.contains(where: { $0.first == attribute.name }),
                    let target = keyTargets.target(of: attribute),
                    // A key kept beside a relationship to the same entity (Mastodon's userID and user) is a copy, and so
                    // is one beside a chain of to-ones that reaches it (AltStore's AppScreenshot.sourceID: app.source).
                    !reachesByToOnes(entity, target)
                else { continue }
                // A relationship cannot join objects of two stores: where the two entities share no configuration
                // (PeapodApp's Local Episode and synced Podcast), the key is the only link, and an index the only fix.
                let apart = Self.apartConfigurations(entity.name, target, configurations)
                advice.append(
                    Finding(
                        rule: .unindexedHandKeptKey, subject: "\(entity.name).\(attribute.name)",
                        message:
                            "looks like a hand-kept key to \(target) (seed 003's ofCategory, seed 000's classID) without an index: every fetch of \(withArticle(target))'s \(plural(entity.name)) scans all \(entity.name) rows, and deleting \(withArticle(target)) leaves its \(plural(entity.name)) behind.",
                        fix: apart.map { apart in
                            "index it (Indexed, or a fetch index on \(attribute.name)); a relationship cannot replace it: \(apart), and Core Data relates no objects of two stores (delete \(withArticle(target))'s \(plural(entity.name)) in code)."
                        }
                            ?? "index it (Indexed, or a fetch index on \(attribute.name)), or model a to-one relationship to \(target) with an inverse and a Cascade rule (RelBench's hand-kept-key scenario measures all three)."
                    ))
            }
            let chain = cascades.chain(from: entity)
            if chain.count >= 4 {
                advice.append(
                    Finding(
                        rule: .deepCascade, subject: entity.name,
                        message:
                            "deleting \(withArticle(entity.name)) cascades \(chain.count - 1) levels (\(chain.joined(separator: " -> "))): each level's objects are faulted in, their own rules applied and deleted one statement each, in one save.",
                        fix:
                            "keep it if the graph is small per \(entity.name); for large ones delete the deepest level first with a batch delete request (one statement), then the rest."
                    ))
            }
        }
        advice += denyChainFindings(model)
        let handKept = Set(advice.filter { $0.rule == .unindexedHandKeptKey }.map(\.subject))
        advice += indexFindings(model, fetchRequests: fetchRequests).filter { !handKept.contains($0.subject) }
        findings += advice.sorted { ($0.subject, $0.rule.rawValue) < ($1.subject, $1.rule.rawValue) }
        return oneFindingPerCause(findings)
    }

    /// The findings with each missing inverse said once: Xcode's warning is left out where RelBench's finding on the
    /// same relationship (CloudKit's refusal, else the many-to-nil loss) says what it costs and the fix, and says that
    /// Xcode warns too; CloudKit's refusal of a to-many without inverse also says the many-to-nil loss.
    static func oneFindingPerCause(_ findings: [Finding]) -> [Finding] {
        let cloudKit = Set(findings.filter { $0.rule == .cloudKitMissingInverse }.map(\.subject))
        let manyToNil = Set(findings.filter { $0.rule == .manyToNilLoss }.map(\.subject))
        let xcode = Set(findings.filter(\.rule.isXcodeWarning).map(\.subject))
        return findings.compactMap { finding in
            switch finding.rule {
            case .xcodeToOneWithoutInverse, .xcodeToManyWithoutInverse:
                return cloudKit.contains(finding.subject) || manyToNil.contains(finding.subject) ? nil : finding
            case .manyToNilLoss:
                guard !cloudKit.contains(finding.subject) else { return nil }
                return xcode.contains(finding.subject)
                    ? Finding(rule: finding.rule, subject: finding.subject, message: finding.message + xcodeToo, fix: finding.fix)
                    : finding
            case .cloudKitMissingInverse:
                let lost =
                    manyToNil.contains(finding.subject)
                    ? " Without CloudKit too, a to-many without inverse keeps one owner per member, so a member added to two owners' sets loses one membership on save (many-to-nil)."
                    : ""
                let said = xcode.contains(finding.subject) ? xcodeToo : ""
                return Finding(rule: finding.rule, subject: finding.subject, message: finding.message + lost + said, fix: finding.fix)
            default:
                return finding
            }
        }
    }

    private static let xcodeToo = " Xcode warns about it too (no inverse)."

    /// The entity an attribute seems to reference by key: a UUID or string named like `<entity>ID`, `<entity>Id`,
    /// `<entity>UUID`, `<entity>Key` or `of<Entity>`, naming another entity of the model; or, for an ID, the one
    /// entity whose name ends with that word (`mangaId` for LibraryManga when no Manga exists).
    ///
    /// No guess where it would mislead (real models: Aidoku, WooCommerce): an entity named exactly wins over longer
    /// names; several longer names are ambiguous; a stem the attribute's own hierarchy ends with is its own ID
    /// (ShippingMethod.methodID); a `Key` matches an exact name only (`statusKey` is an enum's key more often).
    static func handKeptKeyTarget(_ attribute: AttributeDescription, in model: ObjectModel) -> String? {
        KeyTargets(model).target(of: attribute)
    }

    /// The model's entities by lower-cased name and by every word their name ends with (`ShippingMethod`: `method`,
    /// `shippingmethod`), made once, so that each key-like attribute looks its stem up instead of testing every entity.
    struct KeyTargets {
        private var byName: [String: [EntityDescription]] = [:]
        private var byWord: [String: [EntityDescription]] = [:]

        init(_ model: ObjectModel) {
            for entity in model.entities {
                byName[entity.name.lowercased(), default: []].append(entity)
                let name = Array(entity.name)
                for start in name.indices where name[start].isUppercase {
                    byWord[String(name[start...]).lowercased(), default: []].append(entity)
                }
            }
        }

        func target(of attribute: AttributeDescription) -> String? {
            let name = attribute.name
            var stem: String?
            var identifier = false
            for suffix in ["ID", "Id", "Key", "Uuid", "UUID"] where name.hasSuffix(suffix) && name.count > suffix.count {
                stem = String(name.dropLast(suffix.count))
                identifier = suffix != "Key"
            }
            if stem == nil, name.hasPrefix("of"), name.count > 2 { stem = String(name.dropFirst(2)) }
            guard let stem = stem?.lowercased() else { return nil }
            let lineage = ModelLint.lineage(attribute.entity)
            let own = Set(lineage.map(ObjectIdentifier.init))
            if let exact = (byName[stem] ?? []).first(where: { !own.contains(ObjectIdentifier($0)) }) { return exact.name }
            let ending = byWord[stem] ?? []
            guard identifier, stem.count >= 4, !ending.contains(where: { own.contains(ObjectIdentifier($0)) }) else { return nil }
            let longer = ending.filter { !own.contains(ObjectIdentifier($0)) }
            return longer.count == 1 ? longer[0].name : nil
        }
    }

    /// Whether `entity` (or a parent or sub-entity) keeps an integer attribute that counts `relationship` by hand:
    /// `songCount` or `songsCount` for `songs`, `numberOfSongs`.
    static func keepsCount(of relationship: RelationshipDescription, on entity: EntityDescription) -> Bool {
        let name = relationship.name.lowercased()
        var stems = [name]
        if name.hasSuffix("ies") { stems.append(String(name.dropLast(3)) + "y") }
        if name.hasSuffix("s") { stems.append(String(name.dropLast())) }
        let names = Set(stems.map { $0 + "count" } + ["numberof" + name, name + "total"])
        let family = lineage(entity) + entity.subtree
        return family.contains { member in
            member.ownAttributes.contains { attribute in
                [.int16, .int32, .int64].contains(attribute.type) && !attribute.isTransient
                    && names.contains(attribute.name.lowercased().replacingOccurrences(of: "_", with: ""))
            }
        }
    }

    /// Where the model's named configurations put `entity` and `target` in no configuration together (the stores an app
    /// loads by them), the words that say so (`Episode is in configuration Local, Podcast in Sync`); nil otherwise.
    static func apartConfigurations(_ entity: String, _ target: String, _ configurations: [String: [String]]) -> String? {
        let named = configurations.filter { !$0.key.isEmpty && !$0.value.isEmpty }
        let sourceIn = named.filter { $0.value.contains(entity) }.keys.sorted()
        let targetIn = named.filter { $0.value.contains(target) }.keys.sorted()
        guard !sourceIn.isEmpty, !targetIn.isEmpty, Set(sourceIn).isDisjoint(with: targetIn) else { return nil }
        func listed(_ names: [String]) -> String { (names.count == 1 ? "configuration " : "configurations ") + series(names, "and") }
        return "\(entity) is in \(listed(sourceIn)), \(target) in \(listed(targetIn))"
    }

    /// Whether a relationship of `entity`, or a to-one after a to-one (`app.source`), leads to the entity named `target`.
    static func reachesByToOnes(_ entity: EntityDescription, _ target: String) -> Bool {
        entity.relationships.contains { relationship in
            relationship.destination.name == target
                || (!relationship.isToMany
                    && relationship.destination.relationships.contains { !$0.isToMany && $0.destination.name == target })
        }
    }

    /// The entity and its ancestors, nearest first.
    static func lineage(_ entity: EntityDescription) -> [EntityDescription] {
        Array(sequence(first: entity, next: \.superentity))
    }

    /// An entity name in the plural, its capitals kept: `Histories`, `Classes`, `Students`.
    static func plural(_ name: String) -> String {
        let lower = name.lowercased()
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return name.dropLast() + "ies" }
        if ["s", "x", "z", "ch", "sh"].contains(where: lower.hasSuffix) { return name + "es" }
        return name + "s"
    }

    /// A to-many's name for the objects of an entity, as Xcode users write it: `students` for Student,
    /// `categories` for Category, `ssWorkouts` for SSWorkout (the leading capitals lowered, but a word's first).
    static func pluralName(of entityName: String) -> String {
        let characters = Array(entityName)
        var capitals = characters.prefix { $0.isUppercase }.count
        if capitals > 1 && capitals < characters.count { capitals -= 1 }
        return plural(String(characters.prefix(capitals)).lowercased() + String(characters.dropFirst(capitals)))
    }

    /// The longest chain of Cascade rules from `entity` (entity names, cycles cut).
    static func cascadeChain(from entity: EntityDescription) -> [String] {
        var chains = CascadeChains()
        return chains.chain(from: entity)
    }

    /// Longest Cascade chains, each entity's remembered once its search met no cycle (a search that cut one depends on
    /// the path that led to it, and is made again): linear over a model whose cascades form no cycle, where searching
    /// every path from every entity anew was exponential in the worst case.
    struct CascadeChains {
        private var known: [ObjectIdentifier: [String]] = [:]

        mutating func chain(from entity: EntityDescription) -> [String] { search(entity, seen: []).chain }

        private mutating func search(_ entity: EntityDescription, seen: Set<String>) -> (chain: [String], cut: Bool) {
            if let chain = known[ObjectIdentifier(entity)] { return (chain, false) }
            var seen = seen
            seen.insert(entity.name)
            var best: [String] = []
            var cut = false
            for relationship in entity.relationships where relationship.deleteRule == .cascade {
                guard !seen.contains(relationship.destination.name) else {
                    cut = true
                    continue
                }
                let found = search(relationship.destination, seen: seen)
                cut = cut || found.cut
                if found.chain.count > best.count { best = found.chain }
            }
            let chain = [entity.name] + best
            if !cut { known[ObjectIdentifier(entity)] = chain }
            return (chain, cut)
        }
    }
}
