import SwiftData
import SwiftUI

/// Every trip, newest first: each row shows its destination.
struct TripListView: View {
    static var tripsDescriptor: FetchDescriptor<Trip> {
        var descriptor = FetchDescriptor<Trip>(sortBy: [SortDescriptor(\.startDate, order: .reverse)])
        descriptor.relationshipKeyPathsForPrefetching = [\.destination]
        return descriptor
    }

    @Query(Self.tripsDescriptor) private var trips: [Trip]

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
