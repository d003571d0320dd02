import ArgumentParser
import BenchKit
import Foundation

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract:
            "Every fetch in an app's Swift sources (@Query, @FetchRequest, FetchDescriptor, NSFetchRequest, NSFetchedResultsController, objects by identifier): what it fetches and reads, run as a scenario, and the edit that removes an N+1 with the statements it saves. Needs the build with Swift sources: "
            + ModelSource.buildCommand
    )

    @Argument(help: "The app's Swift sources: a folder (searched with its subfolders, test folders left out) or a .swift file.")
    var path: String

    @Option(
        help:
            "The model the fetches use, when not found under PATH: an Xcode model (Core Data screens) or a folder of SwiftData @Model sources (repeatable)."
    )
    var model: [String] = []

    @Option(help: "Write a scenario file per fetch site into this folder (new or empty), for bench run --scenarios DIR.")
    var output: String?

    @Option(
        help:
            "Objects per entity for the advice and the scenarios' data, comma-separated (Customer=10000,Order=50000); the other entities follow through the model's relationships.",
        transform: parseCounts)
    var counts: [String: Int]?

    @Option(help: "A Core Data or SwiftData store (default.store) whose shape the data follows: rows per entity, members per owner.")
    var shapeFrom: String?

    @Option(
        parsing: .unconditional, help: "Objects of every entity for the advice when --counts and --shape-from give none (default 1000).")
    var size: Int?

    @Option(parsing: .unconditional, help: "Repeats of one statement in a fetch site above which it is flagged.")
    var threshold = 10

    @Flag(help: "Exit with code 1 when a fetch site has an N+1 (for a CI gate; a suggestion, such as a batch size, does not fail).")
    var failOnFindings = false

    func validate() throws {
        guard (1...1_000_000).contains(size ?? 1000) else {
            throw BenchError.invalidInput("--size \(size ?? 0) must be a whole number from 1 to 1000000")
        }
        guard threshold >= 1 else { throw BenchError.invalidInput("--threshold must be a positive integer") }
        guard counts == nil || size == nil else {
            throw BenchError.invalidInput("--counts gives the data's size per entity; leave out --size (or --counts)")
        }
    }

    func run() throws {
        #if SwiftSources
        try ScanRun(command: self).run()
        #else
        throw ModelSource.notBuilt("bench scan")
        #endif
    }
}
