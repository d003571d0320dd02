import Foundation
import SQLDebugLog

/// A finding as a baseline and a CI gate see it: `bench lint`'s, `bench advise`'s and `bench log`'s alike.
package protocol GatedFinding {
    /// Stable across runs, message wording and order: what a baseline lists.
    var fingerprint: String { get }
    /// The rule's kebab-case id (`many-to-nil-loss`, `to-many-fault-per-owner`).
    var ruleID: String { get }
    var severity: FindingSeverity { get }
    /// What it is about, as the text names it (`Tag.notes`; advise: `scenario strategy variant: phase Class.students`).
    var subjectText: String { get }
    /// One short line for a person reading the baseline file.
    var shortText: String { get }
}

/// The findings a team has accepted (`--write-baseline FILE`), by fingerprint: with `--baseline FILE` those are
/// shown as known and do not fail the gate, and only new findings do.
package struct FindingBaseline: Codable, Equatable, Sendable {
    /// The `format` every baseline file carries, so that another tool's JSON is told apart.
    package static let formatName = "relbench-findings-baseline"
    /// The version of the file's layout.
    package static let version = 1

    package struct Entry: Codable, Equatable, Sendable {
        package var fingerprint: String
        package var rule: String
        package var subject: String
        package var severity: FindingSeverity
        package var text: String
    }

    package var format: String
    package var version: Int
    /// The command that wrote it (`lint`, `advise`, `log`): a baseline of one is no baseline of another.
    package var command: String
    package var findings: [Entry]

    package init(command: String, findings: [any GatedFinding]) {
        format = Self.formatName
        version = Self.version
        self.command = command
        var seen = Set<String>()
        self.findings = findings.compactMap { finding in
            guard seen.insert(finding.fingerprint).inserted else { return nil }
            return Entry(
                fingerprint: finding.fingerprint, rule: finding.ruleID, subject: finding.subjectText, severity: finding.severity,
                text: finding.shortText)
        }
        .sorted { ($0.rule, $0.subject, $0.fingerprint) < ($1.rule, $1.subject, $1.fingerprint) }
    }

    /// The fingerprints listed.
    package var fingerprints: Set<String> { Set(findings.map(\.fingerprint)) }

    /// The JSON text, keys sorted, one finding per block: a diff of two baselines reads as the findings accepted.
    package func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// Writes it atomically (a reader never sees half a file).
    package func write(to path: String) throws {
        try AtomicFile.write(try encoded(), to: path)
    }

    /// The baseline at `path` for `command`; one line naming the file, what is wrong and what to do when it is
    /// missing, unreadable, another tool's file, of another layout or another command's.
    package static func load(_ path: String, command: String) throws -> FindingBaseline {
        let remedy = "write one with 'bench \(command) ... --write-baseline \(path)'"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw BenchError.invalidInput("--baseline \(path) does not exist; \(remedy)")
        }
        guard !isFolder.boolValue else { throw BenchError.invalidInput("--baseline \(path) is a folder; give a baseline file") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput("--baseline \(path) cannot be read; check its permissions")
        }
        struct Header: Decodable {
            let format: String?
            let version: Int?
            let command: String?
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.format == formatName else {
            throw BenchError.invalidInput(
                "--baseline \(path) is not a RelBench findings baseline (no \"format\": \"\(formatName)\"); \(remedy)")
        }
        guard header.version == version else {
            throw BenchError.invalidInput(
                "--baseline \(path) has layout version \(header.version.map(String.init) ?? "none"), this bench reads \(version); \(remedy)"
            )
        }
        guard header.command == command else {
            throw BenchError.invalidInput(
                "--baseline \(path) was written by 'bench \(header.command ?? "?")', not 'bench \(command)': findings of one command are no baseline of another; \(remedy)"
            )
        }
        do {
            return try JSONDecoder().decode(FindingBaseline.self, from: data)
        } catch let error as DecodingError {
            throw BenchError.invalidInput("--baseline \(path): \(error.plainDescription); \(remedy)")
        }
    }
}
