import Testing
@testable import BenchKit

/// The many-to-nil loss at a fixed seed, exactly: every membership that reuses a subject loses a link.
@Suite struct DataLossTests {
    @Test(arguments: [(0.0, 200), (0.01, 199), (0.1, 180), (0.5, 113)])
    func lossesAtSeed42(duplicates: Double, persisted: Int) throws {
        // The runner's seed for size 100 with --seed 42, as DataLossWorkload derives it.
        let generated = DataLossWorkload.memberships(students: 100, perStudent: 2, duplicates: duplicates, seed: (42 + 100) ^ 0xDA7A)
        #expect(generated.memberships.reduce(0) { $0 + $1.count } == 200)
        // The hidden column keeps one owner per subject: as many links survive as there are subjects.
        #expect(generated.subjects == persisted)
        #expect(ScenarioCountersTests.measured["data-loss many-to-nil duplicates=\(VariantValue.number(duplicates)) save-and-reread links_persisted"]
                == Double(persisted))
        #expect(ScenarioCountersTests.measured["data-loss many-to-nil duplicates=\(VariantValue.number(duplicates)) save-and-reread loss_rate"]
                == Double(200 - persisted) / 200)
    }
}
