import CoreData
import SwiftUI

/// Every book by title, each with its author.
struct BookListView: View {
    static var booksRequest: NSFetchRequest<Book> {
        let request = NSFetchRequest<Book>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        request.relationshipKeyPathsForPrefetching = ["author"]
        return request
    }

    @FetchRequest(fetchRequest: Self.booksRequest) private var books: FetchedResults<Book>

    var body: some View {
        List(books) { book in
            VStack(alignment: .leading) {
                Text(book.title ?? "")
                Text(book.author?.name ?? "Unknown").font(.caption)
            }
        }
    }
}
