import Foundation
import ObjectGraph

#if SwiftSources
import SwiftSources
#endif

/// Where every command reads a model from: an Xcode model file (`.xcdatamodeld`, `.xcdatamodel`, `contents`), or Swift
/// sources whose SwiftData `@Model` classes are the model (a `.swift` file or a folder of them), read into the same
/// `XcodeModel`. Reading Swift needs the build with the `SwiftSources` trait (swift-syntax); without it, a Swift path
/// is one line saying how to get that build.
package enum ModelSource {
    /// The one command that builds bench with Swift sources as input.
    package static let buildCommand = "swift build -c release --traits SwiftSources"

    /// Whether this bench reads Swift sources (was built with the `SwiftSources` trait).
    package static var readsSwiftSources: Bool {
        #if SwiftSources
        return true
        #else
        return false
        #endif
    }

    /// The line a bench built without the trait answers a Swift path or `bench scan` with.
    package static func notBuilt(_ what: String) -> BenchError {
        .invalidInput(
            "\(what) needs bench built with Swift sources as input (swift-syntax): \(buildCommand), then run .build/release/bench")
    }

    /// Whether `path` names Swift sources rather than an Xcode model: a `.swift` file, or a folder with Swift files in
    /// it that is no `.xcdatamodeld`/`.xcdatamodel` and holds no `contents` file and no `.xcdatamodel` version. (A
    /// folder with neither is left to the Xcode model reader, whose message says what a model folder holds.)
    package static func isSwiftSources(_ path: String) -> Bool {
        if path.hasSuffix(".swift") { return true }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return false }
        let url = URL(fileURLWithPath: path)
        if ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) { return false }
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("contents").path) { return false }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if names.contains(where: { $0.hasSuffix(".xcdatamodel") || $0 == "elements" }) { return false }
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return false }
        var seen = 0
        while seen < 100_000, let item = enumerator.nextObject() as? String {
            if item.hasSuffix(".swift") { return true }
            seen += 1
        }
        return false
    }

    /// The model at `path`, version `version` (an `.xcdatamodeld`'s version, or a SwiftData `VersionedSchema`'s name
    /// or identifier) or the current one. An Xcode model's problems throw `ObjectGraphError`; Swift sources' throw
    /// `BenchError.invalidInput` with one line.
    package static func load(path: String, version: String? = nil) throws -> XcodeModel {
        guard isSwiftSources(path) else { return try XcodeModel.load(path: path, version: version) }
        #if SwiftSources
        do {
            return try SwiftDataModel.load(path: path, version: version)
        } catch let error as SwiftSourceError {
            throw BenchError.invalidInput(error.description)
        }
        #else
        throw notBuilt("\(path): a SwiftData model in Swift sources")
        #endif
    }
}
