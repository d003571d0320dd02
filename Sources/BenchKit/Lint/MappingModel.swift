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

    /// The mapping models in `folder` (not below it), by name; unreadable ones are left out.
    static func all(in folder: String) -> [MappingModel] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".xcmappingmodel") }.sorted().compactMap { name in
            let file = URL(fileURLWithPath: folder).appendingPathComponent(name).appendingPathComponent("xcmapping.xml")
            // The file is read as text, not parsed: FoundationXML traps on some malformed input (XcodeModel's notes).
            guard let data = try? Data(contentsOf: file), data.count < 64 << 20, let text = String(data: data, encoding: .utf8),
                let source = value("sourcemodelpath", in: text), let destination = value("destinationmodelpath", in: text)
            else { return nil }
            let policies = values("migrationpolicyclassname", in: text).filter { !$0.isEmpty }
            return MappingModel(
                name: name, source: version(source), destination: version(destination), sourcePackage: package(source),
                destinationPackage: package(destination), policies: Array(Set(policies)).sorted())
        }
    }

    /// The mapping model in `folder` that maps version `old` of the package `oldPackage` (`Model.xcdatamodeld`) to
    /// version `new` of `newPackage`, if any.
    static func mapping(from old: String, of oldPackage: String, to new: String, of newPackage: String, in folder: String) -> MappingModel?
    {
        all(in: folder).first {
            $0.source == old && $0.destination == new && ($0.sourcePackage ?? oldPackage) == oldPackage
                && ($0.destinationPackage ?? newPackage) == newPackage
        }
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
