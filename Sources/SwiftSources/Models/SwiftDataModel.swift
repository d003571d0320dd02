#if SwiftSources
import Foundation
import ObjectGraph

/// SwiftData `@Model` classes read from Swift sources as the model Core Data makes of them, the same `XcodeModel`
/// (entities, renaming identifiers, versions) an Xcode model file gives, so that schema, lint, runs, explain and
/// `--shape-from` work on it unchanged.
///
/// SwiftData stores its models through Core Data in the same SQLite layout: an entity per `@Model` class named as the
/// class (nested in a `VersionedSchema` or not: `SchemaV1.Trip` is entity `Trip`), its stored properties as
/// attributes and relationships, `@Attribute(.unique)` as a uniqueness constraint (a real SwiftData store:
/// `CREATE UNIQUE INDEX Z_Item_UNIQUE_name ON ZITEM (ZNAME COLLATE BINARY ASC)`, as ObjectGraph names it), Nullify as
/// the default delete rule, and the inverse of a relationship declared on one side inferred where the two models have
/// one relationship each toward the other (the same store's model cache pairs `CraftingRecipe.requiredComponents`
/// with `Component.craftingRecipe`, and `Item.craftingRecipe` with `CraftingRecipe.producedItem`, neither declared).
/// What is inferred rather than seen is said in the code and in the model's notes.
public enum SwiftDataModel {
    /// The versions the sources declare (`VersionedSchema` names, in version order), the current one, and the model
    /// of `version` (its name, or its version identifier `1.0.0`; the current model when nil).
    public static func load(path: String, version: String? = nil) throws -> XcodeModel {
        let (files, fileNotes) = try SwiftSources.load(path)
        let declarations = Declarations(files, root: path)
        return try build(declarations, path: path, version: version, fileNotes: fileNotes, fileCount: files.count)
    }

    static func build(
        _ declarations: Declarations, path: String, version wanted: String?, fileNotes: [String], fileCount: Int
    ) throws -> XcodeModel {
        guard !declarations.models.isEmpty else {
            throw SwiftSourceError(
                "\(path): no @Model class in its \(fileCount) Swift file(s); give the folder with the app's SwiftData models (or an Xcode model)"
            )
        }
        let versions = Versions(declarations)
        let chosen: Versions.Version
        if let wanted {
            guard let found = versions.version(named: wanted) else {
                let names = versions.all.map(\.name)
                throw SwiftSourceError(
                    "\(path) has no version '\(wanted)'"
                        + (names.isEmpty
                            ? "; it declares no VersionedSchema"
                            : "; its versions are \(names.joined(separator: ", ")) (a VersionedSchema's name or its versionIdentifier)"))
            }
            chosen = found
        } else {
            chosen = versions.current
        }
        var builder = EntityBuilder(declarations: declarations, classes: chosen.classes)
        let entities = builder.entities()
        var notes = [
            "SwiftData model read from Swift sources with swift-syntax's parser (no type checking): \(chosen.classes.count) @Model class(es)"
                + (chosen.isTopLevel ? "" : " of \(chosen.name)") + " in \(fileCount) file(s)"
        ]
        notes += fileNotes + versions.notes(chosen: chosen) + builder.notes
        notes.append(
            "SwiftData turns on persistent history tracking: its stores also have the tables ACHANGE, ATRANSACTION and ATRANSACTIONSTRING (seen in a real SwiftData store), which ObjectGraph does not make, so a save here writes no history rows"
        )
        let synced = declarations.cloudKitDatabases.first { !$0.value.hasPrefix(".none") }
        if let synced {
            notes.append(
                "\(synced.location): ModelConfiguration(cloudKitDatabase: \(synced.value)): every entity is held to CloudKit's rules (with .automatic, the default, an app syncs only with the iCloud entitlement, which the sources do not show)"
            )
        }
        var model = XcodeModel(
            entities: entities, notes: notes, path: path, version: chosen.isTopLevel ? nil : chosen.name)
        model.versions = versions.all.map(\.name)
        model.currentVersion = versions.current.isTopLevel ? nil : versions.current.name
        model.renamingIdentifiers = builder.renamingIdentifiers
        model.cloudKitEntities = synced == nil ? [] : entities.map(\.name).sorted()
        return model
    }
}

/// The versions the sources declare: each `VersionedSchema` with the classes its `models` list names, and the
/// top-level `@Model` classes (outside any schema) when there are any.
struct Versions {
    struct Version {
        var name: String
        var identifier: [Int]?
        var classes: [Declarations.ModelClass]
        /// The `@Model` classes outside every `VersionedSchema`: the app's current model, unnamed.
        var isTopLevel: Bool
    }

    var all: [Version] = []
    var current: Version
    private var currentReason: String
    private let plans: [Declarations.MigrationPlan]
    private let unresolved: [String]

    init(_ declarations: Declarations) {
        let schemaNames = Set(declarations.schemas.map(\.name))
        var unresolved: [String] = []
        var versions: [Version] = []
        for schema in declarations.schemas {
            var classes: [Declarations.ModelClass] = []
            for listed in schema.models {
                if let found = Self.resolve(listed, schema: schema.name, declarations) {
                    if !classes.contains(where: { $0.qualifiedName == found.qualifiedName }) { classes.append(found) }
                } else {
                    unresolved.append("\(schema.name).models lists \(listed), which is no @Model class of the sources; left out")
                }
            }
            // Classes nested in the schema but not listed are its models too when a relationship reaches them (SwiftData
            // adds the models relationships reach): every class nested in the schema is taken.
            for model in declarations.models
            where model.owners.last == schema.name && !classes.contains(where: { $0.qualifiedName == model.qualifiedName }) {
                classes.append(model)
            }
            versions.append(Version(name: schema.name, identifier: schema.version, classes: classes, isTopLevel: false))
        }
        // In the migration plan's order when there is one, else by version identifier, else as declared.
        if let plan = declarations.plans.first(where: { !$0.schemas.isEmpty }) {
            let order = plan.schemas.map(TypeShape.lastComponent)
            versions.sort { (order.firstIndex(of: $0.name) ?? Int.max) < (order.firstIndex(of: $1.name) ?? Int.max) }
        } else if versions.allSatisfy({ $0.identifier != nil }) {
            // Every identifier is there (checked on the line above).
            // swift-format-ignore: NeverForceUnwrap
            versions.sort { $0.identifier!.lexicographicallyPrecedes($1.identifier!) }
        }
        var topLevel: [Declarations.ModelClass] = []
        for model in declarations.models where !model.owners.contains(where: schemaNames.contains) {
            // Two classes of one name (a copy in another target, a preview folder): only one can be in the schema.
            if let kept = topLevel.first(where: { $0.name == model.name }) {
                unresolved.append(
                    "two @Model classes named \(model.name) (\(kept.location), \(model.location)): the first is read; give the model's folder or files to choose"
                )
                continue
            }
            topLevel.append(model)
        }
        self.plans = declarations.plans
        all = versions
        self.unresolved = unresolved
        if !topLevel.isEmpty {
            current = Version(name: "current", identifier: nil, classes: topLevel, isTopLevel: true)
            currentReason = "the @Model classes outside every VersionedSchema"
        } else if let aliased = Self.aliasedSchema(declarations, versions) {
            current = aliased
            currentReason =
                "the schema the top-level type aliases name (typealias \(aliased.classes.first?.name ?? "") = \(aliased.name).…)"
        } else {
            // The versions are not empty here (no top-level classes, no alias: a schema was read).
            // swift-format-ignore: NeverForceUnwrap
            current = versions.last!
            currentReason =
                declarations.plans.contains { !$0.schemas.isEmpty } ? "the last schema of the migration plan" : "the latest version"
        }
    }

    /// The schema most top-level type aliases point into (`typealias Trip = SchemaV3.Trip`).
    private static func aliasedSchema(_ declarations: Declarations, _ versions: [Version]) -> Version? {
        var counts: [String: Int] = [:]
        for (name, target) in declarations.typeAliases where !name.contains(".") {
            let parts = target.split(separator: ".").map(String.init)
            if parts.count >= 2, let schema = versions.first(where: { $0.name == parts[parts.count - 2] }) {
                counts[schema.name, default: 0] += 1
            }
        }
        guard let best = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return nil }
        return versions.first { $0.name == best.key }
    }

    /// The class `listed` names from inside schema `schema`: one nested in it, else a top-level one, else one whose
    /// qualified name ends so.
    static func resolve(_ listed: String, schema: String?, _ declarations: Declarations) -> Declarations.ModelClass? {
        if let schema, let nested = declarations.models.first(where: { $0.qualifiedName == "\(schema).\(listed)" }) { return nested }
        let target = declarations.typeAliases[listed] ?? listed
        if let exact = declarations.models.first(where: { $0.qualifiedName == target }) { return exact }
        let matches = declarations.models.filter { $0.qualifiedName.hasSuffix("." + target) || $0.name == target }
        return matches.count == 1 ? matches[0] : matches.first { $0.owners.isEmpty }
    }

    func version(named name: String) -> Version? {
        if let found = all.first(where: { $0.name == name }) { return found }
        if name == "current" { return current }
        return all.first { version in version.identifier.map { $0.map(String.init).joined(separator: ".") } == name }
    }

    /// The versions and migration stages, for the model's notes.
    func notes(chosen: Version) -> [String] {
        var notes = unresolved
        if !all.isEmpty {
            let names = all.map { version in
                version.name + (version.identifier.map { " (\($0.map(String.init).joined(separator: ".")))" } ?? "")
            }
            notes.append(
                "versions (VersionedSchema): \(names.joined(separator: ", ")); the current model is \(current.isTopLevel ? "the @Model classes outside them" : current.name) (\(currentReason)); bench lint --against NAME compares with one"
            )
        }
        for plan in plans {
            let stages = plan.stages.map { "\($0.from) → \($0.to) \($0.kind)" }
            notes.append(
                "migration plan \(plan.name) (\(plan.location)): "
                    + (stages.isEmpty ? "no stages found" : stages.joined(separator: "; "))
                    + (plan.stages.contains { $0.kind == "custom" }
                        ? "; a custom stage runs the app's willMigrate/didMigrate code around the inferred migration, which RelBench does not run"
                        : ""))
        }
        return notes
    }
}
#endif
