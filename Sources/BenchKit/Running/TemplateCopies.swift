import Foundation

/// The copies of the prepared store that a repetition's phases start on. A phase that changed no row (a fetch, a
/// count, a walk) leaves its copy as the template is, so the next prepared phase reopens that file instead of copying
/// the template again: a screen's read phase followed by a delete phase (chat-list) copies once. A phase that changed
/// rows on a store closed without a checkpoint (`StoreOptions.keepsWriteAheadLogOnClose`) left them in the write-ahead
/// log only: removing the log restores the template's bytes, so that copy is reopened too. Each phase still opens its
/// own connection, with a cold page cache, as on a fresh copy.
///
/// Profiled (`bench explain --model` of 600 entities, perf): the generated suite deletes from each entity in a phase
/// of its own, and copying the template (one table and its indexes per entity) before each was 37% of the run,
/// growing with the square of the entities.
struct TemplateCopies {
    /// The copy the last phase on a copy left unchanged, or nil.
    private var unchanged: String?
    /// The copy in use, until `done`, and its database file's identity when the phase began.
    private var current: (path: String, file: FileStamp?)?

    /// The copy for a prepared phase: the unchanged one, or a new one `make` copies.
    mutating func next(_ make: () throws -> String) throws -> String {
        let path = try unchanged ?? make()
        unchanged = nil
        current = (path, FileStamp(path))
        return path
    }

    /// The phases on the current copy (prepared, and any continuing it) are over; `closed`: its store is closed.
    mutating func done(changed: Bool, closed: Bool) {
        defer { current = nil }
        guard let current else { return }
        if !changed {
            unchanged = current.path
        } else if closed, let before = current.file, FileStamp(current.path) == before {
            // No checkpoint wrote the database file: every change is in the log, which goes with its index.
            var removed = true
            for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: current.path + suffix) {
                if (try? FileManager.default.removeItem(atPath: current.path + suffix)) == nil { removed = false }
            }
            if removed { unchanged = current.path }
        }
    }

    /// A file's device, inode, size and modification time: equal when nothing wrote it in between.
    struct FileStamp: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let seconds: Int
        let nanoseconds: Int

        init?(_ path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            size = Int64(status.st_size)
            #if os(Linux)
            seconds = Int(status.st_mtim.tv_sec)
            nanoseconds = Int(status.st_mtim.tv_nsec)
            #else
            seconds = Int(status.st_mtimespec.tv_sec)
            nanoseconds = Int(status.st_mtimespec.tv_nsec)
            #endif
        }
    }

    /// Copies the prepared database in as few system calls as the kernel allows: `sendfile` over the whole file
    /// (profiled: FileManager.copyItem sends 4 KiB a call, 3,932 calls for WordPress's 16 MB store at 1,000 objects,
    /// and copying was 27% of that run's samples); FileManager where the kernel refuses.
    static func copy(_ source: String, to path: String) throws {
        if sendWhole(source, to: path) { return }
        do {
            try? FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: source, toPath: path)
        } catch {
            throw BenchError.io("cannot copy the prepared database to \(path) (\(describe(error)))")
        }
    }

    private static func sendWhole(_ source: String, to path: String) -> Bool {
        #if os(Linux)
        let input = open(source, O_RDONLY)
        guard input >= 0 else { return false }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { return false }
        let output = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard output >= 0 else { return false }
        defer { close(output) }
        var remaining = Int(status.st_size)
        while remaining > 0 {
            let copied = sendfile(output, input, nil, remaining)
            guard copied > 0 else { return false }
            remaining -= copied
        }
        return true
        #else
        // Darwin's sendfile writes to sockets only: FileManager copies there.
        return false
        #endif
    }
}
