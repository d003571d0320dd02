import Foundation

/// Reads scenario files (JSON), refusing anything unknown or mistyped with the file, the field and the reason.
public enum ScenarioFile {
    static let fields = ["name", "description", "workload", "strategies", "variants", "sizes", "repetitions", "warmup", "parameters"]

    /// Parses the scenario at `path`.
    public static func load(_ path: String) throws -> Scenario {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput("\(path): cannot read the file")
        }
        return try parse(data, file: path)
    }

    public static func parse(_ data: Data, file: String) throws -> Scenario {
        func fail(_ field: String?, _ reason: String) -> BenchError {
            .invalidInput("\(file): " + (field.map { "field '\($0)': " } ?? "") + reason)
        }
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
        if root["model"] != nil { return try parseDeclared(root, file: file, fail: fail) }
        try refuseUnknownFields(root, known: fields, what: "unknown field", fail: fail)
        func string(_ field: String) throws -> String { try requiredString(root, field, fail: fail) }
        let name = try string("name")
        let description = try string("description")
        let workloadName = try string("workload")
        guard let workload = Workloads.named(workloadName) else {
            let names = Workloads.all.map { $0.spec.name }
            let near = nearNames(workloadName, in: names)
            throw fail("workload", "unknown workload '\(workloadName)'" + (near.isEmpty ? "; known: \(names.joined(separator: ", "))" : " (did you mean '\(near[0])'?)"))
        }
        let spec = workload.spec

        guard let strategyList = root["strategies"]?.array, !strategyList.isEmpty else {
            throw fail("strategies", root["strategies"] == nil ? "missing" : "expected a non-empty array of strategy names, got \(root["strategies"]!)")
        }
        var selectors: [StrategySelector] = []
        for item in strategyList {
            guard let text = item.string else { throw fail("strategies", "expected strategy names, got \(item)") }
            guard let selector = StrategySelector(text) else {
                let near = StrategyID.suggestions(for: text)
                throw fail("strategies", "unknown strategy '\(text)'" + (near.isEmpty ? "; known: \(Modelling.allCases.map(\.rawValue).joined(separator: ", ")), raw-sqlite, grdb, or a peer of one modelling as raw-sqlite:many-to-one" : " (did you mean '\(near[0])'?)"))
            }
            guard spec.strategies.contains(where: selector.matches) else {
                throw fail("strategies", "workload '\(spec.name)' does not support strategy '\(text)'; it supports \(spec.supportedStrategiesText)")
            }
            selectors.append(selector)
        }
        // A bare peer (raw-sqlite) stands for that peer of each ObjectGraph modelling listed.
        let strategies = StrategySelector.expand(selectors, available: spec.strategies)

        var axes: [(name: String, values: [VariantValue])] = []
        if let raw = root["variants"] {
            guard let list = raw.array else { throw fail("variants", "expected an array of {\"name\": ..., \"values\": [...]}, got \(raw)") }
            for item in list {
                guard let axis = item.object, let axisName = axis["name"]?.string, let values = axis["values"]?.array,
                      Set(axis.keys) == ["name", "values"], !values.isEmpty else {
                    throw fail("variants", "each variant is {\"name\": \"...\", \"values\": [...]} with at least one value, got \(item)")
                }
                guard let variantSpec = spec.variants.first(where: { $0.name == axisName }) else {
                    let near = nearNames(axisName, in: spec.variants.map(\.name))
                    throw fail("variants", "workload '\(spec.name)' has no variant '\(axisName)'" + (near.isEmpty ? "" : " (did you mean '\(near[0])'?)"))
                }
                var parsed: [VariantValue] = []
                for value in values {
                    let variantValue: VariantValue
                    switch value {
                    case let .number(number): variantValue = .number(number)
                    case let .string(text): variantValue = .text(text)
                    default: throw fail("variants", "'\(axisName)' values must be names or numbers, got \(value)")
                    }
                    if let problem = variantSpec.check(variantValue) { throw fail("variants", "'\(axisName)': \(problem)") }
                    parsed.append(variantValue)
                }
                axes.append((axisName, parsed))
            }
        }
        for variantSpec in spec.variants where !axes.contains(where: { $0.name == variantSpec.name }) {
            throw fail("variants", "workload '\(spec.name)' needs a '\(variantSpec.name)' variant (\(variantSpec.help))")
        }

        let (sizes, repetitions, warmup) = try schedule(root, fail: fail)

        var parameters: [String: Double] = [:]
        for parameter in spec.parameters { parameters[parameter.name] = parameter.defaultValue }
        if let raw = root["parameters"] {
            guard let given = raw.object else { throw fail("parameters", "expected an object, got \(raw)") }
            for (key, value) in given.sorted(by: { $0.key < $1.key }) {
                guard let parameter = spec.parameters.first(where: { $0.name == key }) else {
                    let near = nearNames(key, in: spec.parameters.map(\.name))
                    let known = spec.parameters.map(\.name).joined(separator: ", ")
                    throw fail("parameters", "workload '\(spec.name)' has no parameter '\(key)'" + (near.isEmpty ? (known.isEmpty ? "" : "; it has: \(known)") : " (did you mean '\(near[0])'?)"))
                }
                guard let number = value.number else {
                    throw fail("parameters", "'\(key)' must be a number, got \(value)")
                }
                guard parameter.range.contains(number), !parameter.integer || number.rounded() == number else {
                    throw fail("parameters", "'\(key)' must be \(parameter.integer ? "an integer" : "a number") in \(VariantValue.number(parameter.range.lowerBound))...\(VariantValue.number(parameter.range.upperBound)), got \(VariantValue.number(number))")
                }
                parameters[key] = number
            }
        }
        return Scenario(name: name, description: description, workload: workload, declared: nil, strategies: strategies, axes: axes,
                        sizes: sizes, repetitions: repetitions, warmup: warmup, parameters: parameters, file: file,
                        origin: .file(absolutePath(file)))
    }

    /// A scenario that declares its model, data and phases (see `DeclaredScenario`).
    private static func parseDeclared(_ root: [String: JSONValue], file: String, fail: (String?, String) -> BenchError) throws -> Scenario {
        let fields = DeclaredScenarioParser.fields
        try refuseUnknownFields(root, known: fields, what: "unknown field for a scenario with its own model", fail: fail)
        func string(_ field: String) throws -> String { try requiredString(root, field, fail: fail) }
        let name = try string("name")
        let description = try string("description")
        var strategies: [StrategyID] = []
        for item in root["strategies"]?.array ?? [.string("objectgraph"), .string("sql-replay")] {
            guard let text = item.string, let strategy = StrategyID(rawValue: text), strategy.modelling == nil else {
                throw fail("strategies", "a scenario with its own model runs objectgraph and sql-replay, got \(item)")
            }
            if !strategies.contains(strategy) { strategies.append(strategy) }
        }
        guard !strategies.isEmpty else { throw fail("strategies", "expected objectgraph, sql-replay or both") }
        var axes: [(name: String, values: [VariantValue])] = []
        var rawAxes: [String: [String: JSONValue]] = [:]
        for item in root["variants"]?.array ?? [] {
            guard let axis = item.object, let axisName = axis["name"]?.string, !axisName.isEmpty, let values = axis["values"]?.array, !values.isEmpty,
                  Set(axis.keys).isSubset(of: ["name", "values", "change", "target", "attribute", "destinationKey"]) else {
                throw fail("variants", "each variant is {\"name\": ..., \"values\": [...]} and, to change the model, \"change\" and \"target\"; got \(item)")
            }
            guard !axes.contains(where: { $0.name == axisName }) else { throw fail("variants", "two variants named '\(axisName)'") }
            var parsed: [VariantValue] = []
            for value in values {
                switch value {
                case let .number(number): parsed.append(.number(number))
                case let .string(text) where !text.isEmpty && !text.contains(";") && !text.contains("="): parsed.append(.text(text))
                default: throw fail("variants", "'\(axisName)' values must be names (without ; or =) or numbers, got \(value)")
                }
            }
            axes.append((axisName, parsed))
            rawAxes[axisName] = axis
        }
        let (sizes, repetitions, warmup) = try schedule(root, fail: fail)
        var combinations: [[(name: String, value: VariantValue)]] = [[]]
        for axis in axes { combinations = combinations.flatMap { prefix in axis.values.map { prefix + [(axis.name, $0)] } } }
        let declared = try DeclaredScenarioParser.parse(root, file: file, axes: axes, rawAxes: rawAxes, variants: combinations.map(Variant.init))
        return Scenario(name: name, description: description, workload: nil, declared: declared, strategies: strategies, axes: axes,
                        sizes: sizes, repetitions: repetitions, warmup: warmup, parameters: [:], file: file,
                        origin: .file(absolutePath(file)))
    }

    /// `path` from the working folder, for run.json.
    private static func absolutePath(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// A value per profile: one value for all, or an object with smoke, default and full.
    private static func perProfile<T>(_ field: String, _ raw: JSONValue?, fail: (String?, String) -> BenchError,
                                      convert: (JSONValue) -> T?, expected: () -> String) throws -> [Profile: T] {
        guard let raw else { throw fail(field, "missing; give \(expected()), or an object with smoke, default and full") }
        if let object = raw.object {
            var result: [Profile: T] = [:]
            for key in object.keys.sorted() {
                guard let profile = Profile(rawValue: key) else {
                    throw fail(field, "unknown profile '\(key)'; use smoke, default and full")
                }
                guard let value = convert(object[key]!) else { throw fail(field, "'\(key)': expected \(expected()), got \(object[key]!)") }
                result[profile] = value
            }
            for profile in Profile.allCases where result[profile] == nil {
                throw fail(field, "missing the '\(profile.rawValue)' profile")
            }
            return result
        }
        guard let value = convert(raw) else { throw fail(field, "expected \(expected()) or an object with smoke, default and full, got \(raw)") }
        return Dictionary(uniqueKeysWithValues: Profile.allCases.map { ($0, value) })
    }

    /// Sizes, repetitions (default 5) and warmup (default 1), each one value or one per profile.
    private static func schedule(_ root: [String: JSONValue], fail: (String?, String) -> BenchError) throws
        -> (sizes: [Profile: [Int]], repetitions: [Profile: Int], warmup: [Profile: Int]) {
        let sizes = try perProfile("sizes", root["sizes"], fail: fail, convert: sizeList) { "an array of positive integers" }
        let repetitions = try perProfile("repetitions", root["repetitions"] ?? .number(5), fail: fail) { count(from: $0, minimum: 1) } expected: { "a positive integer" }
        let warmup = try perProfile("warmup", root["warmup"] ?? .number(1), fail: fail) { count(from: $0, minimum: 0) } expected: { "a non-negative integer" }
        return (sizes, repetitions, warmup)
    }

    /// Throws for the first field (in name order) not in `known`, naming the nearest known one.
    private static func refuseUnknownFields(_ root: [String: JSONValue], known: [String], what: String,
                                            fail: (String?, String) -> BenchError) throws {
        for key in root.keys.sorted() where !known.contains(key) {
            let near = nearNames(key, in: known)
            throw fail(key, what + (near.isEmpty ? "; known fields: \(known.joined(separator: ", "))" : " (did you mean '\(near[0])'?)"))
        }
    }

    private static func requiredString(_ root: [String: JSONValue], _ field: String, fail: (String?, String) -> BenchError) throws -> String {
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
public struct ScenarioCatalog: Sendable {
    public let scenarios: [Scenario]
    public let folder: String

    /// Loads every `*.json` in `folder`; a malformed file is an error naming it.
    public init(folder: String) throws {
        self.folder = folder
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            throw BenchError.invalidInput("cannot read the scenario folder \(folder); pass --scenarios DIR pointing at the repository's Scenarios folder")
        }
        var scenarios: [Scenario] = []
        for file in files.sorted() where file.hasSuffix(".json") {
            let scenario = try ScenarioFile.load((folder as NSString).appendingPathComponent(file))
            if let other = scenarios.first(where: { $0.name == scenario.name }) {
                throw BenchError.invalidInput("\(scenario.file): scenario name '\(scenario.name)' is also used by \(other.file)")
            }
            scenarios.append(scenario)
        }
        self.scenarios = scenarios
    }

    /// The scenario called `name`, or an error with "did you mean ...?".
    public func scenario(named name: String) throws -> Scenario {
        if let scenario = scenarios.first(where: { $0.name == name }) { return scenario }
        let near = nearNames(name, in: scenarios.map(\.name))
        throw BenchError.invalidInput("unknown scenario '\(name)'" + (near.isEmpty
            ? "; run 'bench list' to see the scenarios (\(scenarios.map(\.name).joined(separator: ", ")))"
            : " (did you mean '\(near[0])'?)"))
    }

    /// The repository's Scenarios folder: `./Scenarios`, else the one next to Package.swift above the executable.
    public static func defaultFolder() -> String {
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
