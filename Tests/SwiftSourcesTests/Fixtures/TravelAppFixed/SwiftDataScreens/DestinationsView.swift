import SwiftData
import SwiftUI

/// Destinations with how many trips go there: the trips are prefetched.
struct DestinationsView: View {
    static var destinationsDescriptor: FetchDescriptor<Destination> {
        var descriptor = FetchDescriptor<Destination>(sortBy: [SortDescriptor(\.name)])
        descriptor.relationshipKeyPathsForPrefetching = [\.trips]
        return descriptor
    }

    @Query(Self.destinationsDescriptor) private var destinations: [Destination]

    var body: some View {
        List(destinations) { destination in
            HStack {
                Text(destination.name)
                Text("\(destination.trips.count) trips")
            }
        }
    }
}
