import CSQLite
import Foundation
import TestSupport
import Testing

@testable import BenchKit

/// The reader under a user's store copy and a dry run's scratch copy, on real temporary databases: rows typed and as
/// text, each failure's code, message and SQL, and the one line each owner makes of it.
@Suite struct SQLiteReaderTests {
    private func folder() throws -> URL { try TemporaryFolder.make("reader") }

    @Test func rowsAreReadTypedAndAsText() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = try SQLiteReader(path: folder.appendingPathComponent("a.sqlite").path, writable: true)
        try reader.execute("CREATE TABLE t (a, b, c, d); INSERT INTO t VALUES (7, 2.5, 'x', NULL), (X'0102', -1, '', 0)")
        #expect(
            try reader.rows("SELECT * FROM t") == [
                [.integer(7), .real(2.5), .text("x"), nil], [.blob(2), .integer(-1), .text(""), .integer(0)],
            ])
        #expect(try reader.textRows("SELECT a, b, c, d FROM t LIMIT 1") == [["7", "2.5", "x", nil]])
        #expect(try reader.rows("SELECT * FROM t WHERE 0").isEmpty)
    }

    @Test func aFailureCarriesItsCodeMessageAndSQL() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.sqlite").path
        let writer = try SQLiteReader(path: path, writable: true)
        try writer.execute("CREATE TABLE t (a)")
        #expect {
            try writer.rows("SELECT * FROM nope")
        } throws: { error in
            guard let failure = error as? SQLiteReader.Failure else { return false }
            return failure.code == SQLITE_ERROR && failure.message == "no such table: nope" && failure.sql == "SELECT * FROM nope"
        }
        let reader = try SQLiteReader(path: path, writable: false)
        #expect {
            try reader.execute("INSERT INTO t VALUES (1)")
        } throws: { error in
            guard let failure = error as? SQLiteReader.Failure else { return false }
            return failure.code == SQLITE_READONLY && failure.message == "attempt to write a readonly database"
        }
        #expect {
            try SQLiteReader(path: folder.appendingPathComponent("none.sqlite").path, writable: false)
        } throws: { error in
            guard let failure = error as? SQLiteReader.Failure else { return false }
            return failure.code == SQLITE_CANTOPEN && failure.sql == nil
        }
    }

    /// The store copy and the scratch copy each say a failure in one line starting with the option.
    @Test func theirOwnersSayAFailureInTheirWords() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("store.sqlite").path
        try SQLiteReader(path: path, writable: true).execute("CREATE TABLE t (a)")
        let store = try ReadOnlyStore(path: path)
        #expect(throws: BenchError.invalidInput("--shape-from: the store cannot be read (no such table: nope)")) {
            try store.rows("SELECT * FROM nope")
        }
        #expect(try store.hasTable("t") && !store.hasTable("nope") && store.columns(of: "t") == ["a"])
        let scratch = try ScratchDatabase(path: folder.appendingPathComponent("migrated.sqlite").path, option: "--store")
        #expect(throws: BenchError.invalidInput("--store: the migrated copy cannot be read (no such table: nope)")) {
            try scratch.rows("SELECT * FROM nope")
        }
        #expect(
            throws: BenchError.invalidInput(
                "--store: creating the tables failed (near \"CREAT\": syntax error); is the store complete and of the older model?")
        ) {
            try scratch.execute("CREAT TABLE t (a)", "creating the tables")
        }
        #expect(
            throws: BenchError.io(
                "--store: SQLite cannot create \(folder.path)/no/such/folder/m.sqlite for the migrated copy; check that TMPDIR is writable")
        ) {
            try ScratchDatabase(path: folder.appendingPathComponent("no/such/folder/m.sqlite").path, option: "--store")
        }
    }
}
