import SwiftData
import SwiftUI

/// Travelers, each with the names of their trips.
struct TravelerListView: View {
    @Query(sort: \Traveler.name) private var travelers: [Traveler]

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
