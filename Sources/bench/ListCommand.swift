import ArgumentParser
import BenchKit

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List every scenario with its description, strategies, variants and sizes per profile.")

    @OptionGroup var scenarios: ScenarioOptions

    func run() throws {
        let catalog = try scenarios.catalog()
        for scenario in catalog.scenarios {
            print("\(scenario.name) (model \(scenario.modelSource), \(scenario.file))")
            print("  \(scenario.description)")
            print("  strategies: \(scenario.strategies.map(\.rawValue).joined(separator: ", "))")
            if scenario.axes.isEmpty {
                print("  variants:   none")
            } else {
                for axis in scenario.axes {
                    print("  variant \(axis.name): \(axis.values.map(\.description).joined(separator: ", "))")
                }
            }
            print("  phases:     \(scenario.phaseNames.map(\.rawValue).joined(separator: ", "))")
            for profile in Profile.allCases {
                let sizes = scenario.sizes[profile]?.map(String.init).joined(separator: ", ") ?? "-"
                print(
                    "  \(profile.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) sizes \(sizes); \(scenario.repetitions[profile] ?? 0) repetitions, \(scenario.warmup[profile] ?? 0) warmup"
                )
            }
            print("")
        }
        print("strategies (--strategies):")
        for strategy in Strategy.allCases {
            print("  \(strategy.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)) \(strategy.summary)")
        }
        print("modellings (the values of a 'modelling' variant, --variant modelling=NAME):")
        for modelling in Modelling.allCases {
            print("  \(modelling.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)) \(modelling.summary)")
        }
    }
}
