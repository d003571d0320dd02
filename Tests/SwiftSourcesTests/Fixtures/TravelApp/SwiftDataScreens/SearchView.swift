import SwiftData
import SwiftUI

/// Trips whose name contains the search text.
struct SearchView: View {
    @Query private var results: [Trip]

    init(searchText: String) {
        _results = Query(
            filter: #Predicate<Trip> { trip in
                trip.name.localizedStandardContains(searchText)
            },
            sort: \.name
        )
    }

    var body: some View {
        List(results) { trip in
            Text(trip.name)
        }
    }
}
