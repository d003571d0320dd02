import Testing

@testable import ObjectGraph

/// Undoable changes (`PersistentStore+Undo`, what `bench explain` runs its prepared phases with): the same statements,
/// traced and counted as without, and every row back as it was after `undoChanges()`.
@Suite struct UndoableChangesTests {
    /// Rows of every table of the School model and the keys reserved, as one comparable list.
    static func rows(_ store: PersistentStore) throws -> [Int64?] {
        let counts = ["ZCLASS", "ZSTUDENT", "ZADDRESS", "ZSUBJECT", "Z_3SUBJECTS"].map { "SELECT COUNT(*) FROM \($0)" }
        return try (counts + ["SELECT SUM(Z_MAX) FROM Z_PRIMARYKEY", "SELECT SUM(Z_OPT) FROM ZSTUDENT"]).map {
            try store.connection.scalarInt($0)
        }
    }

    /// A save that deletes, inserts and updates, on `store`: its counters.
    static func change(_ store: PersistentStore) throws -> Counters {
        let context = store.makeContext()
        let students = try context.fetch(FetchRequest("Student", sortDescriptors: [FetchSort("name")])).array
        try context.delete(students[0])
        try students[1].setValue("Renamed", for: "name")
        let student = try context.insert("Student")
        try student.setValue("New", for: "name")
        try context.save()
        return context.counters
    }

    @Test func undoPutsEveryRowBackAndTheStatementsAreCoreDatas() throws {
        let plain = try TemporaryStore(seedModel())
        try makeSchool(plain, classes: 2, studentsPerClass: 3)
        let undoable = try TemporaryStore(seedModel())
        try makeSchool(undoable, classes: 2, studentsPerClass: 3)
        let before = try Self.rows(undoable.store)
        undoable.store.beginUndoableChanges()
        plain.recordSQL()
        undoable.recordSQL()
        #expect(try Self.change(undoable.store) == (try Self.change(plain.store)))
        #expect(undoable.sql == plain.sql)
        #expect(undoable.sql.filter { ["BEGIN EXCLUSIVE", "COMMIT"].contains($0) }.count == 4)
        #expect(try Self.rows(undoable.store) == (try Self.rows(plain.store)))
        #expect(try Self.rows(undoable.store) != before)
        #expect(try undoable.store.undoChanges())
        #expect(try Self.rows(undoable.store) == before)
        // Again from the same rows: the same statements.
        undoable.recordSQL()
        _ = try Self.change(undoable.store)
        #expect(undoable.sql == plain.sql)
        #expect(try undoable.store.undoChanges())
        // Nothing reached the file.
        try undoable.reopen()
        #expect(try Self.rows(undoable.store) == before)
    }

    /// A save that fails after one that succeeded undoes itself only; the undo takes back both.
    @Test func aFailedSaveUndoesItselfOnly() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 2)
        let before = try Self.rows(temporary.store)
        temporary.store.beginUndoableChanges()
        try temporary.refuse("INSERT", on: "ZSTUDENT")
        let context = temporary.store.makeContext()
        let kept = try context.insert("Student")
        try kept.setValue("Kept", for: "name")
        try context.save()
        let refused = try context.insert("Student")
        try refused.setValue("boom", for: "name")
        #expect(throws: (any Error).self) { try context.save() }
        #expect(try temporary.store.connection.scalarInt("SELECT COUNT(*) FROM ZSTUDENT WHERE ZNAME = 'Kept'") == 1)
        #expect(try temporary.store.connection.scalarInt("SELECT COUNT(*) FROM ZSTUDENT WHERE ZNAME = 'boom'") == 0)
        try context.delete(refused)
        try context.save()
        #expect(try temporary.store.connection.scalarInt("SELECT COUNT(*) FROM ZSTUDENT WHERE ZNAME = 'Kept'") == 1)
        context.reset()
        #expect(try temporary.store.undoChanges())
        #expect(try Self.rows(temporary.store) == before)
    }

    /// The store's row cache must be empty: objects still held keep their rows, and the undo declines.
    @Test func undoDeclinesWhileObjectsAreHeld() throws {
        let temporary = try TemporaryStore(seedModel())
        try makeSchool(temporary, classes: 1, studentsPerClass: 2)
        temporary.store.beginUndoableChanges()
        let context = temporary.store.makeContext()
        let students = try context.fetch(FetchRequest("Student")).array
        #expect(!students.isEmpty)
        #expect(try !temporary.store.undoChanges())
        context.reset()
        #expect(try temporary.store.undoChanges())
    }
}
