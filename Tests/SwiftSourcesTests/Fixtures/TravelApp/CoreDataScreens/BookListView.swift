import CoreData
import SwiftUI

/// Every book by title, each with its author.
struct BookListView: View {
    @FetchRequest(sortDescriptors: [SortDescriptor(\.title)]) private var books: FetchedResults<Book>

    var body: some View {
        List(books) { book in
            VStack(alignment: .leading) {
                Text(book.title ?? "")
                Text(book.author?.name ?? "Unknown").font(.caption)
            }
        }
    }
}
