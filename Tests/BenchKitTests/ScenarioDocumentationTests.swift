import Foundation
import Testing

@testable import BenchKit

/// What documents the scenario files cannot drift from them: every shipped scenario matches the JSON Schema editors
/// validate with, and every key the shipped scenarios use is documented in Scenarios/README.md.
@Suite struct ScenarioDocumentationTests {
    static let folder = ScenarioCountersTests.scenariosFolder
    static var shipped: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            $0.hasSuffix(".json") && !$0.hasSuffix(".schema.json") && $0 != "budgets.json"
        }
        .sorted().map { (folder as NSString).appendingPathComponent($0) }
    }

    /// Runs python3 with jsonschema over `files`; nil (and a line saying so) where jsonschema is not installed.
    static func validate(_ files: [String]) throws -> (status: Int32, output: String)? {
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                sys.exit(3)
            validator = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
            failed = 0
            for path in sys.argv[2:]:
                for error in validator.iter_errors(json.load(open(path))):
                    failed += 1
                    print(path, "/".join(map(str, error.absolute_path)), error.message[:200])
            sys.exit(1 if failed else 0)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, (folder as NSString).appendingPathComponent("scenario.schema.json")] + files
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus == 3 {
            print("ScenarioDocumentationTests: skipped: python3 with jsonschema is not installed (pip install -r scripts/requirements.txt)")
            return nil
        }
        return (process.terminationStatus, text)
    }

    @Test func everyShippedScenarioMatchesTheSchema() throws {
        guard let result = try Self.validate(Self.shipped) else { return }
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func theSchemaRefusesWhatTheReaderRefuses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let query = try String(contentsOfFile: (Self.folder as NSString).appendingPathComponent("query.json"), encoding: .utf8)
        var files: [String] = []
        for (index, (old, new)) in [
            ("\"phases\"", "\"phasess\""), ("\"store\": \"prepared\"", "\"store\": \"prepard\""),
            ("\"objectgraph\"", "\"many-to-one\""), ("{\"read\": [\"name\"]}", "{\"reed\": [\"name\"]}"),
        ].enumerated() {
            let path = folder.appendingPathComponent("\(index).json").path
            try query.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
            files.append(path)
        }
        for file in files {
            guard let result = try Self.validate([file]) else { return }
            #expect(result.status == 1, "\(file)")
        }
    }

    /// Every key of the shipped scenarios (top level, data, variants, phases, steps, variables) appears in
    /// Scenarios/README.md as code.
    @Test func everyKeyTheShippedScenariosUseIsDocumented() throws {
        let readme = try String(contentsOfFile: (Self.folder as NSString).appendingPathComponent("README.md"), encoding: .utf8)
        var keys = Set<String>()
        func collect(_ value: Any, skipChildrenOf named: Set<String> = []) {
            if let object = value as? [String: Any] {
                for (key, child) in object {
                    keys.insert(key)
                    // Entity, relationship and attribute names, and variant values of choices, are not keys.
                    if ["entities", "relationships", "attributes", "variables", "children", "set", "when"].contains(key) {
                        (child as? [String: Any])?.values.forEach { collect($0) }
                    } else if key != "model" {
                        collect(child)
                    }
                }
            } else if let array = value as? [Any] {
                array.forEach { collect($0) }
            }
        }
        for file in Self.shipped {
            var object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any] ?? [:]
            object["model"] = nil
            collect(object)
        }
        // Choices by variant name the variant's values as keys: those are values, not keys.
        let values = Set(try ScenarioCatalog(folder: Self.folder).scenarios.flatMap { $0.axes.flatMap { $0.values.map(\.description) } })
        let undocumented = keys.subtracting(values).filter { !readme.contains("`\($0)`") && !readme.contains("\"\($0)\"") }
        #expect(undocumented.isEmpty, "Scenarios/README.md does not mention: \(undocumented.sorted().joined(separator: ", "))")
    }

    /// The README's Scenarios table is what `bench list --readme README.md` writes from the shipped files.
    @Test func theReadmeTableIsGeneratedFromTheShippedScenarios() throws {
        let readmePath = ((Self.folder as NSString).deletingLastPathComponent as NSString).appendingPathComponent("README.md")
        let readme = try String(contentsOfFile: readmePath, encoding: .utf8)
        let table = ScenarioListing.markdown(try ScenarioCatalog(folder: Self.folder))
        #expect(readme.contains(table), "README.md's Scenarios table is stale: run `swift run bench list --readme README.md`")
    }

    /// StepKind is the one table of step kinds: the JSON Schema names the same kinds (in the same order) and the same
    /// options, and Scenarios/README.md's table of steps lists every kind with options that kind takes.
    @Test func theStepKindsAreTheSchemasAndTheReadmes() throws {
        let schemaData = try Data(
            contentsOf: URL(fileURLWithPath: (Self.folder as NSString).appendingPathComponent("scenario.schema.json")))
        let schema = try #require(try JSONSerialization.jsonObject(with: schemaData) as? [String: Any])
        let step = try #require((schema["$defs"] as? [String: Any])?["step"] as? [String: Any])
        let required = (step["anyOf"] as? [[String: Any]] ?? []).compactMap { ($0["required"] as? [String])?.first }
        #expect(required == StepKind.names, "scenario.schema.json's $defs.step.anyOf names other kinds than StepKind")
        let names = Set((step["propertyNames"] as? [String: Any])?["enum"] as? [String] ?? [])
        let expected = Set(StepKind.names + StepKind.allCases.flatMap(\.options) + ["when"])
        #expect(
            names == expected,
            "scenario.schema.json's step keys differ from StepKind's: missing \(expected.subtracting(names).sorted()), extra \(names.subtracting(expected).sorted())"
        )

        let readme = try String(contentsOfFile: (Self.folder as NSString).appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "### Steps").dropFirst().first)
        let rows = section.split(separator: "\n").prefix { !$0.hasPrefix("#") }.filter { $0.hasPrefix("| `") }
        let allOptions = Set(StepKind.allCases.flatMap(\.options))
        var listed: [StepKind] = []
        for row in rows {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).map { String($0) }
            guard cells.count >= 4 else { continue }
            // `{"fetch": "Post"}`, or a kind named alone (`unlink`).
            let kinds = Self.codeSpans(cells[1]).compactMap { code -> StepKind? in
                if code.hasPrefix("{\"") { return StepKind(rawValue: String(code.dropFirst(2).prefix { $0 != "\"" })) }
                return StepKind(rawValue: code)
            }
            #expect(!kinds.isEmpty, "a row of the steps table names no step kind: \(row)")
            listed += kinds
            // An option's values follow it in parentheses (`result` (`objects`, `ids`, `count`)): not options.
            let optionText = cells[2].replacingOccurrences(of: "\\([^)]*\\)", with: "", options: .regularExpression)
            let options = Set(Self.codeSpans(optionText)).intersection(allOptions)
            for kind in kinds {
                #expect(
                    options.isSubset(of: kind.options),
                    "README.md lists \(options.subtracting(kind.options).sorted()) as options of \(kind.rawValue)")
            }
        }
        #expect(
            Set(listed) == Set(StepKind.allCases),
            "README.md's steps table lacks \(Set(StepKind.allCases).subtracting(listed).map(\.rawValue).sorted())")
    }

    /// The text of each `code` span of a Markdown table cell.
    static func codeSpans(_ text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
