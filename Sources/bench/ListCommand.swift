import ArgumentParser
import BenchKit

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List every scenario with its description, strategies, variants and sizes per profile.")

    @OptionGroup var scenarios: ScenarioOptions

    func run() throws {
        let catalog = try scenarios.catalog()
        for scenario in catalog.scenarios {
            print("\(scenario.name) (\(scenario.runsText), \(scenario.file))")
            print("  \(scenario.description)")
            print("  strategies: \(scenario.strategies.map(\.rawValue).joined(separator: ", "))")
            if scenario.axes.isEmpty {
                print("  variants:   none")
            } else {
                for axis in scenario.axes {
                    print("  variant \(axis.name): \(axis.values.map(\.description).joined(separator: ", "))")
                }
            }
            print("  phases:     \(scenario.phaseNames.joined(separator: ", "))")
            for profile in Profile.allCases {
                let sizes = scenario.sizes[profile]?.map(String.init).joined(separator: ", ") ?? "-"
                print("  \(profile.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) sizes \(sizes); \(scenario.repetitions[profile] ?? 0) repetitions, \(scenario.warmup[profile] ?? 0) warmup")
            }
            if !scenario.parameters.isEmpty {
                print("  parameters: " + scenario.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\(formatNumber($0.value))" }.joined(separator: ", "))
            }
            print("")
        }
        print("strategies: a modelling, run by ObjectGraph; a peer stores the same modelling (raw-sqlite:many-to-many);")
        print("a bare peer name (raw-sqlite, grdb) selects that peer of every modelling a scenario runs")
        for modelling in Modelling.allCases {
            print("  \(modelling.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(modelling.summary)")
        }
        for implementation in StrategyID.Implementation.allCases where implementation != .objectGraph {
            print("  \(implementation.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(implementation.summary)")
        }
    }
}
