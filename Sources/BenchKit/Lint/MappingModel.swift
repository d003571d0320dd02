import Foundation

/// A mapping model (`.xcmappingmodel`, Xcode's `xcmapping.xml`) beside a model bundle: Core Data migrates the
/// versions it maps with it, and infers nothing, so lightweight migration's findings do not apply to that step.
struct MappingModel {
    /// The `.xcmappingmodel` folder's name.
    let name: String
    /// The source and destination versions (`Model`, `Modelv4`: the version folders without `.xcdatamodel`).
    let source: String
    let destination: String
    /// The `.xcdatamodeld` each version is in (`Model.xcdatamodeld`), when the paths name one.
    let sourcePackage: String?
    let destinationPackage: String?
    /// The custom migration policies (NSEntityMigrationPolicy subclasses) its entity mappings name.
    let policies: [String]

    /// The entity names of the models the mapping model embeds (`sourcemodeldata`, `destinationmodeldata`: the
    /// versions Xcode compiled it against, whatever their paths say), nil where it embeds none.
    let sourceEntities: Set<String>?
    let destinationEntities: Set<String>?

    /// The mapping models in `folder` and the folders below it (Xcode copies every `.xcmappingmodel` of a target into
    /// the app's bundle, where Core Data looks for one: CareKit keeps its own in `CoreData/Migrations/2_0To2_1/`), by
    /// path; unreadable ones are left out. Four levels down at most, skipping hidden and build folders.
    static func all(in folder: String) -> [MappingModel] {
        mappingFolders(in: URL(fileURLWithPath: folder), depth: 0).compactMap { url in
            let name = url.lastPathComponent
            let file = url.appendingPathComponent("xcmapping.xml")
            // The file is read as text, not parsed: FoundationXML traps on some malformed input (XcodeModel's notes).
            guard let data = try? Data(contentsOf: file), data.count < 64 << 20, let text = String(data: data, encoding: .utf8),
                let source = value("sourcemodelpath", in: text), let destination = value("destinationmodelpath", in: text)
            else { return nil }
            let policies = values("migrationpolicyclassname", in: text).filter { !$0.isEmpty }
            return MappingModel(
                name: name, source: version(source), destination: version(destination), sourcePackage: package(source),
                destinationPackage: package(destination), policies: Array(Set(policies)).sorted(),
                sourceEntities: embeddedNames("sourcemodeldata", in: text),
                destinationEntities: embeddedNames("destinationmodeldata", in: text))
        }
    }

    /// The `.xcmappingmodel` folders in `folder` and below, sorted by path.
    private static func mappingFolders(in folder: URL, depth: Int) -> [URL] {
        let skipped: Set<String> = [".build", "build", "DerivedData", "Pods", "Carthage", "node_modules"]
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        var found: [URL] = []
        for name in names where !name.hasPrefix(".") && !skipped.contains(name) {
            let url = folder.appendingPathComponent(name)
            if name.hasSuffix(".xcmappingmodel") {
                found.append(url)
                continue
            }
            var isDirectory: ObjCBool = false
            guard depth < 4, !name.hasSuffix(".xcdatamodeld"), !name.hasSuffix(".xcassets"),
                FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            found += mappingFolders(in: url, depth: depth + 1)
        }
        return found
    }

    /// The strings of the keyed archive a `<attribute name="NAME" type="binary">` holds (Xcode's model snapshot):
    /// its entity names among them.
    private static func embeddedNames(_ attribute: String, in text: String) -> Set<String>? {
        let opening = "<attribute name=\"\(attribute)\" type=\"binary\">"
        guard let start = text.range(of: opening), let end = text[start.upperBound...].range(of: "</attribute>"),
            let data = Data(base64Encoded: String(text[start.upperBound..<end.lowerBound]), options: .ignoreUnknownCharacters),
            let archive = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any],
            let objects = archive["$objects"] as? [Any]
        else { return nil }
        return Set(objects.compactMap { $0 as? String })
    }

    /// Whether this maps `old` (entities `oldEntities`) to `new` (entities `newEntities`): by the versions its paths
    /// name, or, where its destination path names a version the package does not hold (renamed after the mapping was
    /// made: CareKit's maps `CareKitStore2.2`, which became `CareKitStore2.1`), by the entities of the model it embeds.
    func maps(
        _ old: String, of oldPackage: String, to new: String, of newPackage: String, versions: [String], oldEntities: [String],
        newEntities: [String]
    ) -> Bool {
        guard source == old, (sourcePackage ?? oldPackage) == oldPackage, (destinationPackage ?? newPackage) == newPackage else {
            return false
        }
        if destination == new { return true }
        guard !versions.contains(destination), let embedded = destinationEntities, !newEntities.isEmpty else { return false }
        return newEntities.allSatisfy(embedded.contains) && oldEntities.allSatisfy { sourceEntities?.contains($0) ?? true }
    }

    /// The mapping model in `folder` or below that maps version `old` of the package `oldPackage` (`Model.xcdatamodeld`)
    /// to version `new` of `newPackage` (whose versions are `versions`), if any: one naming both versions first.
    static func mapping(
        from old: String, of oldPackage: String, to new: String, of newPackage: String, in folder: String, versions: [String] = [],
        oldEntities: [String] = [], newEntities: [String] = []
    ) -> MappingModel? {
        let candidates = all(in: folder)
        func maps(_ mapping: MappingModel) -> Bool {
            mapping.maps(
                old, of: oldPackage, to: new, of: newPackage, versions: versions, oldEntities: oldEntities, newEntities: newEntities)
        }
        return candidates.first { $0.destination == new && maps($0) } ?? candidates.first(where: maps)
    }

    /// `LoopKit/Persistence/Model.xcdatamodeld/Modelv4.xcdatamodel` → `Model.xcdatamodeld`.
    private static func package(_ path: String) -> String? {
        let parts = path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".xcdatamodeld") else { return nil }
        return String(parts[parts.count - 2])
    }

    /// `LoopKit/Persistence/Model.xcdatamodeld/Modelv4.xcdatamodel` → `Modelv4`.
    private static func version(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return last.hasSuffix(".xcdatamodel") ? String(last.dropLast(".xcdatamodel".count)) : last
    }

    private static func value(_ attribute: String, in text: String) -> String? { values(attribute, in: text).first }

    /// The text of each `<attribute name="NAME" type="string">TEXT</attribute>`.
    private static func values(_ attribute: String, in text: String) -> [String] {
        let opening = "<attribute name=\"\(attribute)\" type=\"string\">"
        var found: [String] = []
        var rest = text[...]
        while let start = rest.range(of: opening) {
            rest = rest[start.upperBound...]
            guard let end = rest.range(of: "</attribute>") else { break }
            found.append(
                String(rest[..<end.lowerBound]).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<"))
            rest = rest[end.upperBound...]
        }
        return found
    }
}
