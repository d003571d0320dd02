/// `bench list`: every scenario of a catalog as text, or as the Markdown table the README's Scenarios section is
/// generated from (`bench list --readme README.md`), so that the README cannot drift from the files.
package enum ScenarioListing {
    package static let begin = "<!-- scenarios:begin -->"
    package static let end = "<!-- scenarios:end -->"

    /// A block per scenario: description, model, strategies, variants, phases and sizes per profile; then the
    /// strategies and modellings.
    package static func text(_ catalog: ScenarioCatalog) -> String {
        var lines: [String] = []
        for scenario in catalog.scenarios {
            lines.append("\(scenario.name) (model \(scenario.modelSource), \(scenario.file))")
            lines.append("  \(scenario.description)")
            lines.append("  strategies: \(scenario.strategies.map(\.rawValue).joined(separator: ", "))")
            if scenario.axes.isEmpty {
                lines.append("  variants:   none")
            } else {
                for axis in scenario.axes {
                    lines.append("  variant \(axis.name): \(axis.values.map(\.description).joined(separator: ", "))")
                }
            }
            lines.append("  phases:     \(scenario.phaseNames.map(\.rawValue).joined(separator: ", "))")
            for profile in Profile.allCases {
                let sizes = scenario.sizes[profile]?.map(String.init).joined(separator: ", ") ?? "-"
                lines.append(
                    "  \(profile.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) sizes \(sizes); \(scenario.repetitions[profile] ?? 0) repetitions, \(scenario.warmup[profile] ?? 0) warmup"
                )
            }
            lines.append("")
        }
        lines.append("strategies (--strategies):")
        for strategy in Strategy.allCases {
            lines.append("  \(strategy.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)) \(strategy.summary)")
        }
        lines.append("modellings (the values of a 'modelling' variant, --variant modelling=NAME):")
        for modelling in Modelling.allCases {
            lines.append("  \(modelling.rawValue.padding(toLength: 20, withPad: " ", startingAt: 0)) \(modelling.summary)")
        }
        return lines.joined(separator: "\n")
    }

    /// The README's table: one row per scenario with what it measures, its model, variants and phases, and the
    /// strategies that run it; between the section's markers.
    package static func markdown(_ catalog: ScenarioCatalog) -> String {
        var lines = [begin, "| scenario | what it measures | model | variants | phases | strategies |", "|---|---|---|---|---|---|"]
        for scenario in catalog.scenarios {
            let model =
                scenario.modelSource.hasPrefix("models/")
                ? "`\(String(scenario.modelSource.dropFirst("models/".count)).replacingOccurrences(of: ".xcdatamodeld", with: ""))`"
                : scenario.modelSource
            let variants = scenario.axes.map { axis in "`\(axis.name)`: \(axis.values.map(\.description).joined(separator: ", "))" }
                .joined(separator: "<br>")
            lines.append(
                "| `\(scenario.name)` | \(cell(scenario.description)) | \(model) | \(variants.isEmpty ? "-" : variants) | "
                    + scenario.phaseNames.map { "`\($0)`" }.joined(separator: ", ") + " | "
                    + scenario.strategies.map(\.rawValue).joined(separator: ", ") + " |")
        }
        lines.append(end)
        return lines.joined(separator: "\n")
    }

    /// `text` with its Scenarios section replaced (or an error naming the missing markers).
    package static func replace(in text: String, with section: String, file: String) throws -> String {
        guard let start = text.range(of: begin), let stop = text.range(of: end), start.lowerBound < stop.lowerBound else {
            throw BenchError.invalidInput("\(file) has no \(begin) ... \(end) markers: add them where the scenario table goes")
        }
        return String(text[..<start.lowerBound]) + section + String(text[stop.upperBound...])
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
}
