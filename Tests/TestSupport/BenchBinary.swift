import Foundation

/// The `bench` binary built beside the tests, run as a user runs it: its output, messages and exit code.
public enum BenchBinary {
    /// The repository's folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The bench executable next to the test bundle (or the debug build's).
    public static var path: String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bench").path,
            root.appendingPathComponent(".build/debug/bench").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }

    /// What a run printed, and its exit code.
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
        public let error: String
    }

    /// `bench` with `arguments`, in `folder` (the repository by default), with `environment` added to this process's.
    public static func run(_ arguments: [String], in folder: URL = root, environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        // Messages go to a file, not a second pipe: reading one pipe to its end while the child fills the other's
        // 64 KB buffer would hang both.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorFile.path])
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let error = try FileHandle(forWritingTo: errorFile)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try error.close()
        let errorData = try Data(contentsOf: errorFile)
        return Result(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self))
    }
}
