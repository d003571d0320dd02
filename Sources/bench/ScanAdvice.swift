#if SwiftSources
import BenchKit
import Foundation
import ObjectGraph
import SwiftSources

/// The one place `bench scan` reads BenchKit's findings: each finding of a site's scenario becomes the change to the
/// site (a key path to prefetch, one to stop prefetching, a batch size, faults off) that `FetchSite.editText` writes
/// in the site's own API. The findings themselves are BenchKit's advice, run on the site's scenario.
enum ScanAdvice {
    static func edit(for findings: [AdviceFinding], site: FetchSite, model: ObjectModel) -> SiteEdit {
        var edit = SiteEdit()
        for advice in findings {
            let finding = advice.finding
            switch finding.rule {
            case .toManyFaultPerOwner, .toOneFaultPerObject, .countThroughFaults:
                guard let path = prefetchPath(advice, site: site, model: model) else { continue }
                if site.isSwiftData, path.contains(".") {
                    // SwiftData's relationshipKeyPathsForPrefetching takes key paths of the fetched model only.
                    let first = String(path.split(separator: ".")[0])
                    if !edit.addPrefetch.contains(first) && !site.prefetch.contains(first) { edit.addPrefetch.append(first) }
                    edit.caveats.append(
                        "SwiftData prefetches relationships of \(site.entity) only: \(path) is reached through \(first), whose members' relationship still faults"
                    )
                } else if !edit.addPrefetch.contains(path) && !site.prefetch.contains(path) {
                    edit.addPrefetch.append(path)
                }
            case .unusedPrefetch:
                if case let .keyPath(_, path) = finding.subject {
                    edit.removePrefetch.append(path)
                } else {
                    let subject = finding.subject.description
                    edit.removePrefetch.append(subject.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init) ?? subject)
                }
            case .smallBatches:
                edit.batchSize = 0
            case .oversizedBatch:
                edit.batchSize = 2 * (site.rowsRead ?? site.limit ?? 20)
            case .faultedResults:
                if !site.isSwiftData { edit.faults = false }
            case .walkToFind, .faultsOneByOne, .fetchPerObject, .repeatedFetch, .countPerObject, .largeUnbatchedFetch, .saveInLoop,
                .unindexedFilter, .unindexedSort:
                continue
            }
        }
        return edit
    }

    /// The key path a prefetch finding names: the one the advice quotes (`relationshipKeyPathsForPrefetching
    /// ["destination"]`), else the read of the site that goes through the relationship or entity it is about.
    static func prefetchPath(_ advice: AdviceFinding, site: FetchSite, model: ObjectModel) -> String? {
        let finding = advice.finding
        if let quoted = finding.fix.firstMatch(of: /relationshipKeyPathsForPrefetching \["([^"]+)"\]/) {
            return String(quoted.output.1)
        }
        let relationship = finding.subject.description.split(separator: ".").last.map(String.init)
        for read in site.reads {
            let parts = read.keyPath.split(separator: ".").map(String.init)
            if let index = parts.firstIndex(where: { $0 == relationship }) { return parts[...index].joined(separator: ".") }
        }
        return nil
    }
}

/// The statements a scenario's phase runs, variant by variant (`edit=as-written`), from one untimed repetition each.
enum SiteStatements {
    static func measure(_ scenario: Scenario, size: Int) throws -> [String: Int] {
        var request = RunRequest(scenarios: [scenario])
        request.sizes = [size]
        request.repetitions = 1
        request.warmup = 0
        request.strategies = [.objectGraph]
        let plan = try RunPlan(request)
        let runner = Runner(request: request, plan: plan, folder: nil, progress: nil)
        runner.measuresMemory = false
        runner.undoesChanges = true
        var statements: [String: Int] = [:]
        for repetition in plan.repetitions where repetition.strategy == .objectGraph {
            final class Box { var value = 0 }
            let box = Box()
            runner.observer = PhaseRecorder.Observer(
                phaseStarted: { _ in },
                phaseEnded: { _, measurements in
                    box.value += Int(measurements.first { $0.metric == .sqlStatements }?.value ?? 0)
                })
            _ = try runner.run(repetition)
            statements[repetition.variant.description] = box.value
        }
        return statements
    }
}
#endif
