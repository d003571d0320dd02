import SQLDebugLog

/// The rules `bench lint` finds with, one case per cause. The raw values are stable kebab-case ids: the text output,
/// baseline files and the findings corpus name rules by them, so a case may be added but never renamed.
package enum LintRule: String, Sendable, Codable, CaseIterable {
    // Xcode's own warnings, as its model editor shows them.
    /// A to-one without an inverse ("should have an inverse").
    case xcodeToOneWithoutInverse = "xcode-to-one-without-inverse"
    /// A to-many without an inverse ("does not have an inverse"); printed as `many-to-nil-loss`, which names the same
    /// cause with what is lost, whenever that finding is made.
    case xcodeToManyWithoutInverse = "xcode-to-many-without-inverse"

    // The model file itself.
    /// The model declares no entity.
    case modelEmpty = "model-empty"
    /// A property without a name.
    case modelUnnamedProperty = "model-unnamed-property"
    /// An attribute type Core Data does not know.
    case modelUnknownAttributeType = "model-unknown-attribute-type"
    /// An attribute of type Undefined that is not transient.
    case modelUndefinedNotTransient = "model-undefined-not-transient"
    /// A derivation Core Data does not support.
    case modelUnsupportedDerivation = "model-unsupported-derivation"
    /// A relationship whose destination is not an entity of the model.
    case modelMissingDestination = "model-missing-destination"
    /// An index naming no stored property.
    case modelIndexOnMissingProperty = "model-index-on-missing-property"

    // RelBench's rules on one model.
    /// A to-many without an inverse keeps one owner per member: a second membership is lost on save.
    case manyToNilLoss = "many-to-nil-loss"
    /// Cascade rules reach a Deny rule: deleting the cascade's source fails.
    case denyReachedByCascade = "deny-reached-by-cascade"
    /// A key kept by hand (`classID`) without an index.
    case unindexedHandKeptKey = "unindexed-hand-kept-key"
    /// The model's own fetch requests or fetched properties filter or sort on an attribute no index covers.
    case unindexedFilter = "unindexed-filter"
    /// The generated suite's find and sorted phases use attributes no index covers: a guess at what screens do.
    case unindexedLookupGuess = "unindexed-lookup-guess"
    /// A list showing a to-many's count faults the set for every row: a guess that a screen shows the count.
    case countThroughFaults = "count-through-faults-guess"
    /// Deleting an object cascades four or more levels.
    case deepCascade = "deep-cascade"
    /// An ordered relationship: an order column rewritten on every change.
    case orderedRelationship = "ordered-relationship"

    // CloudKit's rules for synced entities (NSPersistentCloudKitContainer refuses to load the store).
    case cloudKitRequiredAttribute = "cloudkit-required-attribute"
    case cloudKitUniqueConstraint = "cloudkit-unique-constraint"
    case cloudKitOrderedRelationship = "cloudkit-ordered-relationship"
    case cloudKitMissingInverse = "cloudkit-missing-inverse"
    case cloudKitRequiredRelationship = "cloudkit-required-relationship"
    case cloudKitDenyRule = "cloudkit-deny-rule"

    // What lightweight migration from an older version cannot infer or will lose (`--against`).
    /// No entity matches: two unrelated models.
    case migrationUnrelatedModels = "migration-unrelated-models"
    /// An entity removed: its rows are dropped.
    case migrationEntityRemoved = "migration-entity-removed"
    /// A property removed: its values or links are dropped.
    case migrationPropertyRemoved = "migration-property-removed"
    /// A renaming identifier (elementID) that names nothing of the older version.
    case migrationBrokenRename = "migration-broken-rename"
    /// An attribute's type changes beyond a widening.
    case migrationTypeChange = "migration-type-change"
    /// An optional attribute becomes required without a default value.
    case migrationAttributeNowRequired = "migration-attribute-now-required"
    /// A required attribute without a default value is added (on the entity or a parent).
    case migrationRequiredAttributeAdded = "migration-required-attribute-added"
    /// A to-many becomes a to-one.
    case migrationToManyBecomesToOne = "migration-to-many-becomes-to-one"
    /// A relationship's destination changes.
    case migrationDestinationChange = "migration-destination-change"
    /// An optional relationship becomes required.
    case migrationRelationshipNowRequired = "migration-relationship-now-required"
    /// A required relationship is added.
    case migrationRequiredRelationshipAdded = "migration-required-relationship-added"
    /// An attribute becomes a relationship or the other way.
    case migrationKindChange = "migration-kind-change"
    /// Uniqueness constraints are dropped: duplicates can be saved from now on.
    case migrationConstraintDropped = "migration-constraint-dropped"
    /// Uniqueness constraints are added or changed: the migration fails on rows that share values.
    case migrationConstraintAdded = "migration-constraint-added"
    /// Two hierarchies merged into one table.
    case migrationHierarchiesMerged = "migration-hierarchies-merged"

    // What fails on the rows of a store migrated as lightweight migration would (`--against` with `--data` or
    // `--counts`): each names how many rows and the first primary keys.
    /// Stored rows would have no value for a required attribute without a default.
    case migrationDataRequiredValueMissing = "migration-data-required-value-missing"
    /// Stored rows would have no destination for a required to-one.
    case migrationDataRequiredRelationshipMissing = "migration-data-required-relationship-missing"
    /// Stored rows would break a to-many's minimum or maximum count.
    case migrationDataRelationshipCount = "migration-data-relationship-count"
    /// Stored values would break an attribute's validation rule (range, length, pattern).
    case migrationDataValueRule = "migration-data-value-rule"
    /// Stored rows share values of a uniqueness constraint.
    case migrationDataDuplicates = "migration-data-duplicates"
    /// Rows whose entity the older model does not have (Z_ENT of no entity, or of an abstract one).
    case migrationDataUnknownEntityRows = "migration-data-unknown-entity-rows"

    /// On the scale: problem (a save, a migration or the store's loading will fail, or data is lost), risk
    /// (likely slow or fragile), suggestion (a guess about how the app uses the model).
    package var severity: FindingSeverity {
        switch self {
        case .modelEmpty, .modelUnnamedProperty, .modelUnknownAttributeType, .modelUndefinedNotTransient,
            .modelUnsupportedDerivation, .modelMissingDestination, .modelIndexOnMissingProperty, .denyReachedByCascade,
            .cloudKitRequiredAttribute, .cloudKitUniqueConstraint, .cloudKitOrderedRelationship, .cloudKitMissingInverse,
            .cloudKitRequiredRelationship, .cloudKitDenyRule, .migrationUnrelatedModels, .migrationEntityRemoved,
            .migrationPropertyRemoved, .migrationBrokenRename, .migrationTypeChange, .migrationAttributeNowRequired,
            .migrationRequiredAttributeAdded, .migrationToManyBecomesToOne, .migrationDestinationChange,
            .migrationRelationshipNowRequired, .migrationRequiredRelationshipAdded, .migrationKindChange,
            .migrationConstraintAdded, .migrationHierarchiesMerged, .migrationDataRequiredValueMissing,
            .migrationDataRequiredRelationshipMissing, .migrationDataRelationshipCount, .migrationDataValueRule,
            .migrationDataDuplicates, .migrationDataUnknownEntityRows:
            return .problem
        // Many-to-nil loses a membership only when the app puts one member in two owners' sets.
        case .manyToNilLoss, .xcodeToOneWithoutInverse, .xcodeToManyWithoutInverse, .unindexedHandKeptKey, .unindexedFilter,
            .deepCascade, .orderedRelationship, .migrationConstraintDropped:
            return .risk
        case .unindexedLookupGuess, .countThroughFaults:
            return .suggestion
        }
    }

    /// Whether the rule is Xcode's own warning (printed in Xcode's words) rather than RelBench's.
    package var isXcodeWarning: Bool { self == .xcodeToOneWithoutInverse || self == .xcodeToManyWithoutInverse }

    /// Whether the rule compares two versions (`bench lint --against`).
    package var isMigration: Bool { rawValue.hasPrefix("migration-") }

    /// Whether the rule reports rows of a store migrated in a dry run (`--data`, `--counts`), not the models alone.
    package var isMigrationData: Bool { rawValue.hasPrefix("migration-data-") }

    /// Whether a dry run on a store's rows decides the finding: it says that stored rows may lack a value or share
    /// one, which the rows show or refute.
    package var isDecidedByRows: Bool {
        switch self {
        case .migrationRequiredAttributeAdded, .migrationAttributeNowRequired, .migrationRequiredRelationshipAdded,
            .migrationRelationshipNowRequired, .migrationConstraintAdded:
            return true
        default: return false
        }
    }
}
