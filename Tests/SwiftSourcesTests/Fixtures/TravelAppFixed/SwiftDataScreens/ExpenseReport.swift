import Foundation
import SwiftData

/// The expenses with a note, the largest first, each with the trip it belongs to.
struct ExpenseReport {
    let context: ModelContext

    func lines() throws -> [String] {
        var descriptor = FetchDescriptor<Expense>(
            predicate: #Predicate { $0.amount >= 0 && $0.note != "" },
            sortBy: [SortDescriptor(\.amount, order: .reverse)]
        )
        descriptor.relationshipKeyPathsForPrefetching = [\.trip]
        let expenses = try context.fetch(descriptor)
        return expenses.map { "\($0.trip?.name ?? "-"): \($0.amount)" }
    }

    func favoriteCount() throws -> Int {
        try context.fetchCount(FetchDescriptor<Trip>(predicate: #Predicate { $0.isFavorite == true }))
    }
}
