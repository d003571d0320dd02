/// A `bench run` as the command line gave it, typed: what the CLI parsed, and what it hands a child `bench run`
/// (the one callgrind counts) as arguments again, option by option, so that no option is lost on the way.
package struct RunArguments: Sendable {
    package var scenarioNames: [String] = []
    package var all = false
    package var model: String?
    /// `--counts` and `--shape-from` of a generated suite.
    package var counts: [String: Int]?
    package var shapeFrom: String?
    package var sizes: [Int]?
    package var strategies: [Strategy]?
    package var variants: [VariantFilter]?
    package var repetitions: Int?
    package var warmup: Int?
    package var profile: Profile = .default
    package var seed: UInt64 = 42
    package var settings = StoreSettings()
    package var shard: Shard?
    /// The folder of scenario files, when not the repository's.
    package var scenariosFolder: String?

    package init() {}

    /// The arguments of a `bench run` that repeats this one into `output` with no warmups, no history, no advice
    /// pass and no progress: what the instruction count runs under callgrind.
    package func childCommandLine(output: String) -> [String] {
        var arguments = ["run"] + scenarioNames
        if all { arguments.append("--all") }
        if let model { arguments += ["--model", model] }
        if let counts {
            arguments += ["--counts", counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")]
        }
        if let shapeFrom { arguments += ["--shape-from", shapeFrom] }
        if let sizes { arguments += ["--sizes", sizes.map(String.init).joined(separator: ",")] }
        if let strategies { arguments += ["--strategies", strategies.map(\.rawValue).joined(separator: ",")] }
        for variant in variants ?? [] { arguments += ["--variant", variant.description] }
        if let repetitions { arguments += ["--repetitions", String(repetitions)] }
        arguments += ["--profile", profile.rawValue, "--seed", String(seed)]
        arguments += ["--page-cache-mib", String(settings.bulkPageCacheMiB)]
        if let read = settings.readPageCacheMiB { arguments += ["--read-page-cache-mib", String(read)] }
        if let shard { arguments += ["--shard", shard.description] }
        if let scenariosFolder { arguments += ["--scenarios", scenariosFolder] }
        return arguments + ["--warmup", "0", "--output", output, "--quiet", "--no-history", "--no-advice", "--allow-debug"]
    }
}

/// Shard K of N (`--shard 2/4`).
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    package let index: Int
    package let count: Int

    /// Parses `K/N` with 1 <= K <= N.
    package init(_ text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let index = parts[0], let count = parts[1], count >= 1, count <= 10_000, (1...count).contains(index) else {
            throw BenchError.invalidInput("--shard '\(text)' must be K/N with 1 <= K <= N, e.g. --shard 1/4")
        }
        self.index = index
        self.count = count
    }

    package var description: String { "\(index)/\(count)" }
}
