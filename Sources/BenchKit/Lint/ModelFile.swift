import Foundation
import ObjectGraph

/// A model read for `bench schema`, `bench lint` and `bench run --model` (an Xcode model file, or SwiftData sources:
/// `ModelSource`), with what is wrong with it as one `BenchError` line (exit code 64), so that the command line needs
/// no ObjectGraph types.
package struct ModelFile {
    /// `model Shop.xcdatamodeld, version Shop 3 (current)`: which file and version was read.
    package let heading: String
    /// What the reader skipped or adjusted, one line each (`bench schema` prints them all).
    package let notes: [String]
    /// The notes that are no problem of the file itself (those are findings): what lint and run print beside them.
    package let adjustments: [String]
    /// The DDL the store creates, in its order, each without its semicolon.
    package let schemaSQL: [String]
    /// Xcode's warnings and RelBench's advice.
    package let findings: [ModelLint.Finding]
    let xcode: XcodeModel
    let path: String

    /// Reads and compiles the model at `path` (.xcdatamodeld, .xcdatamodel, contents, or Swift sources), the version
    /// `version` of a .xcdatamodeld or of SwiftData's versioned schemas when given.
    package init(path: String, version: String? = nil) throws {
        let xcode: XcodeModel
        do {
            xcode = try ModelSource.load(path: path, version: version)
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(error)")
        }
        let model: ObjectModel
        do {
            model = try xcode.makeModel()
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(xcode.path): \(error)")
        }
        self.xcode = xcode
        self.path = path
        let problems = Set(xcode.problems.map(\.note))
        notes = xcode.notes
        adjustments = xcode.notes.filter { !problems.contains($0) }
        schemaSQL = model.schemaSQL
        findings =
            ModelLint.problemFindings(xcode.problems)
            + ModelLint.findings(
                model, cloudKitEntities: xcode.cloudKitEntities, fetchRequests: xcode.fetchRequests, configurations: xcode.configurations)
        heading = Self.heading(path, xcode)
    }

    private static func heading(_ path: String, _ xcode: XcodeModel) -> String {
        let kind = ModelSource.isSwiftSources(path) ? " (SwiftData sources)" : ""
        guard let version = xcode.version else { return "model \(path)\(kind)" }
        let current = xcode.isCurrentVersion ? "current" : "the current version is \(xcode.currentVersion ?? "another")"
        return "model \(path)\(kind), version \(version) (\(current))"
    }

    /// What lightweight migration from `older` (a model path, or a version of this model's .xcdatamodeld) to this
    /// model cannot infer or will lose, the older model's heading, and notes: the moves between tables migration
    /// infers, or the mapping model that replaces inference for this step (then there are no findings).
    package func migration(from older: String) throws -> (heading: String, findings: [ModelLint.Finding], notes: [String]) {
        try migration(from: olderVersion(older))
    }

    /// The older model `older` names: a model path, or a version of this model's .xcdatamodeld or SwiftData sources.
    package func olderVersion(_ older: String) throws -> ModelFile {
        var isDirectory: ObjCBool = false
        let previous: ModelFile
        if FileManager.default.fileExists(atPath: older, isDirectory: &isDirectory) {
            previous = try ModelFile(path: older)
        } else if ModelSource.isSwiftSources(path) {
            // A VersionedSchema of the same sources, by name (SchemaV1) or identifier (1.0.0).
            previous = try ModelFile(path: path, version: older)
        } else if let package = Self.package(of: path) {
            let names = (try? XcodeModel.load(path: package).versions) ?? []
            guard names.contains(older) || names.contains(where: { $0 + ".xcdatamodel" == older }) else {
                throw BenchError.invalidInput(
                    "--against: '\(older)' is neither a model file nor a version of \(package) (its versions: \(names.joined(separator: ", "))); give a path or one of those names"
                )
            }
            previous = try ModelFile(path: package, version: older)
        } else {
            throw BenchError.invalidInput(
                "--against: no model at '\(older)'; give the older model's path (.xcdatamodeld, .xcdatamodel, contents or Swift sources), or a version name when the model is a .xcdatamodeld or SwiftData sources with VersionedSchemas"
            )
        }
        return previous
    }

    /// What lightweight migration from `previous` to this model cannot infer or will lose, as `migration(from:)`.
    package func migration(from previous: ModelFile) throws -> (heading: String, findings: [ModelLint.Finding], notes: [String]) {
        do {
            let report = try ModelMigration.report(old: previous.xcode, new: xcode)
            if let oldVersion = Self.version(of: previous), let newVersion = Self.version(of: self) {
                if let mapping = mappingModel(from: previous) {
                    let policies =
                        mapping.policies.isEmpty ? "" : ", with the custom migration policies \(ModelLint.series(mapping.policies, "and"))"
                    let count = report.findings.count
                    let renamed =
                        mapping.destination == newVersion
                        ? ""
                        : " (its destination path names \(mapping.destination), a version the model no longer holds; the model it embeds has \(newVersion)'s entities)"
                    return (
                        previous.heading, [],
                        [
                            "\(mapping.name) maps \(oldVersion) to \(newVersion)\(renamed)\(policies): Core Data migrates this step with it and infers nothing, so lightweight migration's findings do not apply (inference alone would give \(count) finding\(count == 1 ? "" : "s")); check the mapping model itself in Xcode."
                        ]
                    )
                }
            }
            return (previous.heading, report.findings, report.notes)
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(error)")
        }
    }

    /// The mapping model (`.xcmappingmodel`) beside the two models' .xcdatamodeld(s) that maps `previous` to this
    /// version, which Core Data migrates with instead of inferring a mapping.
    func mappingModel(from previous: ModelFile) -> MappingModel? {
        guard let oldVersion = Self.version(of: previous), let newVersion = Self.version(of: self) else { return nil }
        let packages = [previous.path, path].compactMap(Self.package).map { URL(fileURLWithPath: $0) }
        guard packages.count == 2 else { return nil }
        let folders = Array(Set(packages.map { $0.deletingLastPathComponent().path })).sorted()
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: packages[1].path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }
        return folders.lazy.compactMap {
            MappingModel.mapping(
                from: oldVersion, of: packages[0].lastPathComponent, to: newVersion, of: packages[1].lastPathComponent, in: $0,
                versions: versions, oldEntities: previous.xcode.entities.map(\.name), newEntities: xcode.entities.map(\.name))
        }.first
    }

    /// The version a model file is: the version read from its .xcdatamodeld, or the .xcdatamodel folder given (or
    /// holding the contents file given) inside one.
    static func version(of file: ModelFile) -> String? {
        if let version = file.xcode.version { return version }
        var url = URL(fileURLWithPath: file.path)
        if url.lastPathComponent == "contents" { url.deleteLastPathComponent() }
        guard url.pathExtension == "xcdatamodel", url.deletingLastPathComponent().pathExtension == "xcdatamodeld" else { return nil }
        return url.deletingPathExtension().lastPathComponent
    }

    /// The .xcdatamodeld holding `path`: itself, or the package of a version folder or its contents.
    static func package(of path: String) -> String? {
        if path.hasSuffix(".xcdatamodeld") { return path }
        var url = URL(fileURLWithPath: path)
        for _ in 0..<3 {
            if url.pathExtension == "xcdatamodeld" { return url.path }
            url.deleteLastPathComponent()
        }
        return nil
    }
}
