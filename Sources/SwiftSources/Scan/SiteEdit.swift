#if SwiftSources
import Foundation

/// A change to a fetch site that removes what the advice found: key paths to prefetch (or to stop prefetching), a
/// batch size, objects fetched without faults.
public struct SiteEdit: Sendable, Equatable {
    public var addPrefetch: [String] = []
    public var removePrefetch: [String] = []
    public var batchSize: Int?
    public var faults: Bool?
    /// What the edit cannot express in the site's API, one line each.
    public var caveats: [String] = []

    public init() {}

    public var isEmpty: Bool { addPrefetch.isEmpty && removePrefetch.isEmpty && batchSize == nil && faults == nil }
}

extension FetchSite {
    /// The site with `edit` applied.
    public func applying(_ edit: SiteEdit) -> FetchSite {
        var site = self
        site.prefetch = prefetch.filter { !edit.removePrefetch.contains($0) }
        for path in edit.addPrefetch where !site.prefetch.contains(path) { site.prefetch.append(path) }
        if let size = edit.batchSize { site.batchSize = size }
        if let faults = edit.faults { site.faults = faults }
        return site
    }

    /// The scenario step list of this site: its fetch (or count) as written, then the reads of its results.
    public var steps: [[String: Any]] {
        var fetch: [String: Any] = [(result == "count" ? "count" : "fetch"): entity]
        if let predicate { fetch["predicate"] = predicate }
        if !sort.isEmpty { fetch["sort"] = sort }
        if let limit { fetch["limit"] = limit }
        if let offset { fetch["offset"] = offset }
        if let batchSize, result != "count" { fetch["batchSize"] = batchSize }
        if !prefetch.isEmpty, result == "objects" { fetch["prefetch"] = prefetch }
        if let faults, result == "objects" { fetch["faults"] = faults }
        if result == "ids" { fetch["result"] = "ids" }
        var steps = [fetch]
        if result == "objects", !reads.isEmpty {
            guard let rowsRead, limit.map({ $0 > rowsRead }) ?? true else {
                steps.append(["read": reads.map(\.keyPath)])
                return steps
            }
            // The rows a list draws, then what a filter, map or loop reads on every row (last: the access then reads
            // every row, and a batch size saves nothing).
            let drawn = reads.filter { !$0.everyRow }.map(\.keyPath)
            let everyRow = reads.filter(\.everyRow).map(\.keyPath)
            if !drawn.isEmpty { steps.append(["read": drawn, "first": rowsRead]) }
            if !everyRow.isEmpty { steps.append(["read": everyRow]) }
        }
        return steps
    }

    /// The phase's variables (the values the code supplies to the predicate), as a scenario file writes them.
    public var phaseVariables: [String: Any] {
        variables.mapValues { spec in spec["literal"].map(\.any) ?? spec.mapValues(\.any) }
    }

    /// The edit in the API the code uses, ready to paste, for `edit`.
    public func editText(_ edit: SiteEdit) -> String {
        var lines: [String] = []
        let swiftPaths = edit.addPrefetch.filter { !$0.contains(".") }.map { "\\.\($0)" }
        let variable = requestName ?? (api == .fetchDescriptor ? "descriptor" : "request")
        switch api {
        case .query:
            if !edit.addPrefetch.isEmpty {
                let name = (resultName ?? "items") + "Descriptor"
                var sortText = sort.map { key in
                    key.hasPrefix("-") ? "SortDescriptor(\\.\(key.dropFirst()), order: .reverse)" : "SortDescriptor(\\.\(key))"
                }.joined(separator: ", ")
                sortText = sortText.isEmpty ? "" : "sortBy: [\(sortText)]"
                let predicateText = predicate == nil && predicateSkipped == nil ? "" : "predicate: <the same #Predicate>, "
                lines.append(
                    "replace the @Query at \(location) with one that takes a descriptor prefetching \(edit.addPrefetch.joined(separator: ", ")):"
                )
                lines.append("    static var \(name): FetchDescriptor<\(entity)> {")
                lines.append("        var descriptor = FetchDescriptor<\(entity)>(\(predicateText)\(sortText))")
                if let limit { lines.append("        descriptor.fetchLimit = \(limit)") }
                lines.append("        descriptor.relationshipKeyPathsForPrefetching = [\(swiftPaths.joined(separator: ", "))]")
                lines.append("        return descriptor")
                lines.append("    }")
                lines.append("    @Query(Self.\(name)) var \(resultName ?? "items"): [\(entity)]")
            }
        case .fetchDescriptor:
            if !edit.addPrefetch.isEmpty || !edit.removePrefetch.isEmpty {
                let paths = applying(edit).prefetch.filter { !$0.contains(".") }.map { "\\.\($0)" }
                lines.append("at \(location): \(variable).relationshipKeyPathsForPrefetching = [\(paths.joined(separator: ", "))]")
            }
            if let size = edit.batchSize {
                lines.append("at \(location): fetch it with context.fetch(\(variable), batchSize: \(size))")
            }
        case .fetchRequest:
            if !edit.addPrefetch.isEmpty || !edit.removePrefetch.isEmpty {
                let name = (resultName ?? "items") + "Request"
                lines.append("replace the @FetchRequest at \(location) with one built from a request that prefetches:")
                lines.append("    static var \(name): NSFetchRequest<\(entity)> {")
                lines.append("        let request = NSFetchRequest<\(entity)>(entityName: \"\(entity)\")")
                if !sort.isEmpty {
                    let descriptors = sort.map { key in
                        "NSSortDescriptor(key: \"\(key.hasPrefix("-") ? String(key.dropFirst()) : key)\", ascending: \(!key.hasPrefix("-")))"
                    }
                    lines.append("        request.sortDescriptors = [\(descriptors.joined(separator: ", "))]")
                }
                if predicate != nil || predicateSkipped != nil { lines.append("        request.predicate = <the same predicate>") }
                let paths = applying(edit).prefetch.map { "\"\($0)\"" }
                lines.append("        request.relationshipKeyPathsForPrefetching = [\(paths.joined(separator: ", "))]")
                lines.append("        return request")
                lines.append("    }")
                lines.append("    @FetchRequest(fetchRequest: Self.\(name)) var \(resultName ?? "items"): FetchedResults<\(entity)>")
            }
            if let size = edit.batchSize { lines.append("at \(location): request.fetchBatchSize = \(size) in that request") }
        case .nsFetchRequest, .fetchedResultsController:
            if !edit.addPrefetch.isEmpty || !edit.removePrefetch.isEmpty {
                let paths = applying(edit).prefetch.map { "\"\($0)\"" }
                lines.append("at \(location): \(variable).relationshipKeyPathsForPrefetching = [\(paths.joined(separator: ", "))]")
            }
            if let size = edit.batchSize { lines.append("at \(location): \(variable).fetchBatchSize = \(size)") }
            if edit.faults == false { lines.append("at \(location): \(variable).returnsObjectsAsFaults = false") }
        case .byIdentifier:
            break
        }
        return (lines + edit.caveats).joined(separator: "\n")
    }
}
#endif
