import ArgumentParser
import BenchKit
import Foundation

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List every scenario with its description, model, strategies, variants, phases and sizes per profile.")

    @Flag(help: "Print the scenarios as the README's Markdown table instead.")
    var markdown = false

    @Option(help: "Replace the scenario table of this README (between its scenarios markers) with the generated one.")
    var readme: String?

    @OptionGroup var scenarios: ScenarioOptions

    func run() throws {
        let catalog = try scenarios.catalog()
        if let readme {
            guard let text = try? String(contentsOfFile: readme, encoding: .utf8) else {
                throw BenchError.invalidInput("cannot read \(readme); give the README to update")
            }
            try AtomicFile.write(try ScenarioListing.replace(in: text, with: ScenarioListing.markdown(catalog), file: readme), to: readme)
            print("updated the scenario table of \(readme)")
            return
        }
        print(markdown ? ScenarioListing.markdown(catalog) : ScenarioListing.text(catalog))
    }
}
