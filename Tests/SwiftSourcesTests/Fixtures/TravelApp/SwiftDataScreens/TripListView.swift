import SwiftData
import SwiftUI

/// Every trip, newest first: each row shows its destination.
struct TripListView: View {
    @Query(sort: \Trip.startDate, order: .reverse) private var trips: [Trip]

    var body: some View {
        NavigationStack {
            List {
                ForEach(trips) { trip in
                    NavigationLink(value: trip.persistentModelID) {
                        TripRow(trip: trip)
                    }
                }
            }
            .navigationDestination(for: PersistentIdentifier.self) { id in
                TripDetailView(tripID: id)
            }
        }
    }
}

struct TripRow: View {
    let trip: Trip

    var body: some View {
        VStack(alignment: .leading) {
            Text(trip.name)
            Text(trip.subtitle).font(.caption)
        }
    }
}
