import SwiftData
import SwiftUI

/// Every jar by label: SwiftUI's List draws the rows on screen. Correct code: nothing to flag.
struct JarListView: View {
    @Query(sort: \Jar.label) private var jars: [Jar]

    var body: some View {
        List(jars) { jar in
            Text(jar.label)
        }
    }
}
