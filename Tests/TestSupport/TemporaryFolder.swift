import Foundation

/// A new, empty folder under the system's temporary folder for one test.
public enum TemporaryFolder {
    /// Creates `relbench-<kind>-<8 hex digits>`: the project's own temporary folders are named
    /// `relbench-<kind>-<pid>-<8 hex digits>`, so a test's folder never reads as a process's.
    public static func make(_ kind: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-\(kind)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
