import Foundation
import Testing

@testable import ObjectGraph

/// What a write keeps current besides its rows (the indexes and triggers of its table), which the harness counts as
/// part of the work two arms give SQLite: an INSERT into an indexed table is not the same work as one into a bare one.
@Suite struct WriteMaintenanceTests {
    static func store(subjectsInverse: Bool = true) throws -> PersistentStore {
        try PersistentStore(model: try seedModel(subjectsInverse: subjectsInverse), location: .inMemory)
    }

    @Test func anInsertMaintainsEveryIndexAndTheInsertTriggersOfItsTable() throws {
        let store = try Self.store()
        let work = store.work("INSERT INTO ZSTUDENT(Z_PK, Z_ENT, Z_OPT, ZADDRESS, ZCLASS, ZNAME) VALUES (?, ?, ?, ?, ?, ?)")
        #expect(
            work.filter { $0.hasPrefix("maintains index") } == [
                "maintains index ZSTUDENT_ZADDRESS_INDEX (ZADDRESS)", "maintains index ZSTUDENT_ZCLASS_INDEX (ZCLASS)",
            ])
        let triggers = work.filter { $0.hasPrefix("maintains trigger") }
        #expect(triggers.count == 1)
        #expect(triggers.first?.contains("Z_DA_ZSTUDENT_Class_studentCount_PARAMETER_INSERT AFTER INSERT ON ZSTUDENT") == true)
        // A bare table keeps nothing but its rows; a join table its reverse index and its key.
        #expect(store.work("INSERT INTO ZSUBJECT(Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, ?, ?)") == [])
        #expect(
            store.work("INSERT OR REPLACE INTO Z_3SUBJECTS(Z_3STUDENTS, Z_4SUBJECTS) VALUES (?, ?)") == [
                "maintains index Z_3SUBJECTS_Z_4SUBJECTS_INDEX (Z_4SUBJECTS, Z_3STUDENTS)",
                "maintains unique index the table's key (Z_3STUDENTS, Z_4SUBJECTS)",
            ])
    }

    /// An UPDATE keeps the indexes holding a column it sets and the triggers of UPDATE OF those columns; a DELETE
    /// every index and its DELETE triggers; a read nothing.
    @Test func anUpdateMaintainsOnlyWhatItsColumnsTouch() throws {
        let store = try Self.store()
        let rename = store.work("UPDATE ZSTUDENT SET Z_OPT = ?, ZNAME = ? WHERE Z_PK = ? AND Z_OPT = ?")
        #expect(rename.filter { $0.hasPrefix("maintains") } == [])
        let move = store.work("UPDATE ZSTUDENT SET Z_OPT = ?, ZCLASS = ? WHERE Z_PK = ? AND Z_OPT = ?").filter { $0.hasPrefix("maintains") }
        #expect(move.first == "maintains index ZSTUDENT_ZCLASS_INDEX (ZCLASS)")
        #expect(move.filter { $0.contains("UPDATE_INCREMENT") || $0.contains("UPDATE_DECREMENT") }.count == 2)
        #expect(!move.contains { $0.contains("AFTER INSERT") || $0.contains("AFTER DELETE") })
        let delete = store.work("DELETE FROM ZSTUDENT WHERE Z_PK = ?").filter { $0.hasPrefix("maintains") }
        #expect(delete.filter { $0.hasPrefix("maintains index") }.count == 2)
        #expect(delete.filter { $0.hasPrefix("maintains trigger") }.count == 1)
        #expect(delete.contains { $0.contains("AFTER DELETE ON ZSTUDENT") })
        #expect(store.work("SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.ZCLASS = ?").allSatisfy { !$0.contains("maintains") })
    }

    /// Many-to-nil's hidden owner column is indexed as ObjectGraph builds it: the INSERT into the destination keeps it.
    @Test func theHiddenManyToNilColumnsIndexIsKeptByInserts() throws {
        let store = try Self.store(subjectsInverse: false)
        #expect(
            store.work("INSERT INTO ZSUBJECT(Z_PK, Z_ENT, Z_OPT, Z3SUBJECTS, ZNAME) VALUES (?, ?, ?, ?, ?)") == [
                "maintains index ZSUBJECT_Z3SUBJECTS_INDEX (Z3SUBJECTS)"
            ])
    }
}
