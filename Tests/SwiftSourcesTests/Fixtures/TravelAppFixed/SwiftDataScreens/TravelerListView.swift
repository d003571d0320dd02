import SwiftData
import SwiftUI

/// Travelers, each with the names of their trips.
struct TravelerListView: View {
    static var travelersDescriptor: FetchDescriptor<Traveler> {
        var descriptor = FetchDescriptor<Traveler>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.trips]
        return descriptor
    }

    @Query(Self.travelersDescriptor) private var travelers: [Traveler]

    var body: some View {
        List(travelers) { traveler in
            VStack(alignment: .leading) {
                Text(traveler.name)
                ForEach(traveler.trips) { trip in
                    Text(trip.name).font(.caption)
                }
            }
        }
    }
}
