import Foundation

/// Writes files so that a reader never sees a half-written one: to a temporary file, then renamed over.
///
/// A symbolic link is written through (its target replaced, the link kept); a device, pipe or socket (such as
/// /dev/stdout) is written to directly, since there is no file to replace.
package enum AtomicFile {
    package static func write(_ text: String, to path: String) throws {
        let target = finalTarget(path)
        let type = (try? FileManager.default.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
        if type == .typeDirectory {
            throw BenchError.invalidInput("cannot write \(path): it is a folder; give a file path")
        }
        do {
            if let descriptor = openDescriptor(path) {
                // /dev/stdout and the like: the process's own descriptor, after what print buffered, so that the
                // file a shell redirected into is neither replaced nor written over from its start.
                fflush(nil)
                try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).write(contentsOf: Data(text.utf8))
            } else if let type, type != .typeRegular {
                guard let handle = FileHandle(forWritingAtPath: target) else { throw CocoaError(.fileWriteNoPermission) }
                defer { try? handle.close() }
                try handle.write(contentsOf: Data(text.utf8))
            } else {
                try replace(target, with: Data(text.utf8))
            }
        } catch {
            throw BenchError.io("cannot write \(path) (\(describe(error))); check that the folder exists and is writable")
        }
    }

    /// Refuses, before any work, a path `write(_:to:)` could not write: a folder, or one in a folder that does not
    /// exist or is not writable (the write renames a new file over the old one, so the folder must take it);
    /// `option` names where the path came from. A link is followed as `write` follows it.
    package static func checkWritable(_ path: String, option: String) throws {
        guard openDescriptor(path) == nil else { return }
        let manager = FileManager.default
        let target = finalTarget(path)
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: target, isDirectory: &isFolder) {
            guard !isFolder.boolValue else { throw BenchError.invalidInput("\(option) \(path) is a folder; give a file path") }
            let type = (try? manager.attributesOfItem(atPath: target))?[.type] as? FileAttributeType
            // A device or pipe is written in place.
            if type != .typeRegular { return }
        }
        let folder = (target as NSString).deletingLastPathComponent
        let place = folder.isEmpty ? "." : folder
        guard manager.fileExists(atPath: place, isDirectory: &isFolder), isFolder.boolValue else {
            throw BenchError.invalidInput("\(option) \(path): the folder \(folder) does not exist; create it or give another path")
        }
        guard manager.isWritableFile(atPath: place) else {
            throw BenchError.invalidInput(
                "\(option) \(path): the folder \(folder) is not writable; check its permissions or give another path")
        }
    }

    /// The file `path` stands for: its links followed, through a chain of them, to the file they name, whether it
    /// exists yet or not (a link to a file not made yet means that file).
    static func finalTarget(_ path: String) -> String {
        var target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        for _ in 0..<32 {
            guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: target) else { break }
            let folder = (target as NSString).deletingLastPathComponent
            target = destination.hasPrefix("/") ? destination : (folder as NSString).appendingPathComponent(destination)
        }
        return target
    }

    /// The descriptor `path` names: 1 for /dev/stdout, 2 for /dev/stderr, N for /dev/fd/N and /proc/self/fd/N.
    static func openDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) { return Int32(path.dropFirst(prefix.count)) }
            return nil
        }
    }

    /// Refuses an `option`'s output path that is one of the reports of the run folders being read, or any other
    /// file they hold (their verdicts.md, their page).
    package static func refuseOverwriting(_ path: String?, option: String, reportsOf runs: [String]) throws {
        guard let path else { return }
        let output = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        for run in runs {
            let folder = URL(fileURLWithPath: run).resolvingSymlinksInPath().standardizedFileURL.path
            guard output.hasPrefix(folder + "/") else { continue }
            let name = String(output.dropFirst(folder.count + 1))
            if RunFolder.reportFiles.contains(name) || FileManager.default.fileExists(atPath: output) {
                throw BenchError.invalidInput("\(option) \(path) would overwrite the \(name) of run \(run); give another file")
            }
        }
    }
}

/// The system's words for a file error (its errno text when there is one), without Foundation's framing.
func describe(_ error: Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
    return nsError.localizedDescription
}
