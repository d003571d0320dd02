import Foundation

/// A user's store opened for reading its shape: the file copied with its `-wal` and `-shm` into a temporary folder
/// (a store keeps its latest saves in `-wal`, and opening a WAL store writes beside it, even read-only), the copy
/// opened read-only. The user's files are only read.
final class ReadOnlyStore {
    /// The temporary folder holding the copy (removed with the store): a dry run writes its migrated store beside it.
    let folder: URL
    /// The copy of the store file, opened read-only here.
    let copyPath: String
    /// The option that named the store, which messages start with.
    let option: String
    /// The copy, opened read-only; nil only while the store goes, so that it is closed before its folder is removed.
    private var database: SQLiteReader?
    /// What a reader of the shape should know: a WAL store copied without its `-wal`.
    private(set) var warnings: [String] = []

    /// Copies and opens the store at `path`; `option` names the command-line option in messages.
    init(path: String, option: String = "--shape-from") throws {
        self.option = option
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw BenchError.invalidInput(
                "\(option): no store file at \(path); give the store's .sqlite file (SwiftData's default.store), with its -wal and -shm beside it"
            )
        }
        guard let file = FileHandle(forReadingAtPath: path) else {
            throw BenchError.invalidInput("\(option): \(path) cannot be read; check its permissions")
        }
        let header = (try? file.read(upToCount: 100)) ?? Data()
        try? file.close()
        guard header.count == 100, header.prefix(16) == Data("SQLite format 3\0".utf8) else {
            throw BenchError.invalidInput(
                "\(option): \(path) is not an SQLite database; a Core Data store is one (MyApp.sqlite, SwiftData's default.store)")
        }
        // Bytes 18 and 19 are 2 in a WAL database: its latest saves may be only in the -wal file.
        if header[18] == 2 && !manager.fileExists(atPath: path + "-wal") {
            warnings.append(
                "\(path) is in WAL mode and has no -wal file beside it: if it was copied while the app ran, its latest saves are in that file; copy \((path as NSString).lastPathComponent)-wal and -shm with it"
            )
        }
        folder = manager.temporaryDirectory.appendingPathComponent(
            "relbench-\(option == "--shape-from" ? "shape" : "dry-run")-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))"
        )
        let copy = folder.appendingPathComponent("store.sqlite").path
        copyPath = copy
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            for suffix in ["", "-wal", "-shm"] where manager.fileExists(atPath: path + suffix) {
                try manager.copyItem(atPath: path + suffix, toPath: copy + suffix)
            }
        } catch {
            try? manager.removeItem(at: folder)
            throw BenchError.io(
                "\(option): cannot copy \(path) into \(folder.path) (\(error.localizedDescription)); check that TMPDIR is writable")
        }
        do {
            database = try SQLiteReader(path: copy, writable: false)
        } catch {
            try? manager.removeItem(at: folder)
            throw BenchError.invalidInput("\(option): SQLite cannot open a copy of \(path); is it a complete store?")
        }
    }

    deinit {
        database = nil
        try? FileManager.default.removeItem(at: folder)
    }

    /// The rows of `sql`, each column as text (nil for NULL).
    func rows(_ sql: String) throws -> [[String?]] {
        do {
            // Set from the initializer until deinit.
            // swift-format-ignore: NeverForceUnwrap
            return try database!.textRows(sql)
        } catch {
            throw BenchError.invalidInput("\(option): the store cannot be read (\(error.message))")
        }
    }

    /// The table's column names, in order (empty when the store has no such table).
    func columns(of table: String) throws -> [String] {
        try rows("PRAGMA table_info(\"\(table)\")").compactMap { $0.count > 1 ? $0[1] : nil }
    }

    /// Whether the store has a table called `name`.
    func hasTable(_ name: String) throws -> Bool {
        try !rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '\(name.replacingOccurrences(of: "'", with: "''"))'").isEmpty
    }
}
