import Foundation

/// The copies of the prepared store that a repetition's phases start on. A phase that changed no row (a fetch, a
/// count, a walk) leaves its copy as the template is, so the next prepared phase reopens that file instead of copying
/// the template again: a screen's read phase followed by a delete phase (chat-list) copies once. Each phase still
/// opens its own connection, with a cold page cache, as on a fresh copy.
struct TemplateCopies {
    /// The copy the last phase on a copy left unchanged, or nil.
    private var unchanged: String?
    /// The copy in use, until `done`.
    private var current: String?

    /// The copy for a prepared phase: the unchanged one, or a new one `make` copies.
    mutating func next(_ make: () throws -> String) throws -> String {
        let path = try unchanged ?? make()
        unchanged = nil
        current = path
        return path
    }

    /// The phases on the current copy (prepared, and any continuing it) are over.
    mutating func done(changed: Bool) {
        if let current, !changed { unchanged = current }
        current = nil
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
