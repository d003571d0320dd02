import SwiftData
import SwiftUI

/// The picked jar is found among all jars as the view draws: every jar's code is read, not only the rows drawn.
struct JarPickerView: View {
    @Query private var jars: [Jar]
    @State private var picked: UUID?

    private var pickedJar: Jar? {
        jars.filter { $0.code == picked }.first
    }

    var body: some View {
        VStack {
            if let pickedJar {
                Text(pickedJar.label)
            }
            List(jars) { jar in
                Text(jar.label)
            }
        }
    }
}
