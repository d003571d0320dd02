import CoreData

/// Work on the library's books outside the views.
final class LibraryStore {
    let context: NSManagedObjectContext

    init(context: NSManagedObjectContext) { self.context = context }

    /// The books of one author with their genres, prefetched.
    func genreNames(ofAuthorNamed name: String) throws -> [String] {
        let request = NSFetchRequest<Book>(entityName: "Book")
        request.predicate = NSPredicate(format: "author.name == %@", name)
        request.sortDescriptors = [NSSortDescriptor(key: "year", ascending: false)]
        request.relationshipKeyPathsForPrefetching = ["genre"]
        let books = try context.fetch(request)
        var names: [String] = []
        for book in books {
            names.append(book.genre?.name ?? "")
        }
        return names
    }

    /// The book a loan is of, fetched by the loan's identifier.
    func title(ofLoan loanID: NSManagedObjectID) -> String? {
        guard let loan = try? context.existingObject(with: loanID) as? Loan else { return nil }
        return loan.book?.title
    }

    /// The genres, in batches.
    func genres() throws -> [String] {
        let request = Genre.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.fetchBatchSize = 100
        let genres = try context.fetch(request)
        return genres.compactMap { $0.name }
    }
}
