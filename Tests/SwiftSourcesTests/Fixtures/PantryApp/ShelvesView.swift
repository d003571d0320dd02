import SwiftData
import SwiftUI

/// Each shelf's row counts its jars (a to-many faulted per row drawn); renaming every shelf happens on a tap only.
struct ShelvesView: View {
    @Query private var shelves: [Shelf]

    var body: some View {
        VStack {
            Button("Number them") {
                for (number, shelf) in shelves.enumerated() {
                    shelf.title = "Shelf \(number)"
                }
                for shelf in shelves where shelf.jars.isEmpty {
                    shelf.title += " (empty)"
                }
            }
            List(shelves) { shelf in
                Text("\(shelf.title): \(shelf.jars.count)")
            }
        }
    }
}
