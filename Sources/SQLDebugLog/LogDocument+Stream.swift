import Foundation

extension LogDocument {
    /// Writes the document of `analysis` into `sink`, in pieces of about 64 KiB: the bytes `jsonData()` gives for
    /// `LogDocument(analysis, log:scenario:size:)` (tests compare the two on every fixture), without the document,
    /// the encoder's tree of it or its bytes ever held whole (68 MB of JSON for a log of 300,000 distinct statements
    /// took 230 MB more memory than reading the log did).
    ///
    /// A value JSON cannot hold (a time summed past `Double.greatestFiniteMagnitude`) is found before anything is
    /// written, and thrown as the encoder throws it: never half a document.
    public static func write(
        _ analysis: LogAnalysis, log: String, scenario: String, size: Int, to sink: @escaping ([UInt8]) throws -> Void
    ) throws {
        guard analysis.isFinite else {
            try sink(Array(try LogDocument(analysis, log: log, scenario: scenario, size: size).jsonData()))
            return
        }
        var writer = PrettyJSONWriter(sink: sink)
        try writer.beginObject()
        writer.key("bytes")
        writer.int(analysis.bytesRead)
        writer.key("core_data_lines")
        writer.int(analysis.coreDataLines)
        writer.key("lines")
        writer.int(analysis.lines)
        writer.key("log")
        writer.string(log)
        writer.key("markers")
        try writer.embed(analysis.markerProblems)
        writer.key("names_inferred")
        writer.bool(analysis.namesInferred)
        writer.key("parser")
        try writer.embed(analysis.parser)
        writer.key("scenario")
        writer.string(scenario)
        writer.key("segments")
        try writer.beginArray()
        var sizes = SaveSizes()
        for segment in analysis.segments {
            writer.element()
            try write(segment, into: &writer)
            sizes.add(segment.saveSizes)
        }
        try writer.endArray()
        writer.key("size")
        writer.int(size)
        writer.key("threshold")
        writer.int(analysis.threshold)
        writer.key("totals")
        try write(Counters(analysis.totals, saves: sizes), into: &writer)
        writer.key("version")
        writer.int(currentVersion)
        try writer.endObject()
        try writer.finish()
    }

    private static func write(_ segment: LogSegment, into writer: inout PrettyJSONWriter) throws {
        try writer.beginObject()
        if let line = segment.beginLine {
            writer.key("begin_line")
            writer.int(line)
        }
        writer.key("closed")
        writer.bool(segment.closed)
        writer.key("counters")
        try write(Counters(segment.counters, saves: segment.saveSizes), into: &writer)
        if let line = segment.endLine {
            writer.key("end_line")
            writer.int(line)
        }
        writer.key("entities")
        try writer.beginArray()
        for entity in segment.entities {
            writer.element()
            try writer.beginObject()
            writer.key("entity")
            writer.string(entity.entity.name)
            writer.key("inferred")
            writer.bool(entity.entity.inferred)
            writer.key("object_faults")
            writer.int(entity.objectFaults)
            writer.key("rows_read")
            writer.int(entity.rowsRead)
            writer.key("statements")
            writer.int(entity.statements)
            writer.key("table")
            writer.string(entity.table)
            try writer.endObject()
        }
        try writer.endArray()
        writer.key("findings")
        try writer.beginArray()
        for finding in segment.findings {
            writer.element()
            try writer.embed(finding)
        }
        try writer.endArray()
        writer.key("fingerprints")
        try writer.beginArray()
        for fingerprint in segment.fingerprints {
            writer.element()
            try write(fingerprint, into: &writer)
        }
        try writer.endArray()
        writer.key("name")
        writer.string(segment.name)
        writer.key("occurrences")
        writer.int(segment.occurrences)
        writer.key("unclosed")
        writer.int(segment.unclosed)
        try writer.endObject()
    }

    private static func write(_ stats: FingerprintStats, into writer: inout PrettyJSONWriter) throws {
        try writer.beginObject()
        writer.key("bookkeeping")
        writer.bool(stats.isBookkeeping)
        writer.key("connection_time")
        try write(Times(stats.connectionTime), into: &writer)
        writer.key("count")
        writer.int(stats.count)
        writer.key("device_ms")
        writer.double(stats.measuredMilliseconds)
        writer.key("distinct_bindings")
        writer.int(stats.distinctBindings)
        writer.key("execution_time")
        try write(Times(stats.executionTime), into: &writer)
        writer.key("fetch_execution_time")
        try write(Times(stats.fetchExecutionTime), into: &writer)
        writer.key("fingerprint")
        writer.string(stats.fingerprint)
        writer.key("first_line")
        writer.int(stats.firstLine)
        writer.key("kind")
        writer.string(stats.kind.rawValue)
        writer.key("max_rows")
        writer.int(stats.maxRows)
        writer.key("plan_scans_filtered_table")
        writer.bool(stats.planScansFilteredTable)
        writer.key("plan_sorts_with_temporary_tree")
        writer.bool(stats.planSortsWithTemporaryTree)
        writer.key("role")
        writer.string(stats.role.rawValue)
        writer.key("roles")
        try writeSorted(stats.roles.map { ($0.key.rawValue, $0.value) }, into: &writer)
        writer.key("rows_read")
        writer.int(stats.rowsRead)
        writer.key("tables")
        try writer.beginArray()
        for table in stats.tables {
            writer.element()
            writer.string(table)
        }
        try writer.endArray()
        try writer.endObject()
    }

    private static func write(_ times: Times, into writer: inout PrettyJSONWriter) throws {
        try writer.beginObject()
        writer.key("count")
        writer.int(times.count)
        writer.key("max")
        writer.double(times.max)
        writer.key("p50")
        writer.double(times.p50)
        writer.key("p95")
        writer.double(times.p95)
        writer.key("total")
        writer.double(times.total)
        try writer.endObject()
    }

    private static func write(_ counters: Counters, into writer: inout PrettyJSONWriter) throws {
        try writer.beginObject()
        writer.key("device_ms")
        try writer.beginObject()
        writer.key("connection")
        writer.double(counters.deviceMilliseconds.connection)
        writer.key("execution")
        writer.double(counters.deviceMilliseconds.execution)
        writer.key("fetch")
        writer.double(counters.deviceMilliseconds.fetch)
        try writer.endObject()
        writer.key("inferred_object_faults")
        writer.int(counters.inferredObjectFaults)
        writer.key("inferred_relationship_faults")
        writer.int(counters.inferredRelationshipFaults)
        writer.key("metrics")
        try writer.beginObject()
        for (name, value) in counters.metrics.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            writer.key(name)
            if let value { writer.int(value) } else { writer.null() }
        }
        try writer.endObject()
        writer.key("migration_messages")
        writer.int(counters.migrationMessages)
        writer.key("orphan_annotations")
        writer.int(counters.orphanAnnotations)
        writer.key("problems")
        writer.int(counters.problems)
        writer.key("rollbacks")
        writer.int(counters.rollbacks)
        writer.key("rows_written")
        writer.int(counters.rowsWritten)
        writer.key("saves")
        writer.int(counters.saves)
        writer.key("small_saves")
        writer.int(counters.smallSaves)
        writer.key("statements_by_kind")
        try writeSorted(counters.statementsByKind.map { ($0.key, $0.value) }, into: &writer)
        writer.key("statements_by_role")
        try writeSorted(counters.statementsByRole.map { ($0.key, $0.value) }, into: &writer)
        writer.key("statements_with_reported_rows")
        writer.int(counters.statementsWithReportedRows)
        writer.key("statements_with_unreported_rows")
        writer.int(counters.statementsWithUnreportedRows)
        writer.key("store_openings")
        writer.int(counters.storeOpenings)
        writer.key("transactions")
        writer.int(counters.transactions)
        try writer.endObject()
    }

    /// A dictionary of counts, its keys sorted as the encoder sorts them.
    private static func writeSorted(_ entries: [(String, Int)], into writer: inout PrettyJSONWriter) throws {
        try writer.beginObject()
        for (name, value) in entries.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
            writer.key(name)
            writer.int(value)
        }
        try writer.endObject()
    }
}

extension LogAnalysis {
    /// Whether every number the JSON document holds is finite (JSON has no infinity: the encoder refuses one).
    var isFinite: Bool {
        func finite(_ counters: LogCounters) -> Bool {
            let milliseconds = LogDocument.Counters(counters, saves: nil).deviceMilliseconds
            return milliseconds.fetch.isFinite && milliseconds.connection.isFinite && milliseconds.execution.isFinite
        }
        func finite(_ stats: TimeStats) -> Bool {
            let times = LogDocument.Times(stats)
            return times.total.isFinite && times.p50.isFinite && times.p95.isFinite && times.max.isFinite
        }
        guard finite(totals) else { return false }
        for segment in segments {
            guard finite(segment.counters) else { return false }
            for stats in segment.fingerprints {
                guard stats.measuredMilliseconds.isFinite, finite(stats.connectionTime), finite(stats.executionTime),
                    finite(stats.fetchExecutionTime)
                else { return false }
            }
            for finding in segment.findings {
                if let saving = finding.milliseconds {
                    guard saving.measured.isFinite, saving.replacement.isFinite, saving.saved.isFinite else { return false }
                }
            }
        }
        return true
    }
}
