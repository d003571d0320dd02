#if SwiftSources
import Foundation
import SwiftParser
import SwiftSyntax

/// What a Swift source path holds that RelBench cannot read, as one line naming the path and what to give instead.
public struct SwiftSourceError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One Swift file parsed with swift-syntax's parser (syntax only: no type checking, no macro expansion).
struct SourceFile {
    /// The path as given or found, for `File.swift:LINE` in messages.
    let path: String
    let tree: SourceFileSyntax
    let converter: SourceLocationConverter

    /// The 1-based line where `node` starts (its leading trivia, such as a doc comment, left out).
    func line(of node: some SyntaxProtocol) -> Int {
        node.startLocation(converter: converter, afterLeadingTrivia: true).line
    }

    /// `Views/TripList.swift:24` relative to `root`.
    func location(of node: some SyntaxProtocol, root: String) -> String {
        "\(SwiftSources.relative(path, to: root)):\(line(of: node))"
    }
}

/// The Swift files under a path: one `.swift` file, or every one in a folder and its subfolders but build output,
/// dependencies and version control (`.build`, `DerivedData`, `Pods`, `Carthage`, `.git`, `checkouts`, hidden
/// folders). Files under a folder named `*Tests` are left out of models and scans (test doubles declare `@Model`
/// classes and fetches an app does not run) and counted in a note.
public enum SwiftSources {
    /// The largest Swift file read: 4 MiB, far above any hand-written source (generated ones are skipped with a note).
    static let maximumFileSize = 4 * 1_048_576
    /// The most Swift files read under one path.
    static let maximumFiles = 20_000
    static let skippedFolders: Set<String> = ["DerivedData", "Pods", "Carthage", "checkouts", "node_modules", "build", "Build"]

    /// The files under `path`, parsed, and notes on what was skipped.
    static func load(_ path: String) throws -> (files: [SourceFile], notes: [String]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SwiftSourceError("\(path): no such file or folder; give a .swift file or a folder of Swift sources")
        }
        var notes: [String] = []
        var paths: [String] = []
        var testFiles = 0
        if !isDirectory.boolValue {
            guard path.hasSuffix(".swift") else {
                throw SwiftSourceError("\(path): not a .swift file; give Swift sources (a file or a folder) or an Xcode model")
            }
            paths = [path]
        } else {
            let root = URL(fileURLWithPath: path)
            guard
                let enumerator = FileManager.default.enumerator(
                    at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsPackageDescendants])
            else { throw SwiftSourceError("\(path): the folder cannot be read; check its permissions") }
            for case let url as URL in enumerator {
                let name = url.lastPathComponent
                if (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory == true {
                    if name.hasPrefix(".") || skippedFolders.contains(name) { enumerator.skipDescendants() }
                    if name.hasSuffix("Tests") && url.path != root.path {
                        enumerator.skipDescendants()
                        testFiles += countSwiftFiles(url)
                    }
                    continue
                }
                guard name.hasSuffix(".swift") else { continue }
                paths.append(url.path)
                if paths.count > maximumFiles {
                    throw SwiftSourceError(
                        "\(path): more than \(maximumFiles) Swift files; give the app's own source folder rather than a whole checkout")
                }
            }
            paths.sort()
        }
        if testFiles > 0 {
            notes.append("skipped \(testFiles) Swift file(s) in test folders (*Tests): test code is not the app's model or screens")
        }
        var files: [SourceFile] = []
        for file in paths {
            let size = (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int ?? 0
            if size > maximumFileSize {
                notes.append(
                    "\(relative(file, to: path)): \(size / 1_048_576) MiB, over the \(maximumFileSize / 1_048_576) MiB read; skipped (generated code?)"
                )
                continue
            }
            guard let data = FileManager.default.contents(atPath: file) else {
                notes.append("\(relative(file, to: path)): cannot be read; skipped")
                continue
            }
            guard let text = String(data: data, encoding: .utf8) else {
                notes.append("\(relative(file, to: path)): not UTF-8 text; skipped")
                continue
            }
            let tree = Parser.parse(source: text)
            files.append(SourceFile(path: file, tree: tree, converter: SourceLocationConverter(fileName: file, tree: tree)))
        }
        if files.isEmpty && paths.isEmpty {
            throw SwiftSourceError("\(path): no .swift files in it; give the folder of the app's Swift sources")
        }
        return (files, notes)
    }

    private static func countSwiftFiles(_ folder: URL) -> Int {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var count = 0
        while count < maximumFiles, let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "swift" { count += 1 }
        }
        return count
    }

    /// `path` relative to `root` (a folder), or its file name when `root` is the file itself.
    static func relative(_ path: String, to root: String) -> String {
        // The files found in a folder have absolute paths, while the folder is as the user typed it (`MyApp`, `./MyApp/`).
        for resolve in [{ (url: URL) in url.standardizedFileURL }, { (url: URL) in url.resolvingSymlinksInPath() }] {
            let folder = resolve(URL(fileURLWithPath: root)).path
            let base = folder.hasSuffix("/") ? folder : folder + "/"
            let file = resolve(URL(fileURLWithPath: path)).path
            if file.hasPrefix(base) { return String(file.dropFirst(base.count)) }
        }
        return (path as NSString).lastPathComponent
    }
}
#endif
