import CoreData
import UIKit

/// A table of authors, each with how many books they wrote.
final class AuthorsViewController: UITableViewController {
    var context: NSManagedObjectContext!
    private var fetchedResultsController: NSFetchedResultsController<Author>!

    override func viewDidLoad() {
        super.viewDidLoad()
        let request = NSFetchRequest<Author>(entityName: "Author")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        fetchedResultsController = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try? fetchedResultsController.performFetch()
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        fetchedResultsController.fetchedObjects?.count ?? 0
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Author", for: indexPath)
        let author = fetchedResultsController.object(at: indexPath)
        cell.textLabel?.text = author.name
        cell.detailTextLabel?.text = "\(author.books?.count ?? 0) books"
        return cell
    }
}
