import Testing

@testable import BenchKit

/// The many-to-nil loss, exactly: the hidden owner column keeps one owner per subject, so as many links survive a
/// save and a re-read as the data has distinct subjects in memberships; many-to-many keeps every link.
@Suite struct DataLossTests {
    @Test(arguments: ["0", "0.01", "0.1", "0.5"])
    func manyToNilKeepsOneLinkPerSubject(duplicates: String) throws {
        let scenario = try ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder).scenario(named: "data-loss")
        let variant = try #require(scenario.variants.first { $0.description == "modelling=many-to-nil;duplicates=\(duplicates)" })
        // The runner's seed for size 100 with --seed 42.
        let data = try scenario.declared.plan(for: variant).generator.make(size: 100, seed: 42 + 100)
        let edges = try #require(data.edges.first { $0.relationship == "subjects" })
        let links = edges.targets.values.reduce(0) { $0 + $1.count }
        let subjects = Set(edges.targets.values.joined()).count
        #expect(links == 200)
        #expect(duplicates == "0" ? subjects == 200 : subjects < 200)
        func measured(_ modelling: String, _ metric: String) -> Double? {
            ScenarioCountersTests.measured[
                "data-loss objectgraph modelling=\(modelling);duplicates=\(duplicates) save-and-reread \(metric)"]
        }
        #expect(measured("many-to-nil", "links_intended") == 200)
        #expect(measured("many-to-nil", "links_persisted") == Double(subjects))
        #expect(measured("many-to-nil", "loss_rate") == Double(200 - subjects) / 200)
        #expect(measured("many-to-many", "links_lost") == 0)
    }
}
