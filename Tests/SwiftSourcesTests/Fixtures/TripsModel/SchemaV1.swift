import Foundation
import SwiftData

/// The first shipped version: trips with a title, destinations and expenses.
enum TripsSchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)

    static var models: [any PersistentModel.Type] {
        [Trip.self, Destination.self, Expense.self]
    }

    @Model
    final class Trip {
        var title: String
        var startDate: Date
        var endDate: Date?
        @Relationship(inverse: \Destination.trips) var destination: Destination?
        @Relationship(deleteRule: .cascade) var expenses: [Expense] = []

        init(title: String, startDate: Date) {
            self.title = title
            self.startDate = startDate
        }
    }

    @Model
    final class Destination {
        @Attribute(.unique) var name: String
        var trips: [Trip] = []

        init(name: String) { self.name = name }
    }

    @Model
    final class Expense {
        var amount: Decimal = 0
        var trip: Trip?

        init(amount: Decimal) { self.amount = amount }
    }
}
