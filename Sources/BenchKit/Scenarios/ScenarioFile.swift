import Foundation

/// Reads scenario files (JSON), refusing anything unknown or mistyped with the file, the field and the reason: the one
/// parser of every scenario, shipped or a user's.
package enum ScenarioFile {
    /// The top-level keys of a scenario file (`$schema` names the JSON Schema an editor validates it with).
    static let fields = [
        "$schema", "name", "description", "model", "strategies", "data", "variants", "phases", "sizes", "repetitions", "warmup",
    ]

    /// Parses the scenario at `path`.
    package static func load(_ path: String) throws -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput("\(path): cannot read the file")
        }
        return try parse(data, file: path)
    }

    package static func parse(_ data: Data, file: String) throws -> Scenario {
        func fail(_ field: String?, _ reason: String) -> BenchError { .field(field, of: file, reason) }
        let root: [String: JSONValue]
        do {
            guard let object = try JSONDecoder().decode(JSONValue.self, from: data).object else {
                throw fail(nil, "expected a JSON object at the top level")
            }
            root = object
        } catch let error as BenchError {
            throw error
        } catch let error as DecodingError {
            guard case .dataCorrupted = error else { throw fail(nil, error.plainDescription) }
            throw fail(nil, "not valid JSON; python3 -m json.tool \"\(file)\" shows the line and column of the mistake")
        } catch {
            throw fail(nil, "not valid JSON (\(error))")
        }
        if let path = JSONValue.firstDuplicateKey(in: data) {
            throw fail(path, "given twice in one object; keep one (a JSON reader silently uses only one of them)")
        }
        if root["workload"] != nil || root["parameters"] != nil {
            throw fail(
                root["workload"] != nil ? "workload" : "parameters",
                "workloads written in Swift are gone: every scenario declares its model, data and phases (see Scenarios/README.md and the shipped scenarios, which declare the old workloads)"
            )
        }
        try refuseUnknownFields(root, known: fields, what: "unknown field", fail: fail)
        func string(_ field: String) throws -> String { try requiredString(root, field, fail: fail) }
        let name = try string("name")
        let description = try string("description")
        guard root["model"] != nil else {
            throw fail("model", "missing: a path to an Xcode model (relative to this file) or an inline model {\"entities\": [...]}")
        }
        var strategies: [Strategy] = []
        for item in root["strategies"]?.array ?? [.string("objectgraph"), .string("sql-replay")] {
            guard let text = item.string else { throw fail("strategies", "expected strategy names, got \(item)") }
            let strategy: Strategy
            do { strategy = try Strategy.runnable(named: text) } catch let error as BenchError {
                throw fail("strategies", error.description)
            }
            guard !strategies.contains(strategy) else { throw fail("strategies", "'\(text)' is named twice") }
            strategies.append(strategy)
        }
        guard !strategies.isEmpty else { throw fail("strategies", "expected objectgraph, sql-replay, raw-sqlite or grdb") }
        var axes: [VariantAxis] = []
        var rawAxes: [AxisName: [String: JSONValue]] = [:]
        if let raw = root["variants"], raw.array == nil {
            throw fail("variants", "expected an array of {\"name\": ..., \"values\": [...]}, got \(raw)")
        }
        for item in root["variants"]?.array ?? [] {
            guard let axis = item.object, let axisName = axis["name"]?.string, !axisName.isEmpty, let values = axis["values"]?.array,
                !values.isEmpty,
                Set(axis.keys).isSubset(of: ["name", "values", "change", "target", "keyAttribute", "ownerKey", "toManyInverse"])
            else {
                throw fail(
                    "variants",
                    "each variant is {\"name\": ..., \"values\": [...]} and, to change the model, \"change\" and \"target\"; got \(item)")
            }
            guard !axes.contains(where: { $0.name.rawValue == axisName }) else {
                throw fail("variants", "two variants named '\(axisName)'")
            }
            var parsed: [VariantValue] = []
            for value in values {
                switch value {
                case let .number(number): parsed.append(.number(number))
                case let .string(text) where !text.isEmpty && !text.contains(";") && !text.contains("="): parsed.append(.text(text))
                default: throw fail("variants", "'\(axisName)' values must be names (without ; or =) or numbers, got \(value)")
                }
                if let last = parsed.last, parsed.dropLast().contains(last) {
                    throw fail("variants", "'\(axisName)' names the value '\(last)' twice")
                }
            }
            axes.append(VariantAxis(name: AxisName(axisName), values: parsed))
            rawAxes[AxisName(axisName)] = axis
        }
        let (sizes, repetitions, warmup) = try schedule(root, fail: fail)
        var combinations: [[(name: AxisName, value: VariantValue)]] = [[]]
        for axis in axes { combinations = combinations.flatMap { prefix in axis.values.map { prefix + [(axis.name, $0)] } } }
        let variants = combinations.map(Variant.init)
        let declared = try DeclaredScenarioParser.parse(root, file: file, axes: axes, rawAxes: rawAxes, variants: variants)
        return Scenario(
            name: ScenarioName(name), description: description, declared: declared, strategies: strategies, axes: axes,
            sizes: sizes, repetitions: repetitions, warmup: warmup, file: file, origin: .file(absolutePath(file)))
    }

    /// `path` from the working folder, for run.json.
    private static func absolutePath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// A value per profile: one value for all, or an object with smoke, default and full.
    private static func perProfile<T>(
        _ field: String, _ raw: JSONValue?, fail: (String?, String) -> BenchError,
        convert: (JSONValue) -> T?, expected: () -> String
    ) throws -> [Profile: T] {
        guard let raw else { throw fail(field, "missing; give \(expected()), or an object with smoke, default and full") }
        if let object = raw.object {
            var result: [Profile: T] = [:]
            for (key, raw) in object.sorted(by: { $0.key < $1.key }) {
                guard let profile = Profile(rawValue: key) else {
                    throw fail(field, "unknown profile '\(key)'; use smoke, default and full")
                }
                guard let value = convert(raw) else { throw fail(field, "'\(key)': expected \(expected()), got \(raw)") }
                result[profile] = value
            }
            for profile in Profile.allCases where result[profile] == nil {
                throw fail(field, "missing the '\(profile.rawValue)' profile")
            }
            return result
        }
        guard let value = convert(raw) else {
            throw fail(field, "expected \(expected()) or an object with smoke, default and full, got \(raw)")
        }
        return Dictionary(uniqueKeysWithValues: Profile.allCases.map { ($0, value) })
    }

    /// Sizes, repetitions (default 5) and warmup (default 1), each one value or one per profile.
    private static func schedule(
        _ root: [String: JSONValue], fail: (String?, String) -> BenchError
    ) throws
        -> (sizes: [Profile: [Int]], repetitions: [Profile: Int], warmup: [Profile: Int])
    {
        let sizes = try perProfile("sizes", root["sizes"], fail: fail, convert: sizeList) {
            "an array of whole numbers from 1 to 100000000"
        }
        let repetitions = try perProfile("repetitions", root["repetitions"] ?? .number(5), fail: fail) {
            count(from: $0, minimum: 1)
        } expected: {
            "a whole number from 1 to 10000"
        }
        let warmup = try perProfile("warmup", root["warmup"] ?? .number(1), fail: fail) {
            count(from: $0, minimum: 0)
        } expected: {
            "a whole number from 0 to 10000"
        }
        return (sizes, repetitions, warmup)
    }

    /// Throws for the first field (in name order) not in `known`, naming the nearest known one.
    private static func refuseUnknownFields(
        _ root: [String: JSONValue], known: [String], what: String,
        fail: (String?, String) -> BenchError
    ) throws {
        for key in root.keys.sorted() where !known.contains(key) {
            var error = fail(key, what)
            error.nearest = nearNames(key, in: known).first
            error.allowed = "known fields: \(known.joined(separator: ", "))"
            throw error
        }
    }

    private static func requiredString(_ root: [String: JSONValue], _ field: String, fail: (String?, String) -> BenchError) throws -> String
    {
        guard let value = root[field] else { throw fail(field, "missing") }
        guard let text = value.string, !text.isEmpty else { throw fail(field, "expected a non-empty string, got \(value)") }
        return text
    }

    /// Sizes as whole numbers from 1 to 100,000,000 (a bound checked before converting: `Int(1e300)` traps).
    private static func sizeList(_ value: JSONValue) -> [Int]? {
        guard let list = value.array, !list.isEmpty else { return nil }
        let numbers = list.compactMap(\.number)
        guard numbers.count == list.count, numbers.allSatisfy({ $0 >= 1 && $0.rounded() == $0 && $0 <= 100_000_000 }) else { return nil }
        return numbers.map { Int($0) }
    }

    private static func count(from value: JSONValue, minimum: Int) -> Int? {
        guard let double = value.number, double.rounded() == double, double >= Double(minimum), double <= 10_000 else { return nil }
        return Int(double)
    }
}

/// The scenarios of a folder, by name.
package struct ScenarioCatalog: Sendable {
    package let scenarios: [Scenario]
    package let folder: String

    /// Loads every `*.json` in `folder`; a malformed file is an error naming it.
    package init(folder: String) throws {
        self.folder = folder
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw BenchError.invalidInput(
                "cannot read the scenario folder \(folder); pass --scenarios DIR pointing at the repository's Scenarios folder")
        }
        var scenarios: [Scenario] = []
        // `*.schema.json` is the scenario files' JSON Schema, for editors, and budgets.json the budgets `bench budget`
        // checks: neither is a scenario.
        for file in files.sorted() where file.hasSuffix(".json") && !file.hasSuffix(".schema.json") && file != "budgets.json" {
            let scenario = try ScenarioFile.load((folder as NSString).appendingPathComponent(file))
            if let other = scenarios.first(where: { $0.name == scenario.name }) {
                throw BenchError.invalidInput("\(scenario.file): scenario name '\(scenario.name)' is also used by \(other.file)")
            }
            scenarios.append(scenario)
        }
        self.scenarios = scenarios
    }

    /// The scenario called `name`, or an error with "did you mean ...?".
    package func scenario(named name: String) throws -> Scenario {
        if let scenario = scenarios.first(where: { $0.name.rawValue == name }) { return scenario }
        let names = scenarios.map(\.name.rawValue)
        let near = nearNames(name, in: names)
        throw BenchError.invalidInput(
            "unknown scenario '\(name)'" + (near.isEmpty ? "" : " (did you mean '\(near[0])'?)")
                + " in \(folder): 'bench list' lists its scenarios (\(names.prefix(20).joined(separator: ", "))\(names.count > 20 ? ", ..." : "")); --scenarios DIR reads your own folder of scenario files, --model MODEL runs the suite generated from an Xcode model"
        )
    }

    /// The repository's Scenarios folder: `./Scenarios`, else the one next to Package.swift above the executable.
    package static func defaultFolder() -> String {
        let manager = FileManager.default
        if manager.fileExists(atPath: "Scenarios") { return "Scenarios" }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            let candidate = url.appendingPathComponent("Scenarios")
            if manager.fileExists(atPath: url.appendingPathComponent("Package.swift").path), manager.fileExists(atPath: candidate.path) {
                return candidate.path
            }
            url.deleteLastPathComponent()
        }
        return "Scenarios"
    }
}
