import SQLDebugLog

/// What a declared phase fetches and reads, as the SQL analysis takes it (`SegmentAccess`): the checks the
/// statements alone cannot make (a prefetch no read uses, a batch far larger than the rows read, a to-many read only
/// through its count) need it. A run knows it from the scenario's steps; a device's log does not.
enum PhaseAccess {
    /// Each phase's access, keyed by phase name (the segment `bench explain --exact` marks it as).
    static func of(_ plan: DeclaredScenario.Plan) -> [String: SegmentAccess] {
        Dictionary(plan.phases.map { ($0.name.rawValue, access(plan, $0.steps)) }, uniquingKeysWith: { first, _ in first })
    }

    static func access(_ plan: DeclaredScenario.Plan, _ steps: [Step]) -> SegmentAccess {
        var fetches: [SegmentAccess.Fetch] = []
        for step in steps {
            switch step {
            case let .fetch(fetch) where fetch.result == .objects:
                fetches.append(
                    SegmentAccess.Fetch(entity: fetch.entity.name, prefetch: fetch.prefetch.map(\.text), batchSize: fetch.batchSize))
            case let .read(paths, first, _):
                guard !fetches.isEmpty else { continue }
                fetches[fetches.count - 1].reads += paths.map(\.text)
                let current = fetches[fetches.count - 1].first
                fetches[fetches.count - 1].first = first.map { max($0, current ?? 0) }
            default:
                break
            }
        }
        return SegmentAccess(fetches: fetches)
    }
}

extension Scenario {
    /// What `bench log --model-of` reads a log with: the variant's model as the log names it, and each phase's declared
    /// access (the log's segments named as the phases, as `bench explain --exact` marks them).
    package func logContext(variant: Variant) throws -> (mapping: NameMapping, access: [String: SegmentAccess]) {
        let plan = try declared.plan(for: variant)
        return (ModelNameMapping.mapping(plan.model), PhaseAccess.of(plan))
    }
}
