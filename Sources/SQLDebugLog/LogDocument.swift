import Foundation

/// `bench log --json`: everything the text report shows, versioned, with snake_case keys and the metric names runs
/// use. Its JSON Schema is Schemas/bench-log.schema.json (a test validates output against it); `version` changes
/// whenever a key is removed or changes meaning (added keys do not change it).
public struct LogDocument: Sendable, Codable, Equatable {
    public static let currentVersion = 2

    public var version: Int
    public var log: String
    public var scenario: String
    public var size: Int
    public var bytes: Int
    public var lines: Int
    public var coreDataLines: Int
    public var namesInferred: Bool
    /// Repeats of one statement in a segment above which it is a finding.
    public var threshold: Int
    public var parser: ParserStatistics
    public var markers: MarkerProblems
    public var segments: [Segment]
    public var totals: Counters

    public struct Segment: Sendable, Codable, Equatable {
        public var name: String
        public var closed: Bool
        public var occurrences: Int
        public var unclosed: Int
        public var beginLine: Int?
        public var endLine: Int?
        public var counters: Counters
        public var entities: [Entity]
        public var fingerprints: [Fingerprint]
        public var findings: [Finding]

        enum CodingKeys: String, CodingKey {
            case name, closed, occurrences, unclosed, counters, entities, fingerprints, findings
            case beginLine = "begin_line"
            case endLine = "end_line"
        }
    }

    /// A segment's (or the whole log's) counts.
    public struct Counters: Sendable, Codable, Equatable {
        /// The five metrics under the names runs use (`rows_read` null when the log reports no rows).
        public var metrics: [String: Int?]
        public var statementsByKind: [String: Int]
        public var statementsByRole: [String: Int]
        public var transactions: Int
        public var saves: Int
        public var rollbacks: Int
        public var rowsWritten: Int
        public var smallSaves: Int
        public var statementsWithReportedRows: Int
        public var statementsWithUnreportedRows: Int
        public var inferredObjectFaults: Int
        public var inferredRelationshipFaults: Int
        public var orphanAnnotations: Int
        public var problems: Int
        public var migrationMessages: Int
        public var storeOpenings: Int
        /// The log's own milliseconds: total fetch execution, connection fetch and execution times.
        public var deviceMilliseconds: DeviceMilliseconds

        enum CodingKeys: String, CodingKey {
            case metrics, transactions, saves, rollbacks, problems
            case statementsByKind = "statements_by_kind"
            case statementsByRole = "statements_by_role"
            case rowsWritten = "rows_written"
            case smallSaves = "small_saves"
            case statementsWithReportedRows = "statements_with_reported_rows"
            case statementsWithUnreportedRows = "statements_with_unreported_rows"
            case inferredObjectFaults = "inferred_object_faults"
            case inferredRelationshipFaults = "inferred_relationship_faults"
            case orphanAnnotations = "orphan_annotations"
            case migrationMessages = "migration_messages"
            case storeOpenings = "store_openings"
            case deviceMilliseconds = "device_ms"
        }

        init(_ counters: LogCounters, saves sizes: SaveSizes?) {
            metrics = [
                "sql_statements": counters.sqlStatements, "fetch_requests": counters.fetchRequests,
                "object_faults": counters.objectFaults, "relationship_faults": counters.relationshipFaults,
                "rows_read": counters.reportedRowsRead,
            ]
            statementsByKind = Dictionary(
                uniqueKeysWithValues: SQLStatementKind.allCases.map { ($0.rawValue, counters.statementsByKind[$0]) })
            statementsByRole = Dictionary(uniqueKeysWithValues: counters.statementsByRole.map { ($0.key.rawValue, $0.value) })
            transactions = counters.transactions
            saves = counters.saves
            rollbacks = counters.rollbacks
            rowsWritten = sizes?.rowsWritten ?? 0
            smallSaves = sizes?.smallSaves ?? 0
            statementsWithReportedRows = counters.statementsWithReportedRows
            statementsWithUnreportedRows = counters.statementsWithUnreportedRows
            inferredObjectFaults = counters.inferredObjectFaults
            inferredRelationshipFaults = counters.inferredRelationshipFaults
            orphanAnnotations = counters.orphanAnnotations
            problems = counters.problems
            migrationMessages = counters.migrationMessages
            storeOpenings = counters.storeOpenings
            deviceMilliseconds = DeviceMilliseconds(
                fetch: counters.fetchExecutionSeconds * 1000, connection: counters.connectionSeconds * 1000,
                execution: counters.executionSeconds * 1000)
        }
    }

    public struct DeviceMilliseconds: Sendable, Codable, Equatable {
        public var fetch: Double
        public var connection: Double
        public var execution: Double
    }

    public struct Entity: Sendable, Codable, Equatable {
        public var table: String
        public var entity: String
        public var inferred: Bool
        public var statements: Int
        public var rowsRead: Int
        public var objectFaults: Int

        enum CodingKeys: String, CodingKey {
            case table, entity, inferred, statements
            case rowsRead = "rows_read"
            case objectFaults = "object_faults"
        }
    }

    /// One statement fingerprint of a segment, with the device's times for it.
    public struct Fingerprint: Sendable, Codable, Equatable {
        public var fingerprint: String
        public var kind: String
        public var role: String
        public var roles: [String: Int]
        public var tables: [String]
        public var count: Int
        public var rowsRead: Int
        public var maxRows: Int
        public var distinctBindings: Int
        public var firstLine: Int
        public var bookkeeping: Bool
        public var planScansFilteredTable: Bool
        public var planSortsWithTemporaryTree: Bool
        /// The log's milliseconds for its runs (each run's total, else connection, else execution time).
        public var deviceMilliseconds: Double
        public var connectionTime: Times
        public var executionTime: Times
        public var fetchExecutionTime: Times

        enum CodingKeys: String, CodingKey {
            case fingerprint, kind, role, roles, tables, count, bookkeeping
            case rowsRead = "rows_read"
            case maxRows = "max_rows"
            case distinctBindings = "distinct_bindings"
            case firstLine = "first_line"
            case planScansFilteredTable = "plan_scans_filtered_table"
            case planSortsWithTemporaryTree = "plan_sorts_with_temporary_tree"
            case deviceMilliseconds = "device_ms"
            case connectionTime = "connection_time"
            case executionTime = "execution_time"
            case fetchExecutionTime = "fetch_execution_time"
        }
    }

    /// Times in milliseconds: how many, their sum, median, 95th percentile and maximum.
    public struct Times: Sendable, Codable, Equatable {
        public var count: Int
        public var total: Double
        public var p50: Double
        public var p95: Double
        public var max: Double

        init(_ stats: TimeStats) {
            count = stats.count
            total = stats.totalSeconds * 1000
            p50 = stats.p50Seconds * 1000
            p95 = stats.p95Seconds * 1000
            max = stats.maxSeconds * 1000
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, log, scenario, size, bytes, lines, threshold, parser, markers, segments, totals
        case coreDataLines = "core_data_lines"
        case namesInferred = "names_inferred"
    }

    /// The document of `analysis`, read from `log`, named as the run folder `bench log --output` would be.
    public init(_ analysis: LogAnalysis, log: String, scenario: String, size: Int) {
        version = Self.currentVersion
        self.log = log
        self.scenario = scenario
        self.size = size
        bytes = analysis.bytesRead
        lines = analysis.lines
        coreDataLines = analysis.coreDataLines
        namesInferred = analysis.namesInferred
        threshold = analysis.threshold
        parser = analysis.parser
        markers = analysis.markerProblems
        segments = analysis.segments.map { segment in
            Segment(
                name: segment.name, closed: segment.closed, occurrences: segment.occurrences, unclosed: segment.unclosed,
                beginLine: segment.beginLine, endLine: segment.endLine, counters: Counters(segment.counters, saves: segment.saveSizes),
                entities: segment.entities.map {
                    Entity(
                        table: $0.table, entity: $0.entity.name, inferred: $0.entity.inferred, statements: $0.statements,
                        rowsRead: $0.rowsRead, objectFaults: $0.objectFaults)
                },
                fingerprints: segment.fingerprints.map { stats in
                    Fingerprint(
                        fingerprint: stats.fingerprint, kind: stats.kind.rawValue, role: stats.role.rawValue,
                        roles: Dictionary(uniqueKeysWithValues: stats.roles.map { ($0.key.rawValue, $0.value) }), tables: stats.tables,
                        count: stats.count, rowsRead: stats.rowsRead, maxRows: stats.maxRows, distinctBindings: stats.distinctBindings,
                        firstLine: stats.firstLine, bookkeeping: stats.isBookkeeping, planScansFilteredTable: stats.planScansFilteredTable,
                        planSortsWithTemporaryTree: stats.planSortsWithTemporaryTree, deviceMilliseconds: stats.measuredMilliseconds,
                        connectionTime: Times(stats.connectionTime), executionTime: Times(stats.executionTime),
                        fetchExecutionTime: Times(stats.fetchExecutionTime))
                },
                findings: segment.findings)
        }
        var sizes = SaveSizes()
        for segment in analysis.segments { sizes.add(segment.saveSizes) }
        totals = Counters(analysis.totals, saves: sizes)
    }

    /// The document as JSON, keys sorted, slashes unescaped.
    public func json() throws -> String {
        String(decoding: try jsonData(), as: UTF8.self)
    }

    /// The document as JSON bytes (`json()` without the copy into a String: a big log's document is tens of MB).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
