import SwiftData
import SwiftUI

/// One trip, fetched by its identifier.
struct TripDetailView: View {
    @Environment(\.modelContext) private var context
    let tripID: PersistentIdentifier

    var body: some View {
        if let trip = context.model(for: tripID) as? Trip {
            VStack {
                Text(trip.name)
                Text(trip.destination?.name ?? "")
                ForEach(trip.expenses) { expense in
                    Text(expense.note)
                }
            }
        }
    }
}
