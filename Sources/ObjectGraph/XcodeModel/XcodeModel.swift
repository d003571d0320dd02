import Foundation

/// A model read from Xcode's model format: a `.xcdatamodeld` folder (its `.xccurrentversion` names the current
/// version), a `.xcdatamodel` folder, or its `contents` XML file.
///
/// Everything that shapes the store is read: entities (`parentEntity`, `isAbstract`), attributes (type, optional,
/// default, min/max, regular expression, transient, derived), relationships (to-many, ordered, counts, delete
/// rule, destination, inverse), fetch indexes, compound indexes and uniqueness constraints; for lint, renaming
/// identifiers, the predicates of fetch requests and fetched properties, and which entities are used with CloudKit.
/// The diagram (`elements`), user info and configurations are otherwise ignored; unknown elements are
/// skipped with a note. What ObjectGraph cannot store (a transient relationship, an unknown attribute type, a
/// derivation it cannot evaluate, an R-tree index) is skipped with a note naming the entity and property; what is
/// skipped because the file itself is wrong is also one of `problems`.
public struct XcodeModel: Sendable {
    /// The entities, ready for `ObjectModel`.
    public let entities: [Entity]
    /// What was skipped or adjusted, one line each (entity and property named).
    public let notes: [String]
    /// What of `notes` is wrong in the file itself (Xcode would not build it, or Core Data could not store it as
    /// written), rather than a feature ObjectGraph leaves out: lint reports these as problems.
    public var problems: [Problem] = []
    /// The file the entities were read from.
    public let path: String
    /// The version read from a `.xcdatamodeld` (the folder name), if any.
    public let version: String?
    /// The package's current version (its `.xccurrentversion`, or its only or latest version), if read from one.
    public var currentVersion: String?
    /// Whether `version` is the package's current one.
    public var isCurrentVersion: Bool { version != nil && version == currentVersion }
    /// Every version the `.xcdatamodeld` holds, in numeric order; empty for a `.xcdatamodel` or `contents` given alone.
    public var versions: [String] = []
    /// Renaming identifiers (Xcode's `elementID`), keyed `Entity` or `Entity.property`: the name in an earlier version
    /// that lightweight migration maps to this one.
    public var renamingIdentifiers: [String: String] = [:]
    /// The predicates of the model's fetch request templates and fetched properties.
    public var fetchRequests: [FetchRequestTemplate] = []
    /// The entities synced with CloudKit, sorted: the members of the named configurations used with CloudKit, or,
    /// in a model with no named configuration, every entity when its Default configuration is. NSPersistentCloudKit-
    /// Container holds them to its rules.
    public var cloudKitEntities: [String] = []
    /// The members of each named configuration (`Local`: `Episode`), the stores an app loads by them; empty where the
    /// model names none (its Default configuration holds every entity).
    public var configurations: [String: [String]] = [:]

    /// A model read from elsewhere than Xcode's files (SwiftData `@Model` classes in Swift sources): its entities,
    /// what the reader skipped, adjusted or inferred, the file or folder read, and the version read.
    public init(entities: [Entity], notes: [String], path: String, version: String?) {
        self.entities = entities
        self.notes = notes
        self.path = path
        self.version = version
    }

    /// Reads the model at `path`: a `.xcdatamodeld` or `.xcdatamodel` folder, or a `contents` file.
    public static func load(path: String) throws -> XcodeModel { try load(path: path, version: nil) }

    /// Reads version `version` (`Shop 2`, or `Shop 2.xcdatamodel`) of the `.xcdatamodeld` at `path`, or its current
    /// version when nil.
    public static func load(path: String, version: String?) throws -> XcodeModel {
        let located = try locate(path, version: version)
        // A sparse 2.1 GB file crashed FoundationXML's parser (SIGILL): the size is checked before anything is read.
        if let size = (try? FileManager.default.attributesOfItem(atPath: located.file))?[.size] as? UInt64, size > maximumFileSize {
            throw ObjectGraphError.xcodeModel(
                path: located.file,
                reason:
                    "\(size) bytes, over the \(maximumFileSize / 1_048_576) MiB a model file may have (Xcode's largest are a few MB); is it a model?"
            )
        }
        guard let data = FileManager.default.contents(atPath: located.file) else {
            throw ObjectGraphError.xcodeModel(path: located.file, reason: "the file cannot be read; check the path and its permissions")
        }
        var model = try parse(data, path: located.file, version: located.version)
        model.versions = located.versions
        model.currentVersion = located.current
        return model
    }

    /// The largest `contents` file read: 64 MiB, ten times a model of thousands of entities.
    public static let maximumFileSize: UInt64 = 64 * 1_048_576

    /// Reads a model from the text of a `contents` file.
    public static func parse(_ data: Data, path: String = "contents", version: String? = nil) throws -> XcodeModel {
        // Xcode writes UTF-8. FoundationXML on Linux traps on some invalid UTF-8 (inside a comment, found by
        // FuzzTests), so bytes that are not UTF-8 are refused before the parser sees them.
        if let invalid = firstInvalidUTF8(data) {
            let line = data.prefix(invalid).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            throw ObjectGraphError.xcodeModel(
                path: path, reason: "not UTF-8 text (an invalid byte on line \(line)); Xcode writes models as UTF-8")
        }
        let reader = XcodeModelReader(path: path)
        let parsed = try reader.read(data)
        var model = XcodeModel(entities: parsed.entities, notes: parsed.notes, path: path, version: version)
        model.cloudKitEntities = parsed.cloudKitEntities
        model.configurations = parsed.configurations
        model.problems = parsed.problems
        model.renamingIdentifiers = parsed.renamingIdentifiers
        model.fetchRequests = parsed.fetchRequests
        return model
    }

    /// The offset of the first byte that is not part of valid UTF-8, or nil when all of it is.
    static func firstInvalidUTF8(_ data: Data) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = data.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case let .valid(scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// The compiled model (throws a model error naming the entity and property at fault).
    public func makeModel() throws -> ObjectModel { try ObjectModel(entities) }

    /// Where a model's text is: its `contents` file, and for a `.xcdatamodeld` the version read, the current one and all.
    struct Location {
        var file: String
        var version: String?
        var current: String?
        var versions: [String] = []
    }

    /// The `contents` file for `path`, and the version folder's name when a `.xcdatamodeld` was given.
    static func locate(_ path: String) throws -> (String, String?) {
        let located = try locate(path, version: nil)
        return (located.file, located.version)
    }

    /// The `contents` file of `version` of the package at `path` (its current version when nil).
    static func locate(_ path: String, version wanted: String?) throws -> Location {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ObjectGraphError.xcodeModel(
                path: path, reason: "no such file or folder; give a .xcdatamodeld folder, a .xcdatamodel folder or its contents file")
        }
        guard isDirectory.boolValue else {
            if let wanted { throw versionsMissing(path, wanted) }
            return Location(file: path)
        }
        let url = URL(fileURLWithPath: path)
        if url.pathExtension == "xcdatamodeld" || !manager.fileExists(atPath: url.appendingPathComponent("contents").path) {
            let versions = ((try? manager.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".xcdatamodel") }
            if versions.isEmpty {
                if manager.fileExists(atPath: url.appendingPathComponent("elements").path) {
                    throw ObjectGraphError.xcodeModel(
                        path: path, reason: "an Xcode 3 binary model (elements, no contents); open it in Xcode 4 or later and save it again"
                    )
                }
                throw ObjectGraphError.xcodeModel(path: path, reason: "the folder holds no .xcdatamodel version and no contents file")
            }
            // By name, numbers compared as numbers: Shop, Shop 2, Shop 10.
            let names = versions.map { String($0.dropLast(".xcdatamodel".count)) }.sorted {
                $0.compare($1, options: .numeric) == .orderedAscending
            }
            var chosen = (names.last ?? "") + ".xcdatamodel"
            let current = url.appendingPathComponent(".xccurrentversion")
            // Without .xccurrentversion (a model that never had a second version) the only or latest version is current,
            // and so is the only version where the file names none (wallabag's `<dict/>` beside Shared.xcdatamodel);
            // one Xcode could not read, naming no version of several, or naming one the folder lacks, is refused
            // rather than guessed around.
            if let data = manager.contents(atPath: current.path) {
                let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any]
                let onlyVersion = versions.count == 1 && plist != nil && plist?["_XCCurrentVersionName"] == nil
                guard let name = plist?["_XCCurrentVersionName"] as? String ?? (onlyVersion ? versions[0] : nil) else {
                    throw ObjectGraphError.xcodeModel(
                        path: current.path,
                        reason: "not a property list naming _XCCurrentVersionName; "
                            + "choose the current version in Xcode again, or give a .xcdatamodel folder")
                }
                guard versions.contains(name) else {
                    throw ObjectGraphError.xcodeModel(
                        path: current.path,
                        reason: "names \(name) as the current version, which the folder does not hold "
                            + "(it holds \(versions.sorted().joined(separator: ", "))); fix it, or give a .xcdatamodel folder")
                }
                chosen = name
            }
            let currentName = String(chosen.dropLast(".xcdatamodel".count))
            if let wanted {
                let name = wanted.hasSuffix(".xcdatamodel") ? String(wanted.dropLast(".xcdatamodel".count)) : wanted
                guard names.contains(name) else {
                    throw ObjectGraphError.xcodeModel(
                        path: path, reason: "has no version '\(wanted)'; its versions are \(names.joined(separator: ", "))")
                }
                chosen = name + ".xcdatamodel"
            }
            let contents = url.appendingPathComponent(chosen).appendingPathComponent("contents")
            guard manager.fileExists(atPath: contents.path) else {
                if manager.fileExists(atPath: url.appendingPathComponent(chosen).appendingPathComponent("elements").path) {
                    throw ObjectGraphError.xcodeModel(
                        path: url.appendingPathComponent(chosen).path,
                        reason: "an Xcode 3 binary model (elements, no contents); open it in Xcode 4 or later and save it again")
                }
                throw ObjectGraphError.xcodeModel(
                    path: url.appendingPathComponent(chosen).path, reason: "the version folder has no contents file")
            }
            return Location(
                file: contents.path, version: String(chosen.dropLast(".xcdatamodel".count)), current: currentName, versions: names)
        }
        if let wanted { throw versionsMissing(path, wanted) }
        return Location(file: url.appendingPathComponent("contents").path)
    }

    private static func versionsMissing(_ path: String, _ version: String) -> ObjectGraphError {
        .xcodeModel(
            path: path,
            reason: "is one version, not a .xcdatamodeld holding versions; give the .xcdatamodeld to choose version '\(version)'")
    }
}

/// A fetch request template of the model (`<fetchRequest>`), or the request of a fetched property.
public struct FetchRequestTemplate: Sendable, Equatable {
    /// The template's name, or `Entity.property` for a fetched property.
    public let name: String
    /// The entity fetched.
    public let entity: String
    /// The predicate as written (`email == $EMAIL`).
    public let predicate: String
    /// `Entity.property` for a fetched property's request.
    public let fetchedProperty: String?
}
