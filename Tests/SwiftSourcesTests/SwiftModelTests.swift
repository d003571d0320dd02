import Foundation
import Testing

@testable import BenchKit

/// SwiftData `@Model` sources read as models. Without the SwiftSources trait, only the one-line refusal is tested.
@Suite struct SwiftModelTests {
    @Test func aSwiftPathWithoutTheFeatureSaysHowToBuildIt() throws {
        guard !ModelSource.readsSwiftSources else { return }
        #expect(throws: BenchError.self) { try ModelSource.load(path: "Fixtures/Trips.swift") }
    }
}
