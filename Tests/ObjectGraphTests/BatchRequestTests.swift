import Foundation
import Testing

@testable import ObjectGraph

/// Batch insert, update and delete: one statement (or a few) for many rows, straight to the store; contexts see
/// the changes only once they merge the result's IDs.
@Suite struct BatchRequestTests {
    @Test func batchInsertReservesKeysAndWritesEveryRow() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        temporary.recordSQL()
        let result = try context.execute(
            BatchInsertRequest(
                entityName: "Subject", objects: (1...3).map { ["name": .string("S\($0)")] },
                resultType: .objectIDs))
        #expect(
            temporary.sql == [
                "BEGIN EXCLUSIVE",
                "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                "UPDATE OR FAIL Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ? AND Z_MAX = ?",
                "INSERT INTO ZSUBJECT(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)",
                "INSERT INTO ZSUBJECT(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)",
                "INSERT INTO ZSUBJECT(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES(?, ?, ?, ?)",
                "COMMIT",
            ])
        #expect(result.objectIDs.map(\.primaryKey) == [1, 2, 3] && result.count == 3)
        #expect(!context.hasChanges && context.registeredObjectCount == 0)
        #expect(
            throws: ObjectGraphError.validation(
                object: "batch insert object 0 of Student", property: "name",
                reason: "\"name is a required value.\" (NSValidationMissingMandatoryPropertyError, 1570)")
        ) {
            _ = try context.execute(BatchInsertRequest(entityName: "Student", objects: [[:]]))
        }
    }

    @Test func batchUpdateBypassesTheContextUntilMerged() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 3)
        let context = temporary.store.makeContext()
        let students = try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).array
        for student in students { _ = try student.string("name") }
        temporary.recordSQL()
        let result = try context.execute(
            BatchUpdateRequest(
                entityName: "Student", predicate: try FetchPredicate(format: "name BEGINSWITH 'Student'"),
                propertiesToUpdate: ["name": "Graduate"], resultType: .objectIDs))
        #expect(
            temporary.sql == [
                "SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE NSCoreDataStringSearch(t0.ZNAME, ?, 8, 0)",
                "UPDATE OR FAIL ZSTUDENT AS t0 SET ZNAME = ?, Z_OPT = (Z_OPT + 1) WHERE NSCoreDataStringSearch(t0.ZNAME, ?, 8, 0)",
            ])
        #expect(result.count == 3 && result.objectIDs.count == 3)
        // The objects still show their old values (the row cache was not told); merging the IDs refreshes them.
        #expect(try students[0].string("name") == "Student1")
        try context.mergeChanges(from: result.changes)
        context.resetCounters()
        #expect(try students.map { try $0.string("name") } == ["Graduate", "Graduate", "Graduate"])
        #expect(context.counters[.objectFault] == 3)
        // A stale object saved without merging conflicts with the batch's version.
        let other = temporary.store.makeContext()
        let stale = try #require(try other.fetch(FetchRequest("Class")).first)
        try stale.setValue("Renamed", for: "name")
        _ = try context.execute(BatchUpdateRequest(entityName: "Class", propertiesToUpdate: ["name": "Batch"]))
        #expect(throws: ObjectGraphError.self) { try other.save() }
    }

    @Test func batchDeleteAppliesDeleteRulesThroughTemporaryTriggers() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 2, studentsPerClass: 2)
        let context = temporary.store.makeContext()
        let doomed = try #require(try context.fetch(FetchRequest("Student", predicate: Key("name") == "Student1")).first)
        _ = try doomed.string("name")
        let byPredicate = try context.execute(
            BatchDeleteRequest(entityName: "Student", predicate: Key("name") == "Student3", resultType: .count))
        #expect(byPredicate.count == 1 && byPredicate.objectIDs.isEmpty)
        temporary.recordSQL()
        let byName = try context.execute(BatchDeleteRequest(objectIDs: [doomed.objectID], resultType: .objectIDs))
        #expect(
            temporary.sql == [
                "BEGIN EXCLUSIVE",
                // Student.address cascades (and the address's own rules follow, as Core Data recurses into the
                // destination's triggers); Student.class nullifies (the class's version moves); the join rows go.
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZSTUDENT_TRIGGER AFTER DELETE ON ZSTUDENT FOR EACH ROW BEGIN DELETE FROM ZADDRESS WHERE Z_PK = OLD.ZADDRESS; UPDATE OR FAIL ZCLASS SET Z_OPT = (Z_OPT + 1) WHERE Z_PK = OLD.ZCLASS; DELETE FROM Z_3SUBJECTS WHERE Z_3STUDENTS = OLD.Z_PK; END",
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZADDRESS_TRIGGER AFTER DELETE ON ZADDRESS FOR EACH ROW BEGIN UPDATE OR FAIL ZSTUDENT SET ZADDRESS = NULL, Z_OPT = (Z_OPT + 1) WHERE ZADDRESS = OLD.Z_PK; END",
                "DELETE FROM ZSTUDENT WHERE Z_PK IN (SELECT * FROM _Z_intarray0)",
                "DROP TRIGGER IF EXISTS ZQ_ZSTUDENT_TRIGGER",
                "DROP TRIGGER IF EXISTS ZQ_ZADDRESS_TRIGGER",
                "COMMIT",
            ])
        #expect(byName.count == 1 && byName.objectIDs == [doomed.objectID])
        let connection = temporary.store.connection
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM ZADDRESS") == 2)
        #expect(try connection.scalarInt("SELECT COUNT(*) FROM Z_3SUBJECTS WHERE Z_3STUDENTS = 1") == 0)
        // The derived count followed (its triggers fire for batch SQL too); the context still holds the object
        // until it merges the deletion.
        #expect(try connection.scalarInt("SELECT ZSTUDENTCOUNT FROM ZCLASS WHERE ZNAME = 'Class1'") == 1)
        #expect(doomed.context === context)
        try context.mergeChanges(from: byName.changes)
        #expect(doomed.context == nil)
        // Deny is refused before any SQL.
        let denyModel = try ObjectModel([
            Entity("A", [.toMany("bs", "B", inverse: "a", deleteRule: .deny)]), Entity("B", [.toOne("a", "A", inverse: "bs")]),
        ])
        let denyStore = try TemporaryStore(denyModel)
        #expect(
            throws: ObjectGraphError.invalidOperation(
                "Delete rule is not supported for batch deletes (Core Data: NSCoreDataError 134060): A.bs has the Deny rule; delete through a context instead"
            )
        ) {
            _ = try denyStore.store.makeContext().execute(BatchDeleteRequest(entityName: "A"))
        }
    }

    @Test func batchRequestsCannotFollowRelationships() throws {
        let temporary = try TemporaryStore(seedModel())
        let context = temporary.store.makeContext()
        #expect(
            throws: ObjectGraphError.invalidPredicate(
                "a batch request's predicate cannot follow relationships (Core Data refuses joins there): class.name == \"Class1\"")
        ) {
            _ = try context.execute(
                BatchUpdateRequest(
                    entityName: "Student", predicate: try FetchPredicate(format: "class.name == 'Class1'"),
                    propertiesToUpdate: ["name": "x"]))
        }
    }
}
