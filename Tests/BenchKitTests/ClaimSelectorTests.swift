import Foundation
import Testing

@testable import BenchKit

/// Every claim reads series the shipped scenarios measure: a renamed phase, axis or value, or a metric the phase
/// never reports, would leave the claim "not measured" in every run without a word.
@Suite struct ClaimSelectorTests {
    @Test func everySelectorNamesASeriesTheShippedScenariosMeasure() throws {
        let catalog = try ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder)
        var problems: [String] = []
        var checked = 0
        for claim in ClaimCatalog.all {
            for (series, metric) in claim.rule.selections {
                checked += 1
                let here = "\(claim.id): \(series) \(metric.rawValue)"
                guard claim.scenarios.contains(series.scenario) else {
                    problems.append("\(here): the claim's scenarios (\(claim.scenarios)) do not list \(series.scenario)")
                    continue
                }
                guard let scenario = catalog.scenarios.first(where: { $0.name == series.scenario }) else {
                    problems.append("\(here): no shipped scenario '\(series.scenario)'")
                    continue
                }
                if !scenario.strategies.contains(series.strategy) {
                    problems.append("\(here): \(scenario.name) does not run \(series.strategy)")
                }
                // A selector names every axis, as a series' variant has them all (SeriesSelector.matches).
                let axes = Set(scenario.axes.map(\.name))
                if Set(series.variant.map(\.axis)) != axes {
                    problems.append(
                        "\(here): names the axes \(series.variant.map(\.axis.rawValue)); \(scenario.name) has \(axes.map(\.rawValue).sorted())"
                    )
                    continue
                }
                for (axis, value) in series.variant
                where !(scenario.axes.first { $0.name == axis }?.values.contains { $0.description == value } ?? false) {
                    problems.append("\(here): \(axis) has no value '\(value)'")
                }
                guard let variant = scenario.variants.first(where: { series.matches(variant: $0) }) else {
                    problems.append("\(here): no variant of \(scenario.name) matches")
                    continue
                }
                guard let phase = try scenario.declared.plan(for: variant).phases.first(where: { $0.name == series.phase }) else {
                    problems.append("\(here): \(scenario.name) has no phase '\(series.phase)'")
                    continue
                }
                if !phase.reports(metric.origin) {
                    problems.append("\(here): phase '\(phase.name)' does not report \(metric.rawValue) (\(metric.origin))")
                }
            }
        }
        #expect(checked > 40)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The shipped budgets name phases, axes and values of the shipped scenarios, and read back as they are written.
    @Test func shippedBudgetsNameShippedSeriesAndRoundTrip() throws {
        let folder = ScenarioCountersTests.scenariosFolder
        let catalog = try ScenarioCatalog(folder: folder)
        let budgets = try BudgetFile.load((folder as NSString).appendingPathComponent("budgets.json"))
        #expect(!budgets.isEmpty)
        for budget in budgets {
            let scenario = try #require(catalog.scenarios.first { $0.name == budget.scenario }, "\(budget)")
            #expect(scenario.phaseNames.contains(budget.phase), "\(budget)")
            for (axis, value) in budget.variant {
                #expect(scenario.axes.first { $0.name == axis }?.values.contains { $0.description == value } == true, "\(budget)")
            }
        }
        let again = try JSONDecoder().decode([Budget].self, from: try JSONEncoder().encode(budgets))
        #expect(again == budgets)
    }
}
