import Foundation
import SwiftData

@Model
final class Trip {
    var name: String
    var startDate: Date
    var isFavorite: Bool = false
    var destination: Destination?
    @Relationship(deleteRule: .cascade) var expenses: [Expense] = []
    var travelers: [Traveler] = []

    init(name: String, startDate: Date) {
        self.name = name
        self.startDate = startDate
    }

    /// What a row shows under the name.
    var subtitle: String { destination?.name ?? "Somewhere" }
}

@Model
final class Destination {
    @Attribute(.unique) var name: String
    var country: String = ""
    var trips: [Trip] = []

    init(name: String) { self.name = name }
}

@Model
final class Expense {
    var amount: Double = 0
    var note: String = ""
    var trip: Trip?

    init(amount: Double) { self.amount = amount }
}

@Model
final class Traveler {
    var name: String
    var trips: [Trip] = []

    init(name: String) { self.name = name }
}

@Model
final class Tag {
    var name: String = ""

    init(name: String) { self.name = name }
}
