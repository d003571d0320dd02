import Foundation

/// A `bench run` as the command line gave it, typed: what `RunPipeline.plan` plans a run from, and what the child an
/// `--instructions` run starts under callgrind reads back from a file (`ChildRunPlan`), so that no option is lost
/// on the way.
package struct RunArguments: Sendable, Codable, Equatable {
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
    /// `--fixed-repetitions`: the profile's repetitions and no more, without sequential rounds (nil: sequential
    /// where the profile is, see `RunRequest.sequential`).
    package var fixedRepetitions: Bool?
    package var warmup: Int?
    package var profile: Profile = .default
    package var seed: UInt64 = 42
    package var settings = StoreSettings()
    package var shard: Shard?
    /// The folder of scenario files, when not the repository's.
    package var scenariosFolder: String?

    package init() {}
}

/// What the child of an `--instructions` run executes under callgrind: the parent's arguments without warmups, the
/// generated suite's options the parent resolved (a store's shape read once), and the folder to write, handed over
/// as a JSON file (`bench run --plan FILE`) rather than as options rebuilt into an argv. The child writes no
/// history, no advice and no progress.
package struct ChildRunPlan: Codable, Equatable, Sendable {
    package var arguments: RunArguments
    package var suiteOptions: GeneratedSuite.Options?
    package var output: String

    package init(arguments: RunArguments, suiteOptions: GeneratedSuite.Options?, output: String) {
        var arguments = arguments
        arguments.warmup = 0
        // Instructions are exact: a round more would only cost valgrind's time.
        arguments.fixedRepetitions = true
        self.arguments = arguments
        self.suiteOptions = suiteOptions
        self.output = output
    }

    package func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(String(decoding: try encoder.encode(self), as: UTF8.self) + "\n", to: path)
    }

    /// The plan in `path`; a file that is none is refused with what it is for.
    package static func load(_ path: String) throws -> ChildRunPlan {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchError.invalidInput(
                "cannot read the run plan \(path); --plan is how an --instructions run starts its child under callgrind")
        }
        do {
            return try JSONDecoder().decode(ChildRunPlan.self, from: data)
        } catch let error as DecodingError {
            throw BenchError.invalidInput(
                "\(path): \(error.plainDescription(of: data)); --plan takes the file an --instructions run writes")
        }
    }
}

/// Shard K of N (`--shard 2/4`).
package struct Shard: Sendable, Equatable, CustomStringConvertible, Codable {
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

    package init(from decoder: any Decoder) throws { try self.init(try decoder.singleValueContainer().decode(String.self)) }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
