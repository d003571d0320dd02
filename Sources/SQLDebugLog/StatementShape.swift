/// What the text of a statement tells: its kind, tables, and the shapes Core Data gives its fetches, faults,
/// batches and prefetches. Computed once per distinct SQL text.
struct StatementShape {
    enum TransactionVerb { case none, begin, commit, rollback }

    var kind: SQLStatementKind = .other
    var verb: TransactionVerb = .none
    /// Tables read or written, first the main one (FROM, INTO, UPDATE), without `_Z_intarray` tables.
    var tables: [String] = []
    /// Store-opening probes, primary-key reservation, metadata, pragmas, schema changes: repeat harmlessly.
    var isBookkeeping = false
    /// SELECT, VALUES, or a pragma that returns a row.
    var returnsRows = false
    /// Rows the statement returns when no annotation says (a count, a pragma, Z_MAX): nil when unknown.
    var knownRows: Int?
    var usesIntarray = false
    var hasValueList = false
    /// A literal `LIMIT n`.
    var limit: Int?
    /// `WHERE t0.Z_PK = ? LIMIT 1`: an object fault's (or a refetch's) shape.
    var isSingleRowByKey = false
    /// `t0.Z_PK IN (id list) LIMIT n`: a batch of a batched fetch.
    var isBatch = false
    /// `SELECT 0, t0.Z_PK FROM ...`: object IDs only.
    var isIDOnly = false
    var isCount = false
    /// An INSERT, UPDATE or DELETE of a model table.
    var writesModel = false
    /// A batch request's form: `UPDATE ... Z_OPT = (Z_OPT + 1)`, `DELETE FROM X WHERE Z_PK IN (SELECT ...)`.
    var isBatchRequestForm = false
    /// Columns compared in WHERE (table-qualified), and ORDER BY columns.
    var filterColumns: [TableColumn] = []
    /// The WHERE columns an index could serve: compared by `=`, `<`, `>`, `IN`, `BETWEEN` or `IS`, outside functions.
    var comparedColumns: [TableColumn] = []
    var sortColumns: [TableColumn] = []
    /// `WHERE t0.ZCLASS = ?` alone: a to-many fault through a foreign key column on the member table.
    var ownerColumn: TableColumn?
    /// The entity number a fetch of a shared table restricts it to (`t0.Z_ENT = 2`), if any.
    var entityNumber: Int?
    /// `FROM Z_2STUDENTS t1 JOIN ZSTUDENT t0 ON t0.Z_PK = t1.Z_3STUDENTS WHERE t1.Z_2CLASSES = ?`.
    var joinTable: JoinTableUse?

    struct JoinTableUse: Equatable {
        var table: String
        var ownerColumn: String
        var memberColumn: String
        var memberTable: String
    }

    /// Core Data's own tables (and SQLite's, and persistent history's): not entities.
    static let systemTables: Set<String> = [
        "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "SQLITE_MASTER", "SQLITE_SCHEMA",
        "SQLITE_SEQUENCE", "SQLITE_TEMP_MASTER", "ATRANSACTION", "ACHANGE",
        "ATRANSACTIONSTRING", "ATRANSACTIONSTRINGS",
    ]

    /// `systemTables` as bytes, for `isSystemTable`.
    private static let systemTableNames: [StaticString] = [
        "Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "SQLITE_MASTER", "SQLITE_SCHEMA",
        "SQLITE_SEQUENCE", "SQLITE_TEMP_MASTER", "ATRANSACTION", "ACHANGE",
        "ATRANSACTIONSTRING", "ATRANSACTIONSTRINGS",
    ]

    /// Whether `table`, upper-cased, is one of `systemTables`: an ASCII name compared in place (profiled: an upper-cased
    /// copy hashed into the set, for every table of every distinct statement, cost 3% of reading a log of distinct
    /// statements), any other as before.
    static func isSystemTable(_ table: String) -> Bool {
        var name = table
        return name.withUTF8 { bytes in
            guard bytes.isASCII() else { return systemTables.contains(table.uppercased()) }
            for system in systemTableNames where system.utf8CodeUnitCount == bytes.count && bytes.matchesIgnoringCase(system, at: 0) {
                return true
            }
            return false
        }
    }

    init() {}

    init(sql: ByteView) {
        self.init(sql: sql, tokens: SQLTokenizer.tokens(sql))
    }

    init(sql: ByteView, tokens: [SQLToken]) {
        guard let first = tokens.first else { return }
        var reader = ShapeReader(sql: sql, tokens: tokens)
        reader.classify(first: first, into: &self)
    }
}
