/// Builds the public analysis from what the analyzer kept.
enum AnalysisBuilder {
    static func build(_ analyzer: LogAnalyzer, parser: ParserStatistics, bytesRead: Int) -> LogAnalysis {
        var names = analyzer.names
        var segments: [LogSegment] = []
        var totals = LogCounters()
        for accumulator in analyzer.kept.sorted(by: { $0.sequence < $1.sequence }) {
            let segment = segment(accumulator, analyzer: analyzer, names: &names)
            totals.add(segment.counters)
            segments.append(segment)
        }
        return LogAnalysis(
            segments: segments, garbledLines: parser.garbledLines, truncatedLines: parser.truncatedLines,
            unknownCoreDataLines: parser.unknownCoreDataLines, namesInferred: names.usedInference, bytesRead: bytesRead,
            lines: parser.lines, coreDataLines: parser.coreDataLines, duplicateMessages: parser.duplicateMessages,
            totals: totals, parser: parser, markerProblems: analyzer.markerProblems, threshold: analyzer.options.repeatThreshold)
    }

    private static func segment(_ accumulator: SegmentAccumulator, analyzer: LogAnalyzer, names: inout NameResolver) -> LogSegment {
        var fingerprints: [FingerprintStats] = []
        for (id, fingerprint) in accumulator.fingerprints {
            let plan = analyzer.planFlags[id] ?? PlanFlags()
            fingerprints.append(
                fingerprint.stats(fingerprint: analyzer.fingerprintTexts[id], shape: analyzer.fingerprintShapes[id], plan: plan))
        }
        fingerprints.sort { ($0.count, $1.firstLine, $1.fingerprint) > ($1.count, $0.firstLine, $0.fingerprint) }
        var entities: [EntityUsage] = []
        for (table, usage) in accumulator.tableUsage(shapes: analyzer.fingerprintShapes)
        where !StatementShape.isSystemTable(table) {
            let entity = names.tableName(table)
            entities.append(
                EntityUsage(
                    table: table, entity: entity, statements: usage.statements, rowsRead: usage.rows,
                    objectFaults: accumulator.faultEntities[entity.name] ?? 0))
        }
        entities.sort { ($0.statements, $1.table) > ($1.statements, $0.table) }
        return LogSegment(
            name: accumulator.name, beginLine: accumulator.beginLine, endLine: accumulator.endLine, closed: accumulator.closed,
            occurrences: accumulator.occurrences, unclosed: accumulator.unclosed, counters: accumulator.counters,
            entities: entities, fingerprints: fingerprints, saveSizes: accumulator.saves, findings: accumulator.findings)
    }
}
