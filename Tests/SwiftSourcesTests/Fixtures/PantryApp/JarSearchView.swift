import SwiftData
import SwiftUI

/// A search whose predicate is built elsewhere: the scan runs the fetch without it, so how many rows it matches is
/// unknown and no batch size is suggested on the count of every jar.
struct JarSearchView: View {
    @Query private var jars: [Jar]

    init(text: String) {
        _jars = Query(filter: Self.matching(text), sort: \Jar.label)
    }

    static func matching(_ text: String) -> Predicate<Jar> {
        #Predicate { $0.label.contains(text) }
    }

    var body: some View {
        List(jars) { jar in
            Text(jar.label)
        }
    }
}
