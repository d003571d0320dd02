import Foundation
import Testing

@testable import ObjectGraph

/// The schema: Core Data's table, column, index and join-table names, written out in full.
@Suite struct SchemaTests {
    /// The School model's DDL (with the tests' derived count) in the order real stores create it (shared/real-stores): each entity table followed by
    /// the join tables it owns and their indexes, then the system tables, then the derived count's triggers (Core Data's
    /// `Z_DA_..._PARAMETER_*` and `_SOURCE_INSERT`: `IFNULL(col, 0) + 1` on insert only, `col - 1` on decrement).
    @Test func seedModelDDL() throws {
        let model = try seedModel()
        #expect(
            model.schemaSQL == [
                "CREATE TABLE ZADDRESS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTUDENT INTEGER, ZNAME VARCHAR )",
                "CREATE INDEX ZADDRESS_ZSTUDENT_INDEX ON ZADDRESS (ZSTUDENT)",
                "CREATE TABLE ZCLASS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSTUDENTCOUNT INTEGER, ZNAME VARCHAR, ZID BLOB )",
                "CREATE TABLE ZSTUDENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZADDRESS INTEGER, ZCLASS INTEGER, ZNAME VARCHAR )",
                "CREATE TABLE Z_3SUBJECTS ( Z_3STUDENTS INTEGER, Z_4SUBJECTS INTEGER, PRIMARY KEY (Z_3STUDENTS, Z_4SUBJECTS) )",
                "CREATE INDEX ZSTUDENT_ZADDRESS_INDEX ON ZSTUDENT (ZADDRESS)",
                "CREATE INDEX ZSTUDENT_ZCLASS_INDEX ON ZSTUDENT (ZCLASS)",
                "CREATE INDEX Z_3SUBJECTS_Z_4SUBJECTS_INDEX ON Z_3SUBJECTS (Z_4SUBJECTS, Z_3STUDENTS)",
                "CREATE TABLE ZSUBJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
                "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
                "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
                "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
                "CREATE TRIGGER IF NOT EXISTS Z_DA_ZSTUDENT_Class_studentCount_PARAMETER_INSERT AFTER INSERT ON ZSTUDENT FOR EACH ROW WHEN (NEW.ZCLASS NOT NULL) BEGIN UPDATE ZCLASS SET ZSTUDENTCOUNT = IFNULL(ZSTUDENTCOUNT, 0) + 1 WHERE Z_PK = NEW.ZCLASS; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZCLASS', Z_ENT, Z_PK, 'studentCount', ZSTUDENTCOUNT) FROM ZCLASS WHERE Z_PK = NEW.ZCLASS; END",
                "CREATE TRIGGER IF NOT EXISTS Z_DA_ZSTUDENT_Class_studentCount_PARAMETER_UPDATE_INCREMENT AFTER UPDATE OF ZCLASS ON ZSTUDENT FOR EACH ROW WHEN (NEW.ZCLASS NOT NULL) BEGIN UPDATE ZCLASS SET ZSTUDENTCOUNT = ZSTUDENTCOUNT + 1 WHERE Z_PK = NEW.ZCLASS; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZCLASS', Z_ENT, Z_PK, 'studentCount', ZSTUDENTCOUNT) FROM ZCLASS WHERE Z_PK = NEW.ZCLASS; END",
                "CREATE TRIGGER IF NOT EXISTS Z_DA_ZSTUDENT_Class_studentCount_PARAMETER_UPDATE_DECREMENT AFTER UPDATE OF ZCLASS ON ZSTUDENT FOR EACH ROW WHEN (OLD.ZCLASS NOT NULL) BEGIN UPDATE ZCLASS SET ZSTUDENTCOUNT = ZSTUDENTCOUNT - 1 WHERE Z_PK = OLD.ZCLASS; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZCLASS', Z_ENT, Z_PK, 'studentCount', ZSTUDENTCOUNT) FROM ZCLASS WHERE Z_PK = OLD.ZCLASS; END",
                "CREATE TRIGGER IF NOT EXISTS Z_DA_ZSTUDENT_Class_studentCount_PARAMETER_DELETE AFTER DELETE ON ZSTUDENT FOR EACH ROW WHEN (OLD.ZCLASS NOT NULL) BEGIN UPDATE ZCLASS SET ZSTUDENTCOUNT = ZSTUDENTCOUNT - 1 WHERE Z_PK = OLD.ZCLASS; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZCLASS', Z_ENT, Z_PK, 'studentCount', ZSTUDENTCOUNT) FROM ZCLASS WHERE Z_PK = OLD.ZCLASS; END",
                "CREATE TRIGGER IF NOT EXISTS Z_DA_ZCLASS_Class_studentCount_SOURCE_INSERT AFTER INSERT ON ZCLASS FOR EACH ROW BEGIN UPDATE ZCLASS SET ZSTUDENTCOUNT = (SELECT IFNULL(COUNT(ZCLASS), 0) FROM ZSTUDENT WHERE ZCLASS = NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZCLASS', Z_ENT, Z_PK, 'studentCount', ZSTUDENTCOUNT) FROM ZCLASS WHERE Z_PK = NEW.Z_PK; END",
            ])
    }

    @Test func manyToNilPutsAHiddenOwnerColumnOnTheDestination() throws {
        let model = try seedModel(subjectsInverse: false, addressInverse: false)
        #expect(
            model.schemaSQL.contains(
                "CREATE TABLE ZSUBJECT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z3SUBJECTS INTEGER, ZNAME VARCHAR )"))
        #expect(model.schemaSQL.contains("CREATE INDEX ZSUBJECT_Z3SUBJECTS_INDEX ON ZSUBJECT (Z3SUBJECTS)"))
        #expect(!model.schemaSQL.contains { $0.contains("Z_3SUBJECTS") })
        // One-to-nil: the key on the source only.
        #expect(model.schemaSQL.contains("CREATE TABLE ZADDRESS ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )"))
        #expect(
            model.warnings == [
                "Student.address should have an inverse",
                "Student.subjects does not have an inverse; this is an advanced setting (no object can be in multiple destinations for a specific relationship)",
            ])
    }

    /// A many-to-many's join table has a reverse index, as current stores do; without it (stores of about 2015, as
    /// pgor's ManyAToManyB found) only the composite primary key.
    @Test func aJoinTableWithoutItsReverseIndex() throws {
        let subjects = { (indexed: Bool) throws -> ObjectModel in
            try ObjectModel([
                Entity("Student", [.toMany("subjects", "Subject", inverse: "students").settingJoinReverseIndex(indexed)]),
                Entity("Subject", [.toMany("students", "Student", inverse: "subjects")]),
            ])
        }
        #expect(
            try subjects(true).schemaSQL.contains("CREATE INDEX Z_1SUBJECTS_Z_2SUBJECTS_INDEX ON Z_1SUBJECTS (Z_2SUBJECTS, Z_1STUDENTS)"))
        let old = try subjects(false).schemaSQL
        #expect(
            old.contains("CREATE TABLE Z_1SUBJECTS ( Z_1STUDENTS INTEGER, Z_2SUBJECTS INTEGER, PRIMARY KEY (Z_1STUDENTS, Z_2SUBJECTS) )"))
        #expect(!old.contains { $0.hasPrefix("CREATE INDEX Z_1SUBJECTS") })
    }

    @Test func columnsRankedByTypeAndClashesNumbered() throws {
        let model = try ObjectModel([
            Entity(
                "Event",
                [
                    .attribute("timestamp", .date),
                    .attribute("timeStamp", .double),
                    .attribute("title", .string),
                    .attribute("payload", .binary),
                    .attribute("id", .uuid),
                    .attribute("count", .int64),
                    .attribute("done", .bool),
                    .toOne("owner", "Person", inverse: "events"),
                ]),
            Entity("Person", [.toMany("events", "Event", inverse: "owner")]),
        ])
        #expect(
            model.schemaSQL[0]
                == "CREATE TABLE ZEVENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOUNT INTEGER, ZDONE INTEGER, ZOWNER INTEGER, ZTIMESTAMP FLOAT, ZTIMESTAMP1 TIMESTAMP, ZTITLE VARCHAR, ZID BLOB, ZPAYLOAD BLOB )"
        )
        model.prepareStatements() // as the first store opened on the model does
        let event = try #require(model.entity("Event"))
        #expect(
            event.sql.insert
                == "INSERT INTO ZEVENT(Z_PK, Z_ENT, Z_OPT, ZOWNER, ZCOUNT, ZDONE, ZID, ZPAYLOAD, ZTIMESTAMP, ZTIMESTAMP1, ZTITLE) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        #expect(
            event.sql.selectRows
                == "SELECT 0, t0.Z_PK, t0.Z_OPT, t0.ZCOUNT, t0.ZDONE, t0.ZID, t0.ZPAYLOAD, t0.ZTIMESTAMP, t0.ZTIMESTAMP1, t0.ZTITLE, t0.ZOWNER FROM ZEVENT t0 "
        )
    }

    @Test func systemTablesAreFilled() throws {
        let temporary = try TemporaryStore(seedModel())
        let connection = temporary.store.connection
        let select = try connection.cachedStatement("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        var rows: [String] = []
        while try select.step() { rows.append("\(select.int64(0)) \(select.string(1)) \(select.int64(2)) \(select.int64(3))") }
        select.reset()
        #expect(rows == ["1 Address 0 0", "2 Class 0 0", "3 Student 0 0", "4 Subject 0 0"])
        #expect(try connection.scalarInt("SELECT Z_VERSION FROM Z_METADATA") == 1)
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM Z_MODELCACHE") == 1)
        #expect(try connection.scalarInt("PRAGMA journal_mode = WAL") != nil)
    }

    @Test func reopeningKeepsTheDataAndRefusesAnotherModel() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 2)
        let context = temporary.store.makeContext()
        #expect(try context.count(for: FetchRequest("Student")) == 4)
        let other = try seedModel(subjectsInverse: false)
        #expect {
            try temporary.reopen(with: other)
        } throws: { error in
            guard case let ObjectGraphError.modelMismatch(_, reason) = error else { return false }
            return reason == "entity Student differs; entity Subject differs"
        }
    }

    @Test func modelErrorsNameTheEntityAndProperty() {
        func error(_ entities: [Entity]) -> String? {
            do {
                _ = try ObjectModel(entities)
                return nil
            } catch { return "\(error)" }
        }
        #expect(
            error([Entity("A", [.toOne("b", "B", inverse: nil)])])
                == "model error in A.b: unknown destination entity 'B'")
        #expect(
            error([Entity("A", [.attribute("x", .string), .attribute("x", .int64)])])
                == "model error in A.x: duplicate property name")
        #expect(error([Entity("A", []), Entity("A", [])]) == "model error in entity A: duplicate entity name")
        #expect(
            error([Entity("A", [.toOne("b", "B", inverse: "a")]), Entity("B", [.toMany("a", "A", inverse: nil)])])
                == "model error in A.b: inverse pair disagrees: B.a declares no inverse, not 'b'")
        #expect(
            error([Entity("A", [.toOne("b", "B", inverse: "c")]), Entity("B", [])])
                == "model error in A.b: inverse 'c' is not a relationship of B")
        #expect(
            error([Entity("A", [.toMany("b", "B", inverse: "a")]), Entity("B", [.toOne("a", "C", inverse: "b")]), Entity("C", [])])
                == "model error in A.b: inverse B.a points to C, not back to A")
        #expect(
            error([Entity("A", [.derived("n", "b.@median")])])
                == "model error in A.n: derivation 'b.@median' is not supported (unknown operator in 'b.@median'); use <toMany>.@count, <toMany>.<attribute>.@sum|@max|@min, <toOne>.<attribute>, canonical:(<attribute>), uppercase:(...), lowercase:(...) or now()"
        )
        #expect(
            error([Entity("A", [.derived("n", "b.@count")])])
                == "model error in A.n: derivation 'b.@count': 'b' is not a to-many relationship of A")
        #expect(
            error([Entity("A", [.attribute("n", .int64, default: "x")])])
                == "model error in A.n: default value \"x\" is not a Integer 64")
    }
}
