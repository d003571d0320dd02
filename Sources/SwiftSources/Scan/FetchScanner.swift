#if SwiftSources
import Foundation
import ObjectGraph
import SwiftSyntax

/// The models fetch sites are resolved against: SwiftData's (the `@Model` classes) and Core Data's (an Xcode model).
public struct ScanModels {
    public var swiftData: ObjectModel?
    public var coreData: ObjectModel?

    public init(swiftData: ObjectModel?, coreData: ObjectModel?) {
        self.swiftData = swiftData
        self.coreData = coreData
    }

    func entity(_ name: String, swiftData preferred: Bool) -> (EntityDescription, isSwiftData: Bool)? {
        let order: [(ObjectModel?, Bool)] = preferred ? [(swiftData, true), (coreData, false)] : [(coreData, false), (swiftData, true)]
        for (model, isSwiftData) in order { if let found = model?.entity(name) { return (found, isSwiftData) } }
        return nil
    }
}

/// What `bench scan` found in the sources.
public struct ScanResult {
    public var sites: [FetchSite] = []
    /// Fetches seen but not read as sites (an entity no model declares, a request built elsewhere), one line each.
    public var notes: [String] = []
    public var fileCount = 0
}

/// Every fetch in an app's Swift sources: `@Query` and `@FetchRequest` properties (their arguments, a static
/// descriptor or request they name, an `init` that sets `_name = Query(...)`), `FetchDescriptor`s and
/// `NSFetchRequest`s built in a function with the settings assigned to them there and the `fetch` that runs them,
/// `NSFetchedResultsController`s, and objects fetched by identifier (`model(for:)`, `existingObject(with:)`).
public enum FetchScanner {
    public static func scan(path: String, models: ScanModels) throws -> ScanResult {
        let (files, notes) = try SwiftSources.load(path)
        let index = SourceIndex(files)
        var result = ScanResult(notes: notes, fileCount: files.count)
        var consumed = Set<SyntaxIdentifier>()
        var scanner = SiteBuilder(index: index, root: path, models: models)
        // Property wrappers first: the descriptors and requests they name are theirs, not sites of their own.
        var previews = 0
        for file in files {
            for variable in file.tree.descendants(VariableDeclSyntax.self) {
                guard let site = scanner.propertyWrapperSite(variable, file: file, consumed: &consumed) else { continue }
                if SiteBuilder.isPreview(variable) { previews += 1 } else { result.sites.append(site) }
            }
        }
        for file in files {
            for call in file.tree.descendants(FunctionCallExprSyntax.self) where !consumed.contains(call.id) {
                guard let site = scanner.callSite(call, file: file, consumed: &consumed) else { continue }
                if SiteBuilder.isPreview(call) { previews += 1 } else { result.sites.append(site) }
            }
        }
        if previews > 0 {
            result.notes.append("skipped \(previews) fetch(es) in previews (#Preview, PreviewProvider): not the app's screens")
        }
        result.notes += scanner.notes
        result.sites.sort { ($0.file, $0.line) < ($1.file, $1.line) }
        return result
    }
}

extension SyntaxProtocol {
    /// Every node of type `T` below this one, in source order.
    func descendants<T: SyntaxProtocol>(_ type: T.Type) -> [T] {
        let collector = DescendantCollector<T>(viewMode: .sourceAccurate)
        collector.walk(self)
        return collector.found
    }

    /// Whether this node is `node` or lies inside it.
    func isInside(_ node: some SyntaxProtocol) -> Bool {
        var current: Syntax? = Syntax(self)
        while let candidate = current {
            if candidate.id == node.id { return true }
            current = candidate.parent
        }
        return false
    }

    /// The nearest ancestor of type `T`.
    func ancestor<T: SyntaxProtocol>(_ type: T.Type) -> T? {
        var current = parent
        while let node = current {
            if let match = node.as(T.self) { return match }
            current = node.parent
        }
        return nil
    }
}
private final class DescendantCollector<T: SyntaxProtocol>: SyntaxAnyVisitor {
    var found: [T] = []

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        if let match = node.as(T.self) { found.append(match) }
        return .visitChildren
    }
}
#endif
