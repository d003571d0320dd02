import XCTest

@testable import SQLDebugLog

final class NamesAndFingerprintTests: XCTestCase {
    func testFingerprintNormalisesValues() {
        XCTAssertEqual(
            Fingerprint.of("SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE  t0.ZNAME = 'Ann'  AND t0.ZAGE > 18 LIMIT 20"),
            "SELECT ?, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.ZNAME = ? AND t0.ZAGE > ? LIMIT ?")
        XCTAssertEqual(
            Fingerprint.of("SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.Z_PK IN (1, 2, 3)"),
            Fingerprint.of("SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.Z_PK IN (?,?)"))
        XCTAssertEqual(
            Fingerprint.of("SELECT 1, t0.Z_PK FROM ZARTICLE t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray3)   LIMIT 20"),
            "SELECT ?, t0.Z_PK FROM ZARTICLE t0 WHERE t0.Z_PK IN (SELECT * FROM _Z_intarray?) LIMIT ?")
        XCTAssertEqual(Fingerprint.of("INSERT INTO ZITEM(Z_PK, ZDATA) VALUES(?, x'00FF')"), "INSERT INTO ZITEM(Z_PK, ZDATA) VALUES (?, ?)")
        XCTAssertEqual(Fingerprint.of("SELECT COUNT( DISTINCT t0.Z_PK) FROM ZWORD t0"), "SELECT COUNT(DISTINCT t0.Z_PK) FROM ZWORD t0")
        // Identifiers holding digits are kept: join tables, aliases, entity-numbered columns.
        XCTAssertEqual(
            Fingerprint.of("SELECT 0, t0.Z_PK FROM Z_2STUDENTS t1 JOIN ZSTUDENT t0 ON t0.Z_PK = t1.Z_3STUDENTS WHERE t1.Z_2CLASSES = ?"),
            "SELECT ?, t0.Z_PK FROM Z_2STUDENTS t1 JOIN ZSTUDENT t0 ON t0.Z_PK = t1.Z_3STUDENTS WHERE t1.Z_2CLASSES = ?")
    }

    func testShapes() {
        func shape(_ sql: String) -> StatementShape {
            var copy = sql
            return copy.withUTF8 { StatementShape(sql: $0) }
        }
        let fault = shape("SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZADDRESS t0 WHERE  t0.Z_PK = ?  LIMIT 1")
        XCTAssertTrue(fault.isSingleRowByKey)
        XCTAssertEqual(fault.tables, ["ZADDRESS"])
        let join = shape("SELECT 0, t0.Z_PK FROM Z_2STUDENTS t1 JOIN ZSTUDENT t0 ON t0.Z_PK = t1.Z_3STUDENTS WHERE t1.Z_2CLASSES = ?")
        XCTAssertEqual(
            join.joinTable,
            StatementShape.JoinTableUse(
                table: "Z_2STUDENTS", ownerColumn: "Z_2CLASSES", memberColumn: "Z_3STUDENTS",
                memberTable: "ZSTUDENT"))
        let foreignKey = shape("SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE  t0.ZCLASS = ? ")
        XCTAssertEqual(foreignKey.ownerColumn, TableColumn(table: "ZSTUDENT", column: "ZCLASS"))
        XCTAssertTrue(foreignKey.isIDOnly)
        let batch = shape("SELECT 0, t0.Z_PK, t0.ZNAME FROM ZSTUDENT t0 WHERE  t0.Z_PK IN (SELECT * FROM _Z_intarray0)   LIMIT 20")
        XCTAssertTrue(batch.isBatch)
        XCTAssertEqual(batch.limit, 20)
        XCTAssertEqual(shape("pragma journal_mode=wal").knownRows, 1)
        XCTAssertEqual(shape("pragma auto_vacuum=2").knownRows, 0)
        XCTAssertTrue(shape("SELECT TBL_NAME FROM SQLITE_MASTER WHERE TBL_NAME = 'Z_METADATA'").isBookkeeping)
        XCTAssertTrue(shape("UPDATE OR FAIL ZSTUDENT SET ZNAME = ?, Z_OPT = (Z_OPT + 1) ").isBatchRequestForm)
        XCTAssertEqual(shape("UPDATE OR FAIL ZSTUDENT SET ZNAME = ? WHERE Z_PK = ?").tables, ["ZSTUDENT"])
    }

    /// The caller's mapping names tables, columns and join tables (`Z_2STUDENTS` is `Class.students`).
    func testMappingNamesEverything() throws {
        let mapping = NameMapping(
            entities: ["ZSTUDENT": "Student", "ZCLASS": "Class"], properties: ["ZSTUDENT": ["ZCLASS": "class"]],
            joinTables: ["Z_2STUDENTS": "Class.students"])
        var resolver = NameResolver(mapping: mapping)
        XCTAssertEqual(resolver.entity(forTable: "ZSTUDENT"), ResolvedName(name: "Student", inferred: false))
        XCTAssertEqual(
            resolver.property(TableColumn(table: "ZSTUDENT", column: "ZCLASS")), ResolvedName(name: "Student.class", inferred: false))
        var sql = "SELECT 0, t0.Z_PK FROM Z_2STUDENTS t1 JOIN ZSTUDENT t0 ON t0.Z_PK = t1.Z_3STUDENTS WHERE t1.Z_2CLASSES = ?"
        let shape = sql.withUTF8 { StatementShape(sql: $0) }
        XCTAssertEqual(resolver.toManyRelationship(of: shape), ResolvedName(name: "Class.students", inferred: false))
        XCTAssertFalse(resolver.usedInference)
    }

    /// Without a mapping, Z names are read in upper case, and the analysis says the names are inferred.
    func testInferredNames() throws {
        var resolver = NameResolver(mapping: nil)
        XCTAssertEqual(resolver.entity(forTable: "ZSTUDENT"), ResolvedName(name: "STUDENT", inferred: true))
        XCTAssertEqual(
            resolver.property(TableColumn(table: "ZSTUDENT", column: "ZCLASS")), ResolvedName(name: "STUDENT.CLASS", inferred: true))
        var join = "SELECT 0, t0.Z_PK FROM Z_2STUDENTS t1 JOIN ZSTUDENT t0 ON t0.Z_PK = t1.Z_3STUDENTS WHERE t1.Z_2CLASSES = ?"
        XCTAssertEqual(
            resolver.toManyRelationship(of: join.withUTF8 { StatementShape(sql: $0) }),
            ResolvedName(name: "ENTITY2.STUDENTS", inferred: true))
        var hidden = "SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE  t0.Z2STUDENTS = ? "
        XCTAssertEqual(
            resolver.toManyRelationship(of: hidden.withUTF8 { StatementShape(sql: $0) }),
            ResolvedName(name: "ENTITY2.STUDENTS", inferred: true))
        XCTAssertTrue(resolver.usedInference)
        let analysis = LogAnalyzer.analyze(text: "CoreData: sql: SELECT 0, t0.Z_PK FROM ZSTUDENT t0")
        XCTAssertTrue(analysis.namesInferred)
        XCTAssertEqual(analysis.segments.first?.entities.first?.entity, ResolvedName(name: "STUDENT", inferred: true))
    }

    /// Names the log itself says (object URIs, to-many fault annotations) are not inferred.
    func testNamesLearnedFromTheLog() throws {
        let text = """
            CoreData: sql: SELECT 0, t0.Z_PK FROM Z_2STUDENTS t1 JOIN ZSTUDENT t0 ON t0.Z_PK = t1.Z_3STUDENTS WHERE t1.Z_2CLASSES = ?
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: to-many relationship fault "students" for objectID 0xa1 <x-coredata://U/Class/p1> fulfilled from database.  Got 2 rows
            CoreData: sql: SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZNAME FROM ZSTUDENT t0 WHERE  t0.Z_PK = ?  LIMIT 1
            CoreData: annotation: sql connection fetch time: 0.0001s
            CoreData: annotation: total fetch execution time: 0.0001s for 1 rows.
            CoreData: annotation: fault fulfilled from database for : 0xa2 <x-coredata://U/Student/p3>
            """
        let analysis = LogAnalyzer.analyze(text: text)
        XCTAssertFalse(analysis.namesInferred)
        let segment = try XCTUnwrap(analysis.segments.first)
        XCTAssertEqual(segment.entities.map(\.entity.name).sorted(), ["Class.students", "Student"])
        XCTAssertEqual(segment.entities.first { $0.table == "ZSTUDENT" }?.objectFaults, 1)
    }

    func testTimePercentiles() {
        var histogram = TimeHistogram()
        for value in [0.0001, 0.0002, 0.0003, 0.0004, 0.0005, 0.0006, 0.0007, 0.0008, 0.0009, 0.0100] { histogram.add(value) }
        let stats = histogram.stats
        XCTAssertEqual(stats.count, 10)
        XCTAssertEqual(stats.p50Seconds, 0.0005, accuracy: 1e-12)
        XCTAssertEqual(stats.p95Seconds, 0.0100, accuracy: 1e-12)
        XCTAssertEqual(stats.totalSeconds, 0.0145, accuracy: 1e-12)
        // Bounded: many distinct values are kept in coarse buckets, percentiles within 1%.
        var many = TimeHistogram()
        for index in 1...100_000 { many.add(Double(index) * 1e-5) }
        XCTAssertEqual(many.stats.p50Seconds, 0.5, accuracy: 0.01)
        XCTAssertEqual(many.stats.p95Seconds, 0.95, accuracy: 0.01)
    }
}
